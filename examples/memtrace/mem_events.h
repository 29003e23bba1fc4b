/* Events of a process's C allocator, compiled in by -DCONFIG_MEMTRACE.
 * examples/memtrace/memtrace.c fires them from its malloc() wrappers; the
 * heap_bytes counter and the gc slice are kinds of <trace/event_kinds.h>. */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM mem
#define TRACE_CONFIG CONFIG_MEMTRACE
#if !defined(_TRACE_MEM_EVENTS_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_MEM_EVENTS_H
#include <tracepoint.h>
#include <trace/event_kinds.h>

TRACE_EVENT(malloc, TP_PROTO(size_t size, const void *ptr), TP_ARGS(size, ptr),
	    TP_STRUCT__entry(__field(size_t, size) __field(const void *, ptr)),
	    TP_fast_assign(__entry->size = size; __entry->ptr = ptr;),
	    TP_printk("size=%zu ptr=%p", __entry->size, __entry->ptr));

TRACE_EVENT(free, TP_PROTO(const void *ptr), TP_ARGS(ptr),
	    TP_STRUCT__entry(__field(const void *, ptr)), TP_fast_assign(__entry->ptr = ptr;),
	    TP_printk("ptr=%p", __entry->ptr));

TRACE_EVENT(realloc, TP_PROTO(const void *old, size_t size, const void *ptr),
	    TP_ARGS(old, size, ptr),
	    TP_STRUCT__entry(__field(const void *, old) __field(size_t, size)
				     __field(const void *, ptr)),
	    TP_fast_assign(__entry->old = old; __entry->size = size; __entry->ptr = ptr;),
	    TP_printk("old=%p size=%zu ptr=%p", __entry->old, __entry->size, __entry->ptr));

/* A counter track: the bytes the wrappers saw allocated minus those they
 * saw freed (malloc_usable_size), since recording began; fired each time
 * it moved by 64 KiB. */
TRACE_COUNTER(heap_bytes, TP_PROTO(long bytes), TP_ARGS(bytes),
	      TP_STRUCT__entry(__field(long, bytes)), TP_fast_assign(__entry->bytes = bytes;),
	      TP_printk("bytes=%ld", __entry->bytes));

/* A slice: a garbage collection of the interpreter (gc_begin, gc_end),
 * fired by memtrace_gc_begin()/memtrace_gc_end(), which a Python program
 * calls from gc.callbacks (examples/memtrace/memtrace_gc.py). */
TRACE_SLICE(gc, TP_PROTO(int generation, long collected), TP_ARGS(generation, collected),
	    TP_STRUCT__entry(__field(int, generation) __field(long, collected)),
	    TP_fast_assign(__entry->generation = generation; __entry->collected = collected;),
	    TP_printk("generation=%d collected=%ld", __entry->generation, __entry->collected));

#endif /* _TRACE_MEM_EVENTS_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH memtrace
#define TRACE_INCLUDE_FILE mem_events
#include <trace/define_trace.h>
