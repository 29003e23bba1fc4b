/* SPDX-License-Identifier: MIT */
/*
 * trace/trace_events.h - what events with fields are made of: their metadata
 * (struct trace_event_class, struct trace_event, struct trace_event_field),
 * the record format of a trace (docs/trace-format.md), and the inline
 * recorder fast path that writes a record into the calling thread's window.
 *
 * Included by <trace/define_trace.h> (only in the one file that defines
 * CREATE_TRACE_POINTS) and by <trace/sink.h>.  Everything here is a type or a
 * static inline function: a translation unit that uses none of it gets no
 * byte from it.  The compiler helpers (TP__ALWAYS_INLINE, TP__UNUSED,
 * TP__STR, TP__USE_ARGS, TP__STATIC_ASSERT) are tracepoint.h's own
 * (tracepoint/compiler.h, tracepoint/declare.h), used here and by
 * define_trace.h rather than defined again.
 *
 * A record, packed (no alignment) after the previous one in the window:
 *
 *   event header        4 bytes: id (6 bits) + low 26 bits of the time,
 *                       or 13: 63, 32-bit id, 64-bit time (see below)
 *   the entry           the class's fixed fields as TP_fast_assign wrote them
 *   the __string()s     each NUL-terminated, in declaration order
 */
#ifndef TRACE_TRACE_EVENTS_H_INCLUDED
#define TRACE_TRACE_EVENTS_H_INCLUDED

#include <tracepoint.h>
#include <stdio.h>
#include <time.h>

#ifdef __cplusplus
#include <type_traits>
extern "C" {
#endif

/* What a field holds, for the JSON sink and for tools. */
enum trace_field_kind {
	TRACE_FIELD_INT = 1,    /* integer, char, bool or enum (see is_signed) */
	TRACE_FIELD_FLOAT = 2,  /* float, double, long double */
	TRACE_FIELD_PTR = 3,    /* any pointer: printed as an address */
	TRACE_FIELD_STRING = 4, /* __string(): stored after the fixed part (offset, size 0) */
	TRACE_FIELD_OTHER = 5
};

struct trace_event_field {
	const char *type;       /* as written: "unsigned long", "char" (array element) */
	const char *name;
	unsigned short offset;  /* in the entry (packed, no padding) */
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
	unsigned entry_size;    /* bytes of the fixed fields (strings follow them) */
	/* The field descriptors; *n receives their number. */
	const struct trace_event_field *(*fields)(unsigned *n);
	/* Writes the TP_printk text of one record; returns what snprintf
	 * returns (the length of the whole text, or negative on error). */
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

/* The event of a tracepoint, or NULL for a plain DECLARE_TRACE one (and for
 * a NULL tp). */
static inline const struct trace_event *trace_event_of(const struct tracepoint *tp)
{
	return tp ? (const struct trace_event *)tp->event : NULL;
}

/*
 * The record format (docs/trace-format.md): each thread writes its events
 * into a window of memory - normally a window of its own stream file,
 * mapped MAP_SHARED, so that a dead process leaves every committed record
 * behind.  A window is one CTF packet: struct trace_packet, then events
 * packed back to back, each an event header (4 bytes compact, 13 extended)
 * followed by the entry (packed, declaration order) and the __string()s.
 */
#define TRACE_PACKET_MAGIC 0xC1FC1FC1u

/* The packet header and context at the start of every window (96 bytes,
 * naturally aligned; the CTF metadata describes exactly this). */
struct trace_packet {
	uint32_t magic;            /* TRACE_PACKET_MAGIC */
	uint8_t uuid[16];          /* the trace's */
	uint32_t pad;
	uint64_t timestamp_begin;  /* clock at open, <= the first event */
	uint64_t timestamp_end;    /* clock of the last committed event */
	uint64_t content_size;     /* bits in use (header + committed events) */
	uint64_t packet_size;      /* bits of the packet in the file */
	uint64_t packet_seq_num;
	uint64_t events_discarded; /* the thread's drops so far */
	uint32_t tid, pid;
	char comm[16];
};

/* Event header forms (little-endian first word: id in bits 0-5). */
enum trace_header_form {
	TRACE_HEADER_ID_BITS = 6,
	TRACE_HEADER_EXTENDED = 63,     /* id field value: 32-bit id + 64-bit time follow */
	TRACE_HEADER_TS_BITS = 26,      /* compact: low bits of the timestamp */
	TRACE_HEADER_COMPACT_SIZE = 4,
	TRACE_HEADER_EXTENDED_SIZE = 13
};

/*
 * One thread's recording state for one sink: only what the recorder uses.
 * The sink hands it out (thread_buffer, which sets `sink`), opens its
 * windows (next_window) and reads `dropped`; whatever else it keeps about
 * the thread (stream file, ownership, ...) lives in a structure of its own
 * that embeds this one (<trace/sink.h>: struct tp__sink_node).
 */
struct trace_buffer {
	unsigned char *pos;         /* where the next record goes */
	unsigned char *end;         /* end of the window; pos == end == NULL: none yet */
	struct trace_packet *pkt;   /* the window's packet (content_size, timestamp_end) */
	uint64_t last_ts;           /* timestamp of the previous record (or packet open) */
	const void *sink;           /* the struct trace_sink_base this buffer belongs to */
	uint64_t dropped;           /* records this thread could not keep */
	int busy;                   /* a record is being written (signal handlers) */
};

/* Clocks a recorder may use; the sink picks one and describes it in the
 * trace's metadata. */
enum trace_clock {
	TRACE_CLOCK_COUNTER = 0,   /* x86-64 rdtsc / aarch64 cntvct_el0 */
	TRACE_CLOCK_MONOTONIC = 1  /* clock_gettime(CLOCK_MONOTONIC) in ns */
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
	int clock;              /* enum trace_clock */
};

/*
 * What a recorder probe is attached with (its `void *data`): the sink and
 * the event's id in that sink's trace.  The sink owns it.
 */
struct trace_filter; /* <trace/filter.h> */
struct trace_event_sink {
	struct trace_sink_base *sink;
	uint32_t id;
	const struct trace_event *event;
	/* The event's field filter (<trace/filter.h>), or NULL: records it
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
		uint32_t lo, hi;
		__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
		return ((uint64_t)hi << 32) | lo;
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
static inline unsigned char *
tp__ev_reserve_slow(struct trace_sink_base *s, struct trace_buffer *b, uint32_t id, uint64_t ts,
		   size_t size)
{
	unsigned char *p = b->pos;
	int compact = ts - b->last_ts < ((uint64_t)1 << TRACE_HEADER_TS_BITS) &&
		      id < TRACE_HEADER_EXTENDED;
	size_t need = size + (compact ? TRACE_HEADER_COMPACT_SIZE : TRACE_HEADER_EXTENDED_SIZE);
	if (!p || (size_t)(b->end - p) < need) {
		/* A new window opens at ts: the header can be compact again. */
		need = size + (id < TRACE_HEADER_EXTENDED ? TRACE_HEADER_COMPACT_SIZE
							   : TRACE_HEADER_EXTENDED_SIZE);
		if (s->next_window(s, b, ts, need) != 0)
			return NULL;
		p = b->pos;
		compact = id < TRACE_HEADER_EXTENDED;
	}
	if (compact) {
		tp__ev_put32(p, id | (uint32_t)ts << TRACE_HEADER_ID_BITS);
		return p + TRACE_HEADER_COMPACT_SIZE;
	}
	p[0] = TRACE_HEADER_EXTENDED;
	memcpy(p + 1, &id, sizeof(id));
	memcpy(p + 5, &ts, sizeof(ts));
	return p + TRACE_HEADER_EXTENDED_SIZE;
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
 * system call except when a window fills.
 */
static TP__ALWAYS_INLINE void *tp__ev_reserve(void *data, size_t size, struct tp__ev_res *r,
					   const int full)
{
	static __thread __attribute__((tls_model("initial-exec"))) struct trace_buffer *cache;
	const struct trace_event_sink *es = (const struct trace_event_sink *)data;
	struct trace_sink_base *s = es->sink;
	struct trace_buffer *b = cache;
	unsigned char *p;
	uint64_t ts;

	if (__builtin_expect(!b || b->sink != s, 0)) {
		if (!full)
			return NULL;
		b = s->thread_buffer(s);
		if (!b)
			return NULL;
		cache = b;
	}
	if (__builtin_expect(b->busy, 0)) { /* a signal handler interrupted a record */
		if (full)
			__atomic_store_n(&b->dropped, b->dropped + 1, __ATOMIC_RELAXED);
		return NULL;
	}
	if (!full && __builtin_expect(s->clock != TRACE_CLOCK_COUNTER, 0))
		return NULL; /* clock_gettime() is a call */
	ts = tp__ev_clock(s->clock);
	if (__builtin_expect(ts < b->last_ts, 0))
		ts = b->last_ts; /* time never goes back within a stream */
	p = b->pos;
	if (__builtin_expect(ts - b->last_ts < ((uint64_t)1 << TRACE_HEADER_TS_BITS) &&
			     es->id < TRACE_HEADER_EXTENDED, 1)) {
		if (__builtin_expect((size_t)(b->end - p) < size + TRACE_HEADER_COMPACT_SIZE, 0))
			goto slow;
		b->busy = 1;
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		tp__ev_put32(p, es->id | (uint32_t)ts << TRACE_HEADER_ID_BITS);
		p += TRACE_HEADER_COMPACT_SIZE;
	} else if (!full && (size_t)(b->end - p) >= size + TRACE_HEADER_EXTENDED_SIZE) {
		/* An extended header, when there is room, needs no call either
		 * (after a long time without a committed record - e.g. every
		 * record rejected by a filter - every record needs one). */
		b->busy = 1;
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		p[0] = TRACE_HEADER_EXTENDED;
		memcpy(p + 1, &es->id, sizeof(es->id));
		memcpy(p + 5, &ts, sizeof(ts));
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

/* Publishes the record: the packet's content_size covers it from now on. */
static TP__ALWAYS_INLINE void tp__ev_commit(struct tp__ev_res *r)
{
	struct trace_buffer *b = r->b;
	struct trace_packet *pkt = b->pkt;
	b->pos = r->end;
	b->last_ts = r->ts; /* here, not at the reservation: see tp__ev_discard */
	__atomic_store_n(&pkt->timestamp_end, r->ts, __ATOMIC_RELAXED);
	__atomic_store_n(&pkt->content_size,
			 (uint64_t)(r->end - (unsigned char *)pkt) * 8u, __ATOMIC_RELEASE);
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

/* __string() support: a string is stored after the entry's fixed part,
 * NUL-terminated, at most TRACEPOINT_STRING_MAX bytes before the NUL. */
#ifndef TRACEPOINT_STRING_MAX
#define TRACEPOINT_STRING_MAX 1024 /* longer strings are truncated */
#endif
static TP__ALWAYS_INLINE const char *tp__ev_str_src(const char *s)
{
	return s ? s : "(null)";
}

static TP__ALWAYS_INLINE uint32_t tp__ev_str_size(const char *s)
{
	size_t n = strlen(s);
	return (uint32_t)(n < TRACEPOINT_STRING_MAX ? n : TRACEPOINT_STRING_MAX) + 1u;
}

/* Copies n strings (sizes with the NUL in len[]) to dst, back to back. */
static TP__ALWAYS_INLINE void tp__ev_str_copy(char *dst, const char *const *src,
					   const uint32_t *len, unsigned n)
{
	unsigned i;
	for (i = 0; i < n; i++) {
		memcpy(dst, src[i], len[i] - 1u);
		dst[len[i] - 1u] = '\0';
		dst += len[i];
	}
}

/* The text of the __string() field `name` of a record (entry: its payload,
 * fixed: the size of its fixed part, size: the whole payload); "" if the
 * record does not hold it. */
static inline const char *tp__ev_get_str(const void *entry, size_t fixed, size_t size,
					const struct trace_event_field *f, unsigned n,
					const char *name)
{
	const char *p = (const char *)entry + fixed, *end = (const char *)entry + size;
	unsigned i;
	for (i = 0; i < n && p < end; i++) {
		size_t len;
		const char *nul;
		if (f[i].kind != TRACE_FIELD_STRING)
			continue;
		nul = (const char *)memchr(p, '\0', (size_t)(end - p));
		if (!nul)
			break; /* not terminated inside the record */
		len = (size_t)(nul - p);
		if (strcmp(f[i].name, name) == 0)
			return p;
		p += len + 1;
	}
	return "";
}

#ifdef __cplusplus
} /* extern "C" */
#define TP__EV_IS_SIGNED(type) (std::is_signed<type>::value ? 1 : 0)
#else
#define TP__EV_IS_SIGNED(type)                                                 \
	__builtin_choose_expr(__builtin_classify_type(*(type *)0) == 5, 0,   \
			      ((type)-1 < (type)1))
#endif
/* gcc/clang type classes: 1..4 integer-like, 5 pointer, 8 real. */
#define TP__EV_KIND(type)                                                      \
	(__builtin_classify_type(*(type *)0) == 5 ? TRACE_FIELD_PTR :         \
	 __builtin_classify_type(*(type *)0) == 8 ? TRACE_FIELD_FLOAT :       \
	 __builtin_classify_type(*(type *)0) <= 4 ? TRACE_FIELD_INT : TRACE_FIELD_OTHER)

#endif /* TRACE_TRACE_EVENTS_H_INCLUDED */
