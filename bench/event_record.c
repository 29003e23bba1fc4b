/* Cost of one recorded event: trace_evf_three(int, unsigned long, long long)
 * with the built-in recorder attached, fired argv[1] times into a trace
 * directory argv[2] (streamed to disk: window switches included).
 * bench/event-cost.sh runs it under callgrind for two counts and divides the
 * difference (so start-up cancels out).  argv[3], if given, is a field
 * filter on the event (bench/filter-cost.sh).  Built with -DEV_STR it
 * records trace_evc_str(int, a 12-byte string) instead, with -DEV_DYN
 * trace_evc_dyn(int, 8 bytes) (bench/events/ev_cost.h; -Ibench). */
#include <stdio.h>
#include <stdlib.h>

#define CONFIG_EVF 1
#define CREATE_TRACE_POINTS
#include "events/ev_fields.h"
#if defined(EV_STR) || defined(EV_DYN)
#define CONFIG_EVC 1
#include "events/ev_cost.h"
#endif
#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>

#if defined(EV_STR)
#define EV_NAME "evc:evc_str"
static const char *volatile str = "short string";
__attribute__((noinline)) static void fire(int i)
{
	trace_evc_str(i, str);
}
#elif defined(EV_DYN)
#define EV_NAME "evc:evc_dyn"
static const unsigned char bytes[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
static volatile unsigned nbytes = sizeof(bytes);
__attribute__((noinline)) static void fire(int i)
{
	trace_evc_dyn(i, bytes, nbytes);
}
#else
#define EV_NAME "evf:evf_three"
__attribute__((noinline)) static void fire(int i)
{
	trace_evf_three(i, (unsigned long)i * 2, (long long)i * 3);
}
#endif

int main(int argc, char **argv)
{
	int i, n = argc > 1 ? atoi(argv[1]) : 1000;
	if (trace_recorder_output("stream", argc > 2 ? argv[2] : NULL) != 0)
		return 1;
	if (argc > 3 && trace_recorder_filter(EV_NAME, argv[3], NULL, 0) != 1)
		return 1;
	if (trace_recorder_enable(EV_NAME) != 1)
		return 1;
	fire(-1); /* the thread's stream is made here, outside the measured part */
	for (i = 0; i < n; i++)
		fire(i);
	if (trace_recorder_dropped())
		return 2;
	return 0;
}
