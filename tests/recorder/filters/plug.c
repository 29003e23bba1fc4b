/* A plugin defining fplug:fplug_work in layout PLUG_LAYOUT; plug_fire(x, y)
 * fires it and returns how many records its probe kept so far is not known
 * here: the host counts with tracepoint_dropped() and the trace. */
#define CREATE_TRACE_POINTS
#include "plug_events.h"

__attribute__((visibility("default"))) void plug_fire(int x, int y)
{
	trace_fplug_work(x, y);
}
