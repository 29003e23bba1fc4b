/* A plugin that defines an event and attaches a probe of its own to the
 * host's tracepoint, and is unloaded with both still in use. */
#define CREATE_TRACE_POINTS
#include "ev_plug.h"
#include "ev_host.h"

static long ticks;
static void on_tick(int round, void *data)
{
	(void)data;
	ticks += round;
}

__attribute__((visibility("default"))) int plug_attach(void)
{
	return register_trace_host_tick(on_tick, &ticks);
}

__attribute__((visibility("default"))) void plug_run(int round)
{
	trace_plug_work(round, 1000L + round);
}
