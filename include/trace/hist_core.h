/* SPDX-License-Identifier: MIT */
/*
 * trace/hist_core.h - the kernel's hist triggers without the kernel: the
 * trigger text ("hist:keys=pid,comm:vals=bytes:sort=bytes.descending:
 * size=4096"), checked against an event's fields into a struct
 * trace_hist_spec; a bounded hash table of entries (key, hitcount, sums);
 * the key modifiers; and the text of the kernel's `hist` file, sorted.
 *
 *   trigger := 'hist' ( ':' attr )*
 *   attr    := ('keys'|'key') '=' ref (',' ref)*       1 to 3 keys
 *            | ('vals'|'values') '=' ref (',' ref)*    0 to 8 sums
 *            | 'sort' '=' sref (',' sref)               1 or 2
 *            | 'size' '=' number                        entries, default 2048
 *            | 'name' '=' name                          histograms shared by name
 *            | 'pause' | 'continue' | 'cont' | 'clear'  of the trigger with the same text
 *            | var '=' operand [ ('-'|'+') operand ]    a variable (0 to 8)
 *            | 'onmatch(' system '.' event ')' '.' ( 'trace(' synth ',' | synth '(' )
 *                  param ( ',' param )* ')'             at most once
 *   operand := ref | '$' var
 *   param   := field | '$' var                          1 to 8
 *   ref     := field ( '.' mod )*
 *   mod     := 'hex' | 'log2' | 'buckets=' number | 'usecs' | 'sym' | 'sym-offset'
 *            | 'execname'                               common_pid or common_tid
 *   sref    := ('hitcount' | a key's or a value's field) [ '.ascending' | '.descending' ]
 *   field   := an event field, 'common_timestamp', 'common_pid' or 'common_tid'
 *
 * Why a file: the recorder (trace/recorder/hist.h) aggregates inside the
 * traced program and tracepoint-dump --hist aggregates a recorded trace;
 * both parse the same text, key and sum the same way and print the same
 * file, so the one can be checked against the other entry by entry.  Each
 * caller reads a field's value its own way (a record in memory, a trace
 * on disk) and hands this file numbers and strings.
 *
 * Who includes it: trace/recorder/hist.h (the recorder) and
 * tools/dump/hist.c (the reader, by a relative path).  C99, libc only:
 * nothing of this library, so the tools can take it alone.
 */
#ifndef TRACE_HIST_CORE_H_INCLUDED
#define TRACE_HIST_CORE_H_INCLUDED

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

enum trace_hist_limits {
	TRACE_HIST_KEYS_MAX = 3,
	TRACE_HIST_VALS_MAX = 8,
	TRACE_HIST_SORT_MAX = 2,
	TRACE_HIST_SIZE_DEFAULT = 2048,
	TRACE_HIST_SIZE_MAX = 131072, /* the kernel's TRACING_MAP_BITS_MAX: 2^17 */
	TRACE_HIST_STR_BYTES = 64,    /* a string key: at most 63 bytes, NUL-padded */
	TRACE_HIST_STR_WORDS = TRACE_HIST_STR_BYTES / 8,
	TRACE_HIST_NAME_MAX = 64,   /* bytes of a field name, with its NUL */
	TRACE_HIST_TEXT_MAX = 1024, /* bytes of trigger text */
	TRACE_HIST_VARS_MAX = 8,    /* variables of a trigger */
	TRACE_HIST_COMM_BYTES = 16, /* .execname: a thread's name, NUL-padded */
	TRACE_HIST_PARAMS_MAX = 8   /* fields of a synthetic event */
};

/* A field as the caller describes the event's fields to the parser. */
enum trace_hist_fkind {
	TRACE_HIST_F_INT = 1, /* an integer (1, 2, 4 or 8 bytes), pointer, enum, bool */
	TRACE_HIST_F_STR = 2  /* a __string() or a char array */
};
struct trace_hist_fdesc {
	const char *name;
	unsigned char kind; /* enum trace_hist_fkind; 0: neither (not usable) */
	unsigned char is_signed;
};

/* The fields every event has, after the event's own (ref.field). */
enum trace_hist_common {
	TRACE_HIST_COMMON_TIMESTAMP = 0xfff0, /* ns, the caller's clock */
	TRACE_HIST_COMMON_PID = 0xfff1,
	TRACE_HIST_COMMON_TID = 0xfff2
};

/* Modifiers of a key or a value (bits of ref.mods). */
enum trace_hist_mod {
	TRACE_HIST_M_HEX = 1,
	TRACE_HIST_M_LOG2 = 2,
	TRACE_HIST_M_BUCKETS = 4,
	TRACE_HIST_M_USECS = 8,
	TRACE_HIST_M_SYM = 16,	   /* an address, printed with its symbol (read time) */
	TRACE_HIST_M_SYMOFF = 32,  /* the same, with +0xoffset */
	TRACE_HIST_M_EXECNAME = 64 /* a thread id, with the thread's name (the key's next
				    * TRACE_HIST_COMM_BYTES: the caller's) */
};
/* The modifiers that say how a key is shown: at most one of them. */
#define TRACE_HIST_M_SHOWN                                                             \
	(TRACE_HIST_M_HEX | TRACE_HIST_M_LOG2 | TRACE_HIST_M_BUCKETS | TRACE_HIST_M_SYM | \
	 TRACE_HIST_M_SYMOFF | TRACE_HIST_M_EXECNAME)

/* What a trigger's ':pause' or ':continue' asks of the trigger with the
 * same text (spec.cmd; the text leaves them out). */
enum trace_hist_cmd {
	TRACE_HIST_CMD_NONE = 0,
	TRACE_HIST_CMD_PAUSE = 1,    /* stop aggregating (made paused if new) */
	TRACE_HIST_CMD_CONTINUE = 2, /* aggregate again */
	TRACE_HIST_CMD_CLEAR = 3     /* empty its tables */
};

/* What a sort entry sorts by. */
enum trace_hist_sort_by {
	TRACE_HIST_SORT_HITCOUNT = 0,
	TRACE_HIST_SORT_KEY = 1, /* + index */
	TRACE_HIST_SORT_VAL = 16 /* + index */
};

struct trace_hist_ref {
	unsigned field;	    /* index in the caller's fields, or enum trace_hist_common */
	unsigned mods;	    /* enum trace_hist_mod bits */
	uint64_t buckets;   /* .buckets=N */
	unsigned char kind; /* enum trace_hist_fkind */
	unsigned char is_signed;
	unsigned word; /* keys: where the key's words begin */
	char name[TRACE_HIST_NAME_MAX];
};

/* An operand of a variable's expression, or a parameter of onmatch's
 * trace(): a field (ref), or a variable ($name: is_var, its name in
 * ref.name).  The variable is found when the trigger is attached. */
struct trace_hist_operand {
	struct trace_hist_ref ref;
	unsigned char is_var;
};

/* A variable: name=a, name=a-b or name=a+b (op 0, '-' or '+'). */
struct trace_hist_var {
	char name[TRACE_HIST_NAME_MAX];
	struct trace_hist_operand a, b;
	char op;
};

/* onmatch(system.event).trace(synth,params...): the event's trigger with
 * variables holds an entry of the same key, whose variables this
 * trigger reads (once), and then the synthetic event `synth` fires with
 * the params as its fields. */
struct trace_hist_onmatch {
	char system[TRACE_HIST_NAME_MAX], event[TRACE_HIST_NAME_MAX];
	char synth[TRACE_HIST_NAME_MAX];
	struct trace_hist_operand param[TRACE_HIST_PARAMS_MAX];
	unsigned nparams;
};

struct trace_hist_spec {
	struct trace_hist_ref key[TRACE_HIST_KEYS_MAX];
	struct trace_hist_ref val[TRACE_HIST_VALS_MAX];
	unsigned nkeys, nvals;
	unsigned sort[TRACE_HIST_SORT_MAX]; /* enum trace_hist_sort_by */
	unsigned char desc[TRACE_HIST_SORT_MAX];
	unsigned nsort;
	unsigned size;	   /* entries at most */
	unsigned cmd;	   /* enum trace_hist_cmd: ':pause' or ':continue' */
	unsigned keywords; /* 8-byte words of a key */
	unsigned stride;   /* words of an entry: hitcount, sums, key */
	struct trace_hist_var var[TRACE_HIST_VARS_MAX];
	unsigned nvars;
	unsigned has_onmatch;
	struct trace_hist_onmatch onmatch;
	char hname[TRACE_HIST_NAME_MAX]; /* name=: triggers of one name share the table */
	char text[TRACE_HIST_TEXT_MAX];	 /* the trigger, written in full */
};

/* ---- Parsing ---- */

struct tp__hist_parse {
	const char *s;
	size_t n, i;
	const struct trace_hist_fdesc *f;
	unsigned nf;
	char *err;
	size_t errlen;
	size_t *pos;
};

/* "the fields of the event are: a, b, c" */
static inline void tp__hist_names(const struct tp__hist_parse *p, char *out, size_t len)
{
	size_t at = 0;
	unsigned k;
	at += (size_t)snprintf(out, len, "common_timestamp, common_pid, common_tid");
	for (k = 0; k < p->nf && at < len; k++)
		if (p->f[k].kind)
			at += (size_t)snprintf(out + at, len - at, ", %s", p->f[k].name);
}

static inline int tp__hist_fail(struct tp__hist_parse *p, size_t at, size_t tlen, const char *why,
				int list_fields)
{
	char names[512];
	if (p->pos)
		*p->pos = at;
	if (p->err && p->errlen) {
		if (list_fields)
			tp__hist_names(p, names, sizeof(names));
		snprintf(p->err, p->errlen, "%s \"%.*s\"%s%s", why, (int)(tlen > 64 ? 64 : tlen),
			 p->s + at, list_fields ? " (the event's fields: " : "",
			 list_fields ? names : "");
		if (list_fields) {
			size_t l = strlen(p->err);
			if (l + 1 < p->errlen)
				snprintf(p->err + l, p->errlen - l, ")");
		}
	}
	return -EINVAL;
}

static inline int tp__hist_is_name(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/* A decimal (or 0x hex) number at p->s[p->i]: 0 and *v, or -1. */
static inline int tp__hist_number(struct tp__hist_parse *p, uint64_t *v)
{
	size_t i = p->i;
	uint64_t x = 0;
	int base = 10, any = 0;
	if (i + 1 < p->n && p->s[i] == '0' && (p->s[i + 1] == 'x' || p->s[i + 1] == 'X')) {
		base = 16;
		i += 2;
	}
	for (; i < p->n; i++) {
		char c = p->s[i];
		unsigned d;
		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (base == 16 && c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			break;
		if (x > (UINT64_MAX - d) / (unsigned)base)
			return -1;
		x = x * (unsigned)base + d;
		any = 1;
	}
	if (!any)
		return -1;
	p->i = i;
	*v = x;
	return 0;
}

/* One field reference with its modifiers; is_key: a key (modifiers allowed
 * differ a little). */
static inline int tp__hist_ref(struct tp__hist_parse *p, struct trace_hist_ref *r, int is_key)
{
	size_t b = p->i;
	unsigned k;
	memset(r, 0, sizeof(*r));
	while (p->i < p->n && tp__hist_is_name(p->s[p->i]))
		p->i++;
	if (p->i == b)
		return tp__hist_fail(
			p, b, 1, is_key ? "expected a key field at" : "expected a value field at",
			0);
	if (p->i - b >= TRACE_HIST_NAME_MAX)
		return tp__hist_fail(p, b, p->i - b, "field name too long:", 0);
	memcpy(r->name, p->s + b, p->i - b);
	r->name[p->i - b] = '\0';
	if (!strcmp(r->name, "common_timestamp")) {
		r->field = TRACE_HIST_COMMON_TIMESTAMP;
		r->kind = TRACE_HIST_F_INT;
	} else if (!strcmp(r->name, "common_pid")) {
		r->field = TRACE_HIST_COMMON_PID;
		r->kind = TRACE_HIST_F_INT;
	} else if (!strcmp(r->name, "common_tid")) {
		r->field = TRACE_HIST_COMMON_TID;
		r->kind = TRACE_HIST_F_INT;
	} else {
		for (k = 0; k < p->nf; k++)
			if (p->f[k].kind && !strcmp(p->f[k].name, r->name))
				break;
		if (k == p->nf)
			return tp__hist_fail(p, b, p->i - b, "no field", 1);
		r->field = k;
		r->kind = p->f[k].kind;
		r->is_signed = p->f[k].is_signed;
	}
	if (!is_key && r->kind != TRACE_HIST_F_INT)
		return tp__hist_fail(p, b, p->i - b,
				     "a value must be a number, not the string field", 1);
	while (p->i < p->n && p->s[p->i] == '.') {
		size_t m = ++p->i, ml;
		while (p->i < p->n && tp__hist_is_name(p->s[p->i]))
			p->i++;
		ml = p->i - m;
#define TP__HIST_IS(w) (ml == sizeof(w) - 1 && !memcmp(p->s + m, w, ml))
		if (TP__HIST_IS("hex")) {
			r->mods |= TRACE_HIST_M_HEX;
		} else if (TP__HIST_IS("log2") && is_key) {
			r->mods |= TRACE_HIST_M_LOG2;
		} else if (TP__HIST_IS("sym") && is_key) {
			if (p->n - p->i >= 7 && !memcmp(p->s + p->i, "-offset", 7)) {
				p->i += 7;
				r->mods |= TRACE_HIST_M_SYMOFF;
			} else {
				r->mods |= TRACE_HIST_M_SYM;
			}
		} else if (TP__HIST_IS("execname") && is_key &&
			   (r->field == TRACE_HIST_COMMON_PID ||
			    r->field == TRACE_HIST_COMMON_TID)) {
			r->mods |= TRACE_HIST_M_EXECNAME;
		} else if (TP__HIST_IS("usecs") && r->field == TRACE_HIST_COMMON_TIMESTAMP) {
			r->mods |= TRACE_HIST_M_USECS;
		} else if (TP__HIST_IS("buckets") && is_key) {
			if (p->i >= p->n || p->s[p->i] != '=')
				return tp__hist_fail(p, m, ml, "expected '=N' after", 0);
			p->i++;
			if (tp__hist_number(p, &r->buckets) != 0 || r->buckets == 0)
				return tp__hist_fail(p, p->i, 1,
						     "expected a bucket size (a number > 0) at", 0);
			r->mods |= TRACE_HIST_M_BUCKETS;
		} else {
			return tp__hist_fail(
				p, m, ml ? ml : 1,
				r->field == TRACE_HIST_COMMON_TIMESTAMP || ml != 5 ||
						memcmp(p->s + m, "usecs", 5)
					? "unknown or misplaced modifier (hex, log2, "
					  "buckets=N, sym, sym-offset, execname, usecs)"
					: "usecs is for common_timestamp only:",
				0);
		}
#undef TP__HIST_IS
		if (r->kind == TRACE_HIST_F_STR && r->mods)
			return tp__hist_fail(p, m, ml, "a string key takes no modifier:", 0);
	}
	if ((r->mods & TRACE_HIST_M_SHOWN) & ((r->mods & TRACE_HIST_M_SHOWN) - 1))
		return tp__hist_fail(
			p, b, p->i - b,
			"one of hex, log2, buckets, sym, sym-offset, execname at most:", 0);
	return 0;
}

/* A name (letters, digits, '_') at p->i into out: its length, 0 if none
 * or too long. */
static inline size_t tp__hist_name(struct tp__hist_parse *p, char *out)
{
	size_t b = p->i;
	while (p->i < p->n && tp__hist_is_name(p->s[p->i]))
		p->i++;
	if (p->i == b || p->i - b >= TRACE_HIST_NAME_MAX)
		return 0;
	memcpy(out, p->s + b, p->i - b);
	out[p->i - b] = '\0';
	return p->i - b;
}

/* An operand: '$var' or a numeric field with its modifiers. */
static inline int tp__hist_operand(struct tp__hist_parse *p, struct trace_hist_operand *o)
{
	memset(o, 0, sizeof(*o));
	if (p->i < p->n && p->s[p->i] == '$') {
		size_t b = ++p->i;
		o->is_var = 1;
		if (!tp__hist_name(p, o->ref.name))
			return tp__hist_fail(p, b, 1, "expected a variable's name after '$' at", 0);
		return 0;
	}
	return tp__hist_ref(p, &o->ref, 0);
}

/* var=operand[-operand|+operand] at p->i (the name already read). */
static inline int tp__hist_var(struct tp__hist_parse *p, struct trace_hist_spec *s, size_t a)
{
	struct trace_hist_var *v;
	unsigned k;
	if (s->nvars == TRACE_HIST_VARS_MAX)
		return tp__hist_fail(p, a, 1, "more than 8 variables at", 0);
	v = &s->var[s->nvars];
	memset(v, 0, sizeof(*v));
	if (!tp__hist_name(p, v->name))
		return tp__hist_fail(p, a, 1, "expected a variable's name at", 0);
	for (k = 0; k < s->nvars; k++)
		if (!strcmp(s->var[k].name, v->name))
			return tp__hist_fail(p, a, p->i - a, "variable given twice:", 0);
	p->i++; /* '=' */
	if (tp__hist_operand(p, &v->a))
		return -EINVAL;
	if (p->i < p->n && (p->s[p->i] == '-' || p->s[p->i] == '+')) {
		v->op = p->s[p->i++];
		if (tp__hist_operand(p, &v->b))
			return -EINVAL;
	}
	s->nvars++;
	return 0;
}

/* onmatch(system.event).trace(synth,params) or .synth(params), at p->i
 * past "onmatch". */
static inline int tp__hist_onmatch(struct tp__hist_parse *p, struct trace_hist_spec *s, size_t a)
{
	struct trace_hist_onmatch *m = &s->onmatch;
	size_t b;
	if (s->has_onmatch)
		return tp__hist_fail(p, a, 7, "onmatch given twice:", 0);
	memset(m, 0, sizeof(*m));
	if (p->i >= p->n || p->s[p->i] != '(')
		return tp__hist_fail(p, p->i, 1, "expected '(' at", 0);
	p->i++;
	b = p->i;
	if (!tp__hist_name(p, m->system) || p->i >= p->n || p->s[p->i] != '.')
		return tp__hist_fail(p, b, 1, "expected system.event at", 0);
	p->i++;
	b = p->i;
	if (!tp__hist_name(p, m->event) || p->i >= p->n || p->s[p->i] != ')')
		return tp__hist_fail(p, b, 1, "expected an event name and ')' at", 0);
	p->i++;
	if (p->i >= p->n || p->s[p->i] != '.')
		return tp__hist_fail(p, p->i, 1, "expected '.trace(' at", 0);
	p->i++;
	b = p->i;
	if (!tp__hist_name(p, m->synth) || p->i >= p->n || p->s[p->i] != '(')
		return tp__hist_fail(p, b, 1, "expected trace(name,... or name(... at", 0);
	p->i++;
	if (!strcmp(m->synth, "trace")) {
		b = p->i;
		if (!tp__hist_name(p, m->synth) || p->i >= p->n || p->s[p->i] != ',')
			return tp__hist_fail(p, b, 1,
					     "expected the synthetic event's name and ',' at", 0);
		p->i++;
	}
	for (;;) {
		if (m->nparams == TRACE_HIST_PARAMS_MAX)
			return tp__hist_fail(p, p->i, 1, "more than 8 parameters at", 0);
		if (tp__hist_operand(p, &m->param[m->nparams]))
			return -EINVAL;
		if (!m->param[m->nparams].is_var && m->param[m->nparams].ref.mods)
			return tp__hist_fail(p, p->i, 1, "a parameter takes no modifier, at", 0);
		m->nparams++;
		if (p->i < p->n && p->s[p->i] == ',') {
			p->i++;
			continue;
		}
		if (p->i < p->n && p->s[p->i] == ')')
			break;
		return tp__hist_fail(p, p->i, 1, "expected ',' or ')' at", 0);
	}
	p->i++;
	s->has_onmatch = 1;
	return 0;
}

/* An attribute's name at p->i up to '=' (or ':' / end for a bare word). */
static inline int tp__hist_word(struct tp__hist_parse *p, const char *w)
{
	size_t l = strlen(w);
	return p->n - p->i >= l && !memcmp(p->s + p->i, w, l) &&
	       (p->i + l == p->n || !tp__hist_is_name(p->s[p->i + l]));
}

/* Past an attribute's name (len bytes at p->i) and its '=': 0, or the
 * error (said) when the '=' is missing. */
static inline int tp__hist_equals(struct tp__hist_parse *p, size_t len)
{
	p->i += len;
	if (p->i >= p->n || p->s[p->i] != '=')
		return tp__hist_fail(p, p->i, 1, "expected '=' at", 0);
	return 0;
}

/* An attribute given once: its name (len bytes at a) is not one of an
 * attribute already read (given), then '='.  0, or the error (said). */
static inline int tp__hist_attr_once(struct tp__hist_parse *p, size_t a, int given,
				     const char *twice, size_t len)
{
	if (given)
		return tp__hist_fail(p, a, 4, twice, 0);
	return tp__hist_equals(p, len);
}

/* Appends an operand ($var, or a field with its modifiers) at *at. */
static inline void tp__hist_operand_text(const struct trace_hist_operand *o, char *out, size_t cap,
					 size_t *at)
{
	if (*at >= cap)
		return;
	*at += (size_t)snprintf(out + *at, cap - *at, "%s%s%s%s", o->is_var ? "$" : "", o->ref.name,
				o->ref.mods & TRACE_HIST_M_USECS ? ".usecs" : "",
				o->ref.mods & TRACE_HIST_M_HEX ? ".hex" : "");
}

/* Writes spec->text: the trigger in full, as the kernel shows it. */
static inline void tp__hist_spec_text(struct trace_hist_spec *s)
{
	static const char *const modn[] = { "hex", "log2",	 "buckets", "usecs",
					    "sym", "sym-offset", "execname" };
	size_t at = 0, cap = sizeof(s->text);
	unsigned i, m;
#define TP__HIST_PUT(...)                                                         \
	do {                                                                      \
		if (at < cap)                                                     \
			at += (size_t)snprintf(s->text + at, cap - at, __VA_ARGS__); \
	} while (0)
	TP__HIST_PUT("hist:");
	if (s->hname[0])
		TP__HIST_PUT("name=%s:", s->hname);
	TP__HIST_PUT("keys=");
	for (i = 0; i < s->nkeys; i++) {
		TP__HIST_PUT("%s%s", i ? "," : "", s->key[i].name);
		for (m = 0; m < sizeof(modn) / sizeof(modn[0]); m++)
			if (s->key[i].mods & (1u << m)) {
				TP__HIST_PUT(".%s", modn[m]);
				if ((1u << m) == TRACE_HIST_M_BUCKETS)
					TP__HIST_PUT("=%llu",
						     (unsigned long long)s->key[i].buckets);
			}
	}
	TP__HIST_PUT(":vals=hitcount");
	for (i = 0; i < s->nvals; i++)
		TP__HIST_PUT(",%s%s", s->val[i].name,
			     s->val[i].mods & TRACE_HIST_M_HEX ? ".hex" : "");
	for (i = 0; i < s->nvars; i++) {
		const struct trace_hist_var *v = &s->var[i];
		TP__HIST_PUT(":%s=", v->name);
		tp__hist_operand_text(&v->a, s->text, cap, &at);
		if (v->op) {
			TP__HIST_PUT("%c", v->op);
			tp__hist_operand_text(&v->b, s->text, cap, &at);
		}
	}
	TP__HIST_PUT(":sort=");
	for (i = 0; i < s->nsort; i++) {
		unsigned b = s->sort[i];
		TP__HIST_PUT("%s%s%s", i ? "," : "",
			     b == TRACE_HIST_SORT_HITCOUNT ? "hitcount"
			     : b >= TRACE_HIST_SORT_VAL	   ? s->val[b - TRACE_HIST_SORT_VAL].name
							   : s->key[b - TRACE_HIST_SORT_KEY].name,
			     s->desc[i] ? ".descending" : "");
	}
	TP__HIST_PUT(":size=%u", s->size);
	if (s->has_onmatch) {
		TP__HIST_PUT(":onmatch(%s.%s).trace(%s", s->onmatch.system, s->onmatch.event,
			     s->onmatch.synth);
		for (i = 0; i < s->onmatch.nparams; i++) {
			TP__HIST_PUT(",");
			tp__hist_operand_text(&s->onmatch.param[i], s->text, cap, &at);
		}
		TP__HIST_PUT(")");
	}
#undef TP__HIST_PUT
}

/*
 * Parses text[0..n) ("hist:..."; no 'if': the filter is the caller's)
 * against the event's fields f[0..nf).  0, or -EINVAL with *pos the offset
 * of the bad token and a message naming it (and the event's fields when a
 * field is unknown) in err.
 */
static inline int trace_hist_parse(const char *text, size_t n, const struct trace_hist_fdesc *f,
				   unsigned nf, struct trace_hist_spec *s, size_t *pos, char *err,
				   size_t errlen)
{
	struct tp__hist_parse p;
	unsigned i, have_sort = 0;
	memset(s, 0, sizeof(*s));
	memset(&p, 0, sizeof(p));
	p.s = text ? text : "";
	p.n = text ? n : 0;
	p.f = f;
	p.nf = nf;
	p.err = err;
	p.errlen = errlen;
	p.pos = pos;
	if (err && errlen)
		err[0] = '\0';
	s->size = TRACE_HIST_SIZE_DEFAULT;
	if (!tp__hist_word(&p, "hist"))
		return tp__hist_fail(&p, 0, 4, "a trigger starts with 'hist', not", 0);
	p.i = 4;
	while (p.i < p.n) {
		size_t a;
		if (p.s[p.i] != ':')
			return tp__hist_fail(&p, p.i, 1, "expected ':' at", 0);
		p.i++;
		a = p.i;
		if (tp__hist_word(&p, "keys") || tp__hist_word(&p, "key")) {
			if (tp__hist_attr_once(&p, a, s->nkeys != 0,
					       "keys given twice:", p.s[a + 3] == 's' ? 4 : 3))
				return -EINVAL;
			do {
				p.i++;
				if (s->nkeys == TRACE_HIST_KEYS_MAX)
					return tp__hist_fail(&p, p.i, 1, "more than 3 keys at", 0);
				if (tp__hist_ref(&p, &s->key[s->nkeys], 1))
					return -EINVAL;
				s->key[s->nkeys].word = s->keywords;
				s->keywords += s->key[s->nkeys].kind == TRACE_HIST_F_STR
						       ? TRACE_HIST_STR_WORDS
						       : 1;
				if (s->key[s->nkeys].mods & TRACE_HIST_M_EXECNAME)
					s->keywords += TRACE_HIST_COMM_BYTES / 8;
				s->nkeys++;
			} while (p.i < p.n && p.s[p.i] == ',');
		} else if (tp__hist_word(&p, "vals") || tp__hist_word(&p, "values")) {
			if (tp__hist_attr_once(&p, a, s->nvals != 0,
					       "vals given twice:", p.s[a + 3] == 's' ? 4 : 6))
				return -EINVAL;
			do {
				p.i++;
				if (tp__hist_word(&p, "hitcount")) { /* always there */
					p.i += 8;
					continue;
				}
				if (s->nvals == TRACE_HIST_VALS_MAX)
					return tp__hist_fail(&p, p.i, 1, "more than 8 values at",
							     0);
				if (tp__hist_ref(&p, &s->val[s->nvals], 0))
					return -EINVAL;
				s->nvals++;
			} while (p.i < p.n && p.s[p.i] == ',');
		} else if (tp__hist_word(&p, "sort")) {
			if (tp__hist_attr_once(&p, a, have_sort != 0, "sort given twice:", 4))
				return -EINVAL;
			have_sort = 1;
			do {
				size_t b = ++p.i, l;
				char nm[TRACE_HIST_NAME_MAX];
				if (s->nsort == TRACE_HIST_SORT_MAX)
					return tp__hist_fail(&p, b, 1, "more than 2 sort fields at",
							     0);
				while (p.i < p.n && tp__hist_is_name(p.s[p.i]))
					p.i++;
				l = p.i - b;
				if (!l || l >= sizeof(nm))
					return tp__hist_fail(&p, b, l ? l : 1,
							     "expected a sort field at", 0);
				memcpy(nm, p.s + b, l);
				nm[l] = '\0';
				s->sort[s->nsort] = 0xffff;
				if (!strcmp(nm, "hitcount"))
					s->sort[s->nsort] = TRACE_HIST_SORT_HITCOUNT;
				/* checked against keys and values once all are read */
				s->desc[s->nsort] = 0;
				if (p.i < p.n && p.s[p.i] == '.') {
					size_t m = ++p.i;
					while (p.i < p.n && tp__hist_is_name(p.s[p.i]))
						p.i++;
					if (p.i - m == 10 && !memcmp(p.s + m, "descending", 10))
						s->desc[s->nsort] = 1;
					else if (!(p.i - m == 9 &&
						   !memcmp(p.s + m, "ascending", 9)))
						return tp__hist_fail(
							&p, m, p.i - m ? p.i - m : 1,
							"expected ascending or descending, not", 0);
				}
				if (s->sort[s->nsort] == 0xffff) {
					/* remember the name's place: resolved below */
					s->sort[s->nsort] = 0x10000u + (unsigned)b;
				}
				s->nsort++;
			} while (p.i < p.n && p.s[p.i] == ',');
		} else if (tp__hist_word(&p, "pause") || tp__hist_word(&p, "continue") ||
			   tp__hist_word(&p, "cont") || tp__hist_word(&p, "clear")) {
			if (s->cmd)
				return tp__hist_fail(&p, a, 5,
						     "pause, continue or clear given twice:", 0);
			s->cmd = p.s[a] == 'p'	     ? TRACE_HIST_CMD_PAUSE
				 : p.s[a + 1] == 'l' ? TRACE_HIST_CMD_CLEAR
						     : TRACE_HIST_CMD_CONTINUE;
			if (p.s[a] == 'p' || s->cmd == TRACE_HIST_CMD_CLEAR)
				p.i += 5;
			else if (tp__hist_word(&p, "cont"))
				p.i += 4;
			else
				p.i += 8;
		} else if (tp__hist_word(&p, "name") && p.i + 4 < p.n && p.s[p.i + 4] == '=') {
			size_t b;
			if (s->hname[0])
				return tp__hist_fail(&p, a, 4, "name given twice:", 0);
			p.i += 5;
			b = p.i;
			if (!tp__hist_name(&p, s->hname))
				return tp__hist_fail(&p, b, 1, "expected a histogram's name at", 0);
		} else if (tp__hist_word(&p, "size")) {
			uint64_t v;
			size_t b;
			if (tp__hist_equals(&p, 4))
				return -EINVAL;
			b = ++p.i;
			if (tp__hist_number(&p, &v) != 0 || v == 0 || v > TRACE_HIST_SIZE_MAX)
				return tp__hist_fail(&p, b, p.i > b ? p.i - b : 1,
						     "expected a size from 1 to 131072, not", 0);
			s->size = (unsigned)v;
		} else if (tp__hist_word(&p, "onmatch")) {
			p.i += 7;
			if (tp__hist_onmatch(&p, s, a))
				return -EINVAL;
		} else {
			size_t l = 0;
			while (a + l < p.n && tp__hist_is_name(p.s[a + l]))
				l++;
			if (l && a + l < p.n && p.s[a + l] == '=') {
				if (tp__hist_var(&p, s, a))
					return -EINVAL;
				continue;
			}
			while (a + l < p.n && p.s[a + l] != ':' && p.s[a + l] != '=')
				l++;
			return tp__hist_fail(
				&p, a, l ? l : 1,
				"unknown attribute (keys=, vals=, sort=, size=, name=, pause, "
				"continue, clear, onmatch(), var=):",
				0);
		}
	}
	if (!s->nkeys)
		return tp__hist_fail(&p, p.n, 0, "no keys= in the trigger", 0);
	if (!s->nsort) {
		s->nsort = 1;
		s->sort[0] = TRACE_HIST_SORT_HITCOUNT;
	}
	for (i = 0; i < s->nsort; i++) {
		size_t b, l = 0;
		unsigned k;
		if (s->sort[i] < 0x10000u)
			continue;
		b = s->sort[i] - 0x10000u;
		while (b + l < p.n && tp__hist_is_name(p.s[b + l]))
			l++;
		for (k = 0; k < s->nkeys; k++)
			if (strlen(s->key[k].name) == l && !memcmp(s->key[k].name, p.s + b, l))
				break;
		if (k < s->nkeys) {
			s->sort[i] = TRACE_HIST_SORT_KEY + k;
			continue;
		}
		for (k = 0; k < s->nvals; k++)
			if (strlen(s->val[k].name) == l && !memcmp(s->val[k].name, p.s + b, l))
				break;
		if (k == s->nvals)
			return tp__hist_fail(&p, b, l, "sort by hitcount, a key or a value, not",
					     0);
		s->sort[i] = TRACE_HIST_SORT_VAL + k;
	}
	s->stride = 1 + s->nvals + s->keywords;
	tp__hist_spec_text(s);
	return 0;
}

/* Do trigger s's keys match those of m, the trigger its onmatch() names
 * (as many, of the same kinds)?  0, or -1 with why (the recorder's
 * tp__hist_link and tracepoint-dump --hist ask alike). */
static inline int tp__hist_keys_like(const struct trace_hist_spec *s,
				     const struct trace_hist_spec *m, char *why, size_t len)
{
	unsigned k;
	if (m->nkeys != s->nkeys || m->keywords != s->keywords) {
		snprintf(why, len, "onmatch(%s.%s): its trigger's keys are not like these",
			 s->onmatch.system, s->onmatch.event);
		return -1;
	}
	for (k = 0; k < s->nkeys; k++)
		if (m->key[k].kind != s->key[k].kind) {
			snprintf(why, len, "onmatch(%s.%s): key %s is not of the kind of %s",
				 s->onmatch.system, s->onmatch.event, s->key[k].name,
				 m->key[k].name);
			return -1;
		}
	return 0;
}

/* ---- Keys and the table ---- */

/* A numeric key's word from its field's value v (sign-extended if signed). */
static inline uint64_t trace_hist_key_num(const struct trace_hist_ref *r, uint64_t v)
{
	if (r->mods & TRACE_HIST_M_USECS)
		v /= 1000u;
	if (r->mods & TRACE_HIST_M_LOG2) {
		/* the exponent of the power of two at or above v (0 for 0 and 1) */
		v = v <= 1 ? 0 : (uint64_t)(64 - __builtin_clzll(v - 1));
	} else if ((r->mods & TRACE_HIST_M_BUCKETS) && r->is_signed && (int64_t)v < 0) {
		/* the bucket below: -1000..-1 for -100 */
		uint64_t m = (uint64_t)0 - v;
		v = (uint64_t)0 - ((m + r->buckets - 1) / r->buckets * r->buckets);
	} else if (r->mods & TRACE_HIST_M_BUCKETS) {
		v = v / r->buckets * r->buckets;
	}
	return v;
}

/* A string key's words from s[0..n): at most 63 bytes, NUL-padded. */
static inline void trace_hist_key_str(uint64_t *w, const char *s, size_t n)
{
	const char *nul = (const char *)memchr(s, '\0', n);
	if (nul)
		n = (size_t)(nul - s);
	if (n > TRACE_HIST_STR_BYTES - 1)
		n = TRACE_HIST_STR_BYTES - 1;
	memset(w, 0, TRACE_HIST_STR_BYTES);
	memcpy(w, s, n);
}

static inline uint64_t trace_hist_hash(const uint64_t *key, unsigned words)
{
	uint64_t h = 0;
	unsigned i;
	for (i = 0; i < words; i++)
		h = (h ^ key[i]) * 0x9E3779B97F4A7C15ull;
	return h ^ (h >> 29);
}

/*
 * A table of at most `size` entries in 2^bits >= 2 * size slots of
 * `stride` words each: [0] hitcount (0: a free slot), [1..nvals] the sums,
 * then the key.  The memory is the caller's (trace_hist_table_bytes).
 * One writer; a reader may read while it writes (an entry's hitcount is
 * stored last, with release).
 */
struct trace_hist_table {
	uint64_t *w;
	unsigned bits, stride, keywords, nvals, size;
	unsigned count;	  /* entries in use */
	uint64_t dropped; /* events that found the table full */
};

static inline unsigned trace_hist_table_bits(unsigned size)
{
	unsigned b = 1;
	while ((1u << b) < 2u * size)
		b++;
	return b;
}

static inline size_t trace_hist_table_bytes(const struct trace_hist_spec *s)
{
	return ((size_t)1 << trace_hist_table_bits(s->size)) * s->stride * sizeof(uint64_t);
}

static inline void trace_hist_table_init(struct trace_hist_table *t,
					 const struct trace_hist_spec *s, void *mem)
{
	memset(t, 0, sizeof(*t));
	t->w = (uint64_t *)mem;
	t->bits = trace_hist_table_bits(s->size);
	t->stride = s->stride;
	t->keywords = s->keywords;
	t->nvals = s->nvals;
	t->size = s->size;
}

/* The entry of key (hash h), made if new; NULL when the table is full
 * (the caller counts the drop).  The new entry's hitcount is 0 until the
 * caller adds to it (trace_hist_table_add). */
static inline uint64_t *trace_hist_table_find(struct trace_hist_table *t, const uint64_t *key,
					      uint64_t h)
{
	size_t mask = ((size_t)1 << t->bits) - 1, i = (size_t)(h >> (64 - t->bits)) & mask;
	for (;;) {
		uint64_t *e = t->w + i * t->stride;
		if (e[0] == 0) {
			if (t->count >= t->size)
				return NULL;
			memcpy(e + 1 + t->nvals, key, t->keywords * sizeof(uint64_t));
			t->count++;
			return e;
		}
		if (!memcmp(e + 1 + t->nvals, key, t->keywords * sizeof(uint64_t)))
			return e;
		i = (i + 1) & mask;
	}
}

/* Adds one event (or, merging, `hits` events with their sums) to e. */
static inline void trace_hist_table_add(struct trace_hist_table *t, uint64_t *e, uint64_t hits,
					const uint64_t *vals)
{
	unsigned k;
	for (k = 0; k < t->nvals; k++)
		__atomic_store_n(&e[1 + k], e[1 + k] + vals[k], __ATOMIC_RELAXED);
	__atomic_store_n(&e[0], e[0] + hits, __ATOMIC_RELEASE);
}

/* Adds every entry of src to dst (same spec); what does not fit is added
 * to dst->dropped, with src's own drops. */
static inline void trace_hist_table_merge(struct trace_hist_table *dst,
					  const struct trace_hist_table *src)
{
	size_t i, n = (size_t)1 << src->bits;
	for (i = 0; i < n; i++) {
		const uint64_t *e = src->w + i * src->stride;
		uint64_t hits = __atomic_load_n(&e[0], __ATOMIC_ACQUIRE), vals[TRACE_HIST_VALS_MAX];
		const uint64_t *key = e + 1 + src->nvals;
		uint64_t *d;
		unsigned k;
		if (!hits)
			continue;
		for (k = 0; k < src->nvals; k++)
			vals[k] = __atomic_load_n(&e[1 + k], __ATOMIC_RELAXED);
		d = trace_hist_table_find(dst, key, trace_hist_hash(key, src->keywords));
		if (!d)
			dst->dropped += hits;
		else
			trace_hist_table_add(dst, d, hits, vals);
	}
	dst->dropped += __atomic_load_n(&src->dropped, __ATOMIC_RELAXED);
}

#ifdef __cplusplus
}
#endif

#include "hist_print.h" /* the hist file's text (relative: the tools have no -I) */

#endif /* TRACE_HIST_CORE_H_INCLUDED */
