/* Events of tests/recorder/ctl/ctl_prog.c ("ctl" subsystem, CONFIG_CTL_TRACE). */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM ctl
#define TRACE_CONFIG CONFIG_CTL_TRACE
#if !defined(_TRACE_CTL_EVENTS_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_CTL_EVENTS_H
#include <tracepoint.h>

TRACE_EVENT(ctl_tick, TP_PROTO(int n), TP_ARGS(n), TP_STRUCT__entry(__field(int, n)),
	    TP_fast_assign(__entry->n = n;), TP_printk("n=%d", __entry->n));

TRACE_EVENT(ctl_note, TP_PROTO(const char *what), TP_ARGS(what),
	    TP_STRUCT__entry(__string(what, what)), TP_fast_assign(__assign_str(what);),
	    TP_printk("%s", __get_str(what)));

#endif /* _TRACE_CTL_EVENTS_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE ctl_events
#include <trace/define_trace.h>
