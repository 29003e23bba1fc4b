/* The plugin's event (system "plug"), and the host's plain tracepoint the
 * plugin attaches a probe to. */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM plug
#define TRACE_CONFIG CONFIG_MOD_PLUG
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE ev_plug
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#if !defined(_TRACE_MOD_PLUG_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_MOD_PLUG_H
#include <tracepoint.h>
TRACE_EVENT(plug_work, TP_PROTO(int round, long value), TP_ARGS(round, value),
	    TP_STRUCT__entry(__field(int, round) __field(long, value)),
	    TP_fast_assign(__entry->round = round; __entry->value = value;),
	    TP_printk("round=%d value=%ld", __entry->round, __entry->value));
#endif
#include <trace/define_trace.h>
