/* Unconverted subsystem: no TRACE_CONFIG, so always compiled in (unless
 * CONFIG_TRACEPOINTS_OFF). */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM unconv
#if !defined(_TRACE_UNCONV_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_UNCONV_H
#include <tracepoint.h>
DECLARE_TRACE(sel_unconv, TP_PROTO(int v), TP_ARGS(v));
#endif
