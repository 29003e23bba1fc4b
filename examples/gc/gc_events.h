/* gc events: a toy garbage collector's phases, named as the kernel's
 * __print_symbolic and __print_flags name them, its roots as a dynamic
 * array, and a conditional event.  Compiled in by -DCONFIG_GCTRACE;
 * examples/gc/gc.c defines them (CREATE_TRACE_POINTS). */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM gc
#define TRACE_CONFIG CONFIG_GCTRACE
#if !defined(_TRACE_GC_EVENTS_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_GC_EVENTS_H
#include <tracepoint.h>

#ifndef GC_TYPES_DEFINED
#define GC_TYPES_DEFINED
enum gc_state { GC_IDLE, GC_MARK, GC_SWEEP };
enum gc_reason { GC_ALLOC_FAILED = 1, GC_EXPLICIT = 2, GC_LOW_MEMORY = 4 };
#endif

/* The collector moves to another phase. */
TRACE_EVENT(gc_phase, TP_PROTO(enum gc_state state, unsigned reasons, size_t heap_bytes),
	    TP_ARGS(state, reasons, heap_bytes),
	    TP_STRUCT__entry(__field(int, state) __field(unsigned, reasons)
				     __field(size_t, heap_bytes)),
	    TP_fast_assign(__entry->state = (int)state; __entry->reasons = reasons;
			   __entry->heap_bytes = heap_bytes;),
	    TP_printk("state=%s reasons=%s heap_bytes=%zu",
		      __print_symbolic(__entry->state, { GC_IDLE, "idle" }, { GC_MARK, "mark" },
				       { GC_SWEEP, "sweep" }),
		      __print_flags(__entry->reasons, "|", { GC_ALLOC_FAILED, "alloc_failed" },
				    { GC_EXPLICIT, "explicit" }, { GC_LOW_MEMORY, "low_memory" }),
		      __entry->heap_bytes));

/* The roots a mark phase starts from: as many as there are. */
TRACE_EVENT(gc_roots, TP_PROTO(const unsigned *roots, unsigned n), TP_ARGS(roots, n),
	    TP_STRUCT__entry(__field(unsigned, n) __dynamic_array(unsigned, roots, n)),
	    TP_fast_assign(__entry->n = n;
			   memcpy(__get_dynamic_array(roots), roots, n * sizeof(*roots));),
	    TP_printk("n=%u", __entry->n));

/* An object freed by the sweep; only big ones (the condition runs before
 * anything is recorded). */
TRACE_EVENT_CONDITION(gc_free_big, TP_PROTO(unsigned id, size_t bytes), TP_ARGS(id, bytes),
		      TP_CONDITION(bytes >= 1024),
		      TP_STRUCT__entry(__field(unsigned, id) __field(size_t, bytes)),
		      TP_fast_assign(__entry->id = id; __entry->bytes = bytes;),
		      TP_printk("id=%u bytes=%zu", __entry->id, __entry->bytes));

#endif /* _TRACE_GC_EVENTS_H */

#undef TRACE_INCLUDE_PATH
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_PATH gc
#define TRACE_INCLUDE_FILE gc_events
#include <trace/define_trace.h>
