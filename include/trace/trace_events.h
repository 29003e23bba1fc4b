/* SPDX-License-Identifier: MIT */
/*
 * trace/trace_events.h - what events with fields are made of: their metadata
 * (struct trace_event_class, struct trace_event, struct trace_event_field),
 * the binary record layout, and the inline recorder fast path that writes a
 * record into the calling thread's buffer.
 *
 * Included by <trace/define_trace.h> (only in the one file that defines
 * CREATE_TRACE_POINTS) and by <trace/sink.h>.  Everything here is a type or a
 * static inline function: a translation unit that uses none of it gets no
 * byte from it.
 *
 * Record layout in a per-thread ring buffer (every record 8-byte aligned):
 *
 *   struct trace_record { event, ts, size, cpu }   24 bytes
 *   the event class's entry struct                  as assigned by TP_fast_assign
 *   the __string() bytes                            each NUL-terminated
 *
 * A record whose event is NULL is padding up to the end of the ring.
 */
#ifndef TRACE_TRACE_EVENTS_H_INCLUDED
#define TRACE_TRACE_EVENTS_H_INCLUDED

#include <tracepoint.h>
#include <stdio.h>
#include <sched.h>
#include <time.h>

#ifdef __cplusplus
#include <type_traits>
extern "C" {
#endif

/* Own helpers, so that only __TP_DEFINE_TRACE_EVENT and __TP_ON are taken
 * from tracepoint.h's internals. */
#define __TPE_ALWAYS_INLINE inline __attribute__((always_inline))
#define __TPE_UNUSED __attribute__((unused))

/* What a field holds, for the JSON sink and for tools. */
enum trace_field_kind {
	TRACE_FIELD_INT = 1,    /* integer, char, bool or enum (see is_signed) */
	TRACE_FIELD_FLOAT = 2,  /* float, double, long double */
	TRACE_FIELD_PTR = 3,    /* any pointer: printed as an address */
	TRACE_FIELD_STRING = 4, /* __string(): a data_loc word, see __get_str */
	TRACE_FIELD_OTHER = 5
};

struct trace_event_field {
	const char *type;       /* as written: "unsigned long", "char" (array element) */
	const char *name;
	unsigned short offset;  /* in the entry struct */
	unsigned short size;    /* of the whole field (array: all elements) */
	unsigned char kind;     /* enum trace_field_kind, of the element for arrays */
	unsigned char is_signed;
	unsigned short array_len; /* 0 for a scalar, else the element count */
};

/* Shared by every event of a DECLARE_EVENT_CLASS (a TRACE_EVENT is a class
 * of its own): the layout and the TP_printk formatter. */
struct trace_event_class {
	const char *system;     /* TRACE_SYSTEM */
	const char *name;       /* the class name */
	const char *print_fmt;  /* the TP_printk arguments, as text */
	unsigned entry_size;    /* sizeof the entry struct (strings follow it) */
	/* The field descriptors; *n receives their number. */
	const struct trace_event_field *(*fields)(unsigned *n);
	/* Writes the TP_printk text of one record (snprintf semantics). */
	int (*format)(char *buf, size_t len, void *entry, size_t size);
};

/* One event: what struct tracepoint.event points at. */
struct trace_event {
	const struct trace_event_class *cls;
	const char *name;
	struct tracepoint *tp;
	/* The recorder: void (*)(void *sink, TP_PROTO...), attached to tp with
	 * the sink as its data. */
	tracepoint_func_t probe;
};

/* The event of a tracepoint, or NULL for a plain DECLARE_TRACE one. */
static inline const struct trace_event *trace_event_of(const struct tracepoint *tp)
{
	return tp ? (const struct trace_event *)tp->event : NULL;
}

/* Binary record header. */
struct trace_record {
	const struct trace_event *event; /* NULL: padding to the end of the ring */
	uint64_t ts;                     /* raw clock value, see struct trace_sink_base */
	uint32_t size;                   /* whole record, header included, multiple of 8 */
	uint32_t cpu;
};

/*
 * One thread's ring.  Single producer (the owning thread) advancing head,
 * single consumer (the flusher, under the sink's lock) advancing tail.
 * Positions only grow; the offset in data is pos & mask.
 */
struct trace_buffer {
	uint64_t head;          /* producer: next write position (release) */
	uint64_t dropped;       /* producer: records that did not fit */
	unsigned char *data;
	uint64_t mask;          /* capacity - 1, capacity a power of two */
	const void *sink;       /* the sink this buffer belongs to */
	int busy;               /* producer: a record is being written (signals) */
	int tid;
	char __pad[64 - 6 * 8];
	uint64_t tail;          /* consumer: everything before is flushed (release) */
	uint64_t dropped_seen;  /* consumer: drops already reported */
	uint64_t flush_to;      /* consumer: where the current flush stops */
	struct trace_buffer *next; /* the sink's list */
	char comm[16];          /* thread name when the buffer was made */
	int exited;             /* its thread has exited */
	int named;              /* the JSON output has its thread_name */
};

/* Clocks a recorder may use; the sink picks one and converts at flush. */
#define TRACE_CLOCK_COUNTER 0   /* x86-64 rdtscp / aarch64 cntvct_el0 */
#define TRACE_CLOCK_MONOTONIC 1 /* clock_gettime(CLOCK_MONOTONIC) in ns */

/*
 * What every recorder knows of a sink: the data pointer it was attached
 * with points at one of these.  A sink may embed it first in a bigger state.
 */
struct trace_sink_base {
	/* The calling thread's buffer, made on first use; NULL if none. */
	struct trace_buffer *(*thread_buffer)(struct trace_sink_base *sink);
	int clock;              /* TRACE_CLOCK_* */
};

#ifdef CLOCK_MONOTONIC
#define __TPE_CLOCK_MONOTONIC CLOCK_MONOTONIC
#else
#define __TPE_CLOCK_MONOTONIC 1 /* Linux's value; hidden by strict -std=c99 */
#endif
#ifndef __cplusplus
extern int sched_getcpu(void);
extern int clock_gettime(clockid_t, struct timespec *);
#endif

static __TPE_ALWAYS_INLINE uint64_t __tpe_clock(int clock, uint32_t *cpu)
{
	if (__builtin_expect(clock == TRACE_CLOCK_COUNTER, 1)) {
#if defined(__x86_64__)
		uint32_t lo, hi, aux;
		__asm__ __volatile__("rdtscp" : "=a"(lo), "=d"(hi), "=c"(aux));
		*cpu = aux & 0xfffu; /* Linux keeps the cpu number in TSC_AUX[11:0] */
		return ((uint64_t)hi << 32) | lo;
#elif defined(__aarch64__)
		uint64_t v;
		__asm__ __volatile__("isb\n\tmrs %0, cntvct_el0" : "=r"(v));
		*cpu = (uint32_t)sched_getcpu();
		return v;
#endif
	}
	{
		struct timespec ts;
		clock_gettime(__TPE_CLOCK_MONOTONIC, &ts);
		*cpu = (uint32_t)sched_getcpu();
		return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	}
}

/* A record being written. */
struct __tpe_res {
	struct trace_buffer *b;
	uint64_t next;
};

/* The calling thread's buffer, cached per translation unit. */
static inline struct trace_buffer *__tpe_buffer_slow(struct trace_sink_base *s,
						     struct trace_buffer **cache)
{
	struct trace_buffer *b = s->thread_buffer(s);
	if (b)
		*cache = b;
	return b;
}

/*
 * Reserves size bytes (entry plus strings) in the calling thread's buffer
 * and fills the record header; returns where the entry goes, or NULL (the
 * drop is counted).  No lock, no allocation after the thread's first record.
 */
static __TPE_ALWAYS_INLINE void *__tpe_reserve(void *sink, const struct trace_event *ev,
					      size_t size, struct __tpe_res *r)
{
	static __thread struct trace_buffer *cache;
	struct trace_sink_base *s = (struct trace_sink_base *)sink;
	struct trace_buffer *b = cache;
	struct trace_record *rec;
	uint64_t head, off, cap, need;

	if (__builtin_expect(!b || b->sink != sink, 0)) {
		b = __tpe_buffer_slow(s, &cache);
		if (!b)
			return NULL;
	}
	if (__builtin_expect(b->busy, 0)) { /* a signal handler interrupted a record */
		__atomic_store_n(&b->dropped, b->dropped + 1, __ATOMIC_RELAXED);
		return NULL;
	}
	size = (size + sizeof(struct trace_record) + 7u) & ~(size_t)7u;
	head = b->head;
	cap = b->mask + 1;
	off = head & b->mask;
	need = size;
	if (__builtin_expect(off + size > cap, 0))
		need += cap - off;
	if (__builtin_expect(head + need - __atomic_load_n(&b->tail, __ATOMIC_ACQUIRE) > cap, 0)) {
		__atomic_store_n(&b->dropped, b->dropped + 1, __ATOMIC_RELAXED);
		return NULL;
	}
	b->busy = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (__builtin_expect(need != size, 0)) {
		rec = (struct trace_record *)(void *)(b->data + off);
		if (cap - off >= sizeof(*rec)) {
			rec->event = NULL;
			rec->size = (uint32_t)(cap - off);
		}
		head += cap - off;
		off = 0;
	}
	rec = (struct trace_record *)(void *)(b->data + off);
	rec->event = ev;
	rec->size = (uint32_t)size;
	rec->ts = __tpe_clock(s->clock, &rec->cpu);
	r->b = b;
	r->next = head + size;
	return rec + 1;
}

static __TPE_ALWAYS_INLINE void __tpe_commit(struct __tpe_res *r)
{
	__atomic_store_n(&r->b->head, r->next, __ATOMIC_RELEASE);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	r->b->busy = 0;
}

/* __string() support.  A data_loc word holds the string's offset from the
 * start of the entry (low 16 bits) and its size with the NUL (high 16). */
#ifndef TRACEPOINT_STRING_MAX
#define TRACEPOINT_STRING_MAX 1024 /* longer strings are truncated */
#endif
static __TPE_ALWAYS_INLINE const char *__tpe_str_src(const char *s)
{
	return s ? s : "(null)";
}

static __TPE_ALWAYS_INLINE uint32_t __tpe_str_size(const char *s)
{
	size_t n = strlen(s);
	return (uint32_t)(n < TRACEPOINT_STRING_MAX ? n : TRACEPOINT_STRING_MAX) + 1u;
}

static __TPE_ALWAYS_INLINE void __tpe_str_copy(void *entry, uint32_t *loc, uint32_t *off,
					      const char *src, uint32_t size)
{
	char *dst = (char *)entry + *off;
	memcpy(dst, src, size - 1u);
	dst[size - 1u] = '\0';
	*loc = *off | (size << 16);
	*off += size;
}

/* The string of a data_loc word; "" if the word does not describe a string
 * inside the record (e.g. __assign_str was forgotten). */
static inline char *__tpe_get_str(void *entry, uint32_t loc, size_t size)
{
	static char empty[1];
	uint32_t off = loc & 0xffffu, len = loc >> 16;
	if (len == 0 || (size_t)off + len > size || ((char *)entry)[off + len - 1] != '\0')
		return empty;
	return (char *)entry + off;
}

/* Marks parameters used without evaluating them (never defined). */
int __tpe_use_args(int, ...);

#ifdef __cplusplus
} /* extern "C" */
#define __TPE_IS_SIGNED(type) (std::is_signed<type>::value ? 1 : 0)
#else
#define __TPE_IS_SIGNED(type)                                                 \
	__builtin_choose_expr(__builtin_classify_type(*(type *)0) == 5, 0,   \
			      ((type)-1 < (type)1))
#endif
/* gcc/clang type classes: 1..4 integer-like, 5 pointer, 8 real. */
#define __TPE_KIND(type)                                                      \
	(__builtin_classify_type(*(type *)0) == 5 ? TRACE_FIELD_PTR :         \
	 __builtin_classify_type(*(type *)0) == 8 ? TRACE_FIELD_FLOAT :       \
	 __builtin_classify_type(*(type *)0) <= 4 ? TRACE_FIELD_INT : TRACE_FIELD_OTHER)

#endif /* TRACE_TRACE_EVENTS_H_INCLUDED */
