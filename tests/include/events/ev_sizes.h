/* Test events for test_record_sizes: payloads of every size class of the
 * recorder's copy (<trace/record.h>, tp__ev_copy), 0 to 100 bytes; a
 * string of any length. */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM evs
#define TRACE_CONFIG CONFIG_EVS

#if !defined(_TRACE_EV_SIZES_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_EV_SIZES_H

#include <tracepoint.h>
#include <string.h>

#ifndef EVS_EVENT
/* evs_<n>: an event whose payload is n bytes, copied from v. */
#define EVS_EVENT(n)                                                          \
	TRACE_EVENT(evs_##n, TP_PROTO(const unsigned char *v), TP_ARGS(v),    \
		    TP_STRUCT__entry(__array(unsigned char, v, n)),           \
		    TP_fast_assign(memcpy(__entry->v, v, n);),                \
		    TP_printk("v0=%u", __entry->v[0]))
#endif

TRACE_EVENT(evs_0, TP_PROTO(int x), TP_ARGS(x), TP_STRUCT__entry(), TP_fast_assign((void)x;),
	    TP_printk("empty"));
EVS_EVENT(1);
EVS_EVENT(3);
EVS_EVENT(4);
EVS_EVENT(7);
EVS_EVENT(8);
EVS_EVENT(9);
EVS_EVENT(12);
EVS_EVENT(16);
EVS_EVENT(17);
EVS_EVENT(24);
EVS_EVENT(32);
EVS_EVENT(33);
EVS_EVENT(40);
EVS_EVENT(100);

/* A string of any length after one byte, and a dynamic array after it:
 * every branch of the string's copy (<trace/record.h>, tp__ev_str_put). */
TRACE_EVENT(evs_str, TP_PROTO(unsigned char x, const char *s, const unsigned char *d, unsigned n),
	    TP_ARGS(x, s, d, n),
	    TP_STRUCT__entry(__field(unsigned char, x) __string(s, s)
				     __dynamic_array(unsigned char, d, n)),
	    TP_fast_assign(__entry->x = x; __assign_str(s); memcpy(__get_dynamic_array(d), d, n);),
	    TP_printk("x=%u s=%s d=%u", __entry->x, __get_str(s),
		      (unsigned)__get_dynamic_array_len(d)));

#endif /* _TRACE_EV_SIZES_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH events
#define TRACE_INCLUDE_FILE ev_sizes
#include <trace/define_trace.h>
