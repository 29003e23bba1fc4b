/* SPDX-License-Identifier: MIT */
/*
 * tools/dump/printk.c - tracepoint-dump's TP_printk formats: each event's
 * print format compiled into segments (literal text, conversions of fields,
 * __print_symbolic and __print_flags tables) that text.c runs per record.
 *
 * Part of tracepoint-dump (dump.h has the map of its parts).
 */
#include "dump.h"

/* ------------------------------------------------------------------ */
/* TP_printk formats                                                  */
/* ------------------------------------------------------------------ */

static int is_ident(int c)
{
	return isalnum(c) || c == '_';
}

static const char *skip_ws(const char *s, const char *e)
{
	while (s < e && isspace((unsigned char)*s))
		s++;
	return s;
}

int field_index(const struct event *ev, const char *s, size_t n)
{
	unsigned i;
	for (i = 0; i < ev->nf; i++)
		if (strlen(ev->f[i].name) == n && !memcmp(ev->f[i].name, s, n))
			return (int)i;
	return -1;
}

enum {
	AR_FIELD,
	AR_INDEX,
	AR_STR,
	AR_SYM,
	AR_FLAGS,
	AR_HEX,
	AR_DYN,
	AR_BITMASK,
	AR_SOCKADDR,
	AR_DYNLEN,
	AR_EXPR
};
struct argref {
	int kind;	   /* AR_*: __entry->f, __entry->f[idx], __get_str(f), __print_symbolic(..),
		   * __print_flags(..), __print_hex(..), __get_dynamic_array(f), or
		   * any other expression (expr.c) */
	int field;	   /* AR_EXPR: the index of its tree in xp */
	const char *s, *e; /* the argument's text */
	unsigned idx;
	uint64_t hexlen; /* AR_HEX: bytes to print; UINT64_MAX: the whole field */
	char *delim;	 /* AR_FLAGS: the separator (allocated) */
};

/* Moves *s from the start of an argument in [*s, e) to its end: the first
 * ',' outside quotes and brackets, or e; *depth counts the brackets left
 * open.  Returns 0, or -1 if the argument ends inside a quoted string. */
static int arg_end(const char **s, const char *e, int *depth)
{
	const char *p = *s;
	int rc = 0;
	while (p < e) {
		char c = *p;
		if (c == '"' || c == '\'') {
			for (p++; p < e && *p != c; p++)
				if (*p == '\\' && p + 1 < e)
					p++;
			if (p < e)
				p++;
			else
				rc = -1;
			continue;
		}
		if (c == '(' || c == '[' || c == '{')
			(*depth)++;
		else if (c == ')' || c == ']' || c == '}')
			(*depth)--;
		else if (c == ',' && *depth == 0)
			break;
		p++;
	}
	*s = p;
	return rc;
}

/* Splits "name(a, b, ...)" in [s, e) into up to max arguments at its
 * top-level commas; their number, or -1 if [s, e) is not such a call. */
static int split_call(const char *s, const char *e, const char *name, const char **as,
		      const char **ae, int max)
{
	size_t nl = strlen(name);
	int n = 0, depth = 0;
	const char *a;
	if ((size_t)(e - s) <= nl || memcmp(s, name, nl) != 0 || is_ident((unsigned char)s[nl]))
		return -1;
	s = skip_ws(s + nl, e);
	if (s >= e || *s != '(' || e[-1] != ')')
		return -1;
	e--;
	a = ++s;
	/* an argument cut by an unclosed quote is not counted */
	while (arg_end(&s, e, &depth) == 0) {
		if (depth == 0) { /* at a top-level ',' or at the end */
			if (n < max) {
				as[n] = a;
				ae[n] = s;
			}
			n++;
		}
		if (s >= e)
			break;
		a = ++s;
	}
	return depth == 0 ? n : -1;
}

static int parse_argref(const struct event *ev, const char *s, const char *e, struct argref *r);

/* ---- The kernel's other field forms (__bitmask, __cpumask, __sockaddr,
 * the __rel_ forms): their TP_printk helpers. ---- */

/* The helpers that are others by another name, by those: the __rel_
 * forms differ only in the kernel's record layout, a cpumask is a
 * bitmask.  Outside string literals; a new string. */
static char *plain_helpers(const char *s)
{
	static const char *const from[] = {
		"__get_rel_str",      "__get_rel_dynamic_array_len", "__get_rel_dynamic_array",
		"__get_sockaddr_len", "__get_rel_bitmask",	     "__get_rel_cpumask",
		"__get_cpumask",      "__get_rel_sockaddr"
	};
	static const char *const to[] = { "__get_str",		 "__get_dynamic_array_len",
					  "__get_dynamic_array", "__get_dynamic_array_len",
					  "__get_bitmask",	 "__get_bitmask",
					  "__get_bitmask",	 "__get_sockaddr" };
	size_t n = strlen(s), o = 0, k;
	char *d = (char *)xmalloc(2 * n + 1), quote = 0;
	while (*s) {
		if (quote) {
			if (*s == '\\' && s[1])
				d[o++] = *s++;
			else if (*s == quote)
				quote = 0;
			d[o++] = *s++;
			continue;
		}
		if (*s == '"' || *s == '\'') {
			quote = *s;
			d[o++] = *s++;
			continue;
		}
		if (is_ident((unsigned char)*s)) {
			const char *id = s;
			while (is_ident((unsigned char)*s))
				s++;
			for (k = 0; k < sizeof(from) / sizeof(from[0]); k++)
				if (strlen(from[k]) == (size_t)(s - id) &&
				    !memcmp(from[k], id, (size_t)(s - id)))
					break;
			if (k < sizeof(from) / sizeof(from[0])) {
				memcpy(d + o, to[k], strlen(to[k]));
				o += strlen(to[k]);
			} else {
				memcpy(d + o, id, (size_t)(s - id));
				o += (size_t)(s - id);
			}
			continue;
		}
		d[o++] = *s++;
	}
	d[o] = '\0';
	return d;
}

/* __get_bitmask(f) (f: a dynamic array of integers), __get_sockaddr(f)
 * (of bytes) and __get_dynamic_array_len(f) (its bytes, a number): 0 and
 * r filled, 1 if [s, e) is none of them, -1 if it cannot be read. */
static int parse_field_helper(const struct event *ev, const char *s, const char *e,
			      struct argref *r)
{
	const char *as[1], *ae[1], *id, *ie;
	int n, sock = 0, len = 0;
	if ((n = split_call(s, e, "__get_bitmask", as, ae, 1)) < 0 &&
	    (sock = 1, n = split_call(s, e, "__get_sockaddr", as, ae, 1)) < 0 &&
	    (sock = 0, len = 1, n = split_call(s, e, "__get_dynamic_array_len", as, ae, 1)) < 0)
		return 1;
	if (n != 1)
		return -1;
	id = skip_ws(as[0], ae[0]);
	ie = ae[0];
	while (ie > id && isspace((unsigned char)ie[-1]))
		ie--;
	r->field = field_index(ev, id, (size_t)(ie - id));
	if (r->field < 0 || !ev->f[r->field].seq || (!len && ev->f[r->field].t.kind != FT_INT) ||
	    (sock && ev->f[r->field].t.size != 1))
		return -1;
	r->kind = len ? AR_DYNLEN : sock ? AR_SOCKADDR : AR_BITMASK;
	return 0;
}

/* The segment of a conversion of __get_bitmask (%s), __get_sockaddr
 * (%pIS and its letters, which it takes, as the kernel, up to the first
 * character that is no letter or digit) or __get_dynamic_array_len (an
 * unsigned int: %d, %u, %x, with no flag but '-' and '0'): 0, or -1 if it
 * is another. */
static int field_helper_seg(const struct argref *r, char conv, int lm, const char *fmt,
			    size_t fmtlen, size_t *i, struct seg *sg)
{
	size_t k = 0;
	if (lm)
		return -1;
	if (r->kind == AR_DYNLEN) {
		sg->kind = SEG_DYNLEN;
		sg->bits = 32;
		sg->sgn = conv == 'd' || conv == 'i';
		return strchr("diuxX", conv) && !(sg->flags & ~(FL_MINUS | FL_ZERO)) && sg->prec < 0
			       ? 0
			       : -1;
	}
	if (r->kind == AR_BITMASK) {
		sg->kind = SEG_BITMASK;
		return conv == 's' ? 0 : -1;
	}
	if (conv != 'p' || *i + 2 > fmtlen || fmt[*i] != 'I' || fmt[*i + 1] != 'S')
		return -1;
	for (*i += 2; *i < fmtlen && isalnum((unsigned char)fmt[*i]); (*i)++)
		if (k + 1 < sizeof(sg->spec))
			sg->spec[k++] = fmt[*i];
	sg->spec[k] = '\0';
	sg->kind = SEG_SOCKADDR;
	return 0;
}

/* __print_symbolic, __print_flags, __print_hex and __get_dynamic_array:
 * 0 and r filled, 1 if [s, e) is none of them, -1 if it cannot be read. */
static int parse_helper(const struct event *ev, const char *s, const char *e, struct argref *r)
{
	const char *as[3], *ae[3];
	struct argref in;
	int n;
	memset(&in, 0, sizeof(in));
	if ((n = parse_field_helper(ev, s, e, r)) <= 0)
		return n;
	if ((n = split_call(s, e, "__print_symbolic", as, ae, 3)) >= 0 ||
	    (n = split_call(s, e, "__print_flags", as, ae, 3)) >= 0) {
		int flags = s[8] == 'f';
		if (n < (flags ? 3 : 2) || parse_argref(ev, as[0], ae[0], &in) ||
		    in.kind != AR_FIELD || !ev->f[in.field].t.sym || ev->f[in.field].count ||
		    ev->f[in.field].seq)
			return -1; /* a value the metadata has no labels for, or an array */
		r->kind = flags ? AR_FLAGS : AR_SYM;
		r->field = in.field;
		if (flags) {
			const char *d = skip_ws(as[1], ae[1]), *de = ae[1];
			while (de > d && isspace((unsigned char)de[-1]))
				de--;
			if (de - d < 2 || *d != '"' || de[-1] != '"')
				return -1;
			r->delim = unescape(d + 1, (size_t)(de - d - 2), NULL);
		}
		return 0;
	}
	if ((n = split_call(s, e, "__print_hex", as, ae, 3)) >= 0) {
		const char *l, *le;
		const struct field *f;
		if (n != 2 || parse_argref(ev, as[0], ae[0], &in) ||
		    (in.kind != AR_FIELD && in.kind != AR_DYN))
			return -1;
		f = &ev->f[in.field];
		if (f->t.kind != FT_INT || (!f->count && !f->seq))
			return -1;
		r->kind = AR_HEX;
		r->field = in.field;
		r->hexlen = UINT64_MAX;
		l = skip_ws(as[1], ae[1]);
		le = ae[1];
		while (le > l && isspace((unsigned char)le[-1]))
			le--;
		if (isdigit((unsigned char)*l)) {
			char num[32], *end;
			if ((size_t)(le - l) >= sizeof(num))
				return -1;
			memcpy(num, l, (size_t)(le - l));
			num[le - l] = '\0';
			r->hexlen = strtoull(num, &end, 0);
			if (*end)
				return -1;
		} else { /* the whole field: __get_dynamic_array_len(x), sizeof(__entry->x) */
			const char *ls[1], *lend[1];
			struct argref lr;
			memset(&lr, 0, sizeof(lr));
			if (split_call(l, le, "__get_dynamic_array_len", ls, lend, 1) == 1) {
				const char *id = skip_ws(ls[0], lend[0]), *ie = lend[0];
				while (ie > id && isspace((unsigned char)ie[-1]))
					ie--;
				if (field_index(ev, id, (size_t)(ie - id)) != in.field)
					return -1;
			} else if (split_call(l, le, "sizeof", ls, lend, 1) == 1) {
				if (parse_argref(ev, ls[0], lend[0], &lr) || lr.kind != AR_FIELD ||
				    lr.field != in.field)
					return -1;
			} else {
				return -1;
			}
		}
		return 0;
	}
	if ((n = split_call(s, e, "__get_dynamic_array", as, ae, 1)) >= 0) {
		const char *id = skip_ws(as[0], ae[0]), *ie = ae[0];
		while (ie > id && isspace((unsigned char)ie[-1]))
			ie--;
		if (n != 1)
			return -1;
		r->field = field_index(ev, id, (size_t)(ie - id));
		if (r->field < 0 || !ev->f[r->field].seq)
			return -1;
		r->kind = AR_DYN;
		return 0;
	}
	return 1;
}

/* Past the character c at s and the spaces after it; NULL if s is not at c. */
static const char *past_char(const char *s, const char *e, char c)
{
	return s < e && *s == c ? skip_ws(s + 1, e) : NULL;
}

/* The field named at s (*field: its index, negative if there is none):
 * past the name and the spaces after it, or NULL if there is no such field. */
static const char *field_at(const struct event *ev, const char *s, const char *e, int *field)
{
	const char *id = s;
	while (s < e && is_ident((unsigned char)*s))
		s++;
	if (s == id || (*field = field_index(ev, id, (size_t)(s - id))) < 0)
		return NULL;
	return skip_ws(s, e);
}

static int parse_argref(const struct event *ev, const char *s, const char *e, struct argref *r)
{
	int h;
	s = skip_ws(s, e);
	while (e > s && isspace((unsigned char)e[-1]))
		e--;
	if ((h = parse_helper(ev, s, e, r)) <= 0)
		return h;
	if (e - s > 7 && !memcmp(s, "__entry", 7) && !is_ident((unsigned char)s[7])) {
		s = skip_ws(s + 7, e);
		if (e - s < 2 || s[0] != '-' || s[1] != '>')
			return -1;
		s = skip_ws(s + 2, e);
		if ((s < e && isdigit((unsigned char)*s)) || !(s = field_at(ev, s, e, &r->field)))
			return -1;
		r->kind = 0;
		if (s < e && *s == '[') {
			char num[32], *end;
			size_t n;
			unsigned long long v;
			const char *ns;
			s = skip_ws(s + 1, e);
			ns = s;
			while (s < e && isalnum((unsigned char)*s))
				s++;
			n = (size_t)(s - ns);
			if (!n || n >= sizeof(num))
				return -1;
			memcpy(num, ns, n);
			num[n] = '\0';
			errno = 0;
			v = strtoull(num, &end, 0);
			if (*end || errno || v > 0x7fffffffu)
				return -1;
			if (!(s = past_char(skip_ws(s, e), e, ']')))
				return -1;
			r->kind = 1;
			r->idx = (unsigned)v;
		}
		return s == e ? 0 : -1;
	}
	if (e - s > 9 && !memcmp(s, "__get_str", 9)) {
		s = past_char(skip_ws(s + 9, e), e, '(');
		if (!s || !(s = field_at(ev, s, e, &r->field)) || !(s = past_char(s, e, ')')))
			return -1;
		r->kind = 2;
		return s == e ? 0 : -1;
	}
	return -1;
}

/* Length of a valid UTF-8 sequence at s (n bytes left), or 0. */
size_t utf8_len(const u8 *s, size_t n)
{
	u8 c = s[0];
	size_t k, i;
	uint32_t cp;
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		k = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		k = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		k = 4, cp = c & 0x07;
	else
		return 0;
	if (k > n)
		return 0;
	for (i = 1; i < k; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((k == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (k == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return k;
}

/* Text for one line of output, C-like (docs/tracepoint-dump.md): printable
 * ASCII and valid UTF-8 as they are; a backslash doubled; \n \r \t; any
 * other control character (C0, DEL, C1), and every byte that is not part
 * of valid UTF-8, as \xHH.  So a recorded string cannot end a line, move
 * the cursor or pass for an escape: the output reads back to the exact
 * bytes.  Needs 4 * n bytes. */
char *put_text(char *o, const u8 *s, size_t n)
{
	size_t i = 0;
	while (i < n) {
		u8 c = s[i];
		if (c >= 0x20 && c < 0x7f && c != '\\') {
			*o++ = (char)c;
			i++;
			continue;
		}
		if (c >= 0x80) {
			size_t k = utf8_len(s + i, n - i);
			if (k > 1 && !(c == 0xc2 && s[i + 1] < 0xa0)) { /* not U+0080..U+009F */
				memcpy(o, s + i, k);
				o += k;
				i += k;
				continue;
			}
		}
		*o++ = '\\';
		switch (c) {
		case '\\':
			*o++ = '\\';
			break;
		case '\n':
			*o++ = 'n';
			break;
		case '\t':
			*o++ = 't';
			break;
		case '\r':
			*o++ = 'r';
			break;
		default:
			*o++ = 'x';
			*o++ = "0123456789abcdef"[c >> 4];
			*o++ = "0123456789abcdef"[c & 15];
			break;
		}
		i++;
	}
	return o;
}

/* A copy of s escaped by put_text() (for names read from the metadata). */
char *text_dup(const char *s)
{
	size_t n = strlen(s);
	char *d = (char *)xmalloc(4 * n + 1);
	*put_text(d, (const u8 *)s, n) = '\0';
	return d;
}

/* The digits of a conversion's width or precision from fmt[*i] on (none
 * is 0), *i moved past them; -1 once the number passes 4096. */
static int spec_number(const char *fmt, size_t fmtlen, size_t *i)
{
	int v = 0;
	while (*i < fmtlen && isdigit((unsigned char)fmt[*i])) {
		v = v * 10 + (fmt[(*i)++] - '0');
		if (v > 4096)
			return -1;
	}
	return v;
}

/* Compiles ev->printk into segments; 0 if the event must fall back to
 * name=value pairs. */
/* A conversion that the fast paths do not print: its spec for snprintf,
 * rebuilt from the parsed flags, width, precision, length and conversion. */
static void slow_spec(struct seg *sg, int flags, int width, int prec, const char *len, char conv)
{
	snprintf(sg->spec, sizeof(sg->spec), "%%%s%s%s%s%s%.0d%s%.0d%s%c",
		 flags & FL_MINUS ? "-" : "", flags & FL_PLUS ? "+" : "",
		 flags & FL_SPACE ? " " : "", flags & FL_HASH ? "#" : "",
		 flags & FL_ZERO ? "0" : "", width > 0 ? width : 0, prec >= 0 ? "." : "",
		 prec > 0 ? prec : 0, len, conv);
}

/* The argument r compiled as an expression (expr.c) into xp: 0 and r
 * made AR_EXPR, or -1. */
static int arg_expr(const struct event *ev, struct argref *r, struct expr **xp, size_t *nxp,
		    size_t *capxp)
{
	struct expr x;
	if (expr_compile(ev, r->s, r->e, &x) != 0)
		return -1;
	GROW(*xp, *nxp, *capxp);
	(*xp)[*nxp] = x;
	free(r->delim);
	r->delim = NULL;
	r->kind = AR_EXPR;
	r->field = (int)(*nxp)++;
	return 0;
}

/* The segment of a conversion of expression x (index xi): 0, or -1 if the
 * conversion does not print what x is. */
static int expr_seg(const struct expr *x, int xi, int flags, int width, int prec, int lm, char conv,
		    char pext, struct seg *sg)
{
	memset(sg, 0, sizeof(*sg));
	sg->kind = SEG_EXPR;
	sg->field = xi;
	sg->flags = (unsigned char)flags;
	sg->width = width;
	sg->prec = prec;
	sg->conv = (unsigned char)conv;
	if (width == 0)
		return -1;
	if (conv == 's')
		return lm || x->kind == XV_INT ? -1 : 0;
	if (x->kind != XV_INT || strchr("eEfFgGaA", conv))
		return -1;
	if (conv == 'p') {
		if (lm)
			return -1;
		sg->pext = (unsigned char)(strchr("sSfFB", pext) && pext ? pext : 0);
		if (flags || width >= 0 || prec >= 0)
			slow_spec(sg, flags, width, prec, "", 'p');
		return 0;
	}
	if (conv == 'c')
		return lm ? -1 : 0;
	sg->sgn = conv == 'd' || conv == 'i';
	sg->bits = lm == 0 ? 32 : lm == 1 ? 8 : lm == 2 ? 16 : 64;
	if ((flags & ~(FL_MINUS | FL_ZERO)) || prec >= 0)
		slow_spec(sg, flags, width, prec, "ll", conv);
	return 0;
}

int compile_printk(struct event *ev)
{
	const char *s = ev->printk, *e, *a;
	char *fmt = NULL, *lits = NULL;
	size_t fmtlen = 0, litcap, litlen = 0, nargs = 0, capargs = 0, i, nconv = 0;
	struct argref *args = NULL;
	struct seg *seg = NULL;
	size_t nseg = 0, capseg = 0;
	struct expr *xp = NULL;
	size_t nxp = 0, capxp = 0;
	if (!s)
		return 0;
	s = plain_helpers(s);
	free(ev->printk);
	ev->printk = (char *)s;
	e = s + strlen(s);
	s = skip_ws(s, e);
	if (s >= e || *s != '"')
		return 0;
	/* adjacent string literals */
	while (s < e && *s == '"') {
		const char *q = s + 1;
		size_t n;
		char *part;
		while (q < e && *q != '"') {
			if (*q == '\\' && q + 1 < e)
				q++;
			q++;
		}
		if (q >= e)
			goto fail;
		part = unescape(s + 1, (size_t)(q - s - 1), &n);
		fmt = (char *)xrealloc(fmt, fmtlen + n + 1);
		memcpy(fmt + fmtlen, part, n);
		fmtlen += n;
		fmt[fmtlen] = '\0';
		free(part);
		s = skip_ws(q + 1, e);
	}
	if (!fmt)
		goto fail;
	/* arguments */
	if (s < e) {
		if (*s != ',')
			goto fail;
		s++;
		while (s <= e) {
			int depth = 0;
			a = s;
			(void)arg_end(&s, e, &depth); /* an unclosed quote: to e */
			GROW(args, nargs, capargs);
			memset(&args[nargs], 0, sizeof(args[nargs]));
			nargs++;
			args[nargs - 1].s = a;
			args[nargs - 1].e = s;
			if (parse_argref(ev, a, s, &args[nargs - 1]) &&
			    arg_expr(ev, &args[nargs - 1], &xp, &nxp, &capxp))
				goto fail;
			if (s >= e)
				break;
			s++;
		}
	}
	/* a field printed both with __print_symbolic and with __print_flags:
	 * both from their own tables (the metadata's labels are one of them) */
	for (i = 0; i < nargs; i++) {
		size_t k;
		if (args[i].kind != AR_FLAGS)
			continue;
		for (k = 0; k < nargs; k++)
			if (args[k].kind == AR_SYM && args[k].field == args[i].field)
				break;
		if (k == nargs)
			continue;
		for (k = 0; k < nargs; k++)
			if ((args[k].kind == AR_SYM || args[k].kind == AR_FLAGS) &&
			    args[k].field == args[i].field &&
			    arg_expr(ev, &args[k], &xp, &nxp, &capxp))
				goto fail;
	}
	/* the format */
	litcap = fmtlen * 4 + 1 + 32; /* + 32: read by cpy_padded */
	lits = (char *)xcalloc(litcap, 1);
	for (i = 0; i < fmtlen;) {
		struct seg sg;
		size_t start = i;
		while (i < fmtlen && fmt[i] != '%')
			i++;
		if (i > start) {
			char *o = put_text(lits + litlen, (const u8 *)fmt + start, i - start);
			memset(&sg, 0, sizeof(sg));
			sg.kind = SEG_LIT;
			sg.lit = (const char *)(uintptr_t)litlen; /* fixed up below */
			sg.litlen = (size_t)(o - (lits + litlen));
			litlen += sg.litlen;
			GROW(seg, nseg, capseg);
			seg[nseg++] = sg;
		}
		if (i >= fmtlen)
			break;
		/* a conversion */
		{
			size_t cs = i++;
			int flags = 0, width = -1, prec = -1,
			    lm = 0; /* lm: 0 none, 1 hh, 2 h, 3 l, 4 ll/q/j/z/t, 5 L */
			char conv, pext;
			struct argref *r;
			const struct field *f;
			int isint = 0, isflt = 0;
			if (i < fmtlen && fmt[i] == '%') {
				char *o = lits + litlen;
				*o = '%';
				memset(&sg, 0, sizeof(sg));
				sg.kind = SEG_LIT;
				sg.lit = (const char *)(uintptr_t)litlen;
				sg.litlen = 1;
				litlen++;
				GROW(seg, nseg, capseg);
				seg[nseg++] = sg;
				i++;
				continue;
			}
			for (; i < fmtlen && strchr("-+ #0", fmt[i]) && fmt[i]; i++)
				flags |= fmt[i] == '-'	 ? FL_MINUS
					 : fmt[i] == '+' ? FL_PLUS
					 : fmt[i] == ' ' ? FL_SPACE
					 : fmt[i] == '#' ? FL_HASH
							 : FL_ZERO;
			if (i < fmtlen && isdigit((unsigned char)fmt[i])) {
				width = spec_number(fmt, fmtlen, &i);
				if (width < 0)
					goto fail;
			}
			if (i < fmtlen && fmt[i] == '.') {
				i++;
				prec = spec_number(fmt, fmtlen, &i);
				if (prec < 0)
					goto fail;
			}
			if (i < fmtlen && fmt[i] == 'h') {
				lm = 2;
				if (++i < fmtlen && fmt[i] == 'h')
					lm = 1, i++;
			} else if (i < fmtlen && fmt[i] == 'l') {
				lm = 3;
				if (++i < fmtlen && fmt[i] == 'l')
					lm = 4, i++;
			} else if (i < fmtlen && strchr("qjzZt", fmt[i]) && fmt[i]) {
				lm = 4;
				i++;
			} else if (i < fmtlen && fmt[i] == 'L') {
				lm = 5;
				i++;
			}
			if (i >= fmtlen)
				goto fail;
			conv = fmt[i++];
			if (!strchr("diuxXocspeEfFgGaA", conv))
				goto fail;
			if (nconv >= nargs)
				goto fail;
			r = &args[nconv++];
			if (conv == 'p' && i + 1 < fmtlen && (fmt[i] == 'I' || fmt[i] == 'i') &&
			    (fmt[i + 1] == '4' || fmt[i + 1] == '6') && r->kind == AR_FIELD &&
			    ev->f[r->field].t.kind == FT_INT && ev->f[r->field].t.size == 1 &&
			    (ev->f[r->field].seq ||
			     ev->f[r->field].count >= (fmt[i + 1] == '4' ? 4u : 16u))) {
				/* %pI4, %pI6c...: an address in a byte array, the
				 * kernel's 4 or 16 bytes from its start */
				size_t k = 0;
				memset(&sg, 0, sizeof(sg));
				sg.kind = SEG_IPADDR;
				sg.field = r->field;
				sg.flags = (unsigned char)flags;
				sg.width = width;
				sg.prec = prec;
				for (; i < fmtlen && isalnum((unsigned char)fmt[i]); i++)
					if (k + 1 < sizeof(sg.spec))
						sg.spec[k++] = fmt[i];
				GROW(seg, nseg, capseg);
				seg[nseg++] = sg;
				continue;
			}
			if (conv == 'p' && i < fmtlen && isalnum((unsigned char)fmt[i]) &&
			    r->kind != AR_SOCKADDR) {
				/* %ps, %pS...: the kernel reads every letter after p
				 * (%pIS... of __get_sockaddr: field_helper_seg) */
				pext = fmt[i];
				while (i < fmtlen && isalnum((unsigned char)fmt[i]))
					i++;
				if (r->kind != AR_EXPR && arg_expr(ev, r, &xp, &nxp, &capxp))
					goto fail;
			} else {
				pext = 0;
			}
			if (r->kind == AR_EXPR) {
				if (expr_seg(&xp[r->field], r->field, flags, width, prec, lm, conv,
					     pext, &sg))
					goto fail;
				GROW(seg, nseg, capseg);
				seg[nseg++] = sg;
				continue;
			}
			f = &ev->f[r->field];
			memset(&sg, 0, sizeof(sg));
			sg.flags = (unsigned char)flags;
			sg.width = width;
			sg.prec = prec;
			sg.field = r->field;
			sg.conv = (unsigned char)conv;
			if (r->kind == AR_BITMASK || r->kind == AR_SOCKADDR ||
			    r->kind == AR_DYNLEN) {
				if (field_helper_seg(r, conv, lm, fmt, fmtlen, &i, &sg))
					goto fail;
				GROW(seg, nseg, capseg);
				seg[nseg++] = sg;
				continue;
			}
			if (r->kind >= AR_SYM) { /* the kernel's helpers print with %s */
				if (conv != 's' || lm)
					goto fail;
				if (r->kind == AR_DYN && !f->is_text &&
				    !(f->t.kind == FT_INT && f->t.size == 1))
					goto fail;
				sg.kind = r->kind == AR_SYM	? SEG_SYM
					  : r->kind == AR_FLAGS ? SEG_FLAGS
					  : r->kind == AR_HEX	? SEG_HEX
								: SEG_STR;
				sg.hexlen = r->hexlen;
				if (r->kind == AR_FLAGS) {
					if (!ev->f[r->field].fdelim) {
						ev->f[r->field].fdelim = r->delim;
						r->delim = NULL;
					} else if (strcmp(ev->f[r->field].fdelim, r->delim) != 0) {
						goto fail; /* one field, two separators */
					}
				}
				GROW(seg, nseg, capseg);
				seg[nseg++] = sg;
				continue;
			}
			if (r->kind == 1) {
				if (!f->count || r->idx >= f->count || f->t.kind == FT_STR)
					goto fail;
				sg.indexed = 1;
				sg.idx = r->idx;
			}
			if (conv == 's') {
				if (lm)
					goto fail;
				/* a string, or a char array fixed or dynamic (the
				 * kernel's __get_str of a __dynamic_array) */
				if (r->kind == 1)
					goto fail;
				/* a `const char *` field: the string it points to,
				 * as the kernel prints one */
				if (f->t.kind == FT_INT && !f->count && !f->seq &&
				    (f->t.size == 8 || f->t.size == 4)) {
					sg.kind = SEG_PSTR;
					GROW(seg, nseg, capseg);
					seg[nseg++] = sg;
					continue;
				}
				if (f->t.kind != FT_STR && !((f->count || f->seq) &&
							     f->t.kind == FT_INT && f->t.size == 1))
					goto fail;
				sg.kind = SEG_STR;
			} else {
				/* a whole array, fixed or dynamic (which may have no
				 * element at all), is not one number */
				if (r->kind == 2 || f->t.kind == FT_STR ||
				    ((f->count || f->seq) && r->kind != 1))
					goto fail;
				isint = f->t.kind == FT_INT;
				isflt = f->t.kind == FT_FLOAT;
				if (strchr("diuxXo", conv)) {
					if (!isint)
						goto fail;
					sg.sgn = conv == 'd' || conv == 'i';
					sg.bits = lm == 0 ? 32 : lm == 1 ? 8 : lm == 2 ? 16 : 64;
					if (!(flags & ~(FL_MINUS | FL_ZERO)) && prec < 0) {
						sg.kind = SEG_INT;
					} else {
						sg.kind = SEG_SLOW;
						slow_spec(&sg, flags, width, prec, "ll", conv);
						if (width == 0)
							goto fail;
					}
				} else if (conv == 'c') {
					if (!isint || lm)
						goto fail;
					sg.kind = SEG_CHR;
				} else if (conv == 'p') {
					if (!isint || lm)
						goto fail;
					if (flags || width >= 0 || prec >= 0) {
						sg.kind = SEG_SLOW;
						slow_spec(&sg, flags, width, prec, "", 'p');
						if (width == 0)
							goto fail;
					} else {
						sg.kind = SEG_PTR;
					}
				} else { /* floating point */
					if (!isflt || (lm && lm != 3 && lm != 5))
						goto fail;
					sg.kind = SEG_FLT;
					snprintf(sg.spec, sizeof(sg.spec),
						 "%%%s%s%s%s%s%.0d%s%.0d%c",
						 flags & FL_MINUS ? "-" : "",
						 flags & FL_PLUS ? "+" : "",
						 flags & FL_SPACE ? " " : "",
						 flags & FL_HASH ? "#" : "",
						 flags & FL_ZERO ? "0" : "", width > 0 ? width : 0,
						 prec >= 0 ? "." : "", prec > 0 ? prec : 0, conv);
					if (width == 0)
						goto fail;
				}
			}
			(void)cs;
			GROW(seg, nseg, capseg);
			seg[nseg++] = sg;
		}
	}
	if (nconv != nargs)
		goto fail;
	for (i = 0; i < nseg; i++)
		if (seg[i].kind == SEG_LIT)
			seg[i].lit = lits + (uintptr_t)seg[i].lit;
	ev->seg = seg;
	ev->nseg = (unsigned)nseg;
	ev->fmtbuf = lits;
	ev->xp = xp;
	ev->nxp = (unsigned)nxp;
	free(fmt);
	for (i = 0; i < nargs; i++)
		free(args[i].delim);
	free(args);
	return 1;
fail:
	for (i = 0; i < nargs; i++)
		free(args[i].delim);
	for (i = 0; i < nxp; i++)
		expr_free(&xp[i]);
	free(xp);
	free(fmt);
	free(lits);
	free(args);
	free(seg);
	return 0;
}
