/* The plugin: defines its event and fires it from plug_run(). */
#define CREATE_TRACE_POINTS
#include "plug_events.h"

__attribute__((visibility("default"))) void plug_run(int round)
{
	trace_plug_work(round, 1000L + round);
}
