/* Subsystem "cfb", switched by CONFIG_CF_B. */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM cfb
#define TRACE_CONFIG CONFIG_CF_B
#if !defined(_TRACE_CFB_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_CFB_H
#include <tracepoint.h>
DECLARE_TRACE(cf_b, TP_PROTO(long y), TP_ARGS(y));
#endif
