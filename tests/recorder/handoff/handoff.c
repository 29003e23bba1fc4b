/* tests/recorder/t_handoff.sh's program: `handoff N` records evh_step
 * with the values 0 to N-1 from one thread, without pause. */
#include <stdlib.h>

#define CONFIG_EVH 1
#define CREATE_TRACE_POINTS
#include "events/ev_hook.h"
#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>

int (*evh_hook)(int v);

int main(int argc, char **argv)
{
	int i, n = argc > 1 ? atoi(argv[1]) : 100000;
	for (i = 0; i < n; i++)
		trace_evh_step(i);
	return 0;
}
