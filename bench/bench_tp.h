/* Benchmark event header: subsystem "bench", switched by CONFIG_BENCH_TP.
 * Built with -DCONFIG_BENCH_TP=1 it is compiled in; without it, out. */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM bench
#define TRACE_CONFIG CONFIG_BENCH_TP
#if !defined(_TRACE_BENCH_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_BENCH_H
#include <tracepoint.h>

DECLARE_TRACE(bench_ev, TP_PROTO(int a, long b, const void *p), TP_ARGS(a, b, p));

#endif /* _TRACE_BENCH_H */
