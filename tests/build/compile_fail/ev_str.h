/* An event with one __string, "who"; GET_NAME and ASSIGN_NAME are the
 * names its TP_printk and TP_fast_assign use (a typo: not "who").
 * Switched by CONFIG_CF_STR. */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM cfstr
#define TRACE_CONFIG CONFIG_CF_STR
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE ev_str
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#ifndef GET_NAME
#define GET_NAME who
#endif
#ifndef ASSIGN_NAME
#define ASSIGN_NAME who
#endif
#if !defined(_TRACE_CFSTR_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_CFSTR_H
#include <tracepoint.h>
TRACE_EVENT(cf_str, TP_PROTO(int n, const char *who), TP_ARGS(n, who),
	    TP_STRUCT__entry(__field(int, n) __string(who, who)),
	    TP_fast_assign(__entry->n = n; __assign_str(ASSIGN_NAME, who);),
	    TP_printk("n=%d who=%s", __entry->n, __get_str(GET_NAME)));
#endif
#include <trace/define_trace.h>
