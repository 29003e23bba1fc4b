/* Test-only events ("kp" subsystem, compiled in by CONFIG_KPRINT) whose
 * TP_printk arguments are written the way the kernel's event headers
 * write them: casts, ?:, comparisons and arithmetic, show_*() helper
 * macros around __print_symbolic and __print_flags, one field printed
 * with both, %ps/%pS, enumerators given with TRACE_DEFINE_ENUM and
 * sizes with TRACE_DEFINE_SIZEOF, and the helpers __print_hex,
 * __print_hex_str, __print_hex_dump, __print_array,
 * __print_symbolic_u64, __print_flags_u64, __print_ns_to_secs and
 * __print_ns_without_secs (tests/events/t_event_kprint.sh). */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM kp
#define TRACE_CONFIG CONFIG_KPRINT
#if !defined(_TRACE_KP_EVENTS_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_KP_EVENTS_H
#include <tracepoint.h>

#ifndef KP_TYPES_DEFINED
#define KP_TYPES_DEFINED
enum kp_state { KP_IDLE, KP_RUNNING = 3, KP_BLOCKED = 7 };
#define KP_F_READ 0x1
#define KP_F_WRITE 0x2
#define KP_F_SYNC 0x10
struct kp_pair {
	int a, b;
};
void kp_handler(void);
#endif

TRACE_DEFINE_ENUM(KP_IDLE);
TRACE_DEFINE_ENUM(KP_RUNNING);
TRACE_DEFINE_ENUM(KP_BLOCKED);
TRACE_DEFINE_SIZEOF(struct kp_pair);

#define show_kp_state(s)                                                      \
	__print_symbolic(s, { KP_IDLE, "idle" }, { KP_RUNNING, "running" },   \
			 { KP_BLOCKED, "blocked" })
#define show_kp_flags(f)                                                      \
	__print_flags(f, "|", { KP_F_READ, "READ" }, { KP_F_WRITE, "WRITE" }, \
		      { KP_F_SYNC, "SYNC" })

/* Casts, ?:, comparisons, arithmetic and a show_*() helper. */
TRACE_EVENT(kp_sched, TP_PROTO(int pid, int prio, unsigned long long delta, int state, long ret),
	    TP_ARGS(pid, prio, delta, state, ret),
	    TP_STRUCT__entry(__field(int, pid) __field(int, prio) __field(unsigned long long, delta)
				     __field(int, state) __field(long, ret)),
	    TP_fast_assign(__entry->pid = pid; __entry->prio = prio; __entry->delta = delta;
			   __entry->state = state; __entry->ret = ret;),
	    TP_printk("pid=%d prio=%d delta=%llu state=%s%s ret=%ld %s size=%u", __entry->pid,
		      (int)__entry->prio - 100, (unsigned long long)__entry->delta >> 10,
		      __entry->state & 0xff ? show_kp_state(__entry->state & 0xff) : "R",
		      __entry->state > 0xff ? "+" : "", __entry->ret,
		      __entry->ret < 0 ? "failed" : "ok", (unsigned)sizeof(struct kp_pair)));

/* A field printed both by name and as flags, and %ps/%pS. */
TRACE_EVENT(kp_call, TP_PROTO(void *fn, unsigned flags), TP_ARGS(fn, flags),
	    TP_STRUCT__entry(__field(void *, fn) __field(unsigned, flags)),
	    TP_fast_assign(__entry->fn = fn; __entry->flags = flags;),
	    TP_printk("fn=%ps at=%pS mode=%s flags=%s", __entry->fn, __entry->fn,
		      __print_symbolic(__entry->flags, { KP_F_READ, "read-only" },
				       { KP_F_WRITE, "write-only" }),
		      show_kp_flags(__entry->flags)));

/* The kernel's buffer helpers. */
TRACE_EVENT(kp_buf, TP_PROTO(const unsigned char *buf, unsigned len, const unsigned *words),
	    TP_ARGS(buf, len, words),
	    TP_STRUCT__entry(__dynamic_array(unsigned char, buf, len) __array(unsigned, words, 3)),
	    TP_fast_assign(memcpy(__get_dynamic_array(buf), buf, len);
			   memcpy(__entry->words, words, sizeof(__entry->words));),
	    TP_printk("hex=%s str=%s words=%s dump=%s",
		      __print_hex(__get_dynamic_array(buf), __get_dynamic_array_len(buf)),
		      __print_hex_str(__get_dynamic_array(buf), __get_dynamic_array_len(buf)),
		      __print_array(__entry->words, 3, sizeof(unsigned)),
		      __print_hex_dump("kp: ", DUMP_PREFIX_OFFSET, 16, 1, __get_dynamic_array(buf),
				       __get_dynamic_array_len(buf), true)));

/* 64-bit tables and a time in nanoseconds. */
TRACE_EVENT(kp_wide,
	    TP_PROTO(unsigned long long id, unsigned long long mask, unsigned long long ns),
	    TP_ARGS(id, mask, ns),
	    TP_STRUCT__entry(__field(unsigned long long, id) __field(unsigned long long, mask)
				     __field(unsigned long long, ns)),
	    TP_fast_assign(__entry->id = id; __entry->mask = mask; __entry->ns = ns;),
	    TP_printk("id=%s mask=%s t=%llu.%09u",
		      __print_symbolic_u64(__entry->id, { 0x100000000ULL, "big" }, { 1, "one" }),
		      __print_flags_u64(__entry->mask, ",", { 0x8000000000000000ULL, "TOP" },
					{ 1, "LOW" }),
		      __print_ns_to_secs(__entry->ns), __print_ns_without_secs(__entry->ns)));

#endif /* _TRACE_KP_EVENTS_H */

#undef TRACE_INCLUDE_PATH
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE kp_events
#include <trace/define_trace.h>
