/* kmem events with fields: the TRACE_EVENT form of examples/events/kmem.h.
 * Compiled in by -DCONFIG_KMEMTRACE.  One .c file defines the events:
 *     #define CREATE_TRACE_POINTS
 *     #include "events/kmem_events.h"
 * every other file just includes it and calls trace_kmalloc()/trace_kfree(). */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM kmem
#define TRACE_CONFIG CONFIG_KMEMTRACE
#if !defined(_TRACE_KMEM_EVENTS_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_KMEM_EVENTS_H
#include <tracepoint.h>

TRACE_EVENT(kmalloc,
	    TP_PROTO(unsigned long call_site, const void *ptr, size_t bytes_req, size_t bytes_alloc,
		     const char *cache),
	    TP_ARGS(call_site, ptr, bytes_req, bytes_alloc, cache),
	    TP_STRUCT__entry(__field(unsigned long, call_site) __field(const void *, ptr)
				     __field(size_t, bytes_req) __field(size_t, bytes_alloc)
					     __string(cache, cache)),
	    TP_fast_assign(__entry->call_site = call_site; __entry->ptr = ptr;
			   __entry->bytes_req = bytes_req; __entry->bytes_alloc = bytes_alloc;
			   __assign_str(cache, cache);),
	    TP_printk("call_site=%#lx ptr=%p bytes_req=%zu bytes_alloc=%zu cache=%s",
		      __entry->call_site, __entry->ptr, __entry->bytes_req, __entry->bytes_alloc,
		      __get_str(cache)));

TRACE_EVENT(kfree, TP_PROTO(unsigned long call_site, const void *ptr), TP_ARGS(call_site, ptr),
	    TP_STRUCT__entry(__field(unsigned long, call_site) __field(const void *, ptr)),
	    TP_fast_assign(__entry->call_site = call_site; __entry->ptr = ptr;),
	    TP_printk("call_site=%#lx ptr=%p", __entry->call_site, __entry->ptr));

#endif /* _TRACE_KMEM_EVENTS_H */

/* Outside the guard: re-read as "events/kmem_events.h" by define_trace.h. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH events
#define TRACE_INCLUDE_FILE kmem_events
#include <trace/define_trace.h>
