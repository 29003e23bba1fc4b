/* The event of tests/recorder/filters/plug.c, in three layouts (PLUG_LAYOUT 1, 2,
 * 3) under one name: a library loaded again with another definition. */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM fplug
#define TRACE_CONFIG CONFIG_FPLUG
#if !defined(_TRACE_FPLUG_EVENTS_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_FPLUG_EVENTS_H
#include <tracepoint.h>

TRACE_EVENT(fplug_work, TP_PROTO(int x, int y), TP_ARGS(x, y),
#if PLUG_LAYOUT == 1
	    TP_STRUCT__entry(__field(int, x) __field(int, y)),
	    TP_fast_assign(__entry->x = x; __entry->y = y;),
	    TP_printk("x=%d y=%d", __entry->x, __entry->y));
#elif PLUG_LAYOUT == 2
	    TP_STRUCT__entry(__field(long long, y) __field(int, x)),
	    TP_fast_assign(__entry->x = x; __entry->y = y;),
	    TP_printk("x=%d y=%lld", __entry->x, __entry->y));
#else
	    TP_STRUCT__entry(__field(int, y)), TP_fast_assign((void)x; __entry->y = y;),
	    TP_printk("y=%d", __entry->y));
#endif

#endif /* _TRACE_FPLUG_EVENTS_H */

#undef TRACE_INCLUDE_PATH
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE plug_events
#include <trace/define_trace.h>
