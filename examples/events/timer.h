/* timer: the timer wheel (examples/timer.c).  Compiled in by -DCONFIG_TIMER_TRACER. */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM timer
#define TRACE_CONFIG CONFIG_TIMER_TRACER
#if !defined(_TRACE_TIMER_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_TIMER_H
#include <tracepoint.h>

DECLARE_TRACE(timer_start, TP_PROTO(const void *timer, unsigned long expires, unsigned long now),
	      TP_ARGS(timer, expires, now));

DECLARE_TRACE(timer_expire_entry, TP_PROTO(const void *timer, unsigned long now),
	      TP_ARGS(timer, now));

#endif /* _TRACE_TIMER_H */
