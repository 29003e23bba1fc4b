/* libb's events: system "b", an init(long) - same name as liba's. */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM b
#define TRACE_CONFIG CONFIG_MOD_B
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE ev_b
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#if !defined(_TRACE_MOD_B_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_MOD_B_H
#include <tracepoint.h>
TRACE_EVENT(init, TP_PROTO(long value), TP_ARGS(value), TP_STRUCT__entry(__field(long, value)),
	    TP_fast_assign(__entry->value = value;), TP_printk("value=%ld", __entry->value));
#endif
#include <trace/define_trace.h>
