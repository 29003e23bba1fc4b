/* Subsystem "zb", switched by CONFIG_ZB. */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM zb
#define TRACE_CONFIG CONFIG_ZB
#if !defined(_TRACE_ZB_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_ZB_H
#include <tracepoint.h>
DECLARE_TRACE(zb_event_alpha, TP_PROTO(int i, const char *what), TP_ARGS(i, what));
DECLARE_TRACE(zb_event_beta, TP_PROTO(long sum, const int *v), TP_ARGS(sum, v));
DECLARE_TRACE_NOARGS(zb_event_gamma);
#endif
