/* Declarations only, each followed by ';' at file scope (no include guard:
 * included once). */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM cfsemi
#define TRACE_CONFIG CONFIG_CF_A
#include <tracepoint.h>
DECLARE_TRACE(cf_semi, TP_PROTO(int a, int b), TP_ARGS(a, b));
DECLARE_TRACE_NOARGS(cf_semi_noargs);
DECLARE_TRACE(cf_semi_fn, TP_PROTO(int a), TP_ARGS(a));
