/* SPDX-License-Identifier: MIT */
/*
 * tools/dump/util.c - tracepoint-dump's utilities: allocation that exits on
 * failure, byte order, number formatting, the output buffer and the
 * messages (problems are collected and printed after the output, at most
 * 4000).
 *
 * Part of tracepoint-dump (dump.h has the map of its parts).
 */
#include "dump.h"

/* ------------------------------------------------------------------ */
/* Utilities                                                          */
/* ------------------------------------------------------------------ */

/* Is this machine big-endian? */
int host_be(void)
{
	union {
		uint16_t u;
		u8 b[2];
	} probe;
	probe.u = 1;
	return probe.b[0] == 0;
}

static void oom(void)
{
	fprintf(stderr, "%s: out of memory\n", prog);
	exit(1);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom();
	return p;
}

void *xcalloc(size_t n, size_t s)
{
	void *p = calloc(n ? n : 1, s ? s : 1);
	if (!p)
		oom();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom();
	return p;
}

char *xstrndup(const char *s, size_t n)
{
	char *d = (char *)xmalloc(n + 1);
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xvasprintf(const char *fmt, va_list ap)
{
	va_list aq;
	int n;
	char *s;
	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		n = 0;
	s = (char *)xmalloc((size_t)n + 1);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	return s;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

int all_zero(const u8 *p, uint64_t n)
{
	/* each byte equals the next one, and the first is 0 */
	return !n || (!p[0] && (n == 1 || !memcmp(p, p + 1, (size_t)(n - 1))));
}

char *put_hex(char *o, uint64_t v, int upper)
{
	const char *dig = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	unsigned n = 1;
	uint64_t t = v;
	char *e;
	while (t >>= 4)
		n++;
	e = o + n;
	o = e;
	do {
		*--o = dig[v & 15];
		v >>= 4;
	} while (v);
	return e;
}

/* A double (is_float: a float's value), shortest form that reads back the same. */
char *put_double(char *o, double d, int is_float)
{
	int prec;
	for (prec = is_float ? 6 : 15; prec <= 17; prec++) {
		int n = snprintf(o, 40, "%.*g", prec, d);
		double r;
		if (n < 0 || n >= 40)
			n = 0;
		r = strtod(o, NULL);
		if (prec == 17 || (is_float ? (float)r == (float)d : r == d))
			return o + n;
	}
	return o;
}

/* ------------------------------------------------------------------ */
/* Output buffer                                                      */
/* ------------------------------------------------------------------ */

void ob_flush(struct dump *dx)
{
	size_t off = 0;
	while (off < dx->ob.n) {
		ssize_t w = write(dx->ob.fd, dx->ob.b + off, dx->ob.n - off);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "%s: writing %s: %s\n", prog, dx->ob.name, strerror(errno));
			exit(1);
		}
		off += (size_t)w;
	}
	dx->ob.n = 0;
}

char *ob_make(struct dump *dx, size_t k)
{
	ob_flush(dx);
	if (k > dx->ob.cap) {
		dx->ob.cap = k;
		dx->ob.b = (char *)xrealloc(dx->ob.b, dx->ob.cap);
	}
	return dx->ob.b;
}

void ob_puts(struct dump *dx, const char *s, size_t n)
{
	char *o = ob_need(dx, n);
	memcpy(o, s, n);
	ob_done(dx, o + n);
}

void ob_printf(struct dump *dx, const char *fmt, ...)
{
	va_list ap;
	char *s;
	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	ob_puts(dx, s, strlen(s));
	free(s);
}

/* ------------------------------------------------------------------ */
/* Messages: problems are collected and printed after the output.      */
/* ------------------------------------------------------------------ */

/* err: an error (exit status 1); else a warning.  off < 0: no offset. */
void note(struct dump *dx, int err, const char *file, long long off, const char *fmt, ...)
{
	va_list ap;
	char *text, *m;
	if (err) {
		dx->status = 1;
		dx->nerrs++;
	}
	if (dx->quiet)
		return;
	if (dx->nmsg >= 4000) {
		dx->lostmsg++;
		return;
	}
	va_start(ap, fmt);
	text = xvasprintf(fmt, ap);
	va_end(ap);
	if (off >= 0)
		m = xasprintf("%s: %s: byte %lld: %s%s", prog, file, off,
			      err ? "" : "warning: ", text);
	else
		m = xasprintf("%s: %s: %s%s", prog, file, err ? "" : "warning: ", text);
	free(text);
	GROW(dx->msg, dx->nmsg, dx->capmsg);
	dx->msg[dx->nmsg++] = m;
}

void print_notes(struct dump *dx)
{
	size_t i;
	for (i = 0; i < dx->nmsg; i++) {
		fprintf(stderr, "%s\n", dx->msg[i]);
		free(dx->msg[i]);
	}
	if (dx->lostmsg)
		fprintf(stderr, "%s: ... and %zu more problems\n", prog, dx->lostmsg);
	dx->nmsg = dx->lostmsg = 0;
}

/* ------------------------------------------------------------------ */
/* Trace model                                                        */
/* ------------------------------------------------------------------ */

struct trace;
