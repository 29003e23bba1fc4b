/* Subsystem "sel", switched by CONFIG_X (set per case on the command line). */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM sel
#define TRACE_CONFIG CONFIG_X
#if !defined(_TRACE_SEL_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_SEL_H
#include <tracepoint.h>
DECLARE_TRACE(sel_x, TP_PROTO(int v), TP_ARGS(v));
#endif
