/* An event of a plugin that the program dlopen()s after start-up. */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM plug
#define TRACE_CONFIG CONFIG_PLUG_TRACER
#if !defined(_TRACE_PLUG_EVENTS_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_PLUG_EVENTS_H
#include <tracepoint.h>

TRACE_EVENT(plug_work, TP_PROTO(int round, long value), TP_ARGS(round, value),
	    TP_STRUCT__entry(__field(int, round) __field(long, value)),
	    TP_fast_assign(__entry->round = round; __entry->value = value;),
	    TP_printk("round=%d value=%ld", __entry->round, __entry->value));

#endif /* _TRACE_PLUG_EVENTS_H */

#undef TRACE_INCLUDE_PATH
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE plug_events
#include <trace/define_trace.h>
