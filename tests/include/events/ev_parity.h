/* Test-only events ("evp" subsystem, compiled in by CONFIG_EVF like
 * ev_fields.h) using the kernel TRACE_EVENT features beyond the basic
 * field helpers: __dynamic_array, __print_symbolic, __print_flags,
 * __print_hex, TRACE_EVENT_CONDITION, DEFINE_EVENT_CONDITION,
 * TRACE_EVENT_FN, DEFINE_EVENT_PRINT, and events without fields or
 * arguments. */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM evp
#define TRACE_CONFIG CONFIG_EVF
#if !defined(_TRACE_EV_PARITY_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_EV_PARITY_H
#include <tracepoint.h>

#ifndef EVP_TYPES_DEFINED
#define EVP_TYPES_DEFINED
enum evp_state { EVP_IDLE = 0, EVP_MARK = 1, EVP_SWEEP = 2 };
enum evp_flags { EVP_READ = 1, EVP_WRITE = 2, EVP_EXEC = 4 };
int evp_reg(void);
void evp_unreg(void);
#endif

/* A symbolic state, flags and a byte buffer of any length. */
TRACE_EVENT(evp_gc,
	    TP_PROTO(int state, unsigned flags, const unsigned char *data, unsigned len,
		     const char *tag),
	    TP_ARGS(state, flags, data, len, tag),
	    TP_STRUCT__entry(__field(int, state) __field(unsigned, flags)
				     __dynamic_array(unsigned char, data, len) __string(tag, tag)
					     __dynamic_array(int, nums, 2)),
	    TP_fast_assign(__entry->state = state; __entry->flags = flags;
			   memcpy(__get_dynamic_array(data), data, len); {
				   /* the elements may be unaligned (records are packed) */
				   int tp_nums[2] = { -1, (int)__get_dynamic_array_len(data) };
				   memcpy(__get_dynamic_array(nums), tp_nums, sizeof(tp_nums));
			   }),
	    TP_printk("state=%s flags=%s data=%s tag=%s",
		      __print_symbolic(__entry->state, { EVP_IDLE, "idle" }, { EVP_MARK, "mark" },
				       { EVP_SWEEP, "sweep" }),
		      __print_flags(__entry->flags, "|", { EVP_READ, "READ" },
				    { EVP_WRITE, "WRITE" }, { EVP_EXEC, "EXEC" }),
		      __print_hex(__get_dynamic_array(data), __get_dynamic_array_len(data)),
		      __get_str(tag)));

/* Recorded only for odd values (the condition runs before any probe). */
TRACE_EVENT_CONDITION(evp_odd, TP_PROTO(int v), TP_ARGS(v), TP_CONDITION(v % 2 != 0),
		      TP_STRUCT__entry(__field(int, v)), TP_fast_assign(__entry->v = v;),
		      TP_printk("v=%d", __entry->v));

DECLARE_EVENT_CLASS(evp_class, TP_PROTO(int v), TP_ARGS(v), TP_STRUCT__entry(__field(int, v)),
		    TP_fast_assign(__entry->v = v;), TP_printk("v=%d", __entry->v));

/* Only values above 10. */
DEFINE_EVENT_CONDITION(evp_class, evp_big, TP_PROTO(int v), TP_ARGS(v), TP_CONDITION(v > 10));

/* The class's layout, printed its own way. */
DEFINE_EVENT_PRINT(evp_class, evp_hexv, TP_PROTO(int v), TP_ARGS(v),
		   TP_printk("hex=%#x", __entry->v));

/* evp_reg() runs when the first probe attaches, evp_unreg() when the last
 * one detaches. */
TRACE_EVENT_FN(evp_fn, TP_PROTO(int v), TP_ARGS(v), TP_STRUCT__entry(__field(int, v)),
	       TP_fast_assign(__entry->v = v;), TP_printk("v=%d", __entry->v), evp_reg, evp_unreg);

/* No argument and no field: a marker. */
TRACE_EVENT(evp_tick, TP_PROTO(void), TP_ARGS(), TP_STRUCT__entry(), TP_fast_assign(),
	    TP_printk(""));

/* Arguments but no field. */
TRACE_EVENT(evp_nofield, TP_PROTO(int v), TP_ARGS(v), TP_STRUCT__entry(), TP_fast_assign((void)v;),
	    TP_printk("nothing"));

/* A table whose values do not fit the field: no CTF enumeration. */
TRACE_EVENT(evp_small, TP_PROTO(unsigned char c), TP_ARGS(c),
	    TP_STRUCT__entry(__field(unsigned char, c)), TP_fast_assign(__entry->c = c;),
	    TP_printk("c=%s", __print_symbolic(__entry->c, { 300, "wide" }, { -1, "negative" })));

#endif /* _TRACE_EV_PARITY_H */

#undef TRACE_INCLUDE_PATH
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_PATH events
#define TRACE_INCLUDE_FILE ev_parity
#include <trace/define_trace.h>
