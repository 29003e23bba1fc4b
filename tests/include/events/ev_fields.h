/* Test-only events with fields ("evf" subsystem), compiled in by CONFIG_EVF:
 * every field helper, a class shared by two events, and a plain tracepoint. */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM evf
#define TRACE_CONFIG CONFIG_EVF
#if !defined(_TRACE_EV_FIELDS_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_EV_FIELDS_H
#include <tracepoint.h>

/* Three integers: the cost benchmark's event. */
TRACE_EVENT(evf_three, TP_PROTO(int a, unsigned long b, long long c), TP_ARGS(a, b, c),
	    TP_STRUCT__entry(__field(int, a) __field(unsigned long, b) __field(long long, c)),
	    TP_fast_assign(__entry->a = a; __entry->b = b; __entry->c = c;),
	    TP_printk("a=%d b=%lu c=%lld", __entry->a, __entry->b, __entry->c));

/* Every kind of field. */
TRACE_EVENT(evf_mixed,
	    TP_PROTO(const char *name, const void *ptr, double ratio, const unsigned char *bytes,
		     const char *tag, signed char small),
	    TP_ARGS(name, ptr, ratio, bytes, tag, small),
	    TP_STRUCT__entry(__string(name, name) __field(const void *, ptr) __field(double, ratio)
				     __array(unsigned char, bytes, 4) __array(char, comm, 8)
					     __string(tag, tag) __field(signed char, small)),
	    TP_fast_assign(__assign_str(name, name); __entry->ptr = ptr; __entry->ratio = ratio;
			   memcpy(__entry->bytes, bytes, sizeof(__entry->bytes));
			   memset(__entry->comm, 0, sizeof(__entry->comm));
			   strncpy(__entry->comm, "worker", sizeof(__entry->comm) - 1);
			   __assign_str(tag); __entry->small = small;),
	    TP_printk("name=%s ptr=%p ratio=%.2f bytes=%02x%02x%02x%02x comm=%s tag=%s small=%d",
		      __get_str(name), __entry->ptr, __entry->ratio, __entry->bytes[0],
		      __entry->bytes[1], __entry->bytes[2], __entry->bytes[3], __entry->comm,
		      __get_str(tag), __entry->small));

/* A class shared by two events. */
DECLARE_EVENT_CLASS(evf_lock_class, TP_PROTO(const void *lock, int depth), TP_ARGS(lock, depth),
		    TP_STRUCT__entry(__field(const void *, lock) __field(int, depth)),
		    TP_fast_assign(__entry->lock = lock; __entry->depth = depth;),
		    TP_printk("lock=%p depth=%d", __entry->lock, __entry->depth));

DEFINE_EVENT(evf_lock_class, evf_lock_acquire, TP_PROTO(const void *lock, int depth),
	     TP_ARGS(lock, depth));

DEFINE_EVENT(evf_lock_class, evf_lock_release, TP_PROTO(const void *lock, int depth),
	     TP_ARGS(lock, depth));

/* A plain tracepoint in the same header: defined, but has no fields. */
DECLARE_TRACE(evf_plain, TP_PROTO(int v), TP_ARGS(v));

#endif /* _TRACE_EV_FIELDS_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH events
#define TRACE_INCLUDE_FILE ev_fields
#include <trace/define_trace.h>
