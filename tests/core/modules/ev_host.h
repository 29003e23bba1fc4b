/* The host's own plain tracepoint. */
#undef TRACE_CONFIG
#define TRACE_CONFIG CONFIG_MOD_HOST
#if !defined(_TRACE_MOD_HOST_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_MOD_HOST_H
#include <tracepoint.h>
DECLARE_TRACE(host_tick, TP_PROTO(int round), TP_ARGS(round));
#endif
