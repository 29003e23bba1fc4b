/* Events of tests/recorder/t_sink_hostile.sh ("evx" subsystem, CONFIG_EVX): a
 * __string and a char array printed by TP_printk, the same fields in an
 * event whose TP_printk tracepoint-dump cannot interpret (so it prints
 * name=value pairs), and a plain counter. */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM evx
#define TRACE_CONFIG CONFIG_EVX
#if !defined(_TRACE_EV_HOSTILE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_EV_HOSTILE_H
#include <tracepoint.h>

#ifndef EVX_COPY_DEFINED
#define EVX_COPY_DEFINED
/* Copies at most n - 1 bytes of s into d and zero-fills the rest. */
static inline void evx_copy(char *d, const char *s, unsigned n)
{
	unsigned i = 0;
	for (; i + 1 < n && s[i]; i++)
		d[i] = s[i];
	for (; i < n; i++)
		d[i] = 0;
}
#endif

TRACE_EVENT(evx_text, TP_PROTO(const char *s, const char *a), TP_ARGS(s, a),
	    TP_STRUCT__entry(__string(s, s) __array(char, arr, 48)),
	    TP_fast_assign(evx_copy(__entry->arr, a, sizeof(__entry->arr));),
	    TP_printk("s=%s arr=%s", __get_str(s), __entry->arr));

/* abs() is a function of the program's, which tracepoint-dump cannot
 * call: it falls back to name=value pairs for this event. */
TRACE_EVENT(evx_raw, TP_PROTO(const char *s, const char *a, int n), TP_ARGS(s, a, n),
	    TP_STRUCT__entry(__string(s, s) __array(char, arr, 48) __field(int, n)),
	    TP_fast_assign(evx_copy(__entry->arr, a, sizeof(__entry->arr)); __entry->n = n;),
	    TP_printk("n=%d s=%s arr=%s", abs(__entry->n), __get_str(s), __entry->arr));

TRACE_EVENT(evx_step, TP_PROTO(int v), TP_ARGS(v), TP_STRUCT__entry(__field(int, v)),
	    TP_fast_assign(__entry->v = v;), TP_printk("v=%d", __entry->v));

#endif /* _TRACE_EV_HOSTILE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH sink_hostile
#define TRACE_INCLUDE_FILE ev_hostile
#include <trace/define_trace.h>
