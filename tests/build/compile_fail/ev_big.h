/* An event whose fixed fields need more than 16-bit offsets (BIG_LEN
 * bytes of array), switched by CONFIG_CF_BIG. */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM cfbig
#define TRACE_CONFIG CONFIG_CF_BIG
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE ev_big
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#if !defined(_TRACE_CFBIG_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_CFBIG_H
#include <tracepoint.h>
TRACE_EVENT(cf_big, TP_PROTO(int x), TP_ARGS(x),
	    TP_STRUCT__entry(__field(int, x) __array(char, blob, BIG_LEN)),
	    TP_fast_assign(__entry->x = x; __entry->blob[0] = 0;), TP_printk("x=%d", __entry->x));
#endif
#include <trace/define_trace.h>
