/* Events of every kind (<trace/event_kinds.h>) for tests/tools/t_perfetto.sh:
 * a slice, a counter, a flow, a slice that continues a flow, an event of
 * a class with a kind given by DEFINE_EVENT_KIND, a flow whose ids every
 * process shares. */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM work
#define TRACE_CONFIG CONFIG_WORK
#if !defined(_TRACE_WORK_EVENTS_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_WORK_EVENTS_H
#include <tracepoint.h>
#include <trace/event_kinds.h>

TRACE_SLICE(batch, TP_PROTO(int n, const char *who), TP_ARGS(n, who),
	    TP_STRUCT__entry(__field(int, n) __string(who, who)), TP_fast_assign(__entry->n = n;),
	    TP_printk("n=%d who=%s", __entry->n, __get_str(who)));

TRACE_COUNTER(queued, TP_PROTO(long items), TP_ARGS(items), TP_STRUCT__entry(__field(long, items)),
	      TP_fast_assign(__entry->items = items;), TP_printk("items=%ld", __entry->items));

TRACE_COUNTER(heap, TP_PROTO(unsigned long bytes, double fill), TP_ARGS(bytes, fill),
	      TP_STRUCT__entry(__field(unsigned long, bytes) __field(double, fill)),
	      TP_fast_assign(__entry->bytes = bytes; __entry->fill = fill;),
	      TP_printk("bytes=%lu fill=%g", __entry->bytes, __entry->fill));

TRACE_FLOW(submit, TP_PROTO(unsigned long id, int prio), TP_ARGS(id, prio),
	   TP_STRUCT__entry(__field(unsigned long, id) __field(int, prio)),
	   TP_fast_assign(__entry->id = id; __entry->prio = prio;),
	   TP_printk("id=%lu prio=%d", __entry->id, __entry->prio));

TRACE_SLICE_FLOW(handle, TP_PROTO(unsigned long id), TP_ARGS(id),
		 TP_STRUCT__entry(__field(unsigned long, id)), TP_fast_assign(__entry->id = id;),
		 TP_printk("id=%lu", __entry->id));

/* Another event of handle's class, with a kind of its own. */
DEFINE_EVENT_KIND(handle, resume, TRACE_KIND_INSTANT | TRACE_KIND_FLOW, TP_PROTO(unsigned long id),
		  TP_ARGS(id));

/* Linked with the same id in every process of the trace. */
TRACE_FLOW_GLOBAL(hop, TP_PROTO(unsigned long id), TP_ARGS(id),
		  TP_STRUCT__entry(__field(unsigned long, id)), TP_fast_assign(__entry->id = id;),
		  TP_printk("id=%lu", __entry->id));

TRACE_EVENT(note, TP_PROTO(int code, const void *where), TP_ARGS(code, where),
	    TP_STRUCT__entry(__field(int, code) __field(const void *, where)
				     __array(short, pair, 2)),
	    TP_fast_assign(__entry->code = code; __entry->where = where;
			   __entry->pair[0] = (short)-code; __entry->pair[1] = (short)(2 * code);),
	    TP_printk("code=%d where=%p pair=%d,%d", __entry->code, __entry->where,
		      __entry->pair[0], __entry->pair[1]));

#endif
#undef TRACE_INCLUDE_PATH
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE kinds_events
#include <trace/define_trace.h>
