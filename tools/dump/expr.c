/* SPDX-License-Identifier: MIT */
/*
 * tools/dump/expr.c - tracepoint-dump's TP_printk arguments that are more
 * than a field: the C expressions the kernel's event headers print with
 * (casts, ?:, comparisons, arithmetic, sizeof) and the kernel's helpers
 * (__print_symbolic/_u64, __print_flags/_u64, __print_hex, __print_hex_str,
 * __print_hex_dump, __print_array, __print_ns_to_secs,
 * __print_ns_without_secs, __get_str, __get_dynamic_array(_len)), compiled
 * once per event into a tree and evaluated per record, printed as the
 * kernel's trace file prints them.
 *
 * printk.c compiles an argument here when its own fast forms (a field, an
 * element, a helper on a plain field) do not read it; text.c evaluates
 * the tree (expr_eval) and prints the value with the conversion.
 *
 * Part of tracepoint-dump (dump.h has the map of its parts).
 */
#include "dump.h"

enum xop {
	XO_NUM,	    /* num */
	XO_FIELD,   /* an integer field */
	XO_ELEM,    /* field[k0] */
	XO_TEXT,    /* a string or char-array field, or a string literal (text) */
	XO_BUF,	    /* an array field, fixed or dynamic: its bytes */
	XO_DYNLEN,  /* __get_dynamic_array_len: bytes */
	XO_CAST,    /* k0 to bits/sgn */
	XO_UNARY,   /* bop: '-', '!', '~' */
	XO_BIN,	    /* k0 bop k1 */
	XO_COND,    /* k0 ? k1 : k2 (k1 < 0: k0 ?: k2) */
	XO_SYM,	    /* __print_symbolic(k0, tab) */
	XO_FLAGS,   /* __print_flags(k0, text, tab) */
	XO_HEX,	    /* __print_hex(k0, k1), num: 1 for __print_hex_str */
	XO_ARRAY,   /* __print_array(k0, k1, k2) */
	XO_HEXDUMP, /* __print_hex_dump(text, k0..k5) */
	XO_NS_SECS, /* __print_ns_to_secs(k0) */
	XO_NS_NSEC  /* __print_ns_without_secs(k0) */
};

enum xbop {
	XB_MUL = 1,
	XB_DIV,
	XB_MOD,
	XB_ADD,
	XB_SUB,
	XB_SHL,
	XB_SHR,
	XB_LT,
	XB_LE,
	XB_GT,
	XB_GE,
	XB_EQ,
	XB_NE,
	XB_AND,
	XB_XOR,
	XB_OR,
	XB_LAND,
	XB_LOR
};

struct xnode {
	unsigned char op, bop, kind, bits, sgn;
	int k[6];
	int field;
	uint64_t num;
	char *text;
	size_t tlen;
	struct sym *tab; /* XO_SYM, XO_FLAGS: NULL: the field's CTF labels */
	unsigned ntab;
};

/* The binary operators by their text, with their C precedence (higher
 * binds tighter). */
static const struct {
	const char *s;
	unsigned char bop, prec;
} binops[] = {
	{ "||", XB_LOR, 1 }, { "&&", XB_LAND, 2 }, { "<<", XB_SHL, 9 }, { ">>", XB_SHR, 9 },
	{ "<=", XB_LE, 8 },  { ">=", XB_GE, 8 },   { "==", XB_EQ, 7 },	{ "!=", XB_NE, 7 },
	{ "|", XB_OR, 3 },   { "^", XB_XOR, 4 },   { "&", XB_AND, 5 },	{ "<", XB_LT, 8 },
	{ ">", XB_GT, 8 },   { "+", XB_ADD, 10 },  { "-", XB_SUB, 10 }, { "*", XB_MUL, 11 },
	{ "/", XB_DIV, 11 }, { "%", XB_MOD, 11 },
};

struct xparse {
	const struct event *ev;
	const char *s, *e;
	struct expr *x;
	int bad;
	int depth; /* nested expressions and unary operators: at most XDEPTH */
};

/* Deep enough for any kernel header; a hostile format nests no deeper
 * (the parser and the evaluator recurse). */
enum { XDEPTH = 200 };

static int xid(int c)
{
	return isalnum(c) || c == '_';
}

static void xws(struct xparse *p)
{
	while (p->s < p->e && isspace((unsigned char)*p->s))
		p->s++;
}

/* Past the text t (a punctuator, or a word not followed by a word
 * character) at the cursor: 1, else 0 and nothing moved. */
static int xeat(struct xparse *p, const char *t)
{
	size_t n = strlen(t);
	xws(p);
	if ((size_t)(p->e - p->s) < n || memcmp(p->s, t, n) != 0)
		return 0;
	if (xid((unsigned char)t[n - 1]) && p->s + n < p->e && xid((unsigned char)p->s[n]))
		return 0;
	p->s += n;
	return 1;
}

static int xnew(struct xparse *p, int op)
{
	struct expr *x = p->x;
	struct xnode *n;
	GROW(x->n, x->nn, x->capn);
	n = &x->n[x->nn];
	memset(n, 0, sizeof(*n));
	n->op = (unsigned char)op;
	n->kind = XV_INT;
	n->bits = 32;
	n->sgn = 1;
	n->field = -1;
	n->k[0] = n->k[1] = n->k[2] = n->k[3] = n->k[4] = n->k[5] = -1;
	return (int)x->nn++;
}

#define XN(p, i) (&(p)->x->n[i])

static int xexpr(struct xparse *p);
static int xcond(struct xparse *p);
static int xunary(struct xparse *p);

/* An identifier at the cursor, moved past: its length, 0 if none. */
static size_t xident(struct xparse *p, const char **id)
{
	const char *s;
	xws(p);
	s = p->s;
	if (s >= p->e || !(isalpha((unsigned char)*s) || *s == '_'))
		return 0;
	while (p->s < p->e && xid((unsigned char)*p->s))
		p->s++;
	*id = s;
	return (size_t)(p->s - s);
}

/* An integer type name after '(' (one of C's, the kernel's u8..s64,
 * <stdint.h>'s, or any type with a '*'), up to and past ')': 1 and
 * bits/sgn/ptr filled, 0 (nothing moved) if what follows is no type. */
static int xtype(struct xparse *p, unsigned char *bits, unsigned char *sgn, int *ptr)
{
	const char *save = p->s, *id;
	size_t n;
	int words = 0, uns = 0, sig = 0, lng = 0, shrt = 0, chr = 0, other = 0, stars = 0;
	int known = 0;
	*bits = 32;
	*sgn = 1;
	*ptr = 0;
	while ((n = xident(p, &id)) > 0) {
		static const struct {
			const char *n;
			unsigned char bits, sgn;
		} named[] = {
			{ "u8", 8, 0 },	       { "u16", 16, 0 },	{ "u32", 32, 0 },
			{ "u64", 64, 0 },      { "s8", 8, 1 },		{ "s16", 16, 1 },
			{ "s32", 32, 1 },      { "s64", 64, 1 },	{ "__u8", 8, 0 },
			{ "__u16", 16, 0 },    { "__u32", 32, 0 },	{ "__u64", 64, 0 },
			{ "__s8", 8, 1 },      { "__s16", 16, 1 },	{ "__s32", 32, 1 },
			{ "__s64", 64, 1 },    { "uint8_t", 8, 0 },	{ "uint16_t", 16, 0 },
			{ "uint32_t", 32, 0 }, { "uint64_t", 64, 0 },	{ "int8_t", 8, 1 },
			{ "int16_t", 16, 1 },  { "int32_t", 32, 1 },	{ "int64_t", 64, 1 },
			{ "size_t", 64, 0 },   { "ssize_t", 64, 1 },	{ "uintptr_t", 64, 0 },
			{ "intptr_t", 64, 1 }, { "bool", 8, 0 },	{ "_Bool", 8, 0 },
			{ "pid_t", 32, 1 },    { "gfp_t", 32, 0 },	{ "loff_t", 64, 1 },
			{ "sector_t", 64, 0 }, { "dma_addr_t", 64, 0 }, { "phys_addr_t", 64, 0 },
		};
		unsigned k;
		words++;
		if (n == 5 && !memcmp(id, "const", 5))
			continue;
		if (n == 8 && !memcmp(id, "volatile", 8))
			continue;
		if ((n == 6 && !memcmp(id, "struct", 6)) || (n == 4 && !memcmp(id, "enum", 4)) ||
		    (n == 5 && !memcmp(id, "union", 5))) {
			other = 1;
			known = 1;
			continue;
		}
		if (n == 8 && !memcmp(id, "unsigned", 8)) {
			uns = known = 1;
			continue;
		}
		if (n == 6 && !memcmp(id, "signed", 6)) {
			sig = known = 1;
			continue;
		}
		if (n == 4 && !memcmp(id, "long", 4)) {
			lng++;
			known = 1;
			continue;
		}
		if (n == 5 && !memcmp(id, "short", 5)) {
			shrt = known = 1;
			continue;
		}
		if (n == 4 && !memcmp(id, "char", 4)) {
			chr = known = 1;
			continue;
		}
		if ((n == 3 && !memcmp(id, "int", 3)) || (n == 4 && !memcmp(id, "void", 4))) {
			known = 1;
			continue;
		}
		for (k = 0; k < sizeof(named) / sizeof(named[0]); k++)
			if (strlen(named[k].n) == n && !memcmp(named[k].n, id, n))
				break;
		if (k < sizeof(named) / sizeof(named[0])) {
			*bits = named[k].bits;
			*sgn = named[k].sgn;
			known = 2;
			continue;
		}
		if (known || words > 1 || field_index(p->ev, id, n) >= 0)
			goto no; /* a word that is no type */
		other = 1;	 /* a typedef name of the program's: known only with a '*' */
	}
	while (xeat(p, "*"))
		stars++;
	if (!words || !xeat(p, ")"))
		goto no;
	if (other && !stars && known != 1) {
		/* (name) x: a cast to a type of the program's, or a parenthesized
		 * enum name; a cast only if an operand follows */
		const char *at = p->s;
		xws(p);
		if (p->s >= p->e || strchr(")],?:|&^=<>+*/%", *p->s) ||
		    (*p->s == '-' && p->s + 1 < p->e && p->s[1] == '>')) {
			p->s = at;
			goto no;
		}
		*bits = 64; /* its size is unknown: the value as it is */
		*sgn = 1;
		*ptr = 2;
		return 1;
	}
	if (stars) {
		*bits = 64;
		*sgn = 0;
		*ptr = 1;
	} else if (known != 2) {
		*sgn = !uns;
		*bits = chr ? 8 : shrt ? 16 : lng ? 64 : 32;
		if (chr && !uns && !sig)
			*sgn = 1;
	}
	return 1;
no:
	p->s = save;
	return 0;
}

/* A string literal (adjacent ones joined) at the cursor: a node, -1 if none. */
static int xstring(struct xparse *p)
{
	char *buf = NULL;
	size_t len = 0;
	int i;
	xws(p);
	while (p->s < p->e && *p->s == '"') {
		const char *q = p->s + 1;
		char *part;
		size_t n;
		while (q < p->e && *q != '"') {
			if (*q == '\\' && q + 1 < p->e)
				q++;
			q++;
		}
		if (q >= p->e) {
			free(buf);
			p->bad = 1;
			return -1;
		}
		part = unescape(p->s + 1, (size_t)(q - p->s - 1), &n);
		buf = (char *)xrealloc(buf, len + n + 1);
		memcpy(buf + len, part, n);
		len += n;
		buf[len] = '\0';
		free(part);
		p->s = q + 1;
		xws(p);
	}
	if (!buf)
		return -1;
	i = xnew(p, XO_TEXT);
	XN(p, i)->text = buf;
	XN(p, i)->tlen = len;
	XN(p, i)->kind = XV_STR;
	return i;
}

/* "__entry->name" or "REC->name" at the cursor: the field's index, -1 if
 * none (p->bad set if the field does not exist). */
static int xfield_ref(struct xparse *p)
{
	const char *save = p->s, *id;
	size_t n = xident(p, &id);
	int fi;
	if (!((n == 7 && !memcmp(id, "__entry", 7)) || (n == 3 && !memcmp(id, "REC", 3))) ||
	    !xeat(p, "->")) {
		p->s = save;
		return -1;
	}
	if (!(n = xident(p, &id)) || (fi = field_index(p->ev, id, n)) < 0) {
		p->bad = 1;
		return -1;
	}
	return fi;
}

/* A field named alone (__get_str(name)): its index, or -1 (bad). */
static int xfield_name(struct xparse *p)
{
	const char *id;
	size_t n = xident(p, &id);
	int fi = n ? field_index(p->ev, id, n) : -1;
	if (fi < 0)
		p->bad = 1;
	return fi;
}

/* A field's value as a node: an integer, its text, or its bytes. */
static int xfield_node(struct xparse *p, int fi)
{
	const struct field *f = &p->ev->f[fi];
	int i;
	if (f->is_text || f->t.kind == FT_STR) {
		i = xnew(p, XO_TEXT);
		XN(p, i)->kind = XV_STR;
	} else if (f->count || f->seq) {
		i = xnew(p, XO_BUF);
		XN(p, i)->kind = XV_BUF;
	} else if (f->t.kind == FT_INT) {
		i = xnew(p, XO_FIELD);
		XN(p, i)->bits = f->t.size >= 8 ? 64 : 32; /* promoted as C does */
		XN(p, i)->sgn = f->t.size < 4 ? 1 : f->t.sgn;
	} else {
		p->bad = 1; /* a float in an expression */
		return -1;
	}
	XN(p, i)->field = fi;
	return i;
}

/* Whether node i depends on no record (a table's value: a number, a
 * cast, arithmetic on numbers). */
static int xconst(struct xparse *p, int i)
{
	const struct xnode *n = XN(p, i);
	int k;
	if (n->op != XO_NUM && n->op != XO_CAST && n->op != XO_UNARY && n->op != XO_BIN &&
	    n->op != XO_COND)
		return 0;
	for (k = 0; k < 6; k++)
		if (n->k[k] >= 0 && !xconst(p, n->k[k]))
			return 0;
	return 1;
}

static uint64_t xconst_value(struct xparse *p, int i);

/* One entry "{ value, "name" }" of a table; 0, or -1. */
static int xtab_entry(struct xparse *p, int64_t *v, char **name, int *unknown)
{
	int vi, ni;
	if (!xeat(p, "{"))
		return -1;
	vi = xcond(p);
	if (vi < 0) {
		/* a name the trace does not give the value of (an enum of the
		 * program's without TRACE_DEFINE_ENUM): the CTF labels, if any */
		p->bad = 0;
		while (p->s < p->e && *p->s != ',')
			p->s++;
		*unknown = 1;
	} else if (!xconst(p, vi)) {
		return -1;
	} else {
		*v = (int64_t)xconst_value(p, vi);
	}
	if (!xeat(p, ","))
		return -1;
	if ((ni = xstring(p)) < 0)
		return -1;
	*name = XN(p, ni)->text;
	XN(p, ni)->text = NULL;
	if (!xeat(p, "}")) {
		free(*name);
		return -1;
	}
	return 0;
}

/* The tables of __print_symbolic and __print_flags, after the value (and
 * the delimiter) up to ')'; into node i. */
static int xtable(struct xparse *p, int i)
{
	struct sym *tab = NULL;
	unsigned n = 0, cap = 0, k;
	int unknown = 0;
	while (xeat(p, ",")) {
		int64_t v = 0;
		char *name = NULL;
		if (xtab_entry(p, &v, &name, &unknown) != 0)
			goto bad;
		if (n == cap) {
			cap = cap ? 2 * cap : 8;
			tab = (struct sym *)xrealloc(tab, cap * sizeof(*tab));
		}
		tab[n].v = v;
		tab[n++].name = name;
	}
	if (!xeat(p, ")"))
		goto bad;
	if (unknown) { /* the field's labels, from the metadata */
		const struct xnode *val = XN(p, XN(p, i)->k[0]);
		for (k = 0; k < n; k++)
			free(tab[k].name);
		free(tab);
		if (val->op != XO_FIELD || !p->ev->f[val->field].t.sym)
			return -1;
		XN(p, i)->field = val->field;
		return 0;
	}
	XN(p, i)->tab = tab;
	XN(p, i)->ntab = n;
	return 0;
bad:
	for (k = 0; k < n; k++)
		free(tab[k].name);
	free(tab);
	return -1;
}

/* The kernel's helpers, called by name (already read, n bytes at id). */
static int xcall(struct xparse *p, const char *id, size_t n)
{
	static const struct {
		const char *name;
		unsigned char op, nargs, num;
	} calls[] = {
		{ "__print_hex", XO_HEX, 2, 0 },
		{ "__print_hex_str", XO_HEX, 2, 1 },
		{ "__print_array", XO_ARRAY, 3, 0 },
		{ "__print_hex_dump", XO_HEXDUMP, 7, 0 },
		{ "__print_ns_to_secs", XO_NS_SECS, 1, 0 },
		{ "__print_ns_without_secs", XO_NS_NSEC, 1, 0 },
	};
	int i, fi, a;
	unsigned k;
#define XIS(s) (n == sizeof(s) - 1 && !memcmp(id, s, n))
	if (!xeat(p, "("))
		return -1;
	if (XIS("__get_str") || XIS("__get_dynamic_array") || XIS("__get_dynamic_array_len")) {
		int len = XIS("__get_dynamic_array_len");
		if ((fi = xfield_name(p)) < 0 || !xeat(p, ")"))
			return -1;
		if (len) {
			if (!p->ev->f[fi].seq && !p->ev->f[fi].count &&
			    p->ev->f[fi].t.kind != FT_STR)
				return -1;
			i = xnew(p, XO_DYNLEN);
			XN(p, i)->field = fi;
			XN(p, i)->sgn = 0;
			return i;
		}
		return xfield_node(p, fi);
	}
	if (XIS("__print_symbolic") || XIS("__print_symbolic_u64") || XIS("__print_flags") ||
	    XIS("__print_flags_u64")) {
		int flags = id[8] == 'f';
		i = xnew(p, flags ? XO_FLAGS : XO_SYM);
		XN(p, i)->kind = XV_STR;
		if ((a = xcond(p)) < 0 || XN(p, a)->kind != XV_INT)
			return -1;
		XN(p, i)->k[0] = a;
		if (flags) {
			int d;
			if (!xeat(p, ",") || (d = xstring(p)) < 0)
				return -1;
			XN(p, i)->text = XN(p, d)->text;
			XN(p, i)->tlen = XN(p, d)->tlen;
			XN(p, d)->text = NULL;
		}
		return xtable(p, i) == 0 ? i : -1;
	}
	for (k = 0; k < sizeof(calls) / sizeof(calls[0]); k++)
		if (strlen(calls[k].name) == n && !memcmp(calls[k].name, id, n))
			break;
	if (k == sizeof(calls) / sizeof(calls[0]))
		return -1;
	i = xnew(p, calls[k].op);
	XN(p, i)->num = calls[k].num;
	XN(p, i)->kind = calls[k].op == XO_NS_SECS || calls[k].op == XO_NS_NSEC ? XV_INT : XV_STR;
	if (calls[k].op == XO_NS_SECS) {
		XN(p, i)->bits = 64;
		XN(p, i)->sgn = 0;
	} else if (calls[k].op == XO_NS_NSEC) {
		XN(p, i)->sgn = 0;
	}
	for (a = 0; a < calls[k].nargs; a++) {
		int arg;
		if (a && !xeat(p, ","))
			return -1;
		if (calls[k].op == XO_HEXDUMP && a == 0) { /* the prefix: a literal */
			int t = xstring(p);
			if (t < 0)
				return -1;
			XN(p, i)->text = XN(p, t)->text;
			XN(p, i)->tlen = XN(p, t)->tlen;
			XN(p, t)->text = NULL;
			continue;
		}
		if ((arg = xcond(p)) < 0)
			return -1;
		XN(p, i)->k[calls[k].op == XO_HEXDUMP ? a - 1 : a] = arg;
	}
	if (!xeat(p, ")"))
		return -1;
	/* the buffer arguments: bytes of a field */
	a = calls[k].op == XO_HEXDUMP ? 3 : 0;
	if (calls[k].op != XO_NS_SECS && calls[k].op != XO_NS_NSEC &&
	    XN(p, XN(p, i)->k[a])->op != XO_BUF)
		return -1; /* a field's bytes, not an expression of them */
#undef XIS
	return i;
}

static int xprimary(struct xparse *p)
{
	const char *id, *save;
	size_t n;
	int i, fi;
	xws(p);
	if (p->s >= p->e)
		return -1;
	if (*p->s == '"')
		return xstring(p);
	if (isdigit((unsigned char)*p->s)) {
		char *end;
		uint64_t v;
		errno = 0;
		v = strtoull(p->s, &end, 0);
		if (errno || end > p->e)
			return -1;
		i = xnew(p, XO_NUM);
		XN(p, i)->num = v;
		XN(p, i)->bits = v > 0x7fffffffu ? 64 : 32;
		p->s = end;
		while (p->s < p->e && strchr("uUlL", *p->s)) {
			if (*p->s == 'u' || *p->s == 'U')
				XN(p, i)->sgn = 0;
			else
				XN(p, i)->bits = 64;
			p->s++;
		}
		return i;
	}
	if (*p->s == '\'') {
		const char *q = p->s + 1;
		char *ch;
		size_t cn;
		while (q < p->e && *q != '\'') {
			if (*q == '\\' && q + 1 < p->e)
				q++;
			q++;
		}
		if (q >= p->e)
			return -1;
		ch = unescape(p->s + 1, (size_t)(q - p->s - 1), &cn);
		i = xnew(p, XO_NUM);
		XN(p, i)->num = cn ? (uint64_t)(int64_t)(signed char)ch[0] : 0;
		free(ch);
		p->s = q + 1;
		return i;
	}
	if (xeat(p, "(")) {
		i = xexpr(p);
		return i >= 0 && xeat(p, ")") ? i : -1;
	}
	save = p->s;
	if ((fi = xfield_ref(p)) >= 0)
		return xfield_node(p, fi);
	if (p->bad)
		return -1;
	p->s = save;
	if (!(n = xident(p, &id)))
		return -1;
	if (n == 6 && !memcmp(id, "sizeof", 6)) {
		unsigned char bits, sgn;
		int ptr;
		if (!xeat(p, "("))
			return -1;
		i = xnew(p, XO_NUM);
		XN(p, i)->sgn = 0;
		XN(p, i)->bits = 64;
		if (xtype(p, &bits, &sgn, &ptr)) {
			if (ptr == 2)
				return -1;
			XN(p, i)->num = ptr ? 8 : bits / 8;
			return i;
		}
		if ((fi = xfield_ref(p)) < 0 || !xeat(p, ")"))
			return -1;
		XN(p, i)->num = (uint64_t)p->ev->f[fi].t.size *
				(p->ev->f[fi].count ? p->ev->f[fi].count : 1);
		return p->ev->f[fi].seq || p->ev->f[fi].t.kind == FT_STR ? -1 : i;
	}
	if ((n == 4 && !memcmp(id, "true", 4)) || (n == 5 && !memcmp(id, "false", 5))) {
		i = xnew(p, XO_NUM);
		XN(p, i)->num = n == 4;
		return i;
	}
	xws(p);
	if (p->s < p->e && *p->s == '(')
		return xcall(p, id, n);
	/* a name without a value: the recorder wrote an enumerator that
	 * TRACE_DEFINE_ENUM gave as its value, so this is none of those */
	p->bad = 1;
	return -1;
}

static int xpostfix(struct xparse *p)
{
	int i = xprimary(p);
	while (i >= 0 && xeat(p, "[")) {
		int k = xexpr(p), e;
		const struct xnode *b = XN(p, i);
		if (k < 0 || !xeat(p, "]") || b->field < 0 || (b->op != XO_BUF && b->op != XO_TEXT))
			return -1;
		if (p->ev->f[b->field].t.kind != FT_INT)
			return -1;
		e = xnew(p, XO_ELEM);
		XN(p, e)->field = XN(p, i)->field;
		XN(p, e)->k[0] = k;
		{
			const struct field *f = &p->ev->f[XN(p, e)->field];
			XN(p, e)->bits = f->t.size >= 8 ? 64 : 32;
			XN(p, e)->sgn = f->t.size < 4 ? 1 : f->t.sgn;
		}
		i = e;
	}
	return i;
}

static int xunary_in(struct xparse *p);

static int xunary(struct xparse *p)
{
	int r;
	if (++p->depth > XDEPTH) {
		p->bad = 1;
		return -1;
	}
	r = xunary_in(p);
	p->depth--;
	return r;
}

static int xunary_in(struct xparse *p)
{
	const char *save;
	int i, a;
	unsigned char bits, sgn;
	int ptr;
	xws(p);
	save = p->s;
	if (xeat(p, "(")) {
		if (xtype(p, &bits, &sgn, &ptr)) {
			if ((a = xunary(p)) < 0)
				return -1;
			if (ptr == 2 || XN(p, a)->kind != XV_INT)
				return a; /* a pointer or a type of the program's: as it is */
			i = xnew(p, XO_CAST);
			XN(p, i)->k[0] = a;
			XN(p, i)->bits = bits;
			XN(p, i)->sgn = sgn;
			XN(p, i)->num = (uint64_t)ptr;
			return i;
		}
		p->s = save;
	}
	if (xeat(p, "+"))
		return xunary(p);
	if (p->s < p->e && (*p->s == '-' || *p->s == '!' || *p->s == '~') &&
	    !(p->s + 1 < p->e && (p->s[1] == '=' || p->s[1] == '>' || p->s[1] == '-'))) {
		char op = *p->s++;
		if ((a = xunary(p)) < 0 || XN(p, a)->kind != XV_INT)
			return -1;
		i = xnew(p, XO_UNARY);
		XN(p, i)->bop = (unsigned char)op;
		XN(p, i)->k[0] = a;
		XN(p, i)->bits = op == '!' ? 32 : XN(p, a)->bits;
		XN(p, i)->sgn = op == '!' ? 1 : XN(p, a)->sgn;
		return i;
	}
	return xpostfix(p);
}

/* The binary operator at the cursor with precedence at least min: its
 * index in binops, moved past it; -1 if none. */
static int xbinop(struct xparse *p, int min)
{
	unsigned k;
	xws(p);
	for (k = 0; k < sizeof(binops) / sizeof(binops[0]); k++) {
		size_t n = strlen(binops[k].s);
		if ((size_t)(p->e - p->s) < n || memcmp(p->s, binops[k].s, n) != 0)
			continue;
		/* not the start of a longer operator: "&&" is no "&", "|=" no "|" */
		if (n == 1 && p->s + 1 < p->e &&
		    (p->s[1] == '=' || (p->s[1] == p->s[0] && strchr("&|<>", p->s[0])) ||
		     (p->s[0] == '-' && p->s[1] == '>')))
			continue;
		if (binops[k].prec < min)
			return -1;
		p->s += n;
		return (int)k;
	}
	return -1;
}

static int xbinary(struct xparse *p, int min)
{
	int l = xunary(p), k;
	while (l >= 0 && (k = xbinop(p, min)) >= 0) {
		int r = xbinary(p, binops[k].prec + 1), i;
		const struct xnode *a, *b;
		if (r < 0 || XN(p, l)->kind != XV_INT || XN(p, r)->kind != XV_INT)
			return -1;
		i = xnew(p, XO_BIN);
		a = XN(p, l);
		b = XN(p, r);
		XN(p, i)->bop = binops[k].bop;
		XN(p, i)->k[0] = l;
		XN(p, i)->k[1] = r;
		if (binops[k].bop >= XB_LT && binops[k].bop <= XB_NE) {
			XN(p, i)->bits = 32; /* int 0 or 1 */
		} else if (binops[k].bop == XB_LAND || binops[k].bop == XB_LOR) {
			XN(p, i)->bits = 32;
		} else if (binops[k].bop == XB_SHL || binops[k].bop == XB_SHR) {
			XN(p, i)->bits = a->bits;
			XN(p, i)->sgn = a->sgn;
		} else { /* the usual arithmetic conversions */
			XN(p, i)->bits = a->bits > b->bits ? a->bits : b->bits;
			XN(p, i)->sgn = a->bits == b->bits  ? (a->sgn && b->sgn)
					: a->bits > b->bits ? a->sgn
							    : b->sgn;
		}
		/* a comparison's operands compare in their common type */
		XN(p, i)->num = a->bits > b->bits   ? a->sgn
				: a->bits < b->bits ? b->sgn
						    : (a->sgn && b->sgn);
		l = i;
	}
	return l;
}

static int xcond_in(struct xparse *p);

static int xcond(struct xparse *p)
{
	int r;
	if (++p->depth > XDEPTH) {
		p->bad = 1;
		return -1;
	}
	r = xcond_in(p);
	p->depth--;
	return r;
}

static int xcond_in(struct xparse *p)
{
	int c = xbinary(p, 1), t = -1, f, i;
	if (c < 0 || !xeat(p, "?"))
		return c;
	if (!xeat(p, ":")) { /* GNU a ?: b when not */
		if ((t = xexpr(p)) < 0 || !xeat(p, ":"))
			return -1;
	}
	if ((f = xcond(p)) < 0)
		return -1;
	if (t >= 0 ? XN(p, t)->kind != XN(p, f)->kind : XN(p, c)->kind != XN(p, f)->kind)
		return -1;
	i = xnew(p, XO_COND);
	XN(p, i)->k[0] = c;
	XN(p, i)->k[1] = t;
	XN(p, i)->k[2] = f;
	{
		const struct xnode *a = XN(p, t >= 0 ? t : c), *b = XN(p, f);
		XN(p, i)->kind = b->kind;
		XN(p, i)->bits = a->bits > b->bits ? a->bits : b->bits;
		XN(p, i)->sgn = a->bits == b->bits  ? (a->sgn && b->sgn)
				: a->bits > b->bits ? a->sgn
						    : b->sgn;
	}
	return i;
}

static int xexpr(struct xparse *p)
{
	return xcond(p);
}

int expr_compile(const struct event *ev, const char *s, const char *e, struct expr *x)
{
	struct xparse p;
	memset(x, 0, sizeof(*x));
	p.ev = ev;
	p.s = s;
	p.e = e;
	p.x = x;
	p.bad = 0;
	p.depth = 0;
	x->root = xexpr(&p);
	xws(&p);
	if (x->root < 0 || p.bad || p.s != p.e) {
		expr_free(x);
		return -1;
	}
	x->kind = x->n[x->root].kind;
	return 0;
}

void expr_free(struct expr *x)
{
	unsigned i, k;
	for (i = 0; i < x->nn; i++) {
		free(x->n[i].text);
		for (k = 0; k < x->n[i].ntab; k++)
			free(x->n[i].tab[k].name);
		free(x->n[i].tab);
	}
	free(x->n);
	memset(x, 0, sizeof(*x));
	x->root = -1;
}

/* ------------------------------------------------------------------ */
/* Evaluation                                                         */
/* ------------------------------------------------------------------ */

struct xeval {
	struct dump *dx;
	const struct cursor *c;
	const struct expr *x;
};

/* v as a value of bits/sgn (truncated, sign-extended). */
static uint64_t xfit(uint64_t v, unsigned bits, int sgn)
{
	if (bits >= 64)
		return v;
	v &= ((uint64_t)1 << bits) - 1;
	return sgn ? sext(v, bits) : v;
}

/* Text appended to the run's scratch space (dx->xbuf). */
static void xput(struct dump *dx, const char *s, size_t n)
{
	if (dx->xlen + n + 1 > dx->xcap) {
		dx->xcap = 2 * (dx->xlen + n + 1) + 64;
		dx->xbuf = (char *)xrealloc(dx->xbuf, dx->xcap);
	}
	memcpy(dx->xbuf + dx->xlen, s, n);
	dx->xlen += n;
	dx->xbuf[dx->xlen] = '\0';
}

static void xputf(struct dump *dx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void xputf(struct dump *dx, const char *fmt, ...)
{
	char b[64];
	va_list ap;
	int n;
	va_start(ap, fmt);
	n = vsnprintf(b, sizeof(b), fmt, ap);
	va_end(ap);
	if (n > 0)
		xput(dx, b, (size_t)n < sizeof(b) ? (size_t)n : sizeof(b) - 1);
}

static void xeval(struct xeval *ev, int i, struct xval *out);

static uint64_t xint(struct xeval *ev, int i)
{
	struct xval v;
	xeval(ev, i, &v);
	return v.v;
}

/* The bytes of a field (XO_BUF, XO_TEXT of a field). */
static void xbytes(const struct cursor *c, int fi, struct xval *out)
{
	const struct field *f = &c->ev->f[fi];
	out->p = c->pl + c->off[fi];
	if (f->t.kind == FT_STR)
		out->n = c->slen[fi];
	else
		out->n = (size_t)(f->seq ? c->slen[fi] : f->count) * f->t.size;
	out->esize = f->t.size;
}

static void xhexdump(struct xeval *ev, const struct xnode *n, const struct xval *buf)
{
	struct dump *dx = ev->dx;
	int ptype = (int)xint(ev, n->k[0]), rowsize = (int)xint(ev, n->k[1]);
	int group = (int)xint(ev, n->k[2]), ascii = xint(ev, n->k[5]) != 0;
	uint64_t len = xint(ev, n->k[4]);
	size_t i, j;
	if (len > buf->n)
		len = buf->n;
	if (rowsize != 16 && rowsize != 32)
		rowsize = 16;
	if (group != 1 && group != 2 && group != 4 && group != 8)
		group = 1;
	xput(dx, "\n", 1);
	for (i = 0; i < len; i += (size_t)rowsize) {
		size_t line = len - i < (size_t)rowsize ? len - i : (size_t)rowsize, col = 0;
		size_t acol = (size_t)rowsize * 2 + (size_t)rowsize / (size_t)group + 1;
		int g = group;
		const u8 *b = buf->p + i;
		xput(dx, n->text, n->tlen);
		if (ptype == 1 || ptype == 2) /* ADDRESS: the offset too (no address is kept) */
			xputf(dx, "%.8zx: ", i);
		if (line % (size_t)g)
			g = 1;
		for (j = 0; j < line; j += (size_t)g) {
			uint64_t v = 0;
			int k;
			for (k = g - 1; k >= 0;
			     k--) /* the words little-endian, as x86 prints them */
				v = (v << 8) | b[j + (size_t)k];
			if (j)
				xput(dx, " ", 1), col++;
			xputf(dx, "%0*llx", 2 * g, (unsigned long long)v);
			col += 2 * (size_t)g;
		}
		if (ascii) {
			for (; col < acol; col++)
				xput(dx, " ", 1);
			for (j = 0; j < line; j++) {
				char ch = b[j] >= 0x20 && b[j] < 0x7f ? (char)b[j] : '.';
				xput(dx, &ch, 1);
			}
		}
		xput(dx, "\n", 1);
	}
}

static void xeval(struct xeval *ev, int i, struct xval *out)
{
	const struct xnode *n = &ev->x->n[i];
	const struct cursor *c = ev->c;
	struct dump *dx = ev->dx;
	struct xval a, b;
	memset(out, 0, sizeof(*out));
	out->kind = n->kind;
	switch (n->op) {
	case XO_NUM:
		out->v = n->num;
		return;
	case XO_FIELD:
		out->v = get_int(c, n->field, 0);
		return;
	case XO_ELEM: {
		const struct field *f = &c->ev->f[n->field];
		uint64_t k = xint(ev, n->k[0]), cnt = f->seq ? c->slen[n->field] : f->count;
		out->v = k < cnt ? get_int(c, n->field, (unsigned)k) : 0;
		return;
	}
	case XO_TEXT:
		if (n->field < 0) {
			out->p = (const u8 *)n->text;
			out->n = n->tlen;
		} else {
			size_t len;
			out->p = get_text(c, n->field, &len);
			out->n = len;
		}
		return;
	case XO_BUF:
		xbytes(c, n->field, out);
		return;
	case XO_DYNLEN:
		xbytes(c, n->field, &a);
		out->v = a.n;
		return;
	case XO_CAST:
		out->v = xfit(xint(ev, n->k[0]), n->bits, n->sgn);
		return;
	case XO_UNARY:
		out->v = xint(ev, n->k[0]);
		out->v = n->bop == '-' ? (uint64_t)0 - out->v : n->bop == '~' ? ~out->v : !out->v;
		out->v = xfit(out->v, n->bits, n->sgn);
		return;
	case XO_BIN: {
		uint64_t l, r;
		int sg = n->sgn, csg = (int)n->num;
		if (n->bop == XB_LAND || n->bop == XB_LOR) {
			l = xint(ev, n->k[0]);
			out->v = n->bop == XB_LAND ? (l && xint(ev, n->k[1]))
						   : (l || xint(ev, n->k[1]));
			return;
		}
		l = xint(ev, n->k[0]);
		r = xint(ev, n->k[1]);
		switch (n->bop) {
		case XB_MUL:
			out->v = l * r;
			break;
		case XB_DIV:
		case XB_MOD:
			if (!r) { /* the kernel would have faulted: 0 */
				out->v = 0;
			} else if (sg) {
				int64_t x = (int64_t)l, y = (int64_t)r;
				if (y == -1)
					out->v = n->bop == XB_DIV ? (uint64_t)0 - l : 0;
				else
					out->v = (uint64_t)(n->bop == XB_DIV ? x / y : x % y);
			} else {
				out->v = n->bop == XB_DIV ? l / r : l % r;
			}
			break;
		case XB_ADD:
			out->v = l + r;
			break;
		case XB_SUB:
			out->v = l - r;
			break;
		case XB_SHL:
			out->v = r < 64 ? l << r : 0;
			break;
		case XB_SHR:
			out->v = r >= 64 ? (sg && (int64_t)l < 0 ? ~(uint64_t)0 : 0)
				 : sg	 ? (uint64_t)((int64_t)l >> r)
					 : l >> r;
			break;
		case XB_AND:
			out->v = l & r;
			break;
		case XB_XOR:
			out->v = l ^ r;
			break;
		case XB_OR:
			out->v = l | r;
			break;
		default: {
			/* comparisons, in the operands' common type */
			unsigned cb = 64;
			int lt, eq;
			l = xfit(l, cb, csg);
			r = xfit(r, cb, csg);
			lt = csg ? (int64_t)l < (int64_t)r : l < r;
			eq = l == r;
			out->v = n->bop == XB_LT   ? lt
				 : n->bop == XB_LE ? lt || eq
				 : n->bop == XB_GT ? !lt && !eq
				 : n->bop == XB_GE ? !lt
				 : n->bop == XB_EQ ? eq
						   : !eq;
			return;
		}
		}
		out->v = xfit(out->v, n->bits, sg);
		return;
	}
	case XO_COND:
		xeval(ev, n->k[0], &a);
		if (a.kind == XV_INT ? a.v != 0 : a.p != NULL) {
			if (n->k[1] < 0)
				*out = a;
			else
				xeval(ev, n->k[1], out);
		} else {
			xeval(ev, n->k[2], out);
		}
		if (out->kind == XV_INT)
			out->v = xfit(out->v, n->bits, n->sgn);
		return;
	case XO_SYM:
	case XO_FLAGS: {
		uint64_t v = xint(ev, n->k[0]), left = v;
		const struct sym *t = n->tab;
		unsigned nt = n->ntab, k;
		size_t at = dx->xlen;
		int first = 1;
		if (!t) { /* the field's own labels */
			t = c->ev->f[n->field].t.sym;
			nt = c->ev->f[n->field].t.nsym;
		}
		if (n->op == XO_SYM) {
			for (k = 0; k < nt; k++)
				if ((uint64_t)t[k].v == v)
					break;
			if (k < nt)
				xput(dx, t[k].name, strlen(t[k].name));
			else
				xputf(dx, "0x%llx", (unsigned long long)v);
		} else {
			for (k = 0; k < nt && left; k++) {
				uint64_t m = (uint64_t)t[k].v;
				if ((left & m) != m)
					continue;
				left &= ~m;
				if (!first)
					xput(dx, n->text, n->tlen);
				first = 0;
				xput(dx, t[k].name, strlen(t[k].name));
			}
			if (left) {
				if (!first)
					xput(dx, n->text, n->tlen);
				xputf(dx, "0x%llx", (unsigned long long)left);
			}
		}
		out->off = at;
		out->n = dx->xlen - at;
		out->scratch = 1;
		return;
	}
	case XO_HEX:
	case XO_ARRAY:
	case XO_HEXDUMP: {
		size_t at = dx->xlen, k;
		xeval(ev, n->k[n->op == XO_HEXDUMP ? 3 : 0], &a);
		if (n->op == XO_HEXDUMP) {
			xhexdump(ev, n, &a);
			out->raw = 1;
		} else if (n->op == XO_HEX) {
			uint64_t len = xint(ev, n->k[1]);
			if (len > a.n)
				len = a.n;
			for (k = 0; k < len; k++)
				xputf(dx, n->num || !k ? "%02x" : " %02x", a.p[k]);
		} else {
			uint64_t cnt = xint(ev, n->k[1]), es = xint(ev, n->k[2]);
			xput(dx, "{", 1);
			if (es != 1 && es != 2 && es != 4 && es != 8)
				es = 0;
			for (k = 0; es && k < cnt && (k + 1) * es <= a.n; k++) {
				uint64_t v = ld(a.p + k * es, (unsigned)es,
						c->ev->f[ev->x->n[n->k[0]].field].t.swap);
				xputf(dx, "%s0x%llx", k ? "," : "", (unsigned long long)v);
			}
			xput(dx, "}", 1);
		}
		(void)b;
		out->off = at;
		out->n = dx->xlen - at;
		out->scratch = 1;
		return;
	}
	case XO_NS_SECS:
		out->v = xint(ev, n->k[0]) / 1000000000u;
		return;
	case XO_NS_NSEC:
		out->v = xint(ev, n->k[0]) % 1000000000u;
		return;
	default:
		return;
	}
}

/* The value of a constant node (xconst), evaluated without a record. */
static uint64_t xconst_value(struct xparse *p, int i)
{
	struct xeval ev;
	struct xval v;
	ev.dx = NULL;
	ev.c = NULL;
	ev.x = p->x;
	xeval(&ev, i, &v);
	return v.v;
}

/* The value of x for the record at c; text it makes (helpers) is in
 * dx->xbuf, from dx->xlen on (emptied first): out->p points there. */
void expr_eval(struct dump *dx, const struct cursor *c, const struct expr *x, struct xval *out)
{
	struct xeval ev;
	ev.dx = dx;
	ev.c = c;
	ev.x = x;
	dx->xlen = 0;
	xeval(&ev, x->root, out);
	if (out->scratch)
		out->p = (const u8 *)dx->xbuf + out->off;
}
