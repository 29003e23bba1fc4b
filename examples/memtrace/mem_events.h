/* Events of a process's C allocator, compiled in by -DCONFIG_MEMTRACE.
 * examples/memtrace/memtrace.c fires them from its malloc() wrappers. */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM mem
#define TRACE_CONFIG CONFIG_MEMTRACE
#if !defined(_TRACE_MEM_EVENTS_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_MEM_EVENTS_H
#include <tracepoint.h>

TRACE_EVENT(malloc,
	    TP_PROTO(size_t size, const void *ptr),
	    TP_ARGS(size, ptr),
	    TP_STRUCT__entry(__field(size_t, size)
			     __field(const void *, ptr)),
	    TP_fast_assign(__entry->size = size;
			   __entry->ptr = ptr;),
	    TP_printk("size=%zu ptr=%p", __entry->size, __entry->ptr));

TRACE_EVENT(free,
	    TP_PROTO(const void *ptr),
	    TP_ARGS(ptr),
	    TP_STRUCT__entry(__field(const void *, ptr)),
	    TP_fast_assign(__entry->ptr = ptr;),
	    TP_printk("ptr=%p", __entry->ptr));

TRACE_EVENT(realloc,
	    TP_PROTO(const void *old, size_t size, const void *ptr),
	    TP_ARGS(old, size, ptr),
	    TP_STRUCT__entry(__field(const void *, old)
			     __field(size_t, size)
			     __field(const void *, ptr)),
	    TP_fast_assign(__entry->old = old;
			   __entry->size = size;
			   __entry->ptr = ptr;),
	    TP_printk("old=%p size=%zu ptr=%p", __entry->old, __entry->size, __entry->ptr));

#endif /* _TRACE_MEM_EVENTS_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH memtrace
#define TRACE_INCLUDE_FILE mem_events
#include <trace/define_trace.h>
