/* Event header of the shared library (subsystem "shlib"). */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM shlib
#define TRACE_CONFIG CONFIG_SHLIB_TRACE
#if !defined(_TRACE_SHLIB_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_SHLIB_H
#include <tracepoint.h>
DECLARE_TRACE(shlib_tp, TP_PROTO(int n, const char *what), TP_ARGS(n, what));
DECLARE_TRACE(shlib_gpl_tp, TP_PROTO(long v), TP_ARGS(v));
#endif
