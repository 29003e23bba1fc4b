/* SPDX-License-Identifier: MIT */
/*
 * trace/filter.h - field filters in the syntax of the kernel's event
 * filters (Documentation/trace/events.rst, "Event filtering"), for the
 * recorder: "bytes_req > 4096 && cache == \"dentry\"".
 *
 *   expr    := and ( '||' and )*
 *   and     := unary ( '&&' unary )*
 *   unary   := '!' unary | '(' expr ')' | pred
 *   pred    := field op value
 *   op      := '==' | '!=' | '<' | '<=' | '>' | '>=' | '&'    integer fields
 *            | '==' | '!=' | '~'                               string fields
 *   value   := number (decimal, 0x hex, 0 octal, '-' for signed fields)
 *            | "text" | 'text'                                 (no escapes)
 *
 * '!' binds tighter than '&&', '&&' tighter than '||'.  `field & v` holds
 * when (field & v) != 0.  `~` is a glob: '*' any run, '?' one character,
 * '[abc]' '[a-z]' '[!abc]' a class.  String fields are __string()s and char
 * arrays; integer fields are integers, enums, bools and pointers.
 *
 * A filter is compiled once (trace_filter_compile) against an event's
 * fields into a small branch program: one step per comparison, each with
 * the step to go to when it holds and when it does not (so && and || cost
 * nothing of their own, and the first decisive comparison ends the run).
 * trace_filter_match() runs it on a record's payload: no allocation, no
 * lock, no call for integer fields.  The recorder runs the first step
 * between TP_fast_assign and the commit (tp__ev_filter_end, which it jumps
 * to) and gives a rejected record back.  Besides that, pure functions;
 * libc only.
 *
 * This file is the compiler (text to program) only: the recorder's
 * (trace/sink.h, trace/recorder/filters.h) and the tools'.  The program
 * and what runs it (struct trace_filter, trace_filter_match) are
 * trace/filter_prog.h's, which every file that defines events gets through
 * trace/trace_events.h, included here first; the glob of '~' is
 * trace/glob.h's.  Where a filter stands in TRACEPOINTS ("patterns if
 * filter; ...") is trace/pattern.h's grammar: included here too, for the
 * code that took the spec splitter (trace_spec_next) from this file.
 */
#ifndef TRACE_FILTER_H_INCLUDED
#define TRACE_FILTER_H_INCLUDED

#include <trace/trace_events.h>
#include <trace/pattern.h>
#include <trace/near.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TRACE_FILTER_MAX 4096       /* bytes of filter text */
#define TRACE_FILTER_MAX_PREDS 256  /* comparisons in one filter */
#define TRACE_FILTER_MAX_DEPTH 64   /* nested '(' and '!' */

static inline void trace_filter_free(struct trace_filter *f)
{
	free(f);
}

/* ---- The compiler. ---- */

enum tp__flt_node_type { TP__FLT_N_PRED, TP__FLT_N_AND, TP__FLT_N_OR, TP__FLT_N_NOT };

struct tp__flt_node {
	int type;      /* enum tp__flt_node_type */
	unsigned a, b; /* children (nodes), or the step (PRED) */
};

struct tp__flt_parse {
	const char *s;
	size_t i;
	const struct trace_event_field *fields; /* NULL: syntax only */
	unsigned nfields;
	/* The class's tables (trace_event_class.symbols), or NULL: no labels. */
	void (*symbols)(trace_print_symbols_fn fn, void *priv);
	struct tp__flt_op ops[TRACE_FILTER_MAX_PREDS];
	size_t str_at[TRACE_FILTER_MAX_PREDS]; /* where each string operand starts in s */
	unsigned nops;
	struct tp__flt_node nodes[2 * TRACE_FILTER_MAX_PREDS];
	unsigned nnodes;
	unsigned depth;
	size_t strbytes;
	size_t err_pos;
	char *why;
	size_t whylen;
	int err;
};

/* Records the first error: at byte `at`, the reason a + b + c. */
static inline int tp__flt_fail3(struct tp__flt_parse *p, size_t at, const char *a, const char *b,
				const char *c)
{
	if (!p->err) {
		p->err = -EINVAL;
		p->err_pos = at;
		if (p->why && p->whylen)
			snprintf(p->why, p->whylen, "%s%s%s", a, b, c);
	}
	return -1;
}

static inline int tp__flt_fail(struct tp__flt_parse *p, size_t at, const char *why)
{
	return tp__flt_fail3(p, at, why, "", "");
}

static inline void tp__flt_space(struct tp__flt_parse *p)
{
	while (tp__pat_is_space(p->s[p->i]))
		p->i++;
}

static inline int tp__flt_is_name(char c, int first)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       (!first && c >= '0' && c <= '9');
}

static inline int tp__flt_add_node(struct tp__flt_parse *p, int type, unsigned a, unsigned b)
{
	if (p->nnodes == sizeof(p->nodes) / sizeof(p->nodes[0]))
		return tp__flt_fail(p, p->i, "too many conditions");
	p->nodes[p->nnodes].type = type;
	p->nodes[p->nnodes].a = a;
	p->nodes[p->nnodes].b = b;
	return (int)p->nnodes++;
}

/* The field names of the event, for a message. */
static inline void tp__flt_names(const struct tp__flt_parse *p, char *out, size_t len)
{
	unsigned k;
	size_t at = 0;
	out[0] = '\0';
	for (k = 0; k < p->nfields && at + 1 < len; k++) {
		int n = snprintf(out + at, len - at, "%s%s", k ? ", " : "", p->fields[k].name);
		if (n < 0)
			break;
		at += (size_t)n;
	}
	if (p->nfields == 0)
		snprintf(out, len, "none");
}

/* The kind of step a field allows, or -1 (reported) */
static inline int tp__flt_field_kind(struct tp__flt_parse *p, const struct trace_event_field *f,
				     size_t at)
{
	if (f->kind == TRACE_FIELD_STRING)
		return TP__FLT_STR;
	if ((f->kind == TRACE_FIELD_INT || f->kind == TRACE_FIELD_PTR) && f->array_len == 0) {
		switch (f->size) {
		case 1:
			return TP__FLT_INT1;
		case 2:
			return TP__FLT_INT2;
		case 4:
			return TP__FLT_INT4;
		case 8:
			return TP__FLT_INT8;
		default:
			break;
		}
	}
	if (f->kind == TRACE_FIELD_INT && f->array_len && f->size == f->array_len &&
	    (strcmp(f->type, "char") == 0 || strcmp(f->type, "const char") == 0))
		return TP__FLT_CHARS;
	if (f->kind == TRACE_FIELD_FLOAT)
		return tp__flt_fail3(
			p, at, "field ", f->name,
			" is floating point: filters compare integers and strings only");
	if (f->array_len)
		return tp__flt_fail3(
			p, at, "field ", f->name,
			" is an array: filters compare scalar fields, __string()s and char arrays");
	return tp__flt_fail3(p, at, "field ", f->name, " has a type filters do not support");
}

/* The operators of a comparison. */
enum tp__flt_opcode {
	TP__FLT_OP_EQ,
	TP__FLT_OP_NE,
	TP__FLT_OP_LT,
	TP__FLT_OP_LE,
	TP__FLT_OP_GT,
	TP__FLT_OP_GE,
	TP__FLT_OP_AND,
	TP__FLT_OP_GLOB
};

/* The integer step o for `field op v` (v: the value's 64 bits, a
 * negative one two's complement), on field f (NULL: syntax only). */
static inline void tp__flt_int_step(struct tp__flt_op *o, const struct trace_event_field *f,
				    int kind, int is_signed, int op, uint64_t v)
{
	o->kind = (uint8_t)kind;
	if (f) {
		o->shift = (uint8_t)(64 - 8 * f->size);
		o->load_at = (int16_t)(f->offset + f->size - 8);
	}
	if (op == TP__FLT_OP_AND) {
		o->mask = v; /* (z & v) == 0, negated */
		o->v = 1;
		o->negate = 1;
	} else {
		uint64_t sbit = 0, off = 0, c = v;
		if (f && is_signed) {
			sbit = (uint64_t)1 << (f->size * 8 - 1);
			off = ((uint64_t)1 << 63) - sbit;
			c = v + ((uint64_t)1 << 63);
		}
		if (op == TP__FLT_OP_GT || op == TP__FLT_OP_LE) { /* > ; <= is > negated */
			o->x = ~sbit;
			o->add = (uint64_t)0 - off;
			o->v = ~c;
		} else if (op == TP__FLT_OP_EQ || op == TP__FLT_OP_NE) {
			o->x = sbit;
			o->add = off - c;
			o->v = 1;
		} else { /* < ; >= is < negated */
			o->x = sbit;
			o->add = off;
			o->v = c;
		}
		o->negate = op == TP__FLT_OP_NE || op == TP__FLT_OP_LE || op == TP__FLT_OP_GE;
	}
	o->offset = f ? f->offset : 0;
}

/* ---- Labels: the names of a __print_symbolic or __print_flags field. ---- */

/* The table of one field, found through the class's symbols(). */
struct tp__flt_syms {
	const char *name; /* the field's */
	const struct trace_print_flags *tab;
	const char *delim; /* NULL: __print_symbolic */
};

static inline void tp__flt_syms_cb(void *priv, const char *expr, const struct trace_print_flags *t,
				   const char *delim)
{
	struct tp__flt_syms *q = (struct tp__flt_syms *)priv;
	size_t n = 0;
	const char *id = tp__ev_sym_field(expr, &n);
	if (!q->tab && id && strlen(q->name) == n && strncmp(q->name, id, n) == 0) {
		q->tab = t;
		q->delim = delim;
	}
}

/* Fails at `at` for a label lab[0..n) that the table t does not have:
 * the labels, and the nearest one. */
static inline int tp__flt_no_label(struct tp__flt_parse *p, size_t at, const char *field,
				   const char *lab, size_t n, const struct trace_print_flags *t)
{
	char msg[700];
	const char *near = NULL;
	size_t used, best = 4, d;
	int k;
	k = snprintf(msg, sizeof(msg),
		     "no label \"%.*s\" for %s (its labels: ", (int)(n < 64 ? n : 64), lab, field);
	used = k > 0 ? (size_t)k : 0;
	for (k = 0; t[k].name; k++) {
		if (tp__near(lab, n, t[k].name, strlen(t[k].name), &d) && d < best) {
			best = d;
			near = t[k].name;
		}
		if (used + strlen(t[k].name) + 16 < 480) {
			int w = snprintf(msg + used, sizeof(msg) - used, "%s%s", k ? ", " : "",
					 t[k].name);
			used += w > 0 ? (size_t)w : 0;
		} else if (used + 8 < sizeof(msg) && msg[used - 1] != '.') {
			used += (size_t)snprintf(msg + used, sizeof(msg) - used, ", ...");
		}
	}
	if (near)
		snprintf(msg + used, sizeof(msg) - used, "); did you mean \"%.64s\"?", near);
	else
		snprintf(msg + used, sizeof(msg) - used, ")");
	return tp__flt_fail(p, at, msg);
}

/* The value of the label text s[0..len) (at byte `at` of the filter) for
 * field f with the table q: one label of a __print_symbolic table, or
 * labels of a __print_flags table joined by '|' (their bits or'ed).  0
 * and *v, or -1 (reported). */
static inline int tp__flt_label(struct tp__flt_parse *p, const struct trace_event_field *f,
				const struct tp__flt_syms *q, const char *s, size_t len, size_t at,
				uint64_t *v)
{
	size_t i = 0;
	*v = 0;
	for (;;) {
		size_t b, e;
		int k;
		while (i < len && tp__pat_is_space(s[i]))
			i++;
		b = i;
		while (i < len && s[i] != '|')
			i++;
		e = i;
		while (e > b && tp__pat_is_space(s[e - 1]))
			e--;
		if (e == b)
			return tp__flt_fail3(p, at + b, "a label is missing (", f->name,
					     q->delim ? " takes labels joined by '|')"
						      : " takes one label)");
		if (!q->delim && i < len)
			return tp__flt_fail3(p, at + i, "field ", f->name,
					     " takes one label (its labels are values, not "
					     "flags: no '|')");
		for (k = 0; q->tab[k].name; k++)
			if (strlen(q->tab[k].name) == e - b &&
			    memcmp(q->tab[k].name, s + b, e - b) == 0)
				break;
		if (!q->tab[k].name)
			return tp__flt_no_label(p, at + b, f->name, s + b, e - b, q->tab);
		*v |= (uint64_t)q->tab[k].mask;
		if (i == len)
			return 0;
		i++; /* past '|' */
	}
}

/* pred := field op value */
static inline int tp__flt_pred(struct tp__flt_parse *p)
{
	struct tp__flt_op *o;
	size_t name_at, op_at, val_at, n;
	char name[64], opname[3] = { 0, 0, 0 };
	int kind = TP__FLT_INT8, is_signed = 0, op;
	const struct trace_event_field *f = NULL;

	tp__flt_space(p);
	name_at = p->i;
	if (!tp__flt_is_name(p->s[p->i], 1)) {
		if (p->s[p->i] == '\0')
			return tp__flt_fail(
				p, p->i, "unexpected end: a condition (field op value) is missing");
		return tp__flt_fail(p, p->i, "expected a field name");
	}
	while (tp__flt_is_name(p->s[p->i], 0))
		p->i++;
	n = p->i - name_at;
	if (n >= sizeof(name))
		return tp__flt_fail(p, name_at, "field name too long");
	memcpy(name, p->s + name_at, n);
	name[n] = '\0';
	if (p->nops == TRACE_FILTER_MAX_PREDS)
		return tp__flt_fail(p, name_at, "too many conditions (at most 256)");
	if (p->fields) {
		unsigned k;
		for (k = 0; k < p->nfields && !f; k++)
			if (strcmp(p->fields[k].name, name) == 0)
				f = &p->fields[k];
		if (!f) {
			char names[512], msg[800];
			const char *near = NULL;
			size_t best = 4, d;
			for (k = 0; k < p->nfields; k++) {
				if (tp__near(name, n, p->fields[k].name, strlen(p->fields[k].name),
					     &d) &&
				    d < best) {
					best = d;
					near = p->fields[k].name;
				}
			}
			tp__flt_names(p, names, sizeof(names));
			snprintf(msg, sizeof(msg),
				 "no field \"%.64s\" in this event (its fields: %s)%s%.64s%s", name,
				 names, near ? "; did you mean \"" : "", near ? near : "",
				 near ? "\"?" : "");
			return tp__flt_fail(p, name_at, msg);
		}
		kind = tp__flt_field_kind(p, f, name_at);
		if (kind < 0)
			return -1;
		is_signed = f->is_signed && f->kind == TRACE_FIELD_INT;
	}
	tp__flt_space(p);
	op_at = p->i;
	switch (p->s[p->i]) {
	case '=':
		op = p->s[p->i + 1] == '=' ? TP__FLT_OP_EQ : -1;
		break;
	case '!':
		op = p->s[p->i + 1] == '=' ? TP__FLT_OP_NE : -1;
		break;
	case '<':
		op = p->s[p->i + 1] == '=' ? TP__FLT_OP_LE : TP__FLT_OP_LT;
		break;
	case '>':
		op = p->s[p->i + 1] == '=' ? TP__FLT_OP_GE : TP__FLT_OP_GT;
		break;
	case '&':
		op = p->s[p->i + 1] == '&' ? -1 : TP__FLT_OP_AND;
		break;
	case '~':
		op = TP__FLT_OP_GLOB;
		break;
	default:
		op = -1;
		break;
	}
	if (op < 0 && p->s[op_at] == '=')
		return tp__flt_fail(p, op_at, "expected an operator: equality is == (not =)");
	if (op < 0)
		return tp__flt_fail(p, op_at, "expected an operator (== != < <= > >= & ~)");
	p->i += (op == TP__FLT_OP_AND || op == TP__FLT_OP_GLOB || op == TP__FLT_OP_LT ||
		 op == TP__FLT_OP_GT)
			? 1
			: 2;
	memcpy(opname, p->s + op_at, p->i - op_at);
	tp__flt_space(p);
	val_at = p->i;
	o = &p->ops[p->nops];
	memset(o, 0, sizeof(*o));
	o->mask = ~(uint64_t)0;
	if (p->s[p->i] == '"' || p->s[p->i] == '\'') {
		const char *end = strchr(p->s + p->i + 1, p->s[p->i]);
		if (!end)
			return tp__flt_fail(p, val_at, "unterminated string");
		if (p->fields && kind != TP__FLT_STR && kind != TP__FLT_CHARS) {
			struct tp__flt_syms q;
			uint64_t v;
			memset(&q, 0, sizeof(q));
			q.name = f->name;
			if (p->symbols && f->kind == TRACE_FIELD_INT)
				p->symbols(tp__flt_syms_cb, &q);
			if (!q.tab)
				return tp__flt_fail3(
					p, val_at, "field ", f->name,
					p->symbols ? " is an integer without labels (no "
						     "__print_symbolic or __print_flags in "
						     "TP_printk): compare it with a number"
						   : " is an integer: compare it with a number");
			if (op != TP__FLT_OP_EQ && op != TP__FLT_OP_NE &&
			    (op != TP__FLT_OP_AND || !q.delim))
				return tp__flt_fail3(p, op_at, "a label is compared with == or !=",
						     q.delim ? " (or &: any of its bits)" : "", "");
			if (tp__flt_label(p, f, &q, p->s + val_at + 1,
					  (size_t)(end - (p->s + val_at + 1)), val_at + 1, &v) != 0)
				return -1;
			tp__flt_int_step(o, f, kind, is_signed, op, v);
			p->i = (size_t)(end - p->s) + 1;
			return tp__flt_add_node(p, TP__FLT_N_PRED, p->nops++, 0);
		}
		if (p->fields && op != TP__FLT_OP_EQ && op != TP__FLT_OP_NE &&
		    op != TP__FLT_OP_GLOB)
			return tp__flt_fail(p, op_at, "strings are compared with ==, != or ~ only");
		o->kind = (uint8_t)(p->fields ? kind : TP__FLT_STR);
		o->glob = op == TP__FLT_OP_GLOB;
		o->negate = op == TP__FLT_OP_NE;
		o->slen = (uint32_t)(end - (p->s + p->i + 1));
		p->str_at[p->nops] = p->i + 1;
		p->strbytes += o->slen + 1;
		if (f && kind == TP__FLT_CHARS) {
			o->offset = f->offset;
			o->len = f->array_len;
		} else if (f) {
			o->offset = (uint16_t)(f - p->fields);
		}
		p->i = (size_t)(end - p->s) + 1;
	} else if (p->s[p->i] == '-' || (p->s[p->i] >= '0' && p->s[p->i] <= '9')) {
		int neg = p->s[p->i] == '-';
		unsigned base = 10;
		uint64_t v = 0;
		size_t digits_at;
		if (neg)
			p->i++;
		if (p->s[p->i] == '0' && (p->s[p->i + 1] == 'x' || p->s[p->i + 1] == 'X')) {
			base = 16;
			p->i += 2;
		} else if (p->s[p->i] == '0') {
			base = 8;
		}
		digits_at = p->i;
		for (;;) {
			char c = p->s[p->i];
			unsigned d;
			if (c >= '0' && c <= '9')
				d = (unsigned)(c - '0');
			else if (c >= 'a' && c <= 'f')
				d = (unsigned)(c - 'a' + 10);
			else if (c >= 'A' && c <= 'F')
				d = (unsigned)(c - 'A' + 10);
			else
				break;
			if (d >= base)
				return tp__flt_fail(p, p->i,
						    base == 8
							    ? "a digit that is not octal (a number "
							      "starting with 0 is octal)"
							    : "not a digit");
			if (v > (~(uint64_t)0 - d) / base)
				return tp__flt_fail(p, val_at,
						    "number too large (more than 64 bits)");
			v = v * base + d;
			p->i++;
		}
		if (p->i == digits_at)
			return tp__flt_fail(p, p->i, "expected digits");
		if (tp__flt_is_name(p->s[p->i], 0))
			return tp__flt_fail(p, p->i, "not a digit");
		if (p->fields && (kind == TP__FLT_STR || kind == TP__FLT_CHARS))
			return tp__flt_fail3(p, val_at, "field ", f->name,
					     " is a string: put the value in quotes");
		if (p->fields && op == TP__FLT_OP_GLOB)
			return tp__flt_fail(p, op_at, "~ (glob) compares strings only");
		if (!neg && p->fields && is_signed && op != TP__FLT_OP_AND &&
		    v > (~(uint64_t)0 >> 1))
			return tp__flt_fail3(p, val_at, "field ", f->name,
					     " is signed: number too large (more than 2^63 - 1)");
		if (neg) {
			if (p->fields && !is_signed)
				return tp__flt_fail3(p, val_at, "field ", f->name,
						     " is unsigned: no negative number");
			if (v > (uint64_t)1 << 63)
				return tp__flt_fail(p, val_at, "number too small (below -2^63)");
			v = (uint64_t)0 - v;
		}
		tp__flt_int_step(o, f, kind, is_signed, op, v);
	} else {
		if (p->s[p->i] == '\0')
			return tp__flt_fail(p, val_at, "unexpected end: a value is missing");
		if (tp__flt_is_name(p->s[p->i], 1))
			return tp__flt_fail(p, val_at,
					    "expected a value: a number, or a string in quotes "
					    "(field names are not values)");
		return tp__flt_fail(p, val_at, "expected a value: a number, or a string in quotes");
	}
	return tp__flt_add_node(p, TP__FLT_N_PRED, p->nops++, 0);
}

static inline int tp__flt_or(struct tp__flt_parse *p);

/* unary := '!' unary | '(' expr ')' | pred */
static inline int tp__flt_unary(struct tp__flt_parse *p)
{
	int r;
	tp__flt_space(p);
	if (p->s[p->i] != '!' && p->s[p->i] != '(')
		return tp__flt_pred(p);
	if (++p->depth > TRACE_FILTER_MAX_DEPTH)
		return tp__flt_fail(p, p->i, "too deeply nested (at most 64 '(' and '!')");
	if (p->s[p->i] == '!') {
		if (p->s[p->i + 1] == '=')
			return tp__flt_fail(p, p->i, "expected a field name before !=");
		p->i++;
		r = tp__flt_unary(p);
		if (r >= 0)
			r = tp__flt_add_node(p, TP__FLT_N_NOT, (unsigned)r, 0);
	} else {
		size_t open = p->i++;
		r = tp__flt_or(p);
		if (r < 0)
			return r;
		tp__flt_space(p);
		if (p->s[p->i] != ')')
			return tp__flt_fail(p, p->s[p->i] ? p->i : open,
					    p->s[p->i] ? "expected ')' or && or ||"
						       : "this '(' is not closed");
		p->i++;
	}
	p->depth--;
	return r;
}

/* A chain of one rule's operands joined by the two-character operator
 * c c, left to right into nodes of the given type:
 *   and  := unary ( '&&' unary )*
 *   expr := and ( '||' and )* */
static inline int tp__flt_chain(struct tp__flt_parse *p, char c,
				int (*operand)(struct tp__flt_parse *), int type)
{
	int l = operand(p);
	for (;;) {
		int r;
		if (l < 0)
			return l;
		tp__flt_space(p);
		if (p->s[p->i] != c || p->s[p->i + 1] != c)
			return l;
		p->i += 2;
		r = operand(p);
		if (r < 0)
			return r;
		l = tp__flt_add_node(p, type, (unsigned)l, (unsigned)r);
	}
}

static inline int tp__flt_and(struct tp__flt_parse *p)
{
	return tp__flt_chain(p, '&', tp__flt_unary, TP__FLT_N_AND);
}

static inline int tp__flt_or(struct tp__flt_parse *p)
{
	return tp__flt_chain(p, '|', tp__flt_and, TP__FLT_N_OR);
}

/* Links node n's steps: the step where n starts, going to t when n holds
 * and to f when it does not. */
static inline unsigned tp__flt_link(struct tp__flt_parse *p, unsigned n, unsigned t, unsigned f)
{
	const struct tp__flt_node *nd = &p->nodes[n];
	switch (nd->type) {
	case TP__FLT_N_PRED:
		p->ops[nd->a].next[!p->ops[nd->a].negate] = (uint16_t)t;
		p->ops[nd->a].next[p->ops[nd->a].negate] = (uint16_t)f;
		return nd->a;
	case TP__FLT_N_AND:
		return tp__flt_link(p, nd->a, tp__flt_link(p, nd->b, t, f), f);
	case TP__FLT_N_OR:
		return tp__flt_link(p, nd->a, t, tp__flt_link(p, nd->b, t, f));
	default:
		return tp__flt_link(p, nd->a, f, t);
	}
}

/* trace_filter_compile(), with the tables of symbols (NULL: none). */
static inline int tp__flt_compile(const char *text, const struct trace_event_field *fields,
				  unsigned nfields, unsigned fixed,
				  void (*symbols)(trace_print_symbols_fn, void *),
				  struct trace_filter **out, size_t *pos, char *why, size_t whylen)
{
	struct tp__flt_parse *p;
	struct trace_filter *f = NULL;
	size_t len, head, at;
	int root, err;
	unsigned k, start;

	if (out)
		*out = NULL;
	if (why && whylen)
		why[0] = '\0';
	if (!text || (len = strlen(text)) > TRACE_FILTER_MAX) {
		if (pos)
			*pos = text ? TRACE_FILTER_MAX : 0;
		if (why && whylen)
			snprintf(why, whylen,
				 text ? "filter too long (at most %d bytes)" : "no filter (NULL)",
				 TRACE_FILTER_MAX);
		return -EINVAL;
	}
	p = (struct tp__flt_parse *)calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->s = text;
	p->fields = fields;
	p->nfields = nfields;
	p->symbols = fields ? symbols : NULL;
	p->why = why;
	p->whylen = whylen;
	root = tp__flt_or(p);
	if (root >= 0) {
		tp__flt_space(p);
		if (p->s[p->i] == ')')
			tp__flt_fail(p, p->i, "a ')' that closes nothing");
		else if (p->s[p->i] == ',')
			tp__flt_fail(p, p->i,
				     "a ',' in a filter (';' starts the next group of patterns)");
		else if (p->s[p->i])
			tp__flt_fail(p, p->i, "expected && or || (or the end of the filter)");
	}
	if (p->err) {
		err = p->err;
		if (pos)
			*pos = p->err_pos;
		free(p);
		return err;
	}
	if (!fields || !out) {
		free(p);
		return 0;
	}
	head = (sizeof(struct trace_filter) + 7u) & ~(size_t)7u;
	f = (struct trace_filter *)calloc(1, head + p->nops * sizeof(struct tp__flt_op) +
						     p->strbytes + len + 1);
	if (!f) {
		free(p);
		return -ENOMEM;
	}
	start = tp__flt_link(p, (unsigned)root, TP__FLT_KEEP, TP__FLT_DROP);
	at = head + p->nops * sizeof(struct tp__flt_op);
	for (k = 0; k < p->nops; k++) {
		struct tp__flt_op *o = &p->ops[k];
		unsigned j;
		for (j = 0; j < 2; j++) /* step indexes to byte offsets */
			if (o->next[j] < TP__FLT_CALL)
				o->next[j] = (uint16_t)(o->next[j] * sizeof(struct tp__flt_op));
		o->call[0] = o->next[0];
		o->call[1] = o->next[1];
		if (o->kind == TP__FLT_STR || o->kind == TP__FLT_CHARS) {
			o->call[0] = o->call[1] = TP__FLT_CALL;
			o->load_at = -8;
		}
		if (o->kind == TP__FLT_STR || o->kind == TP__FLT_CHARS) {
			char *dst = (char *)f + at;
			memcpy(dst, text + p->str_at[k], o->slen);
			dst[o->slen] = '\0';
			o->str = dst;
			at += o->slen + 1;
		}
	}
	memcpy((char *)f + head, p->ops, p->nops * sizeof(struct tp__flt_op));
	memcpy((char *)f + at, text, len + 1);
	f->ops = (const struct tp__flt_op *)(const void *)((char *)f + head);
	f->first = f->ops + start;
	f->nops = p->nops;
	f->fixed = fixed;
	f->fields = p->fields;
	f->nfields = p->nfields;

	f->text = (char *)f + at;
	free(p);
	*out = f;
	return 0;
}

/*
 * Compiles `text` for an event whose fields are fields[0..nfields) and
 * whose fixed part is `fixed` bytes (its class's entry_size).  0 and *out
 * (free it with trace_filter_free) on success; -EINVAL for a malformed
 * filter, a field the event does not have or a type mismatch, with *pos
 * the 0-based offset of the offending byte and the reason in why[0..whylen)
 * (any of pos, why may be NULL); -ENOMEM.  fields == NULL checks the syntax
 * only (any field name, any value): 0 then, and *out, if out is not NULL,
 * is set to NULL.  Labels ("PUT") are not known here: see
 * trace_filter_compile_event.
 */
static inline int trace_filter_compile(const char *text, const struct trace_event_field *fields,
				       unsigned nfields, unsigned fixed, struct trace_filter **out,
				       size_t *pos, char *why, size_t whylen)
{
	return tp__flt_compile(text, fields, nfields, fixed, NULL, out, pos, why, whylen);
}

/*
 * Compiles `text` for the events of class cls (its fields, entry_size and
 * TP_printk tables), as the recorder does: as trace_filter_compile, and an
 * integer field that TP_printk shows through __print_symbolic or
 * __print_flags (its value alone: __print_symbolic(__entry->method, ...))
 * also takes its labels in quotes: `method == "PUT"`, `method != "GET"`,
 * `flags & "WRITE"` (any of the bits), `flags == "READ|WRITE"` (exactly
 * those bits), compiled to the numbers.  An unknown label is -EINVAL with
 * the labels and the nearest one in why.
 */
static inline int trace_filter_compile_event(const char *text, const struct trace_event_class *cls,
					     struct trace_filter **out, size_t *pos, char *why,
					     size_t whylen)
{
	unsigned n = 0;
	const struct trace_event_field *fl = cls->fields(&n);
	return tp__flt_compile(text, fl, n, cls->entry_size, cls->symbols, out, pos, why, whylen);
}

#ifdef __cplusplus
}
#endif

#endif /* TRACE_FILTER_H_INCLUDED */
