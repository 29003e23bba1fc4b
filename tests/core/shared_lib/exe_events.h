/* Event header of the executables' own tracepoint (subsystem "shexe"). */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM shexe
#define TRACE_CONFIG CONFIG_SHEXE_TRACE
#if !defined(_TRACE_SHEXE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_SHEXE_H
#include <tracepoint.h>
DECLARE_TRACE(shexe_tp, TP_PROTO(int x), TP_ARGS(x));
#endif
