/* SPDX-License-Identifier: MIT */
/*
 * tools/dump/metadata.c - tracepoint-dump's the metadata file: the TSDL
 * lexer and the parser that fills struct trace (clock, environment, events
 * and their fields).
 *
 * Part of tracepoint-dump (dump.h has the map of its parts).
 */
#include "dump.h"

/* ------------------------------------------------------------------ */
/* Metadata: lexer                                                    */
/* ------------------------------------------------------------------ */

int tok_is(const struct tok *t, int type, const char *s)
{
	return t->type == type && t->n == strlen(s) && memcmp(t->s, s, t->n) == 0;
}

int perr(struct parser *P, unsigned line, const char *fmt, ...)
{
	va_list ap;
	char buf[256];
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (!P->err[0])
		snprintf(P->err, sizeof(P->err), "line %u: %s", line, buf);
	return -1;
}

int lex(struct parser *P, const char *s, size_t len)
{
	size_t i = 0, cap = 0;
	unsigned line = 1;
	while (i < len) {
		unsigned char c = (unsigned char)s[i];
		struct tok tk;
		if (c == '\n') {
			line++;
			i++;
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			i++;
			continue;
		}
		tk.line = line;
		if (c == '/' && i + 1 < len && s[i + 1] == '*') {
			size_t j = i + 2;
			while (j + 1 < len && !(s[j] == '*' && s[j + 1] == '/')) {
				if (s[j] == '\n')
					line++;
				j++;
			}
			if (j + 1 >= len)
				return perr(P, tk.line, "unterminated comment");
			tk.type = TK_COMMENT;
			tk.s = s + i + 2;
			tk.n = j - i - 2;
			i = j + 2;
		} else if (c == '/' && i + 1 < len && s[i + 1] == '/') {
			while (i < len && s[i] != '\n')
				i++;
			continue;
		} else if (c == '"') {
			size_t j = i + 1;
			while (j < len && s[j] != '"') {
				if (s[j] == '\\')
					j++;
				else if (s[j] == '\n')
					return perr(P, line, "newline in a string");
				j++;
			}
			if (j >= len)
				return perr(P, line, "unterminated string");
			tk.type = TK_STR;
			tk.s = s + i + 1;
			tk.n = j - i - 1;
			i = j + 1;
		} else if (isalpha(c) || c == '_') {
			size_t j = i + 1;
			while (j < len && (isalnum((unsigned char)s[j]) || s[j] == '_'))
				j++;
			tk.type = TK_ID;
			tk.s = s + i;
			tk.n = j - i;
			i = j;
		} else if (isdigit(c)) {
			size_t j = i + 1;
			while (j < len && isalnum((unsigned char)s[j]))
				j++;
			tk.type = TK_NUM;
			tk.s = s + i;
			tk.n = j - i;
			i = j;
		} else if (c == ':' && i + 1 < len && s[i + 1] == '=') {
			tk.type = TK_PUNCT;
			tk.s = s + i;
			tk.n = 2;
			i += 2;
		} else if (c == '.' && i + 2 < len && s[i + 1] == '.' && s[i + 2] == '.') {
			tk.type = TK_PUNCT;
			tk.s = s + i;
			tk.n = 3;
			i += 3;
		} else if (c && strchr("{}[]()<>;=,:.-+*", c)) {
			tk.type = TK_PUNCT;
			tk.s = s + i;
			tk.n = 1;
			i++;
		} else {
			return perr(P, line, "unexpected character 0x%02x", c);
		}
		GROW(P->t, P->n, cap);
		P->t[P->n++] = tk;
	}
	return 0;
}

static int tok_u64(const struct tok *t, uint64_t *out)
{
	uint64_t v = 0;
	unsigned base = 10;
	size_t i = 0;
	if (t->type != TK_NUM)
		return -1;
	if (t->n > 2 && t->s[0] == '0' && (t->s[1] == 'x' || t->s[1] == 'X')) {
		base = 16;
		i = 2;
	} else if (t->n > 1 && t->s[0] == '0') {
		base = 8;
		i = 1;
	}
	for (; i < t->n; i++) {
		int c = (unsigned char)t->s[i], d;
		if (isdigit(c))
			d = c - '0';
		else if (isxdigit(c))
			d = tolower(c) - 'a' + 10;
		else if ((c == 'u' || c == 'U' || c == 'l' || c == 'L'))
			break;
		else
			return -1;
		if ((unsigned)d >= base)
			return -1;
		if (v > (UINT64_MAX - (unsigned)d) / base)
			return -1;
		v = v * base + (unsigned)d;
	}
	for (; i < t->n; i++)
		if (!strchr("uUlL", t->s[i]))
			return -1;
	*out = v;
	return 0;
}

/* The text of a TSDL/C string literal's body, escapes resolved. */
char *unescape(const char *s, size_t n, size_t *outlen)
{
	char *d = (char *)xmalloc(n + 1);
	size_t i, k = 0;
	for (i = 0; i < n; i++) {
		char c = s[i];
		if (c == '\\' && i + 1 < n) {
			c = s[++i];
			switch (c) {
			case 'n':
				c = '\n';
				break;
			case 't':
				c = '\t';
				break;
			case 'r':
				c = '\r';
				break;
			case 'a':
				c = '\a';
				break;
			case 'b':
				c = '\b';
				break;
			case 'f':
				c = '\f';
				break;
			case 'v':
				c = '\v';
				break;
			case 'e':
				c = 27;
				break;
			case 'x': {
				unsigned v = 0;
				while (i + 1 < n && isxdigit((unsigned char)s[i + 1])) {
					int h = (unsigned char)s[++i];
					v = v * 16 + (unsigned)(isdigit(h) ? h - '0'
									   : tolower(h) - 'a' + 10);
				}
				c = (char)(v & 0xff);
				break;
			}
			default:
				if (c >= '0' && c <= '7') {
					unsigned v = (unsigned)(c - '0'), m = 1;
					while (m < 3 && i + 1 < n && s[i + 1] >= '0' &&
					       s[i + 1] <= '7') {
						v = v * 8 + (unsigned)(s[++i] - '0');
						m++;
					}
					c = (char)(v & 0xff);
				}
				break;
			}
		}
		d[k++] = c;
	}
	d[k] = '\0';
	if (outlen)
		*outlen = k;
	return d;
}

/* ------------------------------------------------------------------ */
/* Metadata: parser                                                   */
/* ------------------------------------------------------------------ */

/* What a token does to the bracket depth: 1 opens, -1 closes, 0 neither
 * (*semi: whether it is a ';'). */
static int bracket(const struct tok *t, int *semi)
{
	*semi = 0;
	if (t->type != TK_PUNCT || t->n != 1)
		return 0;
	if (strchr("{[(", t->s[0]))
		return 1;
	if (strchr("}])", t->s[0]))
		return -1;
	*semi = t->s[0] == ';';
	return 0;
}

/* Index of the token closing the bracket at i, or 0. */
size_t match_close(struct parser *P, size_t i, size_t lim)
{
	int depth = 0, semi;
	for (; i < lim; i++) {
		int d = bracket(&P->t[i], &semi);
		depth += d;
		if (d < 0 && depth == 0)
			return i;
	}
	return 0;
}

/* Index of the ';' ending the statement starting at i, or 0. */
size_t stmt_end(struct parser *P, size_t i, size_t lim)
{
	int depth = 0, semi;
	for (; i < lim; i++) {
		depth += bracket(&P->t[i], &semi);
		if (semi && depth == 0)
			return i;
		if (depth < 0)
			return 0;
	}
	return 0;
}

/* Skips the comments from *i on (before e); at a statement: its ';' in
 * *se and 1; at e: 0; a statement without its ';': -1 (what: the error). */
static int next_stmt(struct parser *P, size_t *i, size_t e, size_t *se, const char *what)
{
	while (*i < e && P->t[*i].type == TK_COMMENT)
		++*i;
	if (*i >= e)
		return 0;
	*se = stmt_end(P, *i, e);
	if (!*se)
		return perr(P, P->t[*i].line, "%s", what);
	return 1;
}

struct val {
	int type; /* TK_STR, TK_NUM, TK_ID */
	const struct tok *tk;
	int neg;
	char key[64];
	char id[64]; /* TK_ID: dotted identifiers joined */
};

/* Joins the identifiers "a.b.c" from token *i on (before e) into out
 * (cap bytes, '\0'-terminated), moving *i past them and their dots.
 * Returns the length, or -1 when they do not fit. */
static long join_dotted(const struct parser *P, size_t *i, size_t e, char *out, size_t cap)
{
	size_t k = 0;
	while (*i < e && P->t[*i].type == TK_ID) {
		size_t n = P->t[*i].n;
		if (k + n + 2 > cap)
			return -1;
		memcpy(out + k, P->t[*i].s, n);
		k += n;
		++*i;
		if (*i < e && tok_is(&P->t[*i], TK_PUNCT, ".")) {
			out[k++] = '.';
			++*i;
		} else {
			break;
		}
	}
	out[k] = '\0';
	return (long)k;
}

/* Reads "key = value" or "key := ..." from tokens [i, e) (comments
 * skipped).  Returns 1 for '=', 2 for ':=' (*rhs: first token after it),
 * 0 for anything else. */
static int get_assign(struct parser *P, size_t i, size_t e, struct val *v, size_t *rhs)
{
	memset(v, 0, sizeof(*v));
	while (i < e && P->t[i].type == TK_COMMENT)
		i++;
	if (join_dotted(P, &i, e, v->key, sizeof(v->key)) <= 0 || i >= e)
		return 0;
	if (tok_is(&P->t[i], TK_PUNCT, ":=")) {
		*rhs = i + 1;
		return 2;
	}
	if (!tok_is(&P->t[i], TK_PUNCT, "="))
		return 0;
	i++;
	if (i < e && tok_is(&P->t[i], TK_PUNCT, "-")) {
		v->neg = 1;
		i++;
	}
	if (i >= e)
		return 0;
	v->tk = &P->t[i];
	v->type = P->t[i].type;
	if (v->type == TK_ID) {
		if (join_dotted(P, &i, e, v->id, sizeof(v->id)) < 0)
			return 0;
	} else {
		i++;
	}
	while (i < e && P->t[i].type == TK_COMMENT)
		i++;
	if (i != e)
		return 0;
	if (v->type != TK_STR && v->type != TK_NUM && v->type != TK_ID)
		return 0;
	return 1;
}

static int val_u64(const struct val *v, uint64_t *out)
{
	return v->type == TK_NUM && !v->neg ? tok_u64(v->tk, out) : -1;
}

static int val_bool(const struct val *v, int *out)
{
	uint64_t n;
	if (v->type == TK_ID) {
		if (!strcmp(v->id, "true") || !strcmp(v->id, "TRUE")) {
			*out = 1;
			return 0;
		}
		if (!strcmp(v->id, "false") || !strcmp(v->id, "FALSE")) {
			*out = 0;
			return 0;
		}
		return -1;
	}
	if (val_u64(v, &n) == 0 && n <= 1) {
		*out = (int)n;
		return 0;
	}
	return -1;
}

static int parse_bo(const char *s)
{
	if (!strcmp(s, "le") || !strcmp(s, "little"))
		return BO_LE;
	if (!strcmp(s, "be") || !strcmp(s, "big") || !strcmp(s, "network"))
		return BO_BE;
	if (!strcmp(s, "native"))
		return BO_TRACE;
	return -1;
}

/* The attributes of integer { } / floating_point { } / string { } in (b, e). */
static int parse_attrs(struct parser *P, size_t b, size_t e, struct ftype *ft)
{
	size_t i = b, se, rhs;
	uint64_t size = 0, align = 0, ed = 0, md = 0;
	struct val v;
	int r;
	while ((r = next_stmt(P, &i, e, &se, "missing ';' in a type")) > 0) {
		if (get_assign(P, i, se, &v, &rhs) != 1)
			return perr(P, P->t[i].line, "unexpected statement in a type");
		if (!strcmp(v.key, "size")) {
			if (val_u64(&v, &size))
				return perr(P, v.tk->line, "bad size");
		} else if (!strcmp(v.key, "align")) {
			if (val_u64(&v, &align) || !align || (align & (align - 1)))
				return perr(P, v.tk->line, "bad align");
		} else if (!strcmp(v.key, "signed")) {
			int bv;
			if (val_bool(&v, &bv))
				return perr(P, v.tk->line, "bad signed");
			ft->sgn = (unsigned char)bv;
		} else if (!strcmp(v.key, "base")) {
			uint64_t bn = 0;
			if (v.type == TK_ID) {
				const char *s = v.id;
				if (!strcmp(s, "decimal") || !strcmp(s, "dec") || !strcmp(s, "d") ||
				    !strcmp(s, "i") || !strcmp(s, "u"))
					bn = 10;
				else if (!strcmp(s, "hexadecimal") || !strcmp(s, "hex") ||
					 !strcmp(s, "x") || !strcmp(s, "X") || !strcmp(s, "p"))
					bn = 16;
				else if (!strcmp(s, "octal") || !strcmp(s, "oct") ||
					 !strcmp(s, "o"))
					bn = 8;
				else if (!strcmp(s, "binary") || !strcmp(s, "b"))
					bn = 2;
			} else if (val_u64(&v, &bn)) {
				bn = 0;
			}
			if (bn != 2 && bn != 8 && bn != 10 && bn != 16)
				return perr(P, v.tk->line, "bad base");
			ft->base = (unsigned char)bn;
		} else if (!strcmp(v.key, "encoding")) {
			const char *s = v.type == TK_ID ? v.id : "";
			if (!strcmp(s, "UTF8") || !strcmp(s, "ASCII") || !strcmp(s, "utf8"))
				ft->enc = 1;
			else if (!strcmp(s, "none"))
				ft->enc = 0;
			else
				return perr(P, v.tk->line, "bad encoding");
		} else if (!strcmp(v.key, "byte_order")) {
			int bo = v.type == TK_ID ? parse_bo(v.id) : -1;
			if (bo < 0)
				return perr(P, v.tk->line, "bad byte_order");
			ft->bo = (unsigned char)bo;
		} else if (!strcmp(v.key, "exp_dig")) {
			if (val_u64(&v, &ed))
				return perr(P, v.tk->line, "bad exp_dig");
		} else if (!strcmp(v.key, "mant_dig")) {
			if (val_u64(&v, &md))
				return perr(P, v.tk->line, "bad mant_dig");
		} else if (P->strict && strcmp(v.key, "map")) {
			return perr(P, v.tk->line, "an attribute '%s'", v.key);
		} /* map and others: not needed */
		i = se + 1;
	}
	if (r < 0)
		return r;
	if (ft->kind == FT_INT) {
		if (size != 8 && size != 16 && size != 32 && size != 64)
			ft->bad = "an integer that is not 8, 16, 32 or 64 bits";
		else
			ft->size = (unsigned char)(size / 8);
		if (!align)
			align = 8;
	} else if (ft->kind == FT_FLOAT) {
		if (ed == 8 && md == 24)
			ft->size = 4;
		else if (ed == 11 && md == 53)
			ft->size = 8;
		else
			ft->bad = "a floating point number that is neither float nor double";
		if (!align)
			align = 8;
	}
	if (align > 8 * 4096)
		return perr(P, P->t[b].line, "alignment too large");
	ft->align = (unsigned char)(align <= 8 ? 1 : align / 8 > 255 ? 255 : align / 8);
	if (align / 8 > 255)
		ft->bad = "an alignment over 255 bytes";
	return 0;
}

static int parse_type(struct parser *P, size_t i, size_t e, struct ftype *ft);

/* "enum : integer-type { "label" = value, ... }" in [i, e): the integer
 * type, with its labels (value ranges "a ... b" keep their first value). */
static int parse_enum(struct parser *P, size_t i, size_t e, struct ftype *ft)
{
	size_t j = i + 1, open, close, k;
	struct sym *sy = NULL;
	size_t n = 0, cap = 0;
	if (j >= e || !tok_is(&P->t[j], TK_PUNCT, ":"))
		return perr(P, P->t[i].line, "enum: expected ':' and an integer type");
	j++;
	if (j < e && tok_is(&P->t[j], TK_ID, "integer")) {
		size_t c = j + 1 < e ? match_close(P, j + 1, e) : 0;
		if (!c)
			return perr(P, P->t[j].line, "enum: unbalanced '{'");
		open = c + 1;
	} else {
		open = j + 1;
	}
	if (open >= e || !tok_is(&P->t[open], TK_PUNCT, "{"))
		return perr(P, P->t[j < e ? j : i].line, "enum: expected '{' and the labels");
	close = match_close(P, open, e);
	if (!close || close + 1 != e)
		return perr(P, P->t[open].line, "enum: unbalanced '{' or tokens after the labels");
	if (parse_type(P, j, open, ft))
		return -1;
	if (ft->kind != FT_INT) {
		ft->bad = "an enumeration that is not an integer";
		return 0;
	}
	for (k = open + 1; k < close;) {
		const struct tok *lt = &P->t[k];
		uint64_t u;
		int neg = 0;
		if (lt->type != TK_STR && lt->type != TK_ID)
			goto bad;
		if (k + 2 >= close + 1 || !tok_is(&P->t[k + 1], TK_PUNCT, "="))
			goto bad;
		k += 2;
		if (k < close && tok_is(&P->t[k], TK_PUNCT, "-"))
			neg = 1, k++;
		if (k >= close || tok_u64(&P->t[k], &u))
			goto bad;
		GROW(sy, n, cap);
		sy[n].v = neg ? -(int64_t)u : (int64_t)u;
		sy[n].name =
			lt->type == TK_STR ? unescape(lt->s, lt->n, NULL) : xstrndup(lt->s, lt->n);
		n++;
		k++;
		if (k < close && tok_is(&P->t[k], TK_PUNCT, "...")) { /* a range: its first value */
			k++;
			if (k < close && tok_is(&P->t[k], TK_PUNCT, "-"))
				k++;
			k++;
		}
		if (k < close && !tok_is(&P->t[k], TK_PUNCT, ","))
			goto bad;
		k++;
	}
	ft->sym = sy;
	ft->nsym = (unsigned)n;
	return 0;
bad:
	j = k < e ? k : i; /* the offending token */
	for (k = 0; k < n; k++)
		free(sy[k].name);
	free(sy);
	return perr(P, P->t[j].line, "enum: bad label");
}

/* A type specifier in [i, e): returns 0 and fills ft (ft->bad set for
 * types this tool does not read), -1 on a syntax error. */
static int parse_type(struct parser *P, size_t i, size_t e, struct ftype *ft)
{
	const struct tok *t;
	memset(ft, 0, sizeof(*ft));
	ft->base = 10;
	while (i < e && P->t[i].type == TK_COMMENT)
		i++;
	if (i >= e)
		return perr(P, P->t[e < P->n ? e : P->n - 1].line, "missing type");
	t = &P->t[i];
	if (tok_is(t, TK_ID, "enum"))
		return parse_enum(P, i, e, ft);
	if (tok_is(t, TK_ID, "integer") || tok_is(t, TK_ID, "floating_point") ||
	    tok_is(t, TK_ID, "string")) {
		size_t c;
		ft->kind = tok_is(t, TK_ID, "integer")	? FT_INT
			   : tok_is(t, TK_ID, "string") ? FT_STR
							: FT_FLOAT;
		ft->align = 1;
		if (ft->kind == FT_STR) {
			ft->size = 1;
			ft->enc = 1;
		}
		if (i + 1 == e && ft->kind == FT_STR)
			return 0;
		if (i + 1 >= e || !tok_is(&P->t[i + 1], TK_PUNCT, "{"))
			return perr(P, t->line, "expected '{' after %.*s", (int)t->n, t->s);
		c = match_close(P, i + 1, e);
		if (!c)
			return perr(P, t->line, "unbalanced '{'");
		if (parse_attrs(P, i + 2, c, ft))
			return -1;
		if (ft->kind == FT_STR)
			ft->size = 1, ft->align = 1;
		if (c + 1 != e)
			return perr(P, t->line, "unexpected tokens after a type");
		return 0;
	}
	if (t->type == TK_ID && i + 1 == e) {
		size_t k;
		for (k = 0; k < P->tr->nal; k++)
			if (strlen(P->tr->al[k].name) == t->n &&
			    !memcmp(P->tr->al[k].name, t->s, t->n)) {
				*ft = P->tr->al[k].t;
				return 0;
			}
	}
	ft->kind = FT_INT;
	ft->bad = "a type other than integer, floating_point and string";
	return 0;
}

static void add_field(struct event *ev, const char *name, size_t n, const struct ftype *ft,
		      unsigned count)
{
	struct field *f;
	GROW(ev->f, ev->nf, ev->capf);
	f = &ev->f[ev->nf++];
	memset(f, 0, sizeof(*f));
	if (n > 1 && name[0] == '_') {
		name++;
		n--;
	}
	f->name = xstrndup(name, n);
	f->t = *ft;
	f->count = count;
	if (ft->bad && !ev->bad)
		ev->bad = ft->bad;
}

/* "struct { members }" in [i, e). */

static int parse_fields(struct parser *P, struct event *ev, size_t i, size_t e)
{
	size_t c, j, se;
	int r;
	while (i < e && P->t[i].type == TK_COMMENT)
		i++;
	if (i + 1 >= e || !tok_is(&P->t[i], TK_ID, "struct") ||
	    !tok_is(&P->t[i + 1], TK_PUNCT, "{"))
		return perr(P, P->t[i < e ? i : e - 1].line, "fields: expected 'struct {'");
	c = match_close(P, i + 1, e);
	if (!c)
		return perr(P, P->t[i].line, "fields: unbalanced '{'");
	j = i + 2;
	while ((r = next_stmt(P, &j, c, &se, "fields: missing ';'")) > 0) {
		size_t nameix, last;
		unsigned count = 0;
		struct ftype ft;
		last = se - 1;
		while (last > j && P->t[last].type == TK_COMMENT)
			last--;
		nameix = last;
		if (tok_is(&P->t[last], TK_PUNCT, "]")) {
			uint64_t n;
			if (last < j + 3 || !tok_is(&P->t[last - 2], TK_PUNCT, "["))
				return perr(P, P->t[last].line, "fields: bad array");
			if (P->t[last - 1].type == TK_NUM) {
				if (tok_u64(&P->t[last - 1], &n) || n > 0x7fffffffu)
					return perr(P, P->t[last].line, "fields: bad array length");
				count = (unsigned)n;
			} else {
				count = 0; /* a sequence */
			}
			nameix = last - 3;
			if (P->t[last - 1].type != TK_NUM) {
				/* a sequence: its length is an earlier unsigned integer field */
				const struct tok *lt = &P->t[last - 1];
				int li = -1;
				if (P->t[nameix].type != TK_ID)
					return perr(P, P->t[last].line, "fields: bad member");
				if (lt->type == TK_ID) {
					const char *ln = lt->s;
					size_t lnn = lt->n;
					if (lnn > 1 && ln[0] == '_')
						ln++, lnn--;
					li = field_index(ev, ln, lnn);
				}
				if (parse_type(P, j, nameix, &ft))
					return -1;
				if (li < 0 || ev->f[li].t.kind != FT_INT || ev->f[li].count ||
				    ev->f[li].seq)
					ft.bad = "a sequence whose length is not an earlier "
						 "integer field";
				else if (ft.kind == FT_STR)
					ft.bad = "a sequence of strings";
				add_field(ev, P->t[nameix].s, P->t[nameix].n, &ft, 0);
				if (li >= 0) {
					ev->f[ev->nf - 1].seq = (unsigned)li + 1;
					ev->f[li].hidden = 1;
				}
				j = se + 1;
				continue;
			}
		}
		if (nameix <= j || P->t[nameix].type != TK_ID)
			return perr(P, P->t[j].line, "fields: bad member");
		if (parse_type(P, j, nameix, &ft))
			return -1;
		if (ft.kind == FT_STR && count)
			ft.bad = "an array of strings";
		if (count == 0 && tok_is(&P->t[last], TK_PUNCT, "]"))
			ft.bad = "an array of length 0";
		add_field(ev, P->t[nameix].s, P->t[nameix].n, &ft, count);
		j = se + 1;
	}
	return r;
}

static int parse_uuid(const char *s, u8 *out)
{
	int k = 0;
	for (; *s && k < 32; s++) {
		int c = (unsigned char)*s, v;
		if (c == '-')
			continue;
		if (!isxdigit(c))
			return -1;
		v = isdigit(c) ? c - '0' : tolower(c) - 'a' + 10;
		if (k & 1)
			out[k / 2] = (u8)(out[k / 2] | v);
		else
			out[k / 2] = (u8)(v << 4);
		k++;
	}
	return k == 32 && !*s ? 0 : -1;
}

static char *val_text(const struct val *v)
{
	if (v->type == TK_STR)
		return unescape(v->tk->s, v->tk->n, NULL);
	if (v->type == TK_ID)
		return xstrdup(v->id);
	return xasprintf("%s%.*s", v->neg ? "-" : "", (int)v->tk->n, v->tk->s);
}

static unsigned parse_kind(const char *s, size_t n)
{
	static const struct {
		const char *w;
		unsigned k;
	} words[] = { { "slice_begin", EK_BEGIN },
		      { "slice_end", EK_END },
		      { "counter", EK_COUNTER },
		      { "flow", EK_FLOW },
		      { "global", EK_GLOBAL } };
	unsigned kind = 0, i;
	const char *e = s + n;
	while (s < e) {
		size_t w = 0;
		while (s < e && isspace((unsigned char)*s))
			s++;
		while (s + w < e && !isspace((unsigned char)s[w]))
			w++;
		for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
			if (strlen(words[i].w) == w && !memcmp(s, words[i].w, w))
				kind |= words[i].k;
		s += w;
	}
	return kind;
}

static int parse_block(struct parser *P, const char *kind, size_t b, size_t e)
{
	struct trace *tr = P->tr;
	struct event *ev = NULL;
	size_t i = b, se, rhs;
	struct val v;
	if (!strcmp(kind, "event")) {
		GROW(tr->ev, tr->nev, tr->capev);
		ev = &tr->ev[tr->nev++];
		memset(ev, 0, sizeof(*ev));
	}
	while (i < e) {
		int r;
		while (i < e && P->t[i].type == TK_COMMENT) {
			const struct tok *c = &P->t[i];
			size_t k = 0;
			while (k < c->n && isspace((unsigned char)c->s[k]))
				k++;
			if (ev && !ev->printk && c->n - k >= 7 && !memcmp(c->s + k, "printk:", 7)) {
				/* "*\/" in the comment stands for "*" "/" */
				const char *s = c->s + k + 7;
				size_t n = c->n - k - 7, m = 0, x;
				char *d = (char *)xmalloc(n + 1);
				for (x = 0; x < n; x++) {
					if (s[x] == '*' && x + 2 < n && s[x + 1] == '\\' &&
					    s[x + 2] == '/') {
						d[m++] = '*';
						d[m++] = '/';
						x += 2;
						continue;
					}
					d[m++] = s[x];
				}
				d[m] = '\0';
				ev->printk = d;
			} else if (ev && c->n - k >= 5 && !memcmp(c->s + k, "kind:", 5)) {
				ev->kind = parse_kind(c->s + k + 5, c->n - k - 5);
			}
			i++;
		}
		if (i >= e)
			break;
		se = stmt_end(P, i, e);
		if (!se)
			return perr(P, P->t[i].line, "missing ';' in the %s block", kind);
		r = get_assign(P, i, se, &v, &rhs);
		if (r == 1) {
			if (!strcmp(kind, "trace")) {
				if (!strcmp(v.key, "uuid")) {
					char *u = val_text(&v);
					if (parse_uuid(u, tr->uuid)) {
						free(u);
						return perr(P, v.tk->line, "bad uuid");
					}
					free(u);
					tr->has_uuid = 1;
				} else if (!strcmp(v.key, "byte_order")) {
					int bo = v.type == TK_ID ? parse_bo(v.id) : -1;
					if (bo < 0)
						return perr(P, v.tk->line, "bad byte_order");
					tr->be = bo == BO_BE || (bo == BO_TRACE && host_be());
				} else if (!strcmp(v.key, "major")) {
					uint64_t m;
					if (val_u64(&v, &m) || m != 1)
						return perr(P, v.tk->line, "not CTF 1.x");
				}
			} else if (!strcmp(kind, "env")) {
				if (!strcmp(v.key, "procname")) {
					free(tr->procname);
					tr->procname = val_text(&v);
				} else if (!strcmp(v.key, "hostname")) {
					free(tr->hostname);
					tr->hostname = val_text(&v);
				} else if (!strcmp(v.key, "mode")) {
					free(tr->mode);
					tr->mode = val_text(&v);
				} else if (!strncmp(v.key, "clock_", 6) && v.type == TK_NUM &&
					   !v.neg) {
					/* the clocks at one instant (recorders since 7 December 2026) */
					static const char *const names[3] = { "clock_realtime_ns",
									      "clock_monotonic_ns",
									      "clock_boottime_ns" };
					unsigned ci;
					uint64_t u;
					for (ci = 0; ci < 3; ci++)
						if (!strcmp(v.key, names[ci]) &&
						    !tok_u64(v.tk, &u)) {
							tr->clk_at[ci] = u;
							tr->has_clk_at |= 1u << ci;
						}
				} else if (!strcmp(v.key, "flight_files") && v.type == TK_NUM) {
					uint64_t n;
					if (!tok_u64(v.tk, &n) && !v.neg && n <= UINT_MAX)
						tr->flight_files = (unsigned)n;
				} else if (!strcmp(v.key, "record_version") && v.type == TK_NUM) {
					/* <trace/wire.h>: version 2 and later put the CPU
					 * after each event header; a version this tool
					 * does not know is refused */
					uint64_t n;
					if (tok_u64(v.tk, &n) || v.neg || n > TRACE_RECORD_VERSION)
						return perr(
							P, v.tk->line,
							"record_version %.*s: written by a newer "
							"recorder than this tool knows (up to %d)",
							(int)v.tk->n, v.tk->s,
							(int)TRACE_RECORD_VERSION);
					tr->ctx = n >= TRACE_RECORD_VERSION
							  ? TRACE_EVENT_CONTEXT_SIZE
							  : 0;
				} else if (!strcmp(v.key, "vpid") && v.type == TK_NUM) {
					uint64_t n;
					if (!tok_u64(v.tk, &n) && n <= (uint64_t)LLONG_MAX) {
						tr->vpid = v.neg ? -(long long)n : (long long)n;
						tr->has_vpid = 1;
					}
				}
			} else if (!strcmp(kind, "clock") && !tr->has_clock) {
				uint64_t n;
				if (!strcmp(v.key, "name")) {
					free(tr->clk_name);
					tr->clk_name = val_text(&v);
				} else if (!strcmp(v.key, "uuid") && v.type == TK_STR) {
					free(tr->clk_uuid);
					tr->clk_uuid = val_text(&v);
				} else if (!strcmp(v.key, "freq")) {
					if (val_u64(&v, &n) || !n)
						return perr(P, v.tk->line, "bad clock freq");
					tr->freq = n;
				} else if (!strcmp(v.key, "offset_s")) {
					if (v.type != TK_NUM || tok_u64(v.tk, &n) ||
					    n > (uint64_t)INT64_MAX / 2000000000u)
						return perr(P, v.tk->line, "bad clock offset_s");
					tr->off_s = v.neg ? -(int64_t)n : (int64_t)n;
				} else if (!strcmp(v.key, "offset")) {
					if (val_u64(&v, &n))
						return perr(P, v.tk->line, "bad clock offset");
					tr->off_c = n;
				}
			} else if (ev) {
				if (!strcmp(v.key, "name")) {
					if (v.type != TK_STR)
						return perr(P, v.tk->line,
							    "event name is not a string");
					free(ev->name);
					ev->name = unescape(v.tk->s, v.tk->n, &ev->namelen);
				} else if (!strcmp(v.key, "id")) {
					if (val_u64(&v, &ev->id))
						return perr(P, v.tk->line, "bad event id");
					ev->has_id = 1;
				}
			}
		} else if (r == 2 && ev && !strcmp(v.key, "fields")) {
			if (parse_fields(P, ev, rhs, se))
				return -1;
		} else if (r == 0 && !strcmp(kind, "event")) {
			return perr(P, P->t[i].line, "unexpected statement in an event block");
		}
		i = se + 1;
	}
	if (!strcmp(kind, "clock"))
		tr->has_clock = 1;
	if (ev && (!ev->name || !ev->has_id))
		return perr(P, P->t[b > 0 ? b - 1 : 0].line, "event block without name or id");
	return 0;
}

static int parse_typealias(struct parser *P, size_t i, size_t e)
{
	size_t k;
	struct ftype ft;
	struct trace *tr = P->tr;
	for (k = i; k < e; k++)
		if (tok_is(&P->t[k], TK_PUNCT, ":="))
			break;
	if (k >= e || k + 2 != e || P->t[k + 1].type != TK_ID)
		return 0; /* a form this reader does not need */
	if (parse_type(P, i, k, &ft))
		return -1;
	if (ft.sym) { /* labels belong to fields: an aliased enum reads as its integer */
		unsigned y;
		for (y = 0; y < ft.nsym; y++)
			free(ft.sym[y].name);
		free(ft.sym);
		ft.sym = NULL;
		ft.nsym = 0;
	}
	GROW(tr->al, tr->nal, tr->capal);
	tr->al[tr->nal].name = xstrndup(P->t[k + 1].s, P->t[k + 1].n);
	tr->al[tr->nal].t = ft;
	tr->nal++;
	return 0;
}

int parse_metadata(struct parser *P, const char *text, size_t len)
{
	size_t i = 0;
	int have_trace = 0;
	if (lex(P, text, len))
		return -1;
	while (i < P->n) {
		const struct tok *t = &P->t[i];
		size_t e;
		if (t->type == TK_COMMENT) {
			i++;
			continue;
		}
		if (t->type != TK_ID)
			return perr(P, t->line, "unexpected '%.*s'", (int)t->n, t->s);
		if (tok_is(t, TK_ID, "typealias")) {
			e = stmt_end(P, i, P->n);
			if (!e)
				return perr(P, t->line, "missing ';' after typealias");
			if (parse_typealias(P, i + 1, e))
				return -1;
			i = e + 1;
			continue;
		}
		if (i + 1 < P->n && tok_is(&P->t[i + 1], TK_PUNCT, "{") &&
		    (tok_is(t, TK_ID, "trace") || tok_is(t, TK_ID, "env") ||
		     tok_is(t, TK_ID, "clock") || tok_is(t, TK_ID, "stream") ||
		     tok_is(t, TK_ID, "event") || tok_is(t, TK_ID, "callsite"))) {
			char kind[16];
			e = match_close(P, i + 1, P->n);
			if (!e)
				return perr(P, t->line, "unbalanced '{'");
			snprintf(kind, sizeof(kind), "%.*s", (int)t->n, t->s);
			if (!strcmp(kind, "trace"))
				have_trace = 1;
			if (strcmp(kind, "stream") && strcmp(kind, "callsite") &&
			    parse_block(P, kind, i + 2, e))
				return -1;
			i = e + 1;
			if (i >= P->n || !tok_is(&P->t[i], TK_PUNCT, ";"))
				return perr(P, P->t[e].line, "missing ';' after the %s block",
					    kind);
			i++;
			continue;
		}
		e = stmt_end(P, i, P->n);
		if (!e)
			return perr(P, t->line, "missing ';'");
		i = e + 1;
	}
	if (!have_trace)
		return perr(P, P->n ? P->t[P->n - 1].line : 1, "no trace block");
	return 0;
}
