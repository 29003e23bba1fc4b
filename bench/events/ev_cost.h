/* The events of bench/event_record.c besides evf_three ("evc" subsystem,
 * compiled in by CONFIG_EVC): one integer and one short string, one
 * integer and a dynamic array of bytes - what bench/event-cost.sh
 * measures next to the three integers. */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM evc
#define TRACE_CONFIG CONFIG_EVC
#if !defined(_TRACE_EV_COST_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_EV_COST_H
#include <tracepoint.h>

TRACE_EVENT(evc_str, TP_PROTO(int a, const char *s), TP_ARGS(a, s),
	    TP_STRUCT__entry(__field(int, a) __string(s, s)),
	    TP_fast_assign(__entry->a = a; __assign_str(s, s);),
	    TP_printk("a=%d s=%s", __entry->a, __get_str(s)));

TRACE_EVENT(evc_dyn, TP_PROTO(int a, const unsigned char *d, unsigned n), TP_ARGS(a, d, n),
	    TP_STRUCT__entry(__field(int, a) __dynamic_array(unsigned char, d, n)),
	    TP_fast_assign(__entry->a = a; memcpy(__get_dynamic_array(d), d, n);),
	    TP_printk("a=%d d=%s", __entry->a,
		      __print_hex(__get_dynamic_array(d), __get_dynamic_array_len(d))));

#endif /* _TRACE_EV_COST_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH events
#define TRACE_INCLUDE_FILE ev_cost
#include <trace/define_trace.h>
