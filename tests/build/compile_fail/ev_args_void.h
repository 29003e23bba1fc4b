/* Two tracepoints without arguments, a plain one and an event; ARGS_V is
 * what their TP_ARGS() holds: nothing, or -DARGS_V=void (a prototype's
 * habit, an error).  Switched by CONFIG_CF_AV. */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM cfav
#define TRACE_CONFIG CONFIG_CF_AV
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE ev_args_void
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#ifndef ARGS_V
#define ARGS_V
#endif
#if !defined(CF_ARGS_VOID_H) || defined(TRACE_HEADER_MULTI_READ)
#define CF_ARGS_VOID_H
#include <tracepoint.h>

DECLARE_TRACE(cf_av_plain, TP_PROTO(void), TP_ARGS(ARGS_V));
TRACE_EVENT(cf_av_ev, TP_PROTO(void), TP_ARGS(ARGS_V), TP_STRUCT__entry(), TP_fast_assign(),
	    TP_printk(""));

#endif /* CF_ARGS_VOID_H */
#include <trace/define_trace.h>
