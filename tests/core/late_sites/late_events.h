/* One tracepoint, defined by liblate_def.so and fired by liblate_fire.so. */
#undef TRACE_CONFIG
#define TRACE_CONFIG CONFIG_LATE_TRACE
#if !defined(LATE_EVENTS_H) || defined(TRACE_HEADER_MULTI_READ)
#define LATE_EVENTS_H
#include <tracepoint.h>

DECLARE_TRACE(late_tp, TP_PROTO(int n), TP_ARGS(n));

#endif /* LATE_EVENTS_H */
