/* Test-only events ("evh" subsystem, CONFIG_EVH) whose TP_fast_assign calls
 * a hook of the test: lets a test act in the middle of a record (raise a
 * signal, fork, kill itself).  evh_hook may be NULL. */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM evh
#define TRACE_CONFIG CONFIG_EVH
#if !defined(_TRACE_EV_HOOK_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_EV_HOOK_H
#include <tracepoint.h>

#ifndef EVH_HOOK_DECLARED
#define EVH_HOOK_DECLARED
extern int (*evh_hook)(int v);
#endif

TRACE_EVENT(evh_step, TP_PROTO(int v), TP_ARGS(v), TP_STRUCT__entry(__field(int, v)),
	    TP_fast_assign(__entry->v = evh_hook ? evh_hook(v) : v;),
	    TP_printk("v=%d", __entry->v));

/* A record as big as TRACEPOINT_STRING_MAX lets it be. */
TRACE_EVENT(evh_text, TP_PROTO(const char *text), TP_ARGS(text),
	    TP_STRUCT__entry(__string(text, text)), TP_fast_assign(__assign_str(text);),
	    TP_printk("%s", __get_str(text)));

#endif /* _TRACE_EV_HOOK_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH events
#define TRACE_INCLUDE_FILE ev_hook
#include <trace/define_trace.h>
