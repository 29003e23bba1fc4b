/* Test-only events of the "tp_test" subsystem, compiled in by CONFIG_TP_TEST. */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM tp_test
#define TRACE_CONFIG CONFIG_TP_TEST
#if !defined(_TRACE_TP_TEST_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_TP_TEST_H
#include <tracepoint.h>

/* One integer argument: the workhorse of most tests. */
DECLARE_TRACE(tp_test_int, TP_PROTO(int v), TP_ARGS(v));

/* Mixed argument types, to check that every one arrives intact. */
DECLARE_TRACE(tp_test_args, TP_PROTO(int i, long long ll, const char *s, double d, void *p),
	      TP_ARGS(i, ll, s, d, p));

/* Six integer arguments: the probe's data is the seventh, past the
 * argument registers of x86-64 (on the stack). */
DECLARE_TRACE(tp_test_six, TP_PROTO(long a, long b, long c, long d, long e, long f),
	      TP_ARGS(a, b, c, d, e, f));

/* No arguments at all. */
DECLARE_TRACE_NOARGS(tp_test_noargs);

/* Meant to be defined with DEFINE_TRACE_FN (reg/unreg callbacks). */
DECLARE_TRACE(tp_test_regfn, TP_PROTO(int v), TP_ARGS(v));

#endif /* _TRACE_TP_TEST_H */
