/* Cost of one event aggregated by a hist trigger: trace_evf_three(int,
 * unsigned long, long long) with 'evf:evf_three hist:keys=b:vals=c' (one
 * u64 key of 64 values, one sum), fired argv[1] times; nothing is
 * recorded.  bench/hist-cost.sh runs it under callgrind for two counts and
 * divides the difference, as bench/event-cost.sh does for recording. */
#include <stdio.h>
#include <stdlib.h>

#define CONFIG_EVF 1
#define CREATE_TRACE_POINTS
#include "events/ev_fields.h"
#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>

__attribute__((noinline)) static void fire(int i)
{
	trace_evf_three(i, (unsigned long)i & 63u, (long long)i * 3);
}

int main(int argc, char **argv)
{
	int i, n = argc > 1 ? atoi(argv[1]) : 1000;
	if (trace_recorder_enable("evf:evf_three hist:keys=b:vals=c") != 1)
		return 1;
	fire(-1); /* the thread's table is claimed here, outside the measured part */
	for (i = 0; i < n; i++)
		fire(i);
	return 0;
}
