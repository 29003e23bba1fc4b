/* An event of variable size whose TP_fast_assign calls evh_hook (declared
 * by ev_hook.h): its record is reserved before the assignment runs, so a
 * signal handler that records meanwhile interrupts a record. */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM evn
#define TRACE_CONFIG CONFIG_EVH
#if !defined(_TRACE_EV_NESTED_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_EV_NESTED_H
#include <tracepoint.h>

TRACE_EVENT(evn_note, TP_PROTO(int v, const char *s), TP_ARGS(v, s),
	    TP_STRUCT__entry(__field(int, v) __string(s, s)),
	    TP_fast_assign(__entry->v = evh_hook ? evh_hook(v) : v; __assign_str(s);),
	    TP_printk("v=%d s=%s", __entry->v, __get_str(s)));

#endif /* _TRACE_EV_NESTED_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH events
#define TRACE_INCLUDE_FILE ev_nested
#include <trace/define_trace.h>
