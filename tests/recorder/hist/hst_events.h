/* Test events of the hist trigger tests ("hst" subsystem, CONFIG_HST): a
 * class of fixed fields only (integers of each size and sign, a char
 * array), one with a __string(), an address (hst_site), two u64s
 * (hst_bench), a request's start and end and a slice (variables and
 * onmatch). */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM hst
#define TRACE_CONFIG CONFIG_HST
#if !defined(_TRACE_HST_EVENTS_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_HST_EVENTS_H
#include <tracepoint.h>
#include <trace/event_kinds.h>

TRACE_EVENT(hst_op,
	    TP_PROTO(int kind, unsigned long bytes, long lat, unsigned char small, const char *tag),
	    TP_ARGS(kind, bytes, lat, small, tag),
	    TP_STRUCT__entry(__field(int, kind) __field(unsigned long, bytes) __field(long, lat)
				     __field(unsigned char, small) __array(char, tag, 8)),
	    TP_fast_assign(__entry->kind = kind; __entry->bytes = bytes; __entry->lat = lat;
			   __entry->small = small;
			   strncpy(__entry->tag, tag, sizeof(__entry->tag));),
	    TP_printk("kind=%d bytes=%lu lat=%ld small=%u tag=%.8s", __entry->kind, __entry->bytes,
		      __entry->lat, __entry->small, __entry->tag));

TRACE_EVENT(hst_named, TP_PROTO(const char *name, unsigned n), TP_ARGS(name, n),
	    TP_STRUCT__entry(__string(name, name) __field(unsigned, n)),
	    TP_fast_assign(__assign_str(name, name); __entry->n = n;),
	    TP_printk("name=%s n=%u", __get_str(name), __entry->n));

/* An address, for .sym and .sym-offset. */
TRACE_EVENT(hst_site, TP_PROTO(unsigned long call_site), TP_ARGS(call_site),
	    TP_STRUCT__entry(__field(unsigned long, call_site)),
	    TP_fast_assign(__entry->call_site = call_site;),
	    TP_printk("call_site=%lx", __entry->call_site));

/* One u64 key and one sum. */
TRACE_EVENT(hst_bench, TP_PROTO(unsigned long key, unsigned long val), TP_ARGS(key, val),
	    TP_STRUCT__entry(__field(unsigned long, key) __field(unsigned long, val)),
	    TP_fast_assign(__entry->key = key; __entry->val = val;),
	    TP_printk("key=%lu val=%lu", __entry->key, __entry->val));

/* A request's start and end (onmatch: latency by kind). */
TRACE_EVENT(hst_req_start, TP_PROTO(unsigned long id, int kind), TP_ARGS(id, kind),
	    TP_STRUCT__entry(__field(unsigned long, id) __field(int, kind)),
	    TP_fast_assign(__entry->id = id; __entry->kind = kind;),
	    TP_printk("id=%lu kind=%d", __entry->id, __entry->kind));
TRACE_EVENT(hst_req_end, TP_PROTO(unsigned long id), TP_ARGS(id),
	    TP_STRUCT__entry(__field(unsigned long, id)), TP_fast_assign(__entry->id = id;),
	    TP_printk("id=%lu", __entry->id));

/* A slice: hst_work_begin and hst_work_end (its duration as a value). */
TRACE_SLICE(hst_work, TP_PROTO(int kind), TP_ARGS(kind), TP_STRUCT__entry(__field(int, kind)),
	    TP_fast_assign(__entry->kind = kind;), TP_printk("kind=%d", __entry->kind));

#endif /* _TRACE_HST_EVENTS_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH hist
#define TRACE_INCLUDE_FILE hst_events
#include <trace/define_trace.h>
