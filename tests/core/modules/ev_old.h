/* A plain tracepoint of a library built with another tracepoint.h layout. */
#undef TRACE_CONFIG
#define TRACE_CONFIG CONFIG_MOD_OLD
#if !defined(_TRACE_MOD_OLD_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_MOD_OLD_H
#include <tracepoint.h>
DECLARE_TRACE(old_tick, TP_PROTO(int v), TP_ARGS(v));
#endif
