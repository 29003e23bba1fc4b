/* One event for tests/tools/t_lineup.sh: a step number. */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM lineup
#define TRACE_CONFIG CONFIG_LINEUP
#if !defined(_TRACE_LINEUP_EVENTS_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_LINEUP_EVENTS_H
#include <tracepoint.h>

TRACE_EVENT(step, TP_PROTO(int n), TP_ARGS(n), TP_STRUCT__entry(__field(int, n)),
	    TP_fast_assign(__entry->n = n;), TP_printk("n=%d", __entry->n));

#endif

#undef TRACE_INCLUDE_PATH
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE lineup_events
#include <trace/define_trace.h>
