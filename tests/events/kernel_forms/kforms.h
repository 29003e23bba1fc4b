/* Test-only events ("kforms" subsystem, compiled in by CONFIG_KFORMS)
 * written the way the kernel's include/trace/events/ headers are: every
 * field form besides __field/__array/__string/__dynamic_array
 * (__field_struct, __string_len, __vstring, __bitmask, __cpumask,
 * __sockaddr, the __rel_ forms, each with its __assign_ and __get_), and
 * the event forms DEFINE_EVENT_FN, TRACE_EVENT_FN_COND, TRACE_EVENT_NOP,
 * DEFINE_EVENT_NOP, TRACE_EVENT_FLAGS, __perf_count and __perf_task; a
 * field named errno, a `const char *` field printed with %s, %#x,
 * %pI4/%pI6c of byte arrays, __get_str() written in TP_fast_assign, a
 * __field named as an array (C only).
 * tests/events/t_kernel_forms.sh builds it, records it and reads it back. */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM kforms
#define TRACE_CONFIG CONFIG_KFORMS

#if !defined(_TRACE_KFORMS_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_KFORMS_H

#include <tracepoint.h>
#include <stdarg.h>
#include <sys/socket.h>

#ifndef KFORMS_TYPES_DEFINED
#define KFORMS_TYPES_DEFINED
struct kf_pair {
	int a;
	unsigned short b;
};
struct kf_task {
	int pid;
};
int kf_reg(void);
void kf_unreg(void);
#define KF_FL_CAP 1
#endif

TRACE_EVENT(kf_struct,

	TP_PROTO(const struct kf_pair *p),

	TP_ARGS(p),

	TP_STRUCT__entry(
		__field_struct(	struct kf_pair,	pair	)
		__field(	int,		a	)
	),

	TP_fast_assign(
		__entry->pair = *p;
		__entry->a = p->a;
	),

	TP_printk("a=%d b=%u", __entry->a, (unsigned)__entry->pair.b)
);

TRACE_EVENT(kf_strlen,

	TP_PROTO(const char *buf, int len),

	TP_ARGS(buf, len),

	TP_STRUCT__entry(
		__string_len(	name,	buf,	len	)
		__rel_string_len(	rname,	buf,	len	)
		__rel_string(	whole,	buf	)
	),

	TP_fast_assign(
		__assign_str(name);
		__assign_rel_str(rname);
		__assign_rel_str(whole);
	),

	TP_printk("name=%s rname=%s whole=%s", __get_str(name), __get_rel_str(rname),
		  __get_rel_str(whole))
);

TRACE_EVENT(kf_vstr,

	TP_PROTO(int level, const char *fmt, va_list *va),

	TP_ARGS(level, fmt, va),

	TP_STRUCT__entry(
		__field(	int,	level	)
		__vstring(	msg,	fmt,	va	)
	),

	TP_fast_assign(
		__entry->level = level;
		__assign_vstr(msg, fmt, va);
	),

	TP_printk("level=%d msg=%s", __entry->level, __get_str(msg))
);

TRACE_EVENT(kf_bits,

	TP_PROTO(const unsigned long *mask, int nbits, const void *cpus),

	TP_ARGS(mask, nbits, cpus),

	TP_STRUCT__entry(
		__bitmask(	mask,	nbits	)
		__rel_bitmask(	rmask,	nbits	)
		__cpumask(	cpus	)
		__rel_cpumask(	rcpus	)
		__field(	int,	nbits	)
	),

	TP_fast_assign(
		__assign_bitmask(mask, mask, nbits);
		__assign_rel_bitmask(rmask, mask, nbits);
		__assign_cpumask(cpus, cpus);
		__assign_rel_cpumask(rcpus, cpus);
		__entry->nbits = nbits;
	),

	TP_printk("nbits=%d mask=%s rmask=%s cpus=%s rcpus=%s bytes=%u", __entry->nbits,
		  __get_bitmask(mask), __get_rel_bitmask(rmask), __get_cpumask(cpus),
		  __get_rel_cpumask(rcpus), __get_dynamic_array_len(mask))
);

TRACE_EVENT(kf_sock,

	TP_PROTO(const struct sockaddr *sa, int len),

	TP_ARGS(sa, len),

	TP_STRUCT__entry(
		__sockaddr(	addr,	len	)
		__rel_sockaddr(	raddr,	len	)
		__rel_dynamic_array(	unsigned char,	raw,	4	)
	),

	TP_fast_assign(
		__assign_sockaddr(addr, sa, len);
		__assign_rel_sockaddr(raddr, sa, len);
		memcpy(__get_rel_dynamic_array(raw), sa, 4);
	),

	TP_printk("addr=%pISpc raddr=%pISpc len=%d raw=%d", __get_sockaddr(addr),
		  __get_rel_sockaddr(raddr), __get_sockaddr_len(addr),
		  __get_rel_dynamic_array_len(raw))
);

DECLARE_EVENT_CLASS(kf_class,

	TP_PROTO(int v),

	TP_ARGS(v),

	TP_STRUCT__entry(
		__field(	int,	v	)
	),

	TP_fast_assign(
		__entry->v = v;
	),

	TP_printk("v=%d", __entry->v)
);

DEFINE_EVENT_FN(kf_class, kf_fn,

	TP_PROTO(int v),

	TP_ARGS(v),

	kf_reg, kf_unreg
);

TRACE_EVENT_FN_COND(kf_fn_cond,

	TP_PROTO(int v),

	TP_ARGS(v),

	TP_CONDITION(v > 2),

	TP_STRUCT__entry(
		__field(	int,	v	)
	),

	TP_fast_assign(
		__entry->v = v;
	),

	TP_printk("v=%d", __entry->v),

	kf_reg, kf_unreg
);

TRACE_EVENT_NOP(kf_nop,

	TP_PROTO(int v),

	TP_ARGS(v),

	TP_STRUCT__entry(
		__field(	int,	v	)
	),

	TP_fast_assign(
		__entry->v = v;
	),

	TP_printk("v=%d", __entry->v)
);

DEFINE_EVENT_NOP(kf_class, kf_nop2,

	TP_PROTO(int v),

	TP_ARGS(v)
);

TRACE_EVENT_FLAGS(kf_fn, KF_FL_CAP)

TRACE_EVENT(kf_perf,

	TP_PROTO(struct kf_task *tsk, unsigned long long count),

	TP_ARGS(__perf_task(tsk), __perf_count(count)),

	TP_STRUCT__entry(
		__field(	int,			pid	)
		__field(	unsigned long long,	count	)
	),

	TP_fast_assign(
		__entry->pid = tsk->pid;
		__entry->count = count;
	),

	TP_printk("pid=%d count=%llu", __entry->pid, __entry->count)
);

/* A char __dynamic_array printed with __get_str, as the kernel's
 * printk.h does: len bytes of text and the NUL TP_fast_assign adds. */
TRACE_EVENT(kf_dynstr,

	TP_PROTO(const char *text, size_t len),

	TP_ARGS(text, len),

	TP_STRUCT__entry(
		__dynamic_array(char, msg, len + 1)
	),

	TP_fast_assign(
		memcpy(__get_dynamic_array(msg), text, len);
		((char *)__get_dynamic_array(msg))[len] = 0;
	),

	TP_printk("msg=%s len=%u", __get_str(msg), __get_dynamic_array_len(msg))
);

/* A field named errno, set through a helper macro of the header (as the
 * kernel's signal.h does with TP_STORE_SIGINFO), beside the C library's
 * errno read in TP_fast_assign. */
#define KF_STORE_ERR(__entry, ret)				\
	do {							\
		__entry->errno = (ret) < 0 ? -(ret) : 0;	\
	} while (0)

TRACE_EVENT(kf_errno,

	TP_PROTO(int ret),

	TP_ARGS(ret),

	TP_STRUCT__entry(
		__field(	int,	errno	)
		__field(	int,	libc	)
	),

	TP_fast_assign(
		KF_STORE_ERR(__entry, ret);
		__entry->libc = errno;
	),

	TP_printk("errno=%d libc=%d", __entry->errno, __entry->libc)
);

/* A `const char *` field printed with %s (the kernel's ipi.h): the
 * string it points to, which must be the program's read-only data. */
TRACE_EVENT(kf_reason,

	TP_PROTO(const char *reason),

	TP_ARGS(reason),

	TP_STRUCT__entry(
		__field(	const char *,	reason	)
	),

	TP_fast_assign(
		__entry->reason = reason;
	),

	TP_printk("(%s)", __entry->reason)
);

/* %#x as the kernel prints it: of 0 with its prefix ("0x0"; C's printf
 * prints "0"), padded as the kernel pads (the kernel's rcu.h: %#3x). */
TRACE_EVENT(kf_hex,

	TP_PROTO(unsigned int v),

	TP_ARGS(v),

	TP_STRUCT__entry(
		__field(	unsigned int,	v	)
	),

	TP_fast_assign(
		__entry->v = v;
	),

	TP_printk("%#3x %#x %#06lx %-#5x|%#X", __entry->v, __entry->v & 0xfff,
		  (unsigned long)__entry->v, __entry->v, __entry->v)
);

/* TP_fast_assign writes a char __dynamic_array through __get_str(), as
 * the kernel's block.h does (blk_dump_cmd(__get_str(cmd), rq)). */
TRACE_EVENT(kf_dyncmd,

	TP_PROTO(const char *text),

	TP_ARGS(text),

	TP_STRUCT__entry(
		__dynamic_array(	char,	cmd,	strlen(text) + 1	)
	),

	TP_fast_assign(
		strcpy(__get_str(cmd), text);
	),

	TP_printk("(%s)", __get_str(cmd))
);

/* Addresses in byte arrays, as the kernel's sock.h prints them: %pI4,
 * %pi4, %pI6c (an IPv4-mapped one ends in a.b.c.d), %pI6, %pi6. */
TRACE_EVENT(kf_inet,

	TP_PROTO(const unsigned char *v4, const unsigned char *v6),

	TP_ARGS(v4, v6),

	TP_STRUCT__entry(
		__array(	unsigned char,	saddr,		4	)
		__array(	unsigned char,	saddr_v6,	16	)
	),

	TP_fast_assign(
		memcpy(__entry->saddr, v4, 4);
		memcpy(__entry->saddr_v6, v6, 16);
	),

	TP_printk("saddr=%pI4 lead=%pi4 v6=%pI6c full=%pI6 raw=%pi6",
		  __entry->saddr, __entry->saddr, __entry->saddr_v6,
		  __entry->saddr_v6, __entry->saddr_v6)
);

/* A __field named as an array, as the kernel's older rcu.h has
 * (__field(char, rcutorturename[RCUTORTURENAME_LEN])): in C only. */
#ifndef __cplusplus
#define KF_TAG_LEN 6
TRACE_EVENT(kf_declarr,

	TP_PROTO(const char *tag, int n),

	TP_ARGS(tag, n),

	TP_STRUCT__entry(
		__field(char, tag[KF_TAG_LEN])
		__field(int, n)
	),

	TP_fast_assign(
		strncpy(__entry->tag, tag, KF_TAG_LEN);
		__entry->tag[KF_TAG_LEN - 1] = 0;
		__entry->n = n;
	),

	TP_printk("%s n=%d", __entry->tag, __entry->n)
);
#endif

#endif /* _TRACE_KFORMS_H */

#undef TRACE_INCLUDE_PATH
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE kforms
#include <trace/define_trace.h>
