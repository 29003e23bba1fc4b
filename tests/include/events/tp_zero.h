/* Test-only events of the "tp_zero" subsystem, switched by CONFIG_TP_ZERO (tests define it as 0). */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM tp_zero
#define TRACE_CONFIG CONFIG_TP_ZERO
#if !defined(_TRACE_TP_ZERO_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_TP_ZERO_H
#include <tracepoint.h>

DECLARE_TRACE(tp_zero_int, TP_PROTO(int v), TP_ARGS(v));

#endif /* _TRACE_TP_ZERO_H */
