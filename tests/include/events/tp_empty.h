/* Test-only events of the "tp_empty" subsystem, switched by CONFIG_TP_EMPTY (tests define it empty). */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM tp_empty
#define TRACE_CONFIG CONFIG_TP_EMPTY
#if !defined(_TRACE_TP_EMPTY_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_TP_EMPTY_H
#include <tracepoint.h>

DECLARE_TRACE(tp_empty_int, TP_PROTO(int v), TP_ARGS(v));

#endif /* _TRACE_TP_EMPTY_H */
