/* Subsystem "cfa", switched by CONFIG_CF_A. */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM cfa
#define TRACE_CONFIG CONFIG_CF_A
#if !defined(_TRACE_CFA_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_CFA_H
#include <tracepoint.h>
DECLARE_TRACE(cf_a, TP_PROTO(int x, const char *s), TP_ARGS(x, s));
#endif
