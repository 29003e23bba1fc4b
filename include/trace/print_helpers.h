/* SPDX-License-Identifier: MIT */
/*
 * trace/print_helpers.h - what the TP_printk formatters print with beyond
 * snprintf: the kernel's pointer conversions %ps/%pS (the symbol of an
 * address, found with dladdr when the text is made), its %#x of 0
 * ("0x0"), and the helpers
 * __print_hex_str, __print_array, __print_hex_dump and
 * __print_symbolic_u64/__print_flags_u64, each printing what the
 * kernel's trace file shows.
 *
 * Why a file: these are the formatters' runtime (the stages make the
 * formatters, trace/stages/formatter.h maps the helpers onto the
 * functions here); the reader prints the same from the trace
 * (tools/dump/expr.c).
 *
 * Internal: included at the end of trace/trace_events.h (inside its
 * extern "C"); depends on tracepoint/libc.h (<link.h>, <stdint.h>,
 * <string.h>), <stdio.h>, <stdarg.h>, <ctype.h> and trace_events.h's
 * struct tp__ev_ctx and scratch functions.
 */
#ifndef TRACE_TRACE_EVENTS_H_INCLUDED
#error "trace/print_helpers.h is internal: #include <trace/define_trace.h> reads it"
#endif
#ifndef TRACE_PRINT_HELPERS_H_INCLUDED
#define TRACE_PRINT_HELPERS_H_INCLUDED

#include <ctype.h>
#include <stdarg.h>

/* __print_hex_dump's prefix types, the kernel's values. */
#ifndef DUMP_PREFIX_NONE
#define DUMP_PREFIX_NONE 0
#define DUMP_PREFIX_ADDRESS 1
#define DUMP_PREFIX_OFFSET 2
#endif

/* A __print_symbolic_u64/__print_flags_u64 table entry (64-bit values). */
struct trace_print_flags_u64 {
	unsigned long long mask;
	const char *name;
};

/* dladdr() and dladdr1(), declared here (Dl_info is hidden without
 * _GNU_SOURCE), weak: a C library without them leaves addresses as they
 * are. */
struct tp__ev_dl_info {
	const char *dli_fname;
	void *dli_fbase;
	const char *dli_sname;
	void *dli_saddr;
};
extern int tp__ev_dladdr(const void *addr, struct tp__ev_dl_info *info) __asm__("dladdr")
	__attribute__((weak));
extern int tp__ev_dladdr1(const void *addr, struct tp__ev_dl_info *info, void **extra,
			  int flags) __asm__("dladdr1") __attribute__((weak));
enum { TP__EV_RTLD_DL_SYMENT = 1 }; /* dladdr1's flag for the ElfW(Sym) */

/* The symbol of addr as the kernel's %ps ("name") or %pS ("name+0xoff/0xsize")
 * prints it; an address in no symbol (or a program linked without
 * -rdynamic: only dynamic symbols have names) as "0x..." like the kernel's. */
static inline int tp__ev_symbol(char *buf, size_t len, const void *addr, int with_offset)
{
	struct tp__ev_dl_info di;
	void *extra = NULL;
	unsigned long long size = 0, off;
	memset(&di, 0, sizeof(di));
	if (addr && tp__ev_dladdr1 && tp__ev_dladdr1(addr, &di, &extra, TP__EV_RTLD_DL_SYMENT) &&
	    di.dli_sname) {
		if (extra)
			size = (unsigned long long)((const ElfW(Sym) *)extra)->st_size;
	} else if (addr && tp__ev_dladdr) {
		memset(&di, 0, sizeof(di));
		if (!tp__ev_dladdr(addr, &di))
			di.dli_sname = NULL;
	}
	if (!di.dli_sname)
		return snprintf(buf, len, "0x%llx", (unsigned long long)(uintptr_t)addr);
	if (!with_offset)
		return snprintf(buf, len, "%s", di.dli_sname);
	off = (unsigned long long)((uintptr_t)addr - (uintptr_t)di.dli_saddr);
	if (size)
		return snprintf(buf, len, "%s+0x%llx/0x%llx", di.dli_sname, off, size);
	return snprintf(buf, len, "%s+0x%llx", di.dli_sname, off);
}

/* The kernel's %pI4 (a.b.c.d), %pi4 (three digits each), %pI6 (eight
 * words of four digits), %pi6 (32 digits) and %pI6c (RFC 5952: no
 * leading zeros, the longest run of two or more zero words as "::", an
 * IPv4-mapped address's last 32 bits as a.b.c.d) of the bytes at a,
 * letters being what follows the p; into out (48 bytes). */
static inline void tp__ev_ipaddr(char *out, const unsigned char *a, const char *letters)
{
	unsigned w[8], i, best = 0, bestlen = 0, range;
	int mapped = 1, o = 0;
	if (!a) {
		snprintf(out, 48, "(null)");
		return;
	}
	if (letters[1] == '4') {
		snprintf(out, 48, letters[0] == 'i' ? "%03u.%03u.%03u.%03u" : "%u.%u.%u.%u", a[0],
			 a[1], a[2], a[3]);
		return;
	}
	for (i = 0; i < 8; i++)
		w[i] = (unsigned)a[2 * i] << 8 | a[2 * i + 1];
	if (letters[0] == 'i' || letters[2] != 'c') {
		for (i = 0; i < 8; i++)
			o += snprintf(out + o, (size_t)(48 - o), "%s%04x",
				      i && letters[0] == 'I' ? ":" : "", w[i]);
		return;
	}
	for (i = 0; i < 5; i++)
		mapped &= w[i] == 0;
	mapped &= w[5] == 0xffff;
	range = mapped ? 6u : 8u;
	for (i = 0; i < range; i++) { /* the longest run of zero words, the first */
		unsigned j = i;
		while (j < range && w[j] == 0)
			j++;
		if (j - i > bestlen) {
			best = i;
			bestlen = j - i;
		}
	}
	if (bestlen < 2)
		bestlen = 0;
	for (i = 0; i < range; i++) {
		if (bestlen && i == best) {
			o += snprintf(out + o, (size_t)(48 - o), "::");
			i += bestlen - 1;
			continue;
		}
		o += snprintf(out + o, (size_t)(48 - o), "%s%x",
			      i && !(bestlen && i == best + bestlen) ? ":" : "", w[i]);
	}
	if (mapped)
		snprintf(out + o, (size_t)(48 - o), "%s%u.%u.%u.%u",
			 bestlen && best + bestlen == range ? "" : ":", a[12], a[13], a[14], a[15]);
}

/* Whether fmt has a conversion the kernel prints otherwise than C's
 * printf: a pointer conversion with letters after the p (%ps), or %#x
 * (of 0: "0x0" where C prints "0"). */
static inline int tp__ev_has_pext(const char *fmt)
{
	const char *p = fmt;
	while ((p = strchr(p, '%')) != NULL) {
		int hash = 0;
		p++;
		if (*p == '%') {
			p++;
			continue;
		}
		for (; *p && strchr("-+ #0123456789.*hlLqjzt", *p); p++)
			hash |= *p == '#';
		if ((*p == 'p' && isalnum((unsigned char)p[1])) ||
		    (hash && (*p == 'x' || *p == 'X')))
			return 1;
	}
	return 0;
}

/* The kernel's %#x (or %#X, spec's last letter) of 0: "0x0", padded to
 * the width as its vsprintf pads (spaces before, or with the 0 flag
 * zeros after the prefix, or with - spaces after the digits).  What
 * snprintf returns. */
static inline int tp__ev_hex0(char *buf, size_t room, const char *spec)
{
	char out[64];
	const char *q = spec + 1;
	int left = 0, zero = 0, width = 0, prec = 1, pad, k;
	size_t n = 0;
	for (; *q && strchr("-+ #0", *q); q++) {
		left |= *q == '-';
		zero |= *q == '0';
	}
	for (; isdigit((unsigned char)*q); q++)
		width = width < 1000 ? width * 10 + (*q - '0') : width;
	if (*q == '.') {
		for (prec = 0, q++; isdigit((unsigned char)*q); q++)
			prec = prec < 1000 ? prec * 10 + (*q - '0') : prec;
		prec = prec > 1 ? prec : 1;
	}
	pad = width - prec - 2;
	if (pad > (int)sizeof(out) - 8 - prec)
		pad = (int)sizeof(out) - 8 - prec;
	if (prec > (int)sizeof(out) / 2)
		prec = (int)sizeof(out) / 2;
	for (k = 0; !left && !zero && k < pad; k++)
		out[n++] = ' ';
	out[n++] = '0';
	out[n++] = spec[strlen(spec) - 1] == 'X' ? 'X' : 'x';
	for (k = 0; !left && zero && k < pad; k++)
		out[n++] = '0';
	for (k = 0; k < prec; k++)
		out[n++] = '0';
	for (k = 0; left && k < pad; k++)
		out[n++] = ' ';
	out[n] = '\0';
	return snprintf(buf, room, "%s", out);
}

/* snprintf with the kernel's %ps/%pS/%pf/%pF/%pB (a symbol) and any other
 * letters after %p read as the kernel does (skipped: the address).  Each
 * conversion goes to snprintf with its own spec, taken from fmt, which
 * the compiler checked against the arguments (format attribute of
 * tp__ev_snprintf): the specs are no literals, hence the pragma. */
static inline int tp__ev_vsnprintf(char *buf, size_t len, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static inline int tp__ev_vsnprintf(char *buf, size_t len, const char *fmt, va_list ap)
{
	size_t out = 0;
	const char *p = fmt;
	if (!tp__ev_has_pext(fmt))
		return vsnprintf(buf, len, fmt, ap);
	while (*p) {
		char spec[48];
		size_t sl = 0, room;
		int n = 0, lm = 0;
		char conv;
		if (*p != '%' || p[1] == '%') {
			if (out + 1 < len)
				buf[out] = *p;
			out++;
			p += *p == '%' ? 2 : 1;
			continue;
		}
		spec[sl++] = *p++;
		while (*p && sl < sizeof(spec) - 24 && strchr("-+ #0123456789.*", *p)) {
			if (*p == '*') { /* the int argument, written in */
				int v = va_arg(ap, int);
				if (sl && spec[sl - 1] == '.' && v < 0)
					sl--; /* a negative precision: none */
				else
					sl += (size_t)snprintf(spec + sl, sizeof(spec) - sl, "%d",
							       v);
				p++;
				continue;
			}
			spec[sl++] = *p++;
		}
		while (*p && strchr("hlLqjzt", *p) && sl < sizeof(spec) - 2) {
			lm = *p == 'h'	 ? (lm == 'h' ? 'H' : 'h')
			     : *p == 'l' ? (lm == 'l' ? 'q' : 'l')
					 : *p;
			spec[sl++] = *p++;
		}
		if (!*p)
			break;
		conv = *p++;
		spec[sl++] = conv;
		spec[sl] = '\0';
		room = out < len ? len - out : 0;
#define TP__EV_PIECE(type) n = snprintf(room ? buf + out : NULL, room, spec, va_arg(ap, type))
		switch (conv) {
		case 'd':
		case 'i':
			if (lm == 'l')
				TP__EV_PIECE(long);
			else if (lm == 'q' || lm == 'L')
				TP__EV_PIECE(long long);
			else if (lm == 'j')
				TP__EV_PIECE(intmax_t);
			else if (lm == 'z')
				TP__EV_PIECE(size_t);
			else if (lm == 't')
				TP__EV_PIECE(ptrdiff_t);
			else
				TP__EV_PIECE(int);
			break;
		case 'u':
		case 'o':
		case 'x':
		case 'X':
			if ((conv == 'x' || conv == 'X') &&
			    strchr(spec, '#')) { /* 0 as the kernel: "0x0" */
				unsigned long long v =
					lm == 'l'		 ? va_arg(ap, unsigned long)
					: lm == 'q' || lm == 'L' ? va_arg(ap, unsigned long long)
					: lm == 'j'		 ? va_arg(ap, uintmax_t)
					: lm == 'z'		 ? va_arg(ap, size_t)
					: lm == 't' ? (unsigned long long)va_arg(ap, ptrdiff_t)
						    : va_arg(ap, unsigned);
				v = lm == 'h'	? (unsigned short)v
				    : lm == 'H' ? (unsigned char)v
						: v;
				if (!v) {
					n = tp__ev_hex0(room ? buf + out : NULL, room, spec);
					break;
				}
				/* the spec's length modifier becomes ll */
				while (sl > 1 && strchr("hlLqjzt", spec[sl - 2]))
					spec[--sl - 1] = conv;
				spec[sl - 1] = 'l';
				spec[sl++] = 'l';
				spec[sl++] = conv;
				spec[sl] = '\0';
				n = snprintf(room ? buf + out : NULL, room, spec, v);
				break;
			}
			if (lm == 'l')
				TP__EV_PIECE(unsigned long);
			else if (lm == 'q' || lm == 'L')
				TP__EV_PIECE(unsigned long long);
			else if (lm == 'j')
				TP__EV_PIECE(uintmax_t);
			else if (lm == 'z')
				TP__EV_PIECE(size_t);
			else if (lm == 't')
				TP__EV_PIECE(ptrdiff_t);
			else
				TP__EV_PIECE(unsigned);
			break;
		case 'c':
			TP__EV_PIECE(int);
			break;
		case 's':
			TP__EV_PIECE(const char *);
			break;
		case 'p': {
			void *a = va_arg(ap, void *);
			char ext = isalnum((unsigned char)*p) ? *p : 0;
			const char *letters = p;
			while (isalnum((unsigned char)*p))
				p++;
			if ((ext == 'I' || ext == 'i') &&
			    (letters[1] == '4' || letters[1] == '6')) {
				char ip[48];
				tp__ev_ipaddr(ip, (const unsigned char *)a, letters);
				spec[sl - 1] = 's';
				n = snprintf(room ? buf + out : NULL, room, spec, ip);
			} else if (ext && strchr("sSfFB", ext)) {
				char sym[512];
				tp__ev_symbol(sym, sizeof(sym), a, ext != 's' && ext != 'f');
				spec[sl - 1] = 's';
				n = snprintf(room ? buf + out : NULL, room, spec, sym);
			} else {
				n = snprintf(room ? buf + out : NULL, room, spec, a);
			}
			break;
		}
		case 'e':
		case 'E':
		case 'f':
		case 'F':
		case 'g':
		case 'G':
		case 'a':
		case 'A':
			if (lm == 'L')
				TP__EV_PIECE(long double);
			else
				TP__EV_PIECE(double);
			break;
		default: /* %n and what printf does not know: nothing */
			n = 0;
			break;
		}
#undef TP__EV_PIECE
		if (n > 0)
			out += (size_t)n;
	}
	if (len)
		buf[out < len ? out : len - 1] = '\0';
	return out > (size_t)INT32_MAX ? -1 : (int)out;
}
#pragma GCC diagnostic pop

static inline int tp__ev_snprintf(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static inline int tp__ev_snprintf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;
	va_start(ap, fmt);
	n = tp__ev_vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return n;
}

/* Starts a helper's text in the scratch space: where, or NULL when there
 * is nothing to print (symbols() pass, no room left). */
static inline char *tp__ev_print_begin(struct tp__ev_ctx *c)
{
	if (c->collect || c->used >= TP__EV_SCRATCH - 1u)
		return NULL;
	c->scratch[c->used] = '\0';
	return c->scratch + c->used;
}

/* Ends it: keeps its NUL. */
static inline const char *tp__ev_print_end(struct tp__ev_ctx *c, const char *start)
{
	if (c->used < TP__EV_SCRATCH - 1u)
		c->used++;
	return start;
}

static inline void tp__ev_scratch_fmt(struct tp__ev_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline void tp__ev_scratch_fmt(struct tp__ev_ctx *c, const char *fmt, ...)
{
	char b[64];
	va_list ap;
	int n;
	va_start(ap, fmt);
	n = vsnprintf(b, sizeof(b), fmt, ap);
	va_end(ap);
	if (n > 0)
		tp__ev_scratch_put(c, b, (size_t)n < sizeof(b) ? (size_t)n : sizeof(b) - 1);
}

/* __print_hex_str: the bytes as hex digits, run together ("cafe07"). */
static inline const char *tp__ev_print_hex_str(struct tp__ev_ctx *c, const void *buf, size_t len)
{
	const unsigned char *b = (const unsigned char *)buf;
	char *start = tp__ev_print_begin(c);
	size_t i;
	if (!start)
		return "";
	for (i = 0; i < len; i++)
		tp__ev_scratch_fmt(c, "%02x", b[i]);
	return tp__ev_print_end(c, start);
}

/* __print_array: count elements of el_size bytes (1, 2, 4 or 8) in hex,
 * "{0x1,0x2}". */
static inline const char *tp__ev_print_array(struct tp__ev_ctx *c, const void *buf, size_t count,
					     size_t el_size)
{
	const unsigned char *b = (const unsigned char *)buf;
	char *start = tp__ev_print_begin(c);
	size_t i;
	if (!start)
		return "";
	tp__ev_scratch_put(c, "{", 1);
	for (i = 0; i < count && (el_size == 1 || el_size == 2 || el_size == 4 || el_size == 8);
	     i++) {
		unsigned long long v = 0;
		if (el_size == 1) {
			v = b[i];
		} else if (el_size == 2) {
			uint16_t x;
			memcpy(&x, b + i * 2, 2);
			v = x;
		} else if (el_size == 4) {
			uint32_t x;
			memcpy(&x, b + i * 4, 4);
			v = x;
		} else {
			uint64_t x;
			memcpy(&x, b + i * 8, 8);
			v = x;
		}
		tp__ev_scratch_fmt(c, "%s0x%llx", i ? "," : "", v);
	}
	tp__ev_scratch_put(c, "}", 1);
	return tp__ev_print_end(c, start);
}

/* __print_hex_dump: a newline, then rows of rowsize (16 or 32) bytes, each
 * the prefix, the offset ("%.8x: ", with DUMP_PREFIX_OFFSET, and with
 * DUMP_PREFIX_ADDRESS, whose hashed address the kernel prints instead),
 * the bytes in groups of groupsize (1, 2, 4 or 8; a group a number in the
 * machine's order) and, with ascii, the printable characters. */
static inline const char *tp__ev_print_hex_dump(struct tp__ev_ctx *c, const char *prefix,
						int prefix_type, int rowsize, int groupsize,
						const void *buf, size_t len, int ascii)
{
	const unsigned char *b = (const unsigned char *)buf;
	char *start = tp__ev_print_begin(c);
	size_t i, j;
	if (!start)
		return "";
	if (rowsize != 16 && rowsize != 32)
		rowsize = 16;
	if (groupsize != 1 && groupsize != 2 && groupsize != 4 && groupsize != 8)
		groupsize = 1;
	tp__ev_scratch_put(c, "\n", 1);
	for (i = 0; i < len; i += (size_t)rowsize) {
		size_t line = len - i < (size_t)rowsize ? len - i : (size_t)rowsize, col = 0;
		size_t acol = (size_t)rowsize * 2 + (size_t)(rowsize / groupsize) + 1;
		size_t g = line % (size_t)groupsize ? 1 : (size_t)groupsize;
		tp__ev_scratch_put(c, prefix, strlen(prefix));
		if (prefix_type == DUMP_PREFIX_OFFSET || prefix_type == DUMP_PREFIX_ADDRESS)
			tp__ev_scratch_fmt(c, "%.8x: ", (unsigned)i);
		for (j = 0; j < line; j += g) {
			unsigned long long v = 0;
			if (g == 1) {
				v = b[i + j];
			} else if (g == 2) {
				uint16_t x;
				memcpy(&x, b + i + j, 2);
				v = x;
			} else if (g == 4) {
				uint32_t x;
				memcpy(&x, b + i + j, 4);
				v = x;
			} else {
				uint64_t x;
				memcpy(&x, b + i + j, 8);
				v = x;
			}
			tp__ev_scratch_fmt(c, "%s%0*llx", j ? " " : "", (int)(2 * g), v);
			col += 2 * g + (j ? 1 : 0);
		}
		if (ascii) {
			for (; col < acol; col++)
				tp__ev_scratch_put(c, " ", 1);
			for (j = 0; j < line; j++) {
				char ch =
					b[i + j] >= 0x20 && b[i + j] < 0x7f ? (char)b[i + j] : '.';
				tp__ev_scratch_put(c, &ch, 1);
			}
		}
		tp__ev_scratch_put(c, "\n", 1);
	}
	return tp__ev_print_end(c, start);
}

/* __print_symbolic_u64 (delim NULL) and __print_flags_u64: as
 * tp__ev_print_sym with 64-bit values; not handed to symbols() (the
 * readers print them from the TP_printk text). */
static inline const char *tp__ev_print_sym_u64(struct tp__ev_ctx *c, unsigned long long v,
					       const struct trace_print_flags_u64 *t,
					       const char *delim)
{
	char *start = tp__ev_print_begin(c);
	int first = 1;
	if (!start)
		return "";
	if (!delim) {
		for (; t->name; t++)
			if (t->mask == v)
				return t->name;
		tp__ev_scratch_hex(c, v);
		return tp__ev_print_end(c, start);
	}
	for (; t->name && v; t++) {
		if ((v & t->mask) != t->mask)
			continue;
		v &= ~t->mask;
		if (!first)
			tp__ev_scratch_put(c, delim, strlen(delim));
		first = 0;
		tp__ev_scratch_put(c, t->name, strlen(t->name));
	}
	if (v) {
		if (!first)
			tp__ev_scratch_put(c, delim, strlen(delim));
		tp__ev_scratch_hex(c, v);
	}
	return tp__ev_print_end(c, start);
}

#endif /* TRACE_PRINT_HELPERS_H_INCLUDED */
