/* LTTng-UST peers of bench/event-cost.sh's events (bench/lttng-event-cost.sh):
 * three integers, an int and a string, an int and a sequence of bytes. */
#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER bench_evc
#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "./lttng_ev.h"
#if !defined(BENCH_LTTNG_EV_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define BENCH_LTTNG_EV_H
#include <lttng/tracepoint.h>
TRACEPOINT_EVENT(bench_evc, three, TP_ARGS(int, a, unsigned long, b, long long, c),
		 TP_FIELDS(ctf_integer(int, a, a) ctf_integer(unsigned long, b, b)
				   ctf_integer(long long, c, c)))
TRACEPOINT_EVENT(bench_evc, str, TP_ARGS(int, a, const char *, s),
		 TP_FIELDS(ctf_integer(int, a, a) ctf_string(s, s)))
TRACEPOINT_EVENT(bench_evc, dyn, TP_ARGS(int, a, const unsigned char *, d, unsigned, n),
		 TP_FIELDS(ctf_integer(int, a, a) ctf_sequence(unsigned char, d, d, unsigned, n)))
#endif
#include <lttng/tracepoint-event.h>
