/* LTTng-UST provider for the loop benchmark: one event, same three arguments. */
#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER bench_prov
#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "./lttng_tp.h"
#if !defined(BENCH_LTTNG_TP_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define BENCH_LTTNG_TP_H
#include <lttng/tracepoint.h>
TRACEPOINT_EVENT(bench_prov, bench_ev, TP_ARGS(int, a, long, b, const void *, p),
		 TP_FIELDS(ctf_integer(int, a, a) ctf_integer(long, b, b)
				   ctf_integer_hex(unsigned long, p, (unsigned long)p)))
#endif
#include <lttng/tracepoint-event.h>
