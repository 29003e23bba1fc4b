/* SPDX-License-Identifier: MIT */
/*
 * trace/filter_prog.h - a compiled field filter (struct trace_filter: a
 * small branch program, one step per comparison) and what runs it on a
 * record: trace_filter_match().
 *
 * Why a file: the recorder's end of a record (trace/record.h) runs a
 * filter's program, so every file that defines events needs the program
 * and its runner; the compiler that makes programs from text
 * (trace/filter.h) is the recorder's alone and stays out of those files.
 *
 * Internal: included by trace/trace_events.h, after its types; depends on
 * them (struct trace_event_field, tp__ev_var_size), on trace/glob.h (the
 * glob of '~', trace_filter_glob) and on libc.  The language is described
 * in trace/filter.h, the encoding of a step below.
 */
#ifndef TRACE_TRACE_EVENTS_H_INCLUDED
#error "trace/filter_prog.h is internal: #include <trace/trace_events.h> or <trace/filter.h> instead"
#elif !defined(TRACE_FILTER_PROG_H_INCLUDED)
#define TRACE_FILTER_PROG_H_INCLUDED

#include <trace/glob.h> /* trace_filter_glob(), the '~' of a string step */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What one step of a program compares. */
enum tp__flt_kind {
	TP__FLT_INT1 = 0, /* integer field of 1, 2, 4, 8 bytes */
	TP__FLT_INT2 = 1,
	TP__FLT_INT4 = 2,
	TP__FLT_INT8 = 3,
	TP__FLT_STR = 4,  /* a __string(): its index among the event's fields */
	TP__FLT_CHARS = 5 /* a char array: offset, length */
};

/* Where a step goes next: another step (its offset in bytes from the
 * first one), or an end.  CALL: the recorder's inline run met a string
 * step and gives way to trace_filter_match. */
enum tp__flt_end { TP__FLT_CALL = 0xfffd, TP__FLT_DROP = 0xfffe, TP__FLT_KEEP = 0xffff };

/*
 * An integer step: with z the field's bits (zero-extended),
 *     y = ((z & mask) ^ x) + add;   the step holds when y < v (unsigned).
 * Every comparison is one of these, negated or not (a negated step swaps
 * its two next steps):
 *     c' = c, or c + 2^63 for a signed field, and off = 0, or 2^63 - 2^(n-1)
 *     for a signed n-bit field (z ^ sign bit + off = the field + 2^63):
 *   field <  c    x = sign bit       add = off        v = c'
 *   field >  c    x = ~sign bit      add = -off       v = ~c'   (~ reverses the order)
 *   field == c    x = sign bit       add = off - c'   v = 1     (equal: difference 0)
 *   field & m     mask = m, x = add = 0, v = 1, negated         ((z & m) == 0, negated)
 *   !=, >=, <=    ==, <, > negated
 * A string step holds when the string matches (==, ~); != is == negated.
 */
struct tp__flt_op {
	uint64_t mask, x, add, v;
	const char *str;  /* string steps: the operand (NUL-terminated) */
	uint32_t slen;	  /* its length */
	int16_t load_at;  /* integer steps: offset + size - 8, see tp__ev_filter_ints */
	uint16_t offset;  /* field offset; __string(): its index among the strings */
	uint16_t len;	  /* char array: its length */
	uint16_t next[2]; /* where to go when the step fails [0] or holds [1]
			      (enum tp__flt_end); string steps: call[] too */
	uint16_t call[2]; /* what the recorder's inline run takes as next[] */
	uint8_t kind;	  /* enum tp__flt_kind */
	uint8_t shift;	  /* integer steps: 64 - 8 * size */
	uint8_t glob;	  /* string steps: '~' */
	uint8_t negate;	  /* while compiling: swap next[] */
};

/* A compiled filter (trace_filter_compile), one block of memory. */
struct trace_filter {
	const struct tp__flt_op *ops;
	unsigned nops;
	const struct tp__flt_op *first; /* the first step to run */
	unsigned fixed;			/* the event's entry_size: where the variable part begins */
	const char *text;		/* the filter as given */
	/* The event's fields: a __string() step walks the variable part
	 * (strings and dynamic arrays, in declaration order) to its field. */
	const struct trace_event_field *fields;
	unsigned nfields;
	/* Instead of the program, when set: what a record is given to (a
	 * hist trigger, trace/recorder/hist.h; its return: keep the record).
	 * The program then is one step that always ends in TP__FLT_CALL. */
	int (*hook)(const struct trace_filter *f, const void *entry, size_t size);
};

/* The text of fields[var] (a __string(): its bytes without the NUL) in a
 * record's payload e[0..size) whose variable part begins at `fixed`; ""
 * (*n = 0) when the record ends first or the string is not terminated. */
static inline const char *tp__ev_var_text(const struct trace_event_field *fields, unsigned nfields,
					  unsigned fixed, unsigned var, const unsigned char *e,
					  size_t size, size_t *n)
{
	const char *p = (const char *)e + fixed, *end = (const char *)e + size;
	unsigned k;
	for (k = 0; k < nfields && k <= var && p < end; k++) {
		const struct trace_event_field *fl = &fields[k];
		size_t len;
		if (fl->kind != TRACE_FIELD_STRING && fl->kind != TRACE_FIELD_DYNAMIC)
			continue;
		len = tp__ev_var_size(e, fl, p, end);
		if (fl->kind == TRACE_FIELD_STRING && !len)
			break; /* not terminated inside the record */
		if (k == var) {
			*n = len - 1;
			return p;
		}
		p += len;
	}
	*n = 0;
	return "";
}

/* One string step on a record's payload e[0..size) of filter f. */
static inline int tp__flt_str(const struct trace_filter *f, const struct tp__flt_op *o,
			      const unsigned char *e, size_t size)
{
	const char *s, *nul;
	size_t n;
	int m;
	if (o->kind == TP__FLT_CHARS) {
		s = (const char *)e + o->offset;
		nul = (const char *)memchr(s, '\0', o->len);
		n = nul ? (size_t)(nul - s) : o->len;
	} else {
		s = tp__ev_var_text(f->fields, f->nfields, f->fixed, o->offset, e, size, &n);
	}
	if (o->glob)
		m = trace_filter_glob(o->str, o->slen, s, n);
	else
		m = n == o->slen && memcmp(s, o->str, n) == 0;
	return m;
}

/* An integer step on z, the field's bits: 1 if it holds. */
static TP__ALWAYS_INLINE int tp__flt_int(const struct tp__flt_op *o, uint64_t z)
{
	return (((z & o->mask) ^ o->x) + o->add) < o->v;
}

/* Runs filter f on a record's payload (entry: the fixed fields as
 * TP_fast_assign wrote them, then the __string()s; size: all of it).
 * 1: keep the record; 0: drop it.  A NULL f keeps everything.  Reads
 * nothing outside entry[0..size). */
/* The program from its step at byte offset i. */
static inline int tp__flt_run(const struct trace_filter *f, unsigned i, const void *entry,
			      size_t size)
{
	const unsigned char *e = (const unsigned char *)entry;
	const struct tp__flt_op *ops = f->ops;
	for (;;) {
		const struct tp__flt_op *o =
			(const struct tp__flt_op *)(const void *)((const char *)ops + i);
		int r;
		if (o->kind <= TP__FLT_INT8) {
			uint64_t z;
			switch (o->kind) {
			case TP__FLT_INT1:
				z = e[o->offset];
				break;
			case TP__FLT_INT2: {
				uint16_t v;
				memcpy(&v, e + o->offset, sizeof(v));
				z = v;
				break;
			}
			case TP__FLT_INT4: {
				uint32_t v;
				memcpy(&v, e + o->offset, sizeof(v));
				z = v;
				break;
			}
			default:
				memcpy(&z, e + o->offset, sizeof(z));
				break;
			}
			r = tp__flt_int(o, z);
		} else {
			r = tp__flt_str(f, o, e, size);
		}
		i = o->next[r];
		if (i >= TP__FLT_DROP)
			return i == TP__FLT_KEEP;
	}
}

static inline int trace_filter_match(const struct trace_filter *f, const void *entry, size_t size)
{
	if (!f)
		return 1;
	if (__builtin_expect(f->hook != NULL, 0))
		return f->hook(f, entry, size);
	return tp__flt_run(f, (unsigned)((const char *)f->first - (const char *)f->ops), entry,
			   size);
}

#ifdef __cplusplus
}
#endif

#endif /* TRACE_FILTER_PROG_H_INCLUDED */
