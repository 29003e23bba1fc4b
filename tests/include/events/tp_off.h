/* Test-only events of the "tp_off" subsystem; its switch CONFIG_TP_OFF is never defined. */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM tp_off
#define TRACE_CONFIG CONFIG_TP_OFF
#if !defined(_TRACE_TP_OFF_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_TP_OFF_H
#include <tracepoint.h>

DECLARE_TRACE(tp_off_int, TP_PROTO(int v), TP_ARGS(v));
DECLARE_TRACE(tp_off_args, TP_PROTO(int i, const char *s, double d), TP_ARGS(i, s, d));
DECLARE_TRACE_NOARGS(tp_off_noargs);

#endif /* _TRACE_TP_OFF_H */
