/* Event header of the tail-call benchmark (bench/tailcall.c): subsystem
 * "bench_tc", switched by CONFIG_BENCH_TP like bench_tp.h. */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM bench_tc
#define TRACE_CONFIG CONFIG_BENCH_TP
#if !defined(_TRACE_BENCH_TC_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_BENCH_TC_H
#include <stddef.h>
#include <tracepoint.h>

DECLARE_TRACE(tc_alloc, TP_PROTO(const void *p, size_t n), TP_ARGS(p, n));
DECLARE_TRACE(tc_entry, TP_PROTO(int op, long arg), TP_ARGS(op, arg));
DECLARE_TRACE(tc_leaf, TP_PROTO(long a, long b, long c, long d), TP_ARGS(a, b, c, d));

#endif /* _TRACE_BENCH_TC_H */
