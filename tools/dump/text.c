/* SPDX-License-Identifier: MIT */
/*
 * tools/dump/text.c - tracepoint-dump's field values, and the text output:
 * one line per event, as its TP_printk prints it.
 *
 * Part of tracepoint-dump (dump.h has the map of its parts).
 */
#include "dump.h"

/* ------------------------------------------------------------------ */
/* Field values                                                       */
/* ------------------------------------------------------------------ */

double get_float(const struct cursor *c, int fi, unsigned idx)
{
	const struct field *f = &c->ev->f[fi];
	const u8 *p = c->pl + c->off[fi] + (size_t)idx * f->t.size;
	if (f->t.size == 4) {
		uint32_t v = (uint32_t)ld(p, 4, f->t.swap);
		float x;
		memcpy(&x, &v, 4);
		return x;
	} else {
		uint64_t v = ld(p, 8, f->t.swap);
		double x;
		memcpy(&x, &v, 8);
		return x;
	}
}

/* A string or char array field: its bytes (up to the NUL). */
const u8 *get_text(const struct cursor *c, int fi, size_t *n)
{
	const struct field *f = &c->ev->f[fi];
	const u8 *p = c->pl + c->off[fi];
	if (f->t.kind == FT_STR) {
		*n = c->slen[fi];
	} else {
		size_t cnt = f->seq ? c->slen[fi] : f->count;
		const u8 *z = (const u8 *)memchr(p, 0, cnt);
		*n = z ? (size_t)(z - p) : cnt;
	}
	return p;
}

/* ------------------------------------------------------------------ */
/* Text output                                                        */
/* ------------------------------------------------------------------ */

static inline char *put_time(struct dump *dx, char *o, uint64_t ns)
{
	uint64_t sec = ns / 1000000000u;
	unsigned nsec = (unsigned)(ns - sec * 1000000000u), i;
	if (sec != dx->sec) {
		char *e = put_u64(dx->secstr, sec);
		*e++ = '.';
		dx->seclen = (size_t)(e - dx->secstr);
		dx->sec = sec;
	}
	memcpy(o, dx->secstr, sizeof(dx->secstr));
	o += dx->seclen;
	for (i = 0; i < 4; i++) {
		unsigned r = nsec % 100;
		nsec /= 100;
		memcpy(o + 7 - 2 * i, d2 + 2 * r, 2);
	}
	o[0] = (char)('0' + nsec);
	return o + 9;
}

/* An integer conversion without precision and flags other than - and 0. */
static char *put_int_conv(char *o, const struct seg *s, uint64_t v)
{
	char tmp[32], *e = tmp + sizeof(tmp), *q = e;
	int neg = 0;
	size_t len, w;
	if (s->bits < 64)
		v = s->sgn ? sext(v, s->bits) : v & (((uint64_t)1 << s->bits) - 1);
	if (s->width <= 0) { /* the common case: straight into the output */
		switch (s->conv) {
		case 'd':
		case 'i':
			return put_i64(o, (int64_t)v);
		case 'u':
			return put_u64(o, v);
		case 'x':
			return put_hex(o, v, 0);
		case 'X':
			return put_hex(o, v, 1);
		default:
			break;
		}
	}
	switch (s->conv) {
	case 'd':
	case 'i':
	case 'u':
		if (s->conv != 'u' && (int64_t)v < 0) {
			neg = 1;
			v = (uint64_t)0 - v;
		}
		q = put_u64(tmp, v);
		len = (size_t)(q - tmp);
		memmove(e - len, tmp, len);
		q = e - len;
		break;
	case 'o':
		do {
			*--q = (char)('0' + (v & 7));
			v >>= 3;
		} while (v);
		break;
	default: {
		const char *dig = s->conv == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
		do {
			*--q = dig[v & 15];
			v >>= 4;
		} while (v);
		break;
	}
	}
	len = (size_t)(e - q) + (size_t)neg;
	w = s->width > 0 ? (size_t)s->width : 0;
	if (w <= len) {
		if (neg)
			*o++ = '-';
		memcpy(o, q, (size_t)(e - q));
		return o + (e - q);
	}
	if (s->flags & FL_MINUS) {
		if (neg)
			*o++ = '-';
		memcpy(o, q, (size_t)(e - q));
		o += e - q;
		memset(o, ' ', w - len);
		return o + (w - len);
	}
	if (s->flags & FL_ZERO) {
		if (neg)
			*o++ = '-';
		memset(o, '0', w - len);
		o += w - len;
	} else {
		memset(o, ' ', w - len);
		o += w - len;
		if (neg)
			*o++ = '-';
	}
	memcpy(o, q, (size_t)(e - q));
	return o + (e - q);
}

static char *put_padded(char *o, const u8 *s, size_t n, const struct seg *sg)
{
	size_t w = sg->width > 0 ? (size_t)sg->width : 0;
	if (sg->prec >= 0 && n > (size_t)sg->prec)
		n = (size_t)sg->prec;
	if (w > n && !(sg->flags & FL_MINUS)) {
		memset(o, ' ', w - n);
		o += w - n;
	}
	o = put_text(o, s, n);
	if (w > n && (sg->flags & FL_MINUS)) {
		memset(o, ' ', w - n);
		o += w - n;
	}
	return o;
}

/* The label of value v of an enumeration field, or NULL. */
const char *sym_name(const struct field *f, uint64_t v)
{
	unsigned k;
	for (k = 0; k < f->t.nsym; k++)
		if ((uint64_t)f->t.sym[k].v == v)
			return f->t.sym[k].name;
	return NULL;
}

/* Room the labels of an enumeration field need, escaped (6 bytes each). */
static size_t sym_room(const struct field *f)
{
	size_t n = 40;
	unsigned k;
	for (k = 0; k < f->t.nsym; k++)
		n += 6 * (strlen(f->t.sym[k].name) + (f->fdelim ? strlen(f->fdelim) : 0)) + 8;
	return n;
}

/* v as __print_flags prints it: the labels of the bits set, separated by
 * the field's delimiter, then what is left in hex (0: nothing).  A buffer
 * of its own, valid until the next call; its length in *n. */
const char *flags_text(struct dump *dx, const struct field *f, uint64_t v, size_t *n)
{
	char *buf = dx->flagbuf;
	size_t cap = dx->flagcap;
	size_t need = sym_room(f), len = 0, dl = strlen(f->fdelim);
	unsigned k;
	int first = 1;
	if (need > cap) {
		buf = dx->flagbuf = (char *)xrealloc(buf, need);
		cap = dx->flagcap = need;
	}
	for (k = 0; k < f->t.nsym && v; k++) {
		uint64_t m = (uint64_t)f->t.sym[k].v;
		size_t ln = strlen(f->t.sym[k].name);
		if ((v & m) != m)
			continue;
		v &= ~m;
		if (!first) {
			memcpy(buf + len, f->fdelim, dl);
			len += dl;
		}
		first = 0;
		memcpy(buf + len, f->t.sym[k].name, ln);
		len += ln;
	}
	if (v) {
		if (!first) {
			memcpy(buf + len, f->fdelim, dl);
			len += dl;
		}
		buf[len++] = '0';
		buf[len++] = 'x';
		len = (size_t)(put_hex(buf + len, v, 0) - buf);
	}
	*n = len;
	return buf;
}

/* One argument through the segment's snprintf conversion (SEG_SLOW,
 * SEG_FLT), given room for base bytes plus its width and precision;
 * returns the end of what it wrote in the output buffer. */
static char *put_spec(struct dump *dx, const struct seg *s, size_t base, ...)
{
	size_t room =
		base + (size_t)(s->width > 0 ? s->width : 0) + (size_t)(s->prec > 0 ? s->prec : 0);
	char *o = ob_need(dx, room);
	va_list ap;
	int n;
	va_start(ap, base);
	n = vsnprintf(o, room, s->spec, ap);
	va_end(ap);
	if (n > 0)
		o += (size_t)n < room ? (size_t)n : room - 1;
	return o;
}

/* An unsigned conversion of v: through put_spec, but %#x and %#X of 0,
 * which the kernel prints with its prefix ("0x0", C's printf "0"), with
 * the kernel's padding: the width less the prefix and digits, in spaces
 * before it, or in zeros after it with the 0 flag, or in spaces after
 * the digits with the - flag. */
static char *put_unsigned(struct dump *dx, const struct seg *s, unsigned long long v)
{
	int prec = s->prec > 1 ? s->prec : 1, pad = s->width - prec - 2, k;
	char *o;
	if (v || !(s->flags & FL_HASH) || (s->conv != 'x' && s->conv != 'X'))
		return put_spec(dx, s, 128, v);
	o = ob_need(dx, (size_t)(s->width > 0 ? s->width : 0) + (size_t)prec + 8u);
	if (!(s->flags & (FL_MINUS | FL_ZERO)))
		for (k = 0; k < pad; k++)
			*o++ = ' ';
	*o++ = '0';
	*o++ = s->conv == 'X' ? 'X' : 'x';
	if (!(s->flags & FL_MINUS) && (s->flags & FL_ZERO))
		for (k = 0; k < pad; k++)
			*o++ = '0';
	for (k = 0; k < prec; k++)
		*o++ = '0';
	if (s->flags & FL_MINUS)
		for (k = 0; k < pad; k++)
			*o++ = ' ';
	return o;
}

/* __get_bitmask(f) as the kernel's %*pb: the bits of f's bytes (unsigned
 * longs in the recording machine's order, little-endian: bit i is bit
 * i % 8 of byte i / 8) in 32-bit chunks of hex, most significant first,
 * comma-separated, each of 8 digits but the first, which has as many as
 * its bits need. */
static char *put_bitmask(struct dump *dx, const struct cursor *c, const struct seg *s)
{
	const struct field *f = &c->ev->f[s->field];
	const u8 *b = c->pl + c->off[s->field];
	size_t nbits = (size_t)c->slen[s->field] * f->t.size * 8u, at;
	char *o = ob_need(dx, nbits / 32u * 9u + 16u);
	int first = 1;
	for (at = (nbits + 31u) / 32u * 32u; at >= 32u; at -= 32u) {
		size_t lo = at - 32u, k, bits = nbits - lo < 32u ? nbits - lo : 32u;
		uint32_t v = 0;
		if (!first)
			*o++ = ',';
		first = 0;
		for (k = 0; k < bits; k++)
			if (b[(lo + k) / 8u] >> ((lo + k) % 8u) & 1u)
				v |= (uint32_t)1 << k;
		for (k = (bits + 3u) / 4u; k > 0; k--)
			*o++ = "0123456789abcdef"[(v >> (4u * (k - 1u))) & 15u];
	}
	return o;
}

/* An IPv6 address as the kernel's %pI6c: words in hex without leading
 * zeros, the longest run of two or more zero words (the first of equal
 * ones) as "::", an IPv4-mapped address's last two words as a.b.c.d; as
 * %pI6 (no 'c'): eight words of four digits. */
static char *put_ip6(char *o, const u8 *a, int compressed)
{
	unsigned w[8], i, best = 0, bestlen = 0;
	int mapped = 1;
	for (i = 0; i < 8; i++)
		w[i] = (unsigned)a[2 * i] << 8 | a[2 * i + 1];
	for (i = 0; i < 5; i++)
		mapped &= w[i] == 0;
	mapped &= w[5] == 0xffff;
	if (!compressed) {
		for (i = 0; i < 8; i++)
			o += sprintf(o, "%s%04x", i ? ":" : "", w[i]);
		return o;
	}
	for (i = 0; i < 8;) {
		unsigned j = i;
		while (j < 8 && w[j] == 0)
			j++;
		if (j - i > bestlen)
			best = i, bestlen = j - i;
		i = j > i ? j : i + 1;
	}
	if (bestlen < 2)
		bestlen = 0;
	for (i = 0; i < (mapped ? 6u : 8u); i++) {
		if (bestlen && i == best) {
			*o++ = ':';
			*o++ = ':';
			i += bestlen - 1;
			continue;
		}
		if (i && !(bestlen && i == best + bestlen))
			*o++ = ':';
		o += sprintf(o, "%x", w[i]);
	}
	if (mapped)
		o += sprintf(o, "%s%u.%u.%u.%u", bestlen && best + bestlen == 6 ? "" : ":", a[12],
			     a[13], a[14], a[15]);
	return o;
}

/* %pIS of __get_sockaddr(f), as the kernel prints it: an IPv4 address
 * as a.b.c.d, an IPv6 one as put_ip6 (in brackets when a port follows),
 * then ":port" with the letter p; another family, or too few bytes:
 * "(invalid address)".  The family is in the machine's order, the port
 * in the network's. */
static char *put_sockaddr(struct dump *dx, const struct cursor *c, const struct seg *s)
{
	const u8 *b = c->pl + c->off[s->field];
	size_t n = c->slen[s->field];
	unsigned family = n >= 2 ? (unsigned)(b[0] | b[1] << 8) : 0u;
	unsigned port = n >= 4 ? (unsigned)(b[2] << 8 | b[3]) : 0u;
	int with_port = strchr(s->spec, 'p') != NULL;
	char *o = ob_need(dx, 96);
	if (family == 2 && n >= 8) { /* AF_INET */
		o += sprintf(o, "%u.%u.%u.%u", b[4], b[5], b[6], b[7]);
	} else if (family == 10 && n >= 24) { /* AF_INET6 */
		if (with_port)
			*o++ = '[';
		o = put_ip6(o, b + 8, strchr(s->spec, 'c') != NULL);
		if (with_port)
			*o++ = ']';
	} else {
		memcpy(o, "(invalid address)", 17);
		return o + 17;
	}
	if (with_port)
		o += sprintf(o, ":%u", port);
	return o;
}

/* %pI4 (a.b.c.d), %pi4 (each number in three digits), %pI6 (eight words
 * of four digits), %pi6 (the 32 digits run together) and %pI6c (as
 * put_ip6 compresses) of a byte array, as the kernel prints them;
 * "(invalid address)" if the array has fewer bytes than the address. */
static char *put_ipaddr(struct dump *dx, const struct cursor *c, const struct seg *s)
{
	const struct field *f = &c->ev->f[s->field];
	const u8 *b = c->pl + c->off[s->field];
	size_t n = f->seq ? c->slen[s->field] : f->count, k;
	int six = s->spec[1] == '6';
	char t[64], *e = t;
	char *o = ob_need(dx, 4 * sizeof(t) + 8 + (size_t)(s->width > 0 ? s->width : 0));
	if (n < (six ? 16u : 4u)) {
		memcpy(t, "(invalid address)", 17);
		e = t + 17;
	} else if (!six) {
		e += sprintf(t, s->spec[0] == 'i' ? "%03u.%03u.%03u.%03u" : "%u.%u.%u.%u", b[0],
			     b[1], b[2], b[3]);
	} else if (s->spec[0] == 'i') {
		for (k = 0; k < 16; k++)
			e += sprintf(e, "%02x", b[k]);
	} else {
		e = put_ip6(t, b, s->spec[2] == 'c');
	}
	return put_padded(o, (const u8 *)t, (size_t)(e - t), s);
}

/* The value of an expression (SEG_EXPR) through its conversion. */
static char *put_xval(struct dump *dx, const struct cursor *c, const struct seg *s,
		      const struct xval *v)
{
	size_t w = (size_t)(s->width > 0 ? s->width : 0);
	char *o;
	if (v->kind != XV_INT) {
		size_t n = v->n;
		const u8 *z;
		if (v->raw) { /* __print_hex_dump's lines, as the kernel prints them */
			o = ob_need(dx, n + 1);
			memcpy(o, v->p, n);
			return o + n;
		}
		if (v->kind == XV_BUF && (z = (const u8 *)memchr(v->p, 0, n)) != NULL)
			n = (size_t)(z - v->p);
		o = ob_need(dx, 4 * n + 8 + w);
		return put_padded(o, v->p, n, s);
	}
	if (s->conv == 'p' && s->pext) {
		/* %ps, %pS: the symbol, from the traced program's files; else
		 * the address, as the kernel prints one that is in no symbol.
		 * (The trace's symbol cache is filled on first use.) */
		char nm[512];
		if (symbol_of((struct trace *)(uintptr_t)c->tr, v->v,
			      s->pext != 's' && s->pext != 'f', nm, sizeof(nm))) {
			size_t n = strlen(nm);
			o = ob_need(dx, 4 * n + 8 + w);
			return put_padded(o, (const u8 *)nm, n, s);
		}
		o = ob_need(dx, 24);
		*o++ = '0';
		*o++ = 'x';
		return put_hex(o, v->v, 0);
	}
	if (s->conv == 'p') {
		if (s->spec[0])
			return put_spec(dx, s, 128, (void *)(uintptr_t)v->v);
		o = ob_need(dx, 24);
		if (!v->v) {
			memcpy(o, "(nil)", 5);
			return o + 5;
		}
		*o++ = '0';
		*o++ = 'x';
		return put_hex(o, v->v, 0);
	}
	if (s->conv == 'c') {
		u8 ch = (u8)v->v;
		o = ob_need(dx, 8 + w);
		return put_padded(o, &ch, 1, s);
	}
	if (s->spec[0]) {
		uint64_t x = s->bits < 64 ? (s->sgn ? sext(v->v, s->bits)
						    : v->v & (((uint64_t)1 << s->bits) - 1))
					  : v->v;
		if (s->sgn)
			return put_spec(dx, s, 128, (long long)(int64_t)x);
		return put_unsigned(dx, s, (unsigned long long)x);
	}
	o = ob_need(dx, 48 + w);
	return put_int_conv(o, s, v->v);
}

static void put_printk(struct dump *dx, const struct cursor *c)
{
	const struct event *ev = c->ev;
	unsigned i;
	char *o = ob_need(dx, 1);
	*o++ = ' ';
	ob_done(dx, o);
	for (i = 0; i < ev->nseg; i++) {
		const struct seg *s = &ev->seg[i];
		switch (s->kind) {
		case SEG_LIT:
			o = ob_need(dx, s->litlen + 32);
			o = cpy_padded(o, s->lit, s->litlen);
			break;
		case SEG_INT:
			o = ob_need(dx, 48 + (size_t)(s->width > 0 ? s->width : 0));
			o = put_int_conv(o, s, get_int(c, s->field, s->idx));
			break;
		case SEG_PTR: {
			uint64_t v = get_int(c, s->field, s->idx);
			o = ob_need(dx, 24);
			if (v) {
				*o++ = '0';
				*o++ = 'x';
				o = put_hex(o, v, 0);
			} else {
				memcpy(o, "(nil)", 5);
				o += 5;
			}
			break;
		}
		case SEG_CHR: {
			u8 ch = (u8)get_int(c, s->field, s->idx);
			o = ob_need(dx, 8 + (size_t)(s->width > 0 ? s->width : 0));
			o = put_padded(o, &ch, 1, s);
			break;
		}
		case SEG_STR: {
			size_t n;
			const u8 *t = get_text(c, s->field, &n);
			o = ob_need(dx, 4 * n + 8 + (size_t)(s->width > 0 ? s->width : 0));
			o = put_padded(o, t, n, s);
			break;
		}
		case SEG_PSTR: { /* NULL as the kernel's "(null)"; a string that is
				  * in no read-only part of the program's files as
				  * its address */
			uint64_t v = get_int(c, s->field, s->idx);
			size_t n = 0;
			const char *t =
				v ? string_at((struct trace *)(uintptr_t)c->tr, v, &n) : "(null)";
			char hx[24];
			if (!v) {
				n = 6;
			} else if (!t) {
				hx[0] = '0';
				hx[1] = 'x';
				n = (size_t)(put_hex(hx + 2, v, 0) - hx);
				t = hx;
			}
			o = ob_need(dx, 4 * n + 8 + (size_t)(s->width > 0 ? s->width : 0));
			o = put_padded(o, (const u8 *)t, n, s);
			break;
		}
		case SEG_SLOW: {
			uint64_t v = get_int(c, s->field, s->idx);
			if (s->conv == 'p') {
				o = put_spec(dx, s, 128, (void *)(uintptr_t)v);
				break;
			}
			if (s->bits < 64)
				v = s->sgn ? sext(v, s->bits) : v & (((uint64_t)1 << s->bits) - 1);
			if (s->sgn)
				o = put_spec(dx, s, 128, (long long)(int64_t)v);
			else
				o = put_unsigned(dx, s, (unsigned long long)v);
			break;
		}
		case SEG_SYM:
		case SEG_FLAGS: {
			const struct field *f = &ev->f[s->field];
			uint64_t v = get_int(c, s->field, 0);
			size_t n = 0;
			char hx[24];
			const char *t =
				s->kind == SEG_FLAGS ? flags_text(dx, f, v, &n) : sym_name(f, v);
			if (!t) { /* not in the table: the kernel prints the value in hex */
				hx[0] = '0';
				hx[1] = 'x';
				n = (size_t)(put_hex(hx + 2, v, 0) - hx);
				t = hx;
			} else if (s->kind == SEG_SYM) {
				n = strlen(t);
			}
			o = ob_need(dx, 4 * n + 8 + (size_t)(s->width > 0 ? s->width : 0));
			o = put_padded(o, (const u8 *)t, n, s);
			break;
		}
		case SEG_HEX: {
			const struct field *f = &ev->f[s->field];
			const u8 *b = c->pl + c->off[s->field];
			uint64_t n = (uint64_t)(f->seq ? c->slen[s->field] : f->count) * f->t.size,
				 k;
			if (s->hexlen < n)
				n = s->hexlen;
			o = ob_need(dx, 3 * (size_t)n + 8);
			for (k = 0; k < n; k++) {
				if (k)
					*o++ = ' ';
				*o++ = "0123456789abcdef"[b[k] >> 4];
				*o++ = "0123456789abcdef"[b[k] & 15];
			}
			break;
		}
		case SEG_FLT:
			o = put_spec(dx, s, 400, get_float(c, s->field, s->idx));
			break;
		case SEG_BITMASK:
			o = put_bitmask(dx, c, s);
			break;
		case SEG_IPADDR:
			o = put_ipaddr(dx, c, s);
			break;
		case SEG_SOCKADDR:
			o = put_sockaddr(dx, c, s);
			break;
		case SEG_DYNLEN:
			o = ob_need(dx, 48 + (size_t)(s->width > 0 ? s->width : 0));
			o = put_int_conv(o, s,
					 (uint64_t)c->slen[s->field] * ev->f[s->field].t.size);
			break;
		case SEG_EXPR: {
			struct xval v;
			expr_eval(dx, c, &ev->xp[s->field], &v);
			o = put_xval(dx, c, s, &v);
			break;
		}
		default:
			o = ob_need(dx, 0);
			break;
		}
		ob_done(dx, o);
	}
}

/* Room a field's value needs in text or JSON. */
size_t field_room(const struct cursor *c, unsigned i)
{
	const struct field *f = &c->ev->f[i];
	size_t n = f->seq ? c->slen[i] : f->count;
	if (f->t.kind == FT_STR)
		return 6 * (size_t)c->slen[i] + 8;
	if (f->is_text)
		return 6 * n + 8;
	if (f->t.sym)
		return sym_room(f) + 48;
	return (n ? n : 1) * 48 + 8;
}

static char *put_scalar(struct dump *dx, char *o, const struct cursor *c, unsigned i, unsigned idx,
			int json)
{
	const struct field *f = &c->ev->f[i];
	if (f->t.sym && !f->count && !f->seq) {
		uint64_t v = get_int(c, (int)i, idx);
		const char *name = NULL;
		size_t n = 0;
		if (f->fdelim) {
			name = flags_text(dx, f, v, &n);
		} else if ((name = sym_name(f, v)) != NULL) {
			n = strlen(name);
		}
		if (name)
			return json ? put_json_str(o, (const u8 *)name, n)
				    : put_text(o, (const u8 *)name, n);
	}
	if (f->t.kind == FT_FLOAT) {
		double d = get_float(c, (int)i, idx);
		if (json && !isfinite(d)) {
			const char *s = isnan(d) ? "\"nan\"" : d > 0 ? "\"inf\"" : "\"-inf\"";
			size_t n = strlen(s);
			memcpy(o, s, n);
			return o + n;
		}
		return put_double(o, d, f->t.size == 4);
	} else {
		uint64_t v = get_int(c, (int)i, idx);
		if (f->t.base == 16 && (!json || !f->count)) {
			if (json)
				*o++ = '"';
			*o++ = '0';
			*o++ = 'x';
			o = put_hex(o, v, 0);
			if (json)
				*o++ = '"';
			return o;
		}
		if (f->t.base == 8 && !json) {
			*o++ = '0';
			do {
				*o++ = (char)('0' + (v & 7));
				v >>= 3;
			} while (v);
			return o;
		}
		return f->t.sgn ? put_i64(o, (int64_t)v) : put_u64(o, v);
	}
}

/* Field i's value: text (json 0: as is; 1: a JSON string), an array
 * ({a,b} or [a,b]) or a scalar. */
char *put_value(struct dump *dx, char *o, const struct cursor *c, unsigned i, int json)
{
	const struct field *f = &c->ev->f[i];
	unsigned k;
	if (f->t.kind == FT_STR || f->is_text) {
		size_t n;
		const u8 *t = get_text(c, (int)i, &n);
		return json ? put_json_str(o, t, n) : put_text(o, t, n);
	}
	unsigned cnt = f->seq ? c->slen[i] : f->count;
	if (!f->count && !f->seq)
		return put_scalar(dx, o, c, i, 0, json);
	*o++ = json ? '[' : '{';
	for (k = 0; k < cnt; k++) {
		if (k)
			*o++ = ',';
		o = put_scalar(dx, o, c, i, k, json);
	}
	*o++ = json ? ']' : '}';
	return o;
}

/* name=value pairs. */
static void put_fallback(struct dump *dx, const struct cursor *c)
{
	const struct event *ev = c->ev;
	unsigned i;
	for (i = 0; i < ev->nf; i++) {
		const struct field *f = &ev->f[i];
		size_t nl = strlen(f->name);
		char *o;
		if (f->hidden)
			continue;
		o = ob_need(dx, nl + 4 + field_room(c, i));
		*o++ = ' ';
		memcpy(o, f->name, nl);
		o += nl;
		*o++ = '=';
		ob_done(dx, put_value(dx, o, c, i, 0));
	}
}

void emit_text(struct dump *dx, struct cursor *c)
{
	char *o;
	if (c->kind == K_DROP) {
		o = ob_need(dx, 80);
		memcpy(o, "# ", 2);
		o = put_u64(o + 2, c->dropn);
		o += sprintf(o, " event%s of thread ", c->dropn == 1 ? "" : "s");
		o = put_u64(o, c->tid);
		memcpy(o, " dropped\n", 9);
		ob_done(dx, o + 9);
		return;
	}
	o = ob_need(dx, 128 + c->ev->namelen);
	o = put_time(dx, o, c->ns);
	*o++ = ' ';
	memcpy(o, c->tidstr, sizeof(c->tidstr));
	o += c->tidlen;
	*o++ = ' ';
	if (dx->show_cpu) { /* as ftrace: [003]; [---]: not recorded */
		*o++ = '[';
		if (c->cpu == TRACE_CPU_UNKNOWN) {
			memcpy(o, "---", 3);
			o += 3;
		} else {
			if (c->cpu < 100)
				*o++ = '0';
			if (c->cpu < 10)
				*o++ = '0';
			o = put_u64(o, c->cpu);
		}
		memcpy(o, "] ", 2);
		o += 2;
	}
	ob_done(dx, cpy_padded(o, c->ev->name, c->ev->namelen));
	if (c->ev->use_printk) {
		if (c->ev->nseg)
			put_printk(dx, c);
	} else {
		put_fallback(dx, c);
	}
	o = ob_need(dx, 1);
	*o++ = '\n';
	ob_done(dx, o);
}
