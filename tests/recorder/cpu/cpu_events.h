/* Events for tests/recorder/t_cpu.sh: a fixed-size one and one with a
 * string (the two kinds of recorder), both with the CPU the program asked
 * to run on. */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM cpu
#define TRACE_CONFIG CONFIG_CPU
#if !defined(_TRACE_CPU_EVENTS_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_CPU_EVENTS_H
#include <tracepoint.h>

TRACE_EVENT(on, TP_PROTO(int want), TP_ARGS(want), TP_STRUCT__entry(__field(int, want)),
	    TP_fast_assign(__entry->want = want;), TP_printk("want=%d", __entry->want));

TRACE_EVENT(named, TP_PROTO(int want, const char *who), TP_ARGS(want, who),
	    TP_STRUCT__entry(__field(int, want) __string(who, who)),
	    TP_fast_assign(__entry->want = want;),
	    TP_printk("want=%d who=%s", __entry->want, __get_str(who)));

#endif

#undef TRACE_INCLUDE_PATH
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE cpu_events
#include <trace/define_trace.h>
