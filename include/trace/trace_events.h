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
 * an event header, the entry (the fixed fields), the variable parts; the
 * layout and its constants are in <trace/wire.h> (docs/trace-format.md).
 */
#ifndef TRACE_TRACE_EVENTS_H_INCLUDED
#define TRACE_TRACE_EVENTS_H_INCLUDED

#include <tracepoint.h>
#include <trace/event_kinds.h>
#include <trace/wire.h>
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
	TRACE_FIELD_OTHER = 5,
	/* __dynamic_array(): offset is the entry's 32-bit element count, size
	 * one element's size, array_len the element's kind (INT, FLOAT, PTR or
	 * OTHER), is_signed the element's; the elements are stored after the
	 * fixed part, with the __string()s, in declaration order. */
	TRACE_FIELD_DYNAMIC = 6
};

/* One value of a __print_symbolic() or one bit (mask) of a __print_flags()
 * table; a table ends with name == NULL. */
struct trace_print_flags {
	long long mask;
	const char *name;
};

/* What a class's symbols() hands over for each __print_symbolic (delim
 * NULL) and __print_flags (delim: the separator) of its TP_printk: the
 * value expression as written (e.g. "__entry->state") and the table. */
typedef void (*trace_print_symbols_fn)(void *priv, const char *expr,
				       const struct trace_print_flags *table, const char *delim);

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
	/* Calls fn for each __print_symbolic/__print_flags of TP_printk. */
	void (*symbols)(trace_print_symbols_fn fn, void *priv);
};

/* One event: what struct tracepoint.event points at. */
struct trace_event {
	const struct trace_event_class *cls;
	const char *name;
	struct tracepoint *tp;
	/* The recorder: void (*)(TP_PROTO..., void *sink), attached to tp with
	 * the sink as its data. */
	tracepoint_func_t probe;
	/* enum trace_event_kind (<trace/event_kinds.h>): an instant, a slice's
	 * begin or end, a counter; + TRACE_KIND_FLOW. */
	unsigned kind;
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
	memcpy(p + TRACE_HEADER_EXTENDED_OFF_ID, &id, sizeof(id));
	memcpy(p + TRACE_HEADER_EXTENDED_OFF_TS, &ts, sizeof(ts));
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
static inline __attribute__((noinline)) TP__UNUSED void *
tp__ev_reserve_full(void *data, size_t size, struct tp__ev_res *r)
{
	return tp__ev_reserve(data, size, r, 1);
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

/* The bytes of s a record keeps, with the NUL: at most
 * TRACEPOINT_STRING_MAX before it (reads at most one byte more), cut
 * before a UTF-8 character that would not fit whole. */
static TP__ALWAYS_INLINE uint32_t tp__ev_str_size(const char *s)
{
	const char *nul = (const char *)memchr(s, '\0', TRACEPOINT_STRING_MAX);
	size_t n = nul ? (size_t)(nul - s) : TRACEPOINT_STRING_MAX;
	if (!nul && s[n] != '\0') {
		size_t keep = n;
		/* s[n] is the first byte dropped: a continuation byte means its
		 * character began in what is kept (at most 3 bytes back) */
		while (keep > 0 && n - keep < 4 && ((unsigned char)s[keep] & 0xC0u) == 0x80u)
			keep--;
		if (n - keep < 4)
			n = keep;
	}
	return (uint32_t)n + 1u;
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

/* The bytes a variable part (a __string or a __dynamic_array, descriptor
 * f) of a record takes at p (end: the record's end); 0 if it is cut. */
static inline size_t tp__ev_var_size(const void *entry, const struct trace_event_field *f,
				     const char *p, const char *end)
{
	if (f->kind == TRACE_FIELD_STRING) {
		const char *nul = (const char *)memchr(p, '\0', (size_t)(end - p));
		return nul ? (size_t)(nul - p) + 1u : 0;
	} else {
		uint32_t n;
		size_t sz;
		memcpy(&n, (const char *)entry + f->offset, sizeof(n));
		sz = (size_t)n * f->size;
		return sz <= (size_t)(end - p) ? sz : 0;
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
		if (f[i].kind != TRACE_FIELD_STRING && f[i].kind != TRACE_FIELD_DYNAMIC)
			continue;
		len = tp__ev_var_size(entry, &f[i], p, end);
		if (f[i].kind == TRACE_FIELD_STRING && !len)
			break; /* not terminated inside the record */
		if (f[i].kind == TRACE_FIELD_STRING && strcmp(f[i].name, name) == 0)
			return p;
		p += len;
	}
	return "";
}

/* A variable part being recorded: a string (src) or a dynamic array. */
struct tp__ev_var {
	const char *src;
	size_t size;         /* bytes, the string's with its NUL */
	unsigned char *dst;  /* where it goes in the record */
};

/* What the generated recorder, formatter and symbols() functions share. */
struct tp__ev_ctx {
	unsigned char *entry;
	size_t fixed, size;
	const struct trace_event_field *fl;
	unsigned nf;
	struct tp__ev_var *vars;          /* recording: the variable parts */
	char *scratch;                    /* formatting: room for __print_* text */
	size_t used;
	trace_print_symbols_fn collect;   /* symbols(): where tables go */
	void *priv;
};

#ifndef TP__EV_SCRATCH
#define TP__EV_SCRATCH 4096 /* bytes of __print_* text per formatted record */
#endif

static inline void tp__ev_ctx_init(struct tp__ev_ctx *c, void *entry, size_t fixed, size_t size,
				   const struct trace_event_field *(*fields)(unsigned *n))
{
	memset(c, 0, sizeof(*c));
	c->entry = (unsigned char *)entry;
	c->fixed = fixed;
	c->size = size;
	c->fl = fields(&c->nf);
}

/* Recording: places the variable parts and writes the dynamic arrays'
 * element counts into the entry, before TP_fast_assign. */
static inline void tp__ev_var_counts(struct tp__ev_ctx *c)
{
	unsigned i, k = 0;
	unsigned char *p = c->entry + c->fixed;
	for (i = 0; i < c->nf; i++) {
		const struct trace_event_field *f = &c->fl[i];
		if (f->kind != TRACE_FIELD_STRING && f->kind != TRACE_FIELD_DYNAMIC)
			continue;
		c->vars[k].dst = p;
		if (f->kind == TRACE_FIELD_DYNAMIC) {
			uint32_t n = (uint32_t)(c->vars[k].size / f->size);
			memcpy(c->entry + f->offset, &n, sizeof(n));
		}
		p += c->vars[k++].size;
	}
}

/* Recording: copies the strings, after TP_fast_assign. */
static inline void tp__ev_var_copy(struct tp__ev_ctx *c)
{
	unsigned i, k = 0;
	for (i = 0; i < c->nf; i++) {
		const struct trace_event_field *f = &c->fl[i];
		struct tp__ev_var *v;
		if (f->kind != TRACE_FIELD_STRING && f->kind != TRACE_FIELD_DYNAMIC)
			continue;
		v = &c->vars[k++];
		if (f->kind == TRACE_FIELD_STRING) {
			memcpy(v->dst, v->src, v->size - 1u);
			v->dst[v->size - 1u] = '\0';
		}
	}
}

/* The dynamic array whose element count is at `off` in the entry: its
 * first element (recording: where TP_fast_assign writes it), *bytes its
 * size.  Never NULL: a record that does not hold it gives its end, 0. */
static inline void *tp__ev_dyn_at(struct tp__ev_ctx *c, size_t off, size_t *bytes)
{
	unsigned i, k = 0;
	unsigned char *p = c->entry + c->fixed, *end = c->entry + c->size;
	for (i = 0; i < c->nf; i++) {
		const struct trace_event_field *f = &c->fl[i];
		size_t len;
		if (f->kind != TRACE_FIELD_STRING && f->kind != TRACE_FIELD_DYNAMIC)
			continue;
		if (c->vars) {
			len = c->vars[k].size;
			p = c->vars[k++].dst;
		} else {
			len = tp__ev_var_size(c->entry, f, (const char *)p, (const char *)end);
			if (!len && f->kind == TRACE_FIELD_STRING)
				break;
		}
		if (f->kind == TRACE_FIELD_DYNAMIC && f->offset == off) {
			*bytes = len;
			return p;
		}
		p += len;
	}
	*bytes = 0;
	return end;
}

static inline void *tp__ev_dyn(struct tp__ev_ctx *c, size_t off)
{
	size_t n;
	return tp__ev_dyn_at(c, off, &n);
}

/* Its size in bytes (the kernel's __get_dynamic_array_len). */
static inline size_t tp__ev_dyn_len(struct tp__ev_ctx *c, size_t off)
{
	size_t n;
	tp__ev_dyn_at(c, off, &n);
	return n;
}

/* Appends text to the scratch space; returns where it starts. */
static inline char *tp__ev_scratch_put(struct tp__ev_ctx *c, const char *s, size_t n)
{
	char *start = c->scratch + c->used;
	size_t room = TP__EV_SCRATCH - 1u - c->used;
	if (n > room)
		n = room;
	memcpy(start, s, n);
	c->used += n;
	c->scratch[c->used] = '\0';
	return start;
}

static inline void tp__ev_scratch_hex(struct tp__ev_ctx *c, unsigned long long v)
{
	char b[24];
	int n = snprintf(b, sizeof(b), "0x%llx", v);
	tp__ev_scratch_put(c, b, n > 0 ? (size_t)n : 0);
}

/* __print_symbolic (delim NULL): the name of value v, or v in hex;
 * __print_flags: the names of the bits set, separated by delim, then what
 * is left in hex.  As the kernel prints them. */
static inline const char *tp__ev_print_sym(struct tp__ev_ctx *c, long long v, const char *expr,
					  const struct trace_print_flags *t, const char *delim)
{
	char *start;
	unsigned long long left = (unsigned long long)v;
	int first = 1;
	if (c->collect) {
		c->collect(c->priv, expr, t, delim);
		return "";
	}
	if (c->used >= TP__EV_SCRATCH - 1u)
		return "";
	start = c->scratch + c->used;
	*start = '\0';
	if (!delim) {
		for (; t->name; t++)
			if (t->mask == v)
				return t->name;
		tp__ev_scratch_hex(c, left);
		c->used++;
		return start;
	}
	for (; t->name && left; t++) {
		unsigned long long m = (unsigned long long)t->mask;
		if ((left & m) != m)
			continue;
		left &= ~m;
		if (!first)
			tp__ev_scratch_put(c, delim, strlen(delim));
		first = 0;
		tp__ev_scratch_put(c, t->name, strlen(t->name));
	}
	if (left) {
		if (!first)
			tp__ev_scratch_put(c, delim, strlen(delim));
		tp__ev_scratch_hex(c, left);
	}
	if (c->used < TP__EV_SCRATCH - 1u)
		c->used++; /* keep the NUL */
	return start;
}

/* __print_hex: len bytes at buf as two hex digits each, space-separated. */
static inline const char *tp__ev_print_hex(struct tp__ev_ctx *c, const void *buf, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *b = (const unsigned char *)buf;
	char *start;
	size_t i;
	if (c->collect || c->used >= TP__EV_SCRATCH - 1u)
		return "";
	start = c->scratch + c->used;
	*start = '\0';
	for (i = 0; i < len; i++) {
		char d[3];
		d[0] = ' ';
		d[1] = hex[b[i] >> 4];
		d[2] = hex[b[i] & 15];
		tp__ev_scratch_put(c, i ? d : d + 1, i ? 3u : 2u);
	}
	if (c->used < TP__EV_SCRATCH - 1u)
		c->used++;
	return start;
}

/* Evaluates the TP_printk arguments for symbols(). */
static inline void tp__ev_args_used(int unused, ...)
{
	(void)unused;
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
