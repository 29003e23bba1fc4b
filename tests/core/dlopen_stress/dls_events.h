/* Events of the dlopen stress library (compiled in by CONFIG_DLS_TRACE). */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM dls
#define TRACE_CONFIG CONFIG_DLS_TRACE
#if !defined(_TRACE_DLS_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_DLS_H
#include <tracepoint.h>

DECLARE_TRACE(dls_work, TP_PROTO(int n), TP_ARGS(n));
DECLARE_TRACE(dls_other, TP_PROTO(int n, const char *what), TP_ARGS(n, what));

#endif /* _TRACE_DLS_H */
