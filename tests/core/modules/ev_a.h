/* liba's events: system "a", an init(const char *). */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM a
#define TRACE_CONFIG CONFIG_MOD_A
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE ev_a
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#if !defined(_TRACE_MOD_A_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_MOD_A_H
#include <tracepoint.h>
TRACE_EVENT(init, TP_PROTO(const char *who), TP_ARGS(who), TP_STRUCT__entry(__string(who, who)),
	    TP_fast_assign(__assign_str(who, who);), TP_printk("who=%s", __get_str(who)));
#endif
#include <trace/define_trace.h>
