/* The events of tests/recorder/disk_bound/disk.c ("dsk" subsystem,
 * CONFIG_DSK): one with a string and a dynamic array, so that counting the
 * records of a removed rotation file walks variable parts too. */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM dsk
#define TRACE_CONFIG CONFIG_DSK
#if !defined(_TRACE_DISK_EVENTS_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_DISK_EVENTS_H
#include <tracepoint.h>

TRACE_EVENT(dsk_rec, TP_PROTO(int v, const char *s, const unsigned char *d, unsigned n),
	    TP_ARGS(v, s, d, n),
	    TP_STRUCT__entry(__field(int, v) __string(s, s) __dynamic_array(unsigned char, d, n)),
	    TP_fast_assign(__entry->v = v; __assign_str(s); memcpy(__get_dynamic_array(d), d, n);),
	    TP_printk("v=%d s=%s n=%u", __entry->v, __get_str(s),
		      (unsigned)__get_dynamic_array_len(d)));

#endif /* _TRACE_DISK_EVENTS_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE disk_events
#include <trace/define_trace.h>
