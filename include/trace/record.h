/* SPDX-License-Identifier: MIT */
/*
 * trace/record.h - the record writer: a thread's window (struct
 * trace_buffer), what every sink offers a recorder (struct
 * trace_sink_base), the reservation with its compact or extended event
 * header, the commit and the give-back, the end of a record with a filter,
 * and the out-of-line recorders of events with fixed fields only.
 *
 * Why a file: everything that writes bytes into a window is here, in the
 * order a record is written (reserve, copy, filter, commit); the recorder
 * probes that define_trace.h makes and the recorder (trace/sink.h) only
 * call it.
 *
 * Internal: included by trace/trace_events.h, last; depends on its types
 * (struct trace_event), on trace/filter_prog.h (the filter's program, run
 * before the commit), on trace/wire.h (the packet and the event header)
 * and on tracepoint.h's compiler helpers; for records that hold their CPU,
 * on glibc's __rseq_offset and __rseq_size (2.35 and later; none
 * elsewhere).
 */
#ifndef TRACE_TRACE_EVENTS_H_INCLUDED
#error "trace/record.h is internal: #include <trace/trace_events.h> instead"
#elif !defined(TRACE_RECORD_H_INCLUDED)
#define TRACE_RECORD_H_INCLUDED

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The record format (docs/trace-format.md): each thread writes its events
 * into a window of memory - normally a window of its own stream file,
 * mapped MAP_SHARED, so that a dead process leaves every committed record
 * behind.  A window is one CTF packet: struct trace_packet, then events
 * packed back to back, each an event header (4 bytes compact, 13 extended),
 * with TRACEPOINTS_CPU the CPU (2 bytes: the event context of record
 * version 2), followed by the entry (packed, declaration order) and the
 * __string()s.
 * The layout (TRACE_PACKET_MAGIC, struct trace_packet, enum
 * trace_header_form) is <trace/wire.h>'s, shared with the tools.
 */

/*
 * One thread's recording state for one sink: only what the recorder uses.
 * The sink hands it out (thread_buffer, which sets `sink`), opens its
 * windows (next_window) and reads `dropped`; whatever else it keeps about
 * the thread (stream file, ownership, ...) lives in a structure of its own
 * that embeds this one (<trace/sink.h>: struct tp__sink_node).
 */
struct trace_buffer {
	unsigned char *pos;	  /* where the next record goes */
	unsigned char *end;	  /* end of the window; pos == end == NULL: none yet */
	struct trace_packet *pkt; /* the window's packet (content_size, timestamp_end) */
	uint64_t last_ts;	  /* timestamp of the previous record (or packet open) */
	const void *sink;	  /* the struct trace_sink_base this buffer belongs to */
	uint64_t dropped;	  /* records this thread could not keep */
	int busy;		  /* a record is being written (signal handlers) */
	/* NULL, or: each record holds its CPU (record version 2), read here
	 * (tp__ev_cpu_src(): the kernel's rseq area, or a constant
	 * TRACE_CPU_UNKNOWN); set by the sink before the buffer's first
	 * record, never changed.  Such a buffer's records all take the full
	 * copy: the fast one has no room for the two loads and the store
	 * (tests/events/t_record_cost.sh) */
	const volatile uint32_t *cpu;
};

/*
 * The CPU of each record, for a sink that asks for it (trace_buffer.cpu;
 * the recorder's TRACEPOINTS_CPU=1): glibc (2.35 and later) registers an
 * rseq area per thread, in which the kernel keeps cpu_id up to date; it
 * sits at __rseq_offset from the thread pointer (<sys/rseq.h>: struct
 * rseq, cpu_id at byte 4).  A record reads it through trace_buffer.cpu.
 * Elsewhere (another libc, glibc without rseq registered, another
 * architecture) every record says TRACE_CPU_UNKNOWN.
 */
#if defined(__GLIBC__) && defined(__GLIBC_MINOR__) &&                   \
	(__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 35)) && \
	(defined(__x86_64__) || defined(__aarch64__))
#define TP__EV_RSEQ 1
/* glibc's __rseq_offset and __rseq_size (<sys/rseq.h>), under names of
 * ours: a second declaration of theirs is what -Wredundant-decls flags */
extern const ptrdiff_t tp__ev_rseq_offset __asm__("__rseq_offset");
extern const unsigned int tp__ev_rseq_size __asm__("__rseq_size");
enum { TP__EV_RSEQ_CPU_ID = 4 /* offsetof(struct rseq, cpu_id) */ };
#else
#define TP__EV_RSEQ 0
#endif

/* The calling thread's trace_buffer.cpu. */
static inline const volatile uint32_t *tp__ev_cpu_src(void)
{
	static const volatile uint32_t unknown = TRACE_CPU_UNKNOWN;
#if TP__EV_RSEQ
	/* __rseq_size: 0 when glibc could not register the area (a kernel
	 * before 4.18, GLIBC_TUNABLES=glibc.pthread.rseq=0) */
	if (tp__ev_rseq_size >= TP__EV_RSEQ_CPU_ID + sizeof(uint32_t)) {
		uintptr_t tp; /* an integer: the area is aligned, the cast need not say so */
#if defined(__x86_64__)
		__asm__("mov %%fs:0, %0" : "=r"(tp)); /* the TCB points to itself */
#else
		__asm__("mrs %0, tpidr_el0" : "=r"(tp));
#endif
		return (const volatile uint32_t *)(tp + (uintptr_t)tp__ev_rseq_offset +
						   TP__EV_RSEQ_CPU_ID);
	}
#endif
	return &unknown;
}

/* The CPU into a record's event context (after its event header). */
static TP__ALWAYS_INLINE void tp__ev_put_cpu(unsigned char *p, const struct trace_buffer *b)
{
	uint16_t cpu = (uint16_t)*b->cpu;
	memcpy(p, &cpu, sizeof(cpu));
}

/* Clocks a recorder may use; the sink picks one and describes it in the
 * trace's metadata. */
enum trace_clock {
	TRACE_CLOCK_COUNTER = 0,  /* x86-64 rdtsc / aarch64 cntvct_el0 */
	TRACE_CLOCK_MONOTONIC = 1 /* clock_gettime(CLOCK_MONOTONIC) in ns */
};

/*
 * What every recorder knows of a sink.  A sink embeds it first in its own
 * state.  thread_buffer() gives the calling thread its buffer (made on
 * first use; NULL: the record is lost and the sink counts it);
 * next_window() gives b a new window with room for `need` bytes, opened at
 * time ts (0, or -1: the record is dropped, already counted).
 */
struct trace_sink_base {
	struct trace_buffer *(*thread_buffer)(struct trace_sink_base *sink);
	int (*next_window)(struct trace_sink_base *sink, struct trace_buffer *b, uint64_t ts,
			   size_t need);
	int clock; /* enum trace_clock */
};

/*
 * What a recorder probe is attached with (its `void *data`): the sink and
 * the event's id in that sink's trace.  The sink owns it.
 */
struct trace_filter; /* <trace/filter_prog.h> */
struct trace_event_sink {
	struct trace_sink_base *sink;
	uint32_t id;
	const struct trace_event *event;
	/* The event's field filter (compiled by <trace/filter.h>), or NULL: records it
	 * rejects are given back before their commit.  Set by the recorder
	 * (tracepoint_filter); a sink of its own leaves it NULL. */
	const struct trace_filter *filter;
};

#ifdef CLOCK_MONOTONIC
#define TP__EV_CLOCK_MONOTONIC CLOCK_MONOTONIC
#else
#define TP__EV_CLOCK_MONOTONIC 1 /* Linux's value; hidden by strict -std=c99 */
#endif
#if !defined(__cplusplus) && !defined(__USE_POSIX199309)
extern int clock_gettime(clockid_t, struct timespec *); /* hidden by strict -std=c99 */
#endif

static TP__ALWAYS_INLINE uint64_t tp__ev_clock(int clock)
{
	if (__builtin_expect(clock == TRACE_CLOCK_COUNTER, 1)) {
#if defined(__x86_64__)
		uint64_t lo, hi; /* rdtsc clears their high halves */
		__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
		return hi << 32 | lo;
#elif defined(__aarch64__)
		uint64_t v;
		__asm__ __volatile__("isb\n\tmrs %0, cntvct_el0" : "=r"(v));
		return v;
#endif
	}
	{
		struct timespec ts;
		clock_gettime(TP__EV_CLOCK_MONOTONIC, &ts);
		return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	}
}

/* A record being written. */
struct tp__ev_res {
	struct trace_buffer *b;
	unsigned char *end;
	uint64_t ts;
};

static TP__ALWAYS_INLINE void tp__ev_put32(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, sizeof(v));
}

/*
 * The rare cases of a reservation: a new window, an extended header.  Only
 * the recorders' full (noinline) copies call it.  Returns the entry's
 * address or NULL (the drop is counted); b->busy is set by the caller.
 */
static inline unsigned char *tp__ev_reserve_slow(struct trace_sink_base *s, struct trace_buffer *b,
						 uint32_t id, uint64_t ts, size_t size)
{
	unsigned char *p = b->pos;
	int compact = ts - b->last_ts < ((uint64_t)1 << TRACE_HEADER_TS_BITS) &&
		      id < TRACE_HEADER_EXTENDED;
	size_t ctx = b->cpu ? TRACE_EVENT_CONTEXT_SIZE : 0;
	size_t need =
		size + ctx + (compact ? TRACE_HEADER_COMPACT_SIZE : TRACE_HEADER_EXTENDED_SIZE);
	if (!p || (size_t)(b->end - p) < need) {
		/* A new window opens at ts: the header can be compact again. */
		need = size + ctx +
		       (id < TRACE_HEADER_EXTENDED ? TRACE_HEADER_COMPACT_SIZE
						   : TRACE_HEADER_EXTENDED_SIZE);
		if (s->next_window(s, b, ts, need) != 0)
			return NULL;
		p = b->pos;
		compact = id < TRACE_HEADER_EXTENDED;
	}
	if (compact) {
		tp__ev_put32(p, id | (uint32_t)ts << TRACE_HEADER_ID_BITS);
		p += TRACE_HEADER_COMPACT_SIZE;
	} else {
		p[0] = TRACE_HEADER_EXTENDED;
		memcpy(p + TRACE_HEADER_EXTENDED_OFF_ID, &id, sizeof(id));
		memcpy(p + TRACE_HEADER_EXTENDED_OFF_TS, &ts, sizeof(ts));
		p += TRACE_HEADER_EXTENDED_SIZE;
	}
	if (ctx)
		tp__ev_put_cpu(p, b);
	return p + ctx;
}

/*
 * Reserves a record of `size` payload bytes for the event attached with
 * `data` (a struct trace_event_sink) in the calling thread's window and
 * writes its header; returns where the payload goes, or NULL.
 *
 * Two flavours, chosen by the constant `full`: the fast one (0) makes no
 * call at all and returns NULL whenever anything is unusual (no buffer yet,
 * a nested record, a full window, the monotonic clock; it writes an
 * extended header itself when the window has room): the recorder then
 * starts over in its noinline copy, which uses the full one (1).  Keeping
 * calls out of the fast copy keeps it free of register saves.  The full
 * one returns NULL only for a dropped record (counted).  No lock; no
 * system call except when a window fills.  The constant `bounded` (a
 * record of fixed fields and strings: size is far below the address
 * space) lets the fast one compare the record's end with the window's.
 */
static TP__ALWAYS_INLINE void *tp__ev_reserve(void *data, size_t size, struct tp__ev_res *r,
					      const int full, const int bounded)
{
	/* The thread's buffer, or a buffer of no sink (never NULL: one test).
	 * A buffer whose records hold their CPU is not kept in cache, only in
	 * full_cache: its records all take the full copy, and the fast one
	 * need not test for it */
	static struct trace_buffer none;
	static __thread __attribute__((tls_model("initial-exec"))) struct trace_buffer *cache =
		&none;
	static __thread __attribute__((tls_model("initial-exec"))) struct trace_buffer *full_cache =
		&none;
	const struct trace_event_sink *es = (const struct trace_event_sink *)data;
	struct trace_sink_base *s = es->sink;
	struct trace_buffer *b = full ? full_cache : cache;
	unsigned char *p;
	uint64_t ts;

	if (__builtin_expect(b->sink != s, 0)) {
		if (!full)
			return NULL;
		b = s->thread_buffer(s);
		if (!b)
			return NULL;
		full_cache = b;
		if (!b->cpu)
			cache = b;
	}
	if (!full) {
		/* a signal handler interrupted a record, or clock_gettime() (a
		 * call) is the clock: one test (TRACE_CLOCK_COUNTER is 0) */
		if (__builtin_expect((b->busy | s->clock) != 0, 0))
			return NULL;
	} else if (__builtin_expect(b->busy, 0)) {
		__atomic_store_n(&b->dropped, b->dropped + 1, __ATOMIC_RELAXED);
		return NULL;
	}
	/* (the fast copy knows the clock: no call to compile in it) */
	ts = tp__ev_clock(full ? s->clock : TRACE_CLOCK_COUNTER);
	/* Time never goes back within a stream: a ts before last_ts is the
	 * rare case of a difference too large for a compact header, tested
	 * only there. */
	if (__builtin_expect(ts - b->last_ts >= ((uint64_t)1 << TRACE_HEADER_TS_BITS), 0) &&
	    ts < b->last_ts)
		ts = b->last_ts;
	p = b->pos;
	if (__builtin_expect(ts - b->last_ts < ((uint64_t)1 << TRACE_HEADER_TS_BITS) &&
				     es->id < TRACE_HEADER_EXTENDED,
			     1)) {
		/* the full copy's records may hold the CPU (the fast one's never) */
		const size_t ctx = full && b->cpu ? TRACE_EVENT_CONTEXT_SIZE : 0;
		uintptr_t end = (uintptr_t)p + TRACE_HEADER_COMPACT_SIZE + ctx + size;
		if (__builtin_expect(bounded ? end > (uintptr_t)b->end
					     : (size_t)(b->end - p) <
						       size + TRACE_HEADER_COMPACT_SIZE + ctx,
				     0))
			goto slow;
		b->busy = 1;
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		tp__ev_put32(p, es->id | (uint32_t)ts << TRACE_HEADER_ID_BITS);
		if (ctx)
			tp__ev_put_cpu(p + TRACE_HEADER_COMPACT_SIZE, b);
		r->b = b;
		r->end = (unsigned char *)end;
		r->ts = ts;
		return p + TRACE_HEADER_COMPACT_SIZE + ctx;
	} else if (!full && (size_t)(b->end - p) >= size + TRACE_HEADER_EXTENDED_SIZE) {
		/* An extended header, when there is room, needs no call either
		 * (after a long time without a committed record - e.g. every
		 * record rejected by a filter - every record needs one). */
		b->busy = 1;
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		p[0] = TRACE_HEADER_EXTENDED;
		memcpy(p + TRACE_HEADER_EXTENDED_OFF_ID, &es->id, sizeof(es->id));
		memcpy(p + TRACE_HEADER_EXTENDED_OFF_TS, &ts, sizeof(ts));
		p += TRACE_HEADER_EXTENDED_SIZE;
	} else {
	slow:
		if (!full)
			return NULL;
		b->busy = 1;
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		p = tp__ev_reserve_slow(s, b, es->id, ts, size);
		if (!p) {
			__atomic_signal_fence(__ATOMIC_SEQ_CST);
			b->busy = 0;
			return NULL;
		}
	}
	r->b = b;
	r->end = p + size;
	r->ts = ts;
	return p;
}

/*
 * The full reservation (tp__ev_reserve with full = 1), out of line: one
 * copy per translation unit, shared by all its recorders, rather than one
 * inlined into the slow copy of each (compile time and code size of
 * CREATE_TRACE_POINTS; bench/compile.sh).  Only the recorders' slow copies
 * call it; their fast path makes no call.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wattributes" /* inline: no code where unused, even at -O0 */
static inline __attribute__((noinline)) TP__UNUSED void *tp__ev_reserve_full(void *data,
									     size_t size,
									     struct tp__ev_res *r)
{
	return tp__ev_reserve(data, size, r, 1, 0);
}
#pragma GCC diagnostic pop

/* Publishes the record: the packet's content_size covers it from now on. */
static TP__ALWAYS_INLINE void tp__ev_commit(struct tp__ev_res *r)
{
	struct trace_buffer *b = r->b;
	struct trace_packet *pkt = b->pkt;
	b->pos = r->end;
	b->last_ts = r->ts; /* here, not at the reservation: see tp__ev_discard */
	__atomic_store_n(&pkt->timestamp_end, r->ts, __ATOMIC_RELAXED);
	__atomic_store_n(&pkt->content_size, (uint64_t)(r->end - (unsigned char *)pkt) * 8u,
			 __ATOMIC_RELEASE);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	b->busy = 0;
}

/* Gives a reserved record back (a filter rejected it): nothing of it is
 * committed, pos and last_ts stay as the previous record left them, so the
 * next record goes where this one would have (the bytes written meanwhile
 * are beyond content_size: no reader sees them). */
static TP__ALWAYS_INLINE void tp__ev_discard(struct tp__ev_res *r)
{
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	r->b->busy = 0;
}

/*
 * The recorder runs the first step of a program in tp__ev_filter_end (no
 * further call, no switch): a one-comparison filter, and any filter whose
 * first comparison decides (a && whose first part fails, a || whose first
 * part holds), costs no more than that jump.  The field is read as the 8
 * bytes that end where it ends, shifted down (little-endian; masked on big-endian machines):
 * those bytes lie in the record or just before it (its event header, at
 * least 4 bytes, an earlier record or the 96-byte packet header: all in
 * the window), so only the recorder, whose entries sit in such windows,
 * may read fields this way.  A string
 * step reads the 8 bytes before the entry (load_at -8) and goes to
 * TP__FLT_CALL whatever they hold.
 *
 * The rest runs out of line too (tp__ev_filter_rest): it commits the
 * record or gives it back.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wattributes" /* inline: no code where unused, even at -O0 */
static inline __attribute__((noinline)) TP__UNUSED void tp__ev_filter_rest(
	const struct trace_filter *f, unsigned n, struct trace_buffer *b, unsigned char *end,
	uint64_t ts, const void *entry, size_t size)
{
	struct tp__ev_res r;
	r.b = b;
	r.end = end;
	r.ts = ts;
	if (n == TP__FLT_CALL ? trace_filter_match(f, entry, size) : tp__flt_run(f, n, entry, size))
		tp__ev_commit(&r);
	else
		tp__ev_discard(&r);
}
#pragma GCC diagnostic pop

/* The first step of f on a record's entry: where it goes next. */
static TP__ALWAYS_INLINE unsigned tp__ev_filter_first(const struct trace_filter *f,
						      const void *entry)
{
	const struct tp__flt_op *o = f->first;
	uint64_t w;
	memcpy(&w, (const unsigned char *)entry + o->load_at, sizeof(w));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = (w << o->shift) >> o->shift; /* the field is the word's low end */
#else
	w >>= o->shift; /* the field is the word's high end */
#endif
	return o->call[tp__flt_int(o, w)];
}

/*
 * The end of a record whose event has a filter f, out of line (one copy per
 * translation unit, shared by all recorders; the recorders jump to it): the
 * first step, then the commit, the give-back or tp__ev_filter_rest.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wattributes" /* inline: no code where unused, even at -O0 */
static inline __attribute__((noinline)) TP__UNUSED void tp__ev_filter_end(
	const struct trace_filter *f, struct trace_buffer *b, unsigned char *end, uint64_t ts,
	const void *entry, size_t size)
{
	struct tp__ev_res r;
	unsigned n = tp__ev_filter_first(f, entry);
	r.b = b;
	r.end = end;
	r.ts = ts;
	if (__builtin_expect(n == TP__FLT_KEEP, 1))
		tp__ev_commit(&r);
	else if (n == TP__FLT_DROP)
		tp__ev_discard(&r); /* rejected: costs no storage */
	else
		tp__ev_filter_rest(f, n, b, end, ts, entry, size);
}
#pragma GCC diagnostic pop

/* The recorder's end of a record (data: the probe's struct
 * trace_event_sink): the commit, or tp__ev_filter_end when the event has a
 * filter.  In tail position in a recorder: its calls are jumps. */
static TP__ALWAYS_INLINE void tp__ev_finish(const void *data, struct tp__ev_res *r,
					    const void *entry, size_t size)
{
	const struct trace_filter *f =
		__atomic_load_n(&((const struct trace_event_sink *)data)->filter, __ATOMIC_ACQUIRE);
	if (__builtin_expect(f != NULL, 0)) {
		tp__ev_filter_end(f, r->b, r->end, r->ts, entry, size);
		return;
	}
	tp__ev_commit(r);
}

/* The copy of a record's payload from the recorder's stack to its window,
 * by size class (a constant: each class gets its own out-of-line
 * recorder, below): a few loads and stores, overlapping rather than
 * branching, and no call (memcpy of a variable size would be one). */
enum tp__ev_copy_class {
	TP__EV_COPY_8 = 8,   /* 0 to 8 bytes */
	TP__EV_COPY_16 = 16, /* 9 to 16 */
	TP__EV_COPY_32 = 32, /* 17 to 32 */
	TP__EV_COPY_ANY = 0  /* 17 or more */
};
struct tp__ev_16 {
	uint64_t lo, hi;
};
static TP__ALWAYS_INLINE void tp__ev_copy(unsigned char *d, const unsigned char *s, size_t n,
					  const int cls)
{
	uint64_t w;
	uint32_t v;
	struct tp__ev_16 x;
	size_t i;
	switch (cls) {
	case TP__EV_COPY_8:
		if (n >= 4) {
			memcpy(&v, s, 4);
			memcpy(d, &v, 4);
			memcpy(&v, s + n - 4, 4);
			memcpy(d + n - 4, &v, 4);
		} else {
			for (i = 0; i < n; i++)
				d[i] = s[i];
		}
		return;
	case TP__EV_COPY_16:
		memcpy(&w, s, 8);
		memcpy(d, &w, 8);
		memcpy(&w, s + n - 8, 8);
		memcpy(d + n - 8, &w, 8);
		return;
	default:
		/* 16-byte pieces, the last one ending at the end; the asm
		 * keeps the loop from becoming a memcpy call. */
		for (i = 0; cls == TP__EV_COPY_ANY && i + 16 < n; i += 16) {
			memcpy(&x, s + i, 16);
			memcpy(d + i, &x, 16);
			__asm__("" : "+r"(i));
		}
		memcpy(&x, s + n - 16, 16);
		memcpy(d + n - 16, &x, 16);
		if (cls == TP__EV_COPY_32) {
			memcpy(&x, s, 16);
			memcpy(d, &x, 16);
		}
		return;
	}
}

/*
 * A __string's bytes into its record: size bytes with the NUL
 * (tp__ev_str_size), the last one written as a NUL (s is longer when it
 * was cut).  Up to 32 bytes are copied inline, two overlapping loads and
 * stores of 1, 4, 8 or 16 bytes (never a byte of s beyond them); longer
 * strings by one memcpy.
 */
static TP__ALWAYS_INLINE void tp__ev_str_put(unsigned char *d, const char *src, size_t size)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t n = size - 1u;
	if (__builtin_expect(n <= 16, 1)) {
		if (n >= 8) {
			tp__ev_copy(d, s, n, TP__EV_COPY_16);
		} else if (n >= 4) {
			tp__ev_copy(d, s, n, TP__EV_COPY_8);
		} else if (n) {
			d[0] = s[0];
			d[n / 2] = s[n / 2];
			d[n - 1] = s[n - 1];
		}
	} else if (n <= 32) {
		tp__ev_copy(d, s, n, TP__EV_COPY_32);
	} else {
		memcpy(d, s, n);
	}
	d[n] = '\0';
}

/*
 * The recorders of events with fixed fields only (no __string, no
 * __dynamic_array): entry is the record's payload, assigned on the
 * recorder's stack; reserve size bytes for it, copy it there and end the
 * record as tp__ev_finish does.  Out of line: one copy per translation unit
 * and size class for all such events (tp__ev_record_<class>,
 * TP__EV_RECORD picks it).  The fast reservation makes no call; anything
 * unusual jumps to tp__ev_record_slow, which uses the full one.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wattributes" /* inline: no code where unused, even at -O0 */
static inline __attribute__((noinline)) TP__UNUSED void tp__ev_record_full(void *data,
									   const void *entry,
									   size_t size)
{
	struct tp__ev_res r;
	unsigned char *p = (unsigned char *)tp__ev_reserve(data, size, &r, 1, 0);
	if (!p)
		return;
	if (size <= 8)
		tp__ev_copy(p, (const unsigned char *)entry, size, TP__EV_COPY_8);
	else if (size <= 16)
		tp__ev_copy(p, (const unsigned char *)entry, size, TP__EV_COPY_16);
	else
		tp__ev_copy(p, (const unsigned char *)entry, size, TP__EV_COPY_ANY);
	tp__ev_finish(data, &r, p, size);
}
/* Where the fast reservation gives way: a slot whose filter has a hook
 * (whose sink owns no window, so the fast reservation always fails) gets
 * the entry as assigned, without a record; anything else starts over in
 * tp__ev_record_full.  Both are calls in tail position: no frame here.
 * (Hist triggers attach events of fixed fields with the class's hist
 * probe instead, which skips this: trace/recorder/hist.h.) */
static inline __attribute__((noinline)) TP__UNUSED void tp__ev_record_slow(void *data,
									   const void *entry,
									   size_t size)
{
	const struct trace_filter *f =
		__atomic_load_n(&((const struct trace_event_sink *)data)->filter, __ATOMIC_ACQUIRE);
	if (__builtin_expect(f != NULL && f->hook != NULL, 0)) {
		f->hook(f, entry, size);
		return;
	}
	tp__ev_record_full(data, entry, size);
}
#define TP__EV_RECORD_FN(cls)                                                 \
	static inline __attribute__((noinline)) TP__UNUSED void               \
	tp__ev_record_##cls(void *data, const void *entry, size_t size)      \
	{                                                                     \
		struct tp__ev_res r;                                          \
		unsigned char *p = (unsigned char *)tp__ev_reserve(data, size, &r, 0, 1); \
		if (!p) {                                                     \
			tp__ev_record_slow(data, entry, size);                \
			return;                                               \
		}                                                             \
		tp__ev_copy(p, (const unsigned char *)entry, size, TP__EV_COPY_##cls); \
		tp__ev_finish(data, &r, p, size);                             \
	}
TP__EV_RECORD_FN(8)
TP__EV_RECORD_FN(16)
TP__EV_RECORD_FN(32)
TP__EV_RECORD_FN(ANY)
#pragma GCC diagnostic pop
/* The recorder for a payload of n bytes (a constant). */
#define TP__EV_RECORD(data, entry, n)                                         \
	((n) == 0 ? tp__ev_record_8(data, NULL, 0) :                          \
	 (n) <= 8 ? tp__ev_record_8(data, entry, n) :                         \
	 (n) <= 16 ? tp__ev_record_16(data, entry, n) :                       \
	 (n) <= 32 ? tp__ev_record_32(data, entry, n) : tp__ev_record_ANY(data, entry, n))

#ifdef __cplusplus
}
#endif

#endif /* TRACE_RECORD_H_INCLUDED */
