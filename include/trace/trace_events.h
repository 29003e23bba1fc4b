/* SPDX-License-Identifier: MIT */
/*
 * trace/trace_events.h - what events with fields are made of: their metadata
 * (struct trace_event_class, struct trace_event, struct trace_event_field),
 * the variable parts of a record (__string, __dynamic_array) and the
 * helpers of the TP_printk formatters; then, in files of their own, the
 * program of a compiled filter (trace/filter_prog.h) and the record writer
 * (trace/record.h: the window, the reservation, the commit).
 *
 * Included by <trace/define_trace.h> (only in the one file that defines
 * CREATE_TRACE_POINTS), by <trace/filter.h> and by <trace/sink.h>.
 * Everything here is a type or a static inline function: a translation
 * unit that uses none of it gets no byte from it.  The compiler helpers
 * (TP__ALWAYS_INLINE, TP__UNUSED, TP__STR, TP__USE_ARGS, TP__STATIC_ASSERT)
 * are tracepoint.h's own (tracepoint/compiler.h, tracepoint/declare.h),
 * used here and by define_trace.h rather than defined again.
 *
 * A record, packed (no alignment) after the previous one in the window:
 * an event header, the entry (the fixed fields), the variable parts; the
 * layout and its constants are in <trace/wire.h> (docs/trace-format.md).
 */
#ifndef TRACE_TRACE_EVENTS_H_INCLUDED
#define TRACE_TRACE_EVENTS_H_INCLUDED

#include <tracepoint.h>
/* The machinery's libc headers, which the code below uses too: read with
 * the machinery, except with -DCONFIG_TRACEPOINTS_OFF (guarded: once). */
#include <tracepoint/libc.h>
#include <trace/event_kinds.h>
#include <trace/wire.h>
#include <stdarg.h>
#include <stdio.h>
#include <time.h>

#ifdef __cplusplus
#include <type_traits>
extern "C" {
#endif

/* What a field holds, for the JSON sink and for tools. */
enum trace_field_kind {
	TRACE_FIELD_INT = 1,	/* integer, char, bool or enum (see is_signed) */
	TRACE_FIELD_FLOAT = 2,	/* float, double, long double */
	TRACE_FIELD_PTR = 3,	/* any pointer: printed as an address */
	TRACE_FIELD_STRING = 4, /* __string(): stored after the fixed part (offset, size 0) */
	TRACE_FIELD_OTHER = 5,
	/* __dynamic_array(): offset is the entry's 32-bit element count, size
	 * one element's size, array_len the element's kind (INT, FLOAT, PTR or
	 * OTHER), is_signed the element's; the elements are stored after the
	 * fixed part, with the __string()s, in declaration order. */
	TRACE_FIELD_DYNAMIC = 6
};

#include <trace/eval_map.h>

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

/* The field a table belongs to: the name in an expr that is a field alone
 * ("__entry->state", maybe in parentheses or spaces), its length in *n;
 * NULL for any other expression (its labels are the formatter's only).
 * What the recorder's metadata (enumerations) and the filter compiler
 * (labels as values) agree on. */
static inline const char *tp__ev_sym_field(const char *expr, size_t *n)
{
	const char *p = expr, *id;
	while (*p == ' ' || *p == '(')
		p++;
	if (strncmp(p, "__entry", 7) != 0)
		return NULL;
	p += 7;
	while (*p == ' ')
		p++;
	if (p[0] != '-' || p[1] != '>')
		return NULL;
	p += 2;
	while (*p == ' ')
		p++;
	for (id = p; (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		     (*p >= '0' && *p <= '9') || *p == '_';
	     p++)
		;
	*n = (size_t)(p - id);
	while (*p == ' ' || *p == ')')
		p++;
	return *p || !*n ? NULL : id;
}

struct trace_event_field {
	const char *type; /* as written: "unsigned long", "char" (array element) */
	const char *name;
	unsigned short offset; /* in the entry (packed, no padding) */
	unsigned short size;   /* of the whole field (array: all elements) */
	unsigned char kind;    /* enum trace_field_kind, of the element for arrays */
	unsigned char is_signed;
	unsigned short array_len; /* 0 for a scalar, else the element count */
};

/* Shared by every event of a DECLARE_EVENT_CLASS (a TRACE_EVENT is a class
 * of its own): the layout and the TP_printk formatter. */
struct trace_event_class {
	const char *system;    /* TRACE_SYSTEM */
	const char *name;      /* the class name */
	const char *print_fmt; /* the TP_printk arguments, as text */
	unsigned entry_size;   /* bytes of the fixed fields (strings follow them) */
	/* The field descriptors; *n receives their number. */
	const struct trace_event_field *(*fields)(unsigned *n);
	/* Writes the TP_printk text of one record; returns what snprintf
	 * returns (the length of the whole text, or negative on error). */
	int (*format)(char *buf, size_t len, void *entry, size_t size);
	/* Calls fn for each __print_symbolic/__print_flags of TP_printk. */
	void (*symbols)(trace_print_symbols_fn fn, void *priv);
	/* The TRACE_DEFINE_ENUM/_SIZEOF maps of the class's object, whose
	 * names the readers get as values (trace/eval_map.h). */
	struct trace_eval_map const *const *evals, *const *evals_end;
};

/* What an event's hist probe (struct trace_event.hist_probe) is attached
 * with as its data: fn gets the entry the probe assigned on its stack
 * (the class's entry_size bytes, fixed fields only).  A hist trigger's
 * (trace/recorder/hist.h); no record is made. */
struct trace_event_hook {
	void (*fn)(const struct trace_event_hook *self, const void *entry);
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
	/* The class's hist probe: void (*)(TP_PROTO..., void *hook), attached
	 * with a struct trace_event_hook; it assigns the entry as the
	 * recorder does and calls the hook instead of recording.  Empty for a
	 * class with variable parts (__string, __dynamic_array): their
	 * triggers attach the recorder probe.  (Appended.) */
	tracepoint_func_t hist_probe;
};

/* The event of a tracepoint, or NULL for a plain DECLARE_TRACE one (and for
 * a NULL tp). */
static inline const struct trace_event *trace_event_of(const struct tracepoint *tp)
{
	return tp ? (const struct trace_event *)tp->event : NULL;
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

/* strnlen (POSIX 2008, which strict -std=c99 hides): gcc's builtin, which
 * also folds a literal's length; else libc's, under a name of our own. */
#ifdef __has_builtin
#if __has_builtin(__builtin_strnlen)
#define TP__EV_STRNLEN __builtin_strnlen
#endif
#endif
#ifndef TP__EV_STRNLEN
extern size_t tp__ev_strnlen(const char *s, size_t max) __asm__("strnlen");
#define TP__EV_STRNLEN tp__ev_strnlen
#endif

/* A string cut at n = TRACEPOINT_STRING_MAX bytes (s[n] is the first byte
 * dropped): the bytes kept, fewer when s[n] is a continuation byte, whose
 * character began in what is kept (at most 3 bytes back). */
static inline size_t tp__ev_str_cut(const char *s, size_t n)
{
	size_t keep = n;
	while (keep > 0 && n - keep < 4 && ((unsigned char)s[keep] & 0xC0u) == 0x80u)
		keep--;
	return n - keep < 4 ? keep : n;
}

/* The bytes of s a record keeps, with the NUL: at most
 * TRACEPOINT_STRING_MAX before it (reads at most one byte more), cut
 * before a UTF-8 character that would not fit whole.  One strnlen. */
static TP__ALWAYS_INLINE size_t tp__ev_str_size(const char *s)
{
	size_t n = TP__EV_STRNLEN(s, TRACEPOINT_STRING_MAX);
	if (__builtin_expect(n == TRACEPOINT_STRING_MAX, 0) && s[n] != '\0')
		n = tp__ev_str_cut(s, n);
	return n + 1u;
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

/*
 * Reading a record's variable parts, in declaration order (a formatter,
 * trace/stages/recorder.h's tp__ev_vars_read_<class>): *at is where the
 * next one starts in the payload of size bytes, (size_t)-1 once a string
 * was not terminated inside the record.  Each gives the part's offset and
 * bytes (a string also its text): a part the record does not hold is ""
 * (a string) or 0 bytes at the record's end (an array; 0 bytes where it
 * would start if only its elements do not fit).
 */
static inline void tp__ev_read_str(const void *entry, size_t size, size_t *at, const char **s,
				   size_t *bytes, size_t *off)
{
	/* p only inside the record: *at may be (size_t)-1 */
	const char *p = *at < size ? (const char *)entry + *at : (const char *)entry;
	const char *nul = *at < size ? (const char *)memchr(p, '\0', size - *at) : NULL;
	if (!nul) {
		*s = "";
		*bytes = 0;
		*off = size;
		*at = (size_t)-1;
		return;
	}
	*s = p;
	*bytes = (size_t)(nul - p) + 1u;
	*off = *at;
	*at += *bytes;
}
static inline void tp__ev_read_dyn(const void *entry, size_t size, size_t *at, size_t count_off,
				   size_t elem, size_t *bytes, size_t *off)
{
	uint32_t n;
	size_t sz;
	if (*at > size) {
		*bytes = 0;
		*off = size;
		return;
	}
	memcpy(&n, (const char *)entry + count_off, sizeof(n));
	sz = (size_t)n * elem;
	*off = *at;
	*bytes = sz <= size - *at ? sz : 0;
	*at += *bytes;
}
/* __get_str() of a dynamic array read back: its bytes if they end in a
 * NUL (the kernel's TP_fast_assign writes one), else "": %s never reads
 * past the record. */
static inline char *tp__ev_dyn_str(const void *entry, size_t off, size_t bytes)
{
	static char tp__ev_empty[1];
	char *p = (char *)(uintptr_t)entry + off;
	return bytes && p[bytes - 1] == '\0' ? p : tp__ev_empty;
}

/* What the generated formatter and symbols() functions share: room for
 * the text of __print_*, and where symbols() hands the tables. */
struct tp__ev_ctx {
	char *scratch; /* formatting: room for __print_* text */
	size_t used;
	trace_print_symbols_fn collect; /* symbols(): where tables go */
	void *priv;
};

#ifndef TP__EV_SCRATCH
#define TP__EV_SCRATCH 4096 /* bytes of __print_* text per formatted record */
#endif

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

/* __bitmask(name, nr_bits): the unsigned longs a bitmask of nr_bits
 * takes, as the kernel's BITS_TO_LONGS; __cpumask(name) is a bitmask of
 * TRACEPOINT_CPUMASK_BITS (the bits of glibc's cpu_set_t, which
 * __assign_cpumask may copy from; a header of kernel types may set it). */
#define TP__EV_BITS_TO_LONGS(nr) (((size_t)(nr) + 8u * sizeof(long) - 1u) / (8u * sizeof(long)))
#ifndef TRACEPOINT_CPUMASK_BITS
#define TRACEPOINT_CPUMASK_BITS 1024
#endif

/* __assign_bitmask, __assign_cpumask, __assign_sockaddr: n bytes of src
 * into the variable part at d, which holds room bytes (never more). */
static inline void tp__ev_put_bytes(void *d, size_t room, const void *src, size_t n)
{
	if (src && d)
		memcpy(d, src, n < room ? n : room);
}

/* __string_len(name, src, len): the bytes a record keeps of the len at
 * src, with the NUL: up to the first NUL, at most TRACEPOINT_STRING_MAX,
 * cut before a UTF-8 character that would not fit whole. */
static inline size_t tp__ev_strl_size(const char *s, size_t len)
{
	if (len <= TRACEPOINT_STRING_MAX)
		return TP__EV_STRNLEN(s, len) + 1u;
	return tp__ev_str_size(s); /* s holds more than TRACEPOINT_STRING_MAX bytes */
}

/* __vstring(name, fmt, va), va a va_list *: the bytes of the text that
 * vsnprintf makes of fmt and *va, with the NUL (at most
 * TRACEPOINT_STRING_MAX before it); then that text, written at d.  The
 * format is the caller's (as vprintf's): no literal to check here. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static inline size_t tp__ev_vstr_size(const char *fmt, va_list *va)
{
	va_list ap;
	int n;
	if (!fmt || !va)
		return sizeof("(null)");
	va_copy(ap, *va);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return 1u;
	return ((size_t)n < TRACEPOINT_STRING_MAX ? (size_t)n : TRACEPOINT_STRING_MAX) + 1u;
}
static inline void tp__ev_vstr_put(unsigned char *d, size_t size, const char *fmt, va_list *va)
{
	va_list ap;
	if (!fmt || !va) {
		memcpy(d, "(null)", size < sizeof("(null)") ? size : sizeof("(null)"));
		d[size - 1u] = '\0';
		return;
	}
	va_copy(ap, *va);
	if (vsnprintf((char *)d, size, fmt, ap) < 0)
		d[0] = '\0';
	va_end(ap);
}
#pragma GCC diagnostic pop

/* __get_bitmask(name) (and __get_cpumask) in TP_printk: the bits of the
 * bytes at buf as the kernel's %*pb prints them: 32-bit chunks in hex,
 * most significant first, comma-separated, each of 8 digits but the
 * first, which has as many as its bits need.  The bitmask is an array of
 * unsigned longs in the machine's order (little-endian here: bit i is bit
 * i % 8 of byte i / 8). */
static inline const char *tp__ev_print_bitmask(struct tp__ev_ctx *c, const void *buf, size_t len)
{
	const unsigned char *b = (const unsigned char *)buf;
	size_t nbits = len * 8u, at;
	char *start;
	int first = 1;
	if (c->collect || c->used >= TP__EV_SCRATCH - 1u)
		return "";
	start = c->scratch + c->used;
	*start = '\0';
	for (at = (nbits + 31u) / 32u * 32u; at >= 32u; at -= 32u) {
		size_t lo = at - 32u, k, bits = nbits - lo < 32u ? nbits - lo : 32u;
		unsigned long v = 0;
		char d[12];
		int n;
		for (k = 0; k < bits; k++)
			if (b[(lo + k) / 8u] >> ((lo + k) % 8u) & 1u)
				v |= 1ul << k;
		n = snprintf(d, sizeof(d), "%s%0*lx", first ? "" : ",", (int)((bits + 3u) / 4u), v);
		tp__ev_scratch_put(c, d, n > 0 ? (size_t)n : 0);
		first = 0;
	}
	if (c->used < TP__EV_SCRATCH - 1u)
		c->used++;
	return start;
}

/* How much of a field descriptor's name is the name: up to a '[' (a
 * __field declared as an array keeps its declarator, stages/metadata.h). */
static inline int tp__ev_name_len(const char *name)
{
	return (int)strcspn(name, "[");
}

/* errno's value, for the passes over an event header: they take away
 * the C library's errno macro (the kernel's headers name fields errno,
 * trace/stages/init.h), and TP_fast_assign gets a local errno from here
 * instead (trace/stages/recorder.h). */
static inline int tp__ev_errno_value(void)
{
	return errno;
}

/* Evaluates the TP_printk arguments for symbols(). */
static inline void tp__ev_args_used(int unused, ...)
{
	(void)unused;
}

/* %ps/%pS and the other __print_* helpers. */
#include <trace/print_helpers.h>

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

/* The filter program the recorder runs, then the record writer. */
#include <trace/filter_prog.h>
#include <trace/record.h>

#endif /* TRACE_TRACE_EVENTS_H_INCLUDED */
