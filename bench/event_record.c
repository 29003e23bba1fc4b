/* Cost of one recorded event: trace_evf_three(int, unsigned long, long long)
 * with the built-in sink's recorder attached, fired argv[1] times.
 * bench/event-cost.sh runs it under callgrind for two counts and divides the
 * difference (so start-up cancels out); it ends with _exit(), so the
 * records are never formatted (that is tracepoint_flush()'s cost, not the
 * recorder's). */
#include <stdio.h>
#include <stdlib.h>

#define CONFIG_EVF 1
#define CREATE_TRACE_POINTS
#include "events/ev_fields.h"
#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>

__attribute__((noinline)) static void fire(int i)
{
	trace_evf_three(i, (unsigned long)i * 2, (long long)i * 3);
}

int main(int argc, char **argv)
{
	int i, n = argc > 1 ? atoi(argv[1]) : 1000;
	tracepoint_buffer_size((size_t)64 << 20);
	tracepoint_output("text", "/dev/null");
	if (tracepoint_enable("evf:evf_three") != 1)
		return 1;
	fire(-1); /* the thread's buffer is made here, outside the measured part */
	for (i = 0; i < n; i++)
		fire(i);
	if (tracepoint_dropped())
		return 2;
	_exit(0); /* no final flush: formatting is not part of recording */
}
