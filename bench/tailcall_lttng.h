/* LTTng-UST provider of the tail-call benchmark: the same three events. */
#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER bench_tc
#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "./tailcall_lttng.h"
#if !defined(BENCH_TAILCALL_LTTNG_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define BENCH_TAILCALL_LTTNG_H
#include <stddef.h>
#include <lttng/tracepoint.h>
TRACEPOINT_EVENT(bench_tc, tc_alloc, TP_ARGS(const void *, p, size_t, n),
		 TP_FIELDS(ctf_integer_hex(unsigned long, p, (unsigned long)p)
				   ctf_integer(size_t, n, n)))
TRACEPOINT_EVENT(bench_tc, tc_entry, TP_ARGS(int, op, long, arg),
		 TP_FIELDS(ctf_integer(int, op, op) ctf_integer(long, arg, arg)))
TRACEPOINT_EVENT(bench_tc, tc_leaf, TP_ARGS(long, a, long, b, long, c, long, d),
		 TP_FIELDS(ctf_integer(long, a, a) ctf_integer(long, b, b) ctf_integer(long, c, c)
				   ctf_integer(long, d, d)))
#endif
#include <lttng/tracepoint-event.h>
