/* SPDX-License-Identifier: MIT */
/*
 * tracepoint-dump - reads the trace directories that <trace/sink.h> writes
 * (CTF 1.8; the contract is docs/trace-format.md) and prints them as text
 * (each event as its TP_printk prints it), as Chrome trace JSON, as a
 * Perfetto protobuf trace (encoder: protobuf.h beside this file), or as a
 * summary; --repair makes a crashed trace readable by babeltrace2.
 *
 *   cc -std=c99 -O2 -o tracepoint-dump tools/tracepoint-dump.c
 *
 * C99 + POSIX, libc only; the version comes from
 * ../include/tracepoint/version.h, found relative to this file.  Stream
 * files are mmap()ed and every size and offset read from them is checked
 * against the file size before use.
 *
 * Layout of this file: utilities, output buffer, messages; the metadata
 * (TSDL) lexer and parser; the TP_printk compiler; stream indexing
 * (packets); cursors and the k-way merge; the text, JSON, Perfetto and
 * summary writers; --repair; main.
 */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

/* The library's version, written once in include/tracepoint/version.h
 * (macros only, includable on its own; found relative to this file, so no
 * -I is needed). */
#include "../include/tracepoint/version.h"
/* The trace's layout (packet header, record headers), written once in
 * include/trace/wire.h for the recorder and the tools. */
#include "../include/trace/wire.h"
/* The protocol buffers encoder of --perfetto. */
#include "protobuf.h"
#ifndef TRACEPOINT_DUMP_VERSION
#define TRACEPOINT_DUMP_VERSION TRACEPOINT_VERSION_STRING
#endif

__extension__ typedef unsigned __int128 u128;
__extension__ typedef __int128 i128;
typedef unsigned char u8;

#define PACKET_HDR ((unsigned)TRACE_PACKET_HEADER_SIZE) /* header + context, bytes */
#define MAX_ERRS_PER_FILE 8     /* problems reported per stream file */

static const char *const prog = "tracepoint-dump";

enum { M_TEXT, M_JSON, M_SUMMARY, M_REPAIR, M_PERFETTO };

/* ------------------------------------------------------------------ */
/* Utilities                                                          */
/* ------------------------------------------------------------------ */

/* Is this machine big-endian? */
static int host_be(void)
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

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom();
	return p;
}

static void *xcalloc(size_t n, size_t s)
{
	void *p = calloc(n ? n : 1, s ? s : 1);
	if (!p)
		oom();
	return p;
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom();
	return p;
}

static char *xstrndup(const char *s, size_t n)
{
	char *d = (char *)xmalloc(n + 1);
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

static char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

static char *xvasprintf(const char *fmt, va_list ap)
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

static char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

#define GROW(arr, n, cap)                                                         \
	do {                                                                      \
		if ((n) == (cap)) {                                               \
			(cap) = (cap) ? (cap) * 2 : 8;                            \
			(arr) = xrealloc((arr), (cap) * sizeof(*(arr)));          \
		}                                                                 \
	} while (0)

static uint16_t bswap16(uint16_t v)
{
	return (uint16_t)((v >> 8) | (v << 8));
}

static uint32_t bswap32(uint32_t v)
{
	return (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
}

static uint64_t bswap64(uint64_t v)
{
	return ((uint64_t)bswap32((uint32_t)v) << 32) | bswap32((uint32_t)(v >> 32));
}

/* An unsigned integer of `size` bytes at p (1, 2, 4 or 8). */
static inline uint64_t ld(const u8 *p, unsigned size, int swap)
{
	switch (size) {
	case 1:
		return p[0];
	case 2: {
		uint16_t v;
		memcpy(&v, p, 2);
		return swap ? bswap16(v) : v;
	}
	case 4: {
		uint32_t v;
		memcpy(&v, p, 4);
		return swap ? bswap32(v) : v;
	}
	default: {
		uint64_t v;
		memcpy(&v, p, 8);
		return swap ? bswap64(v) : v;
	}
	}
}

/* Sign-extends the low `bits` bits of v. */
static inline uint64_t sext(uint64_t v, unsigned bits)
{
	uint64_t m;
	if (bits >= 64)
		return v;
	v &= ((uint64_t)1 << bits) - 1;
	m = (uint64_t)1 << (bits - 1);
	return (v ^ m) - m;
}

static int all_zero(const u8 *p, uint64_t n)
{
	/* each byte equals the next one, and the first is 0 */
	return !n || (!p[0] && (n == 1 || !memcmp(p, p + 1, (size_t)(n - 1))));
}

static const char d2[201] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
			    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
			    "8081828384858687888990919293949596979899";

static inline unsigned ndigits(uint64_t v)
{
	unsigned n = 1;
	for (;;) {
		if (v < 10)
			return n;
		if (v < 100)
			return n + 1;
		if (v < 1000)
			return n + 2;
		if (v < 10000)
			return n + 3;
		v /= 10000;
		n += 4;
	}
}

/* Decimal digits of v at o; returns the end.  (Digits are written in
 * place: short variable-length memcpy calls dominate otherwise.) */
static inline char *put_u64(char *o, uint64_t v)
{
	char *e = o + ndigits(v), *q = e;
	while (v >= 100) {
		unsigned r = (unsigned)(v % 100);
		v /= 100;
		q -= 2;
		memcpy(q, d2 + 2 * r, 2);
	}
	if (v >= 10)
		memcpy(q - 2, d2 + 2 * v, 2);
	else
		q[-1] = (char)('0' + v);
	return e;
}

/* Copies n bytes from a source readable for at least 32 bytes (padded). */
static inline char *cpy_padded(char *o, const char *s, size_t n)
{
	if (n <= 32)
		memcpy(o, s, 32);
	else
		memcpy(o, s, n);
	return o + n;
}

static inline char *put_i64(char *o, int64_t v)
{
	if (v < 0) {
		*o++ = '-';
		return put_u64(o, (uint64_t)0 - (uint64_t)v);
	}
	return put_u64(o, (uint64_t)v);
}

static char *put_hex(char *o, uint64_t v, int upper)
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
static char *put_double(char *o, double d, int is_float)
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

/* The output: written in blocks of dx->ob.cap bytes. */
struct outbuf {
	char *b;
	size_t n, cap;
	int fd;
	const char *name;
};

/* A set of 64-bit values (open addressing; 0 is kept apart). */
struct u64set {
	uint64_t *v;
	size_t n, cap;
	int has0;
};

/* The directories read for one DIR argument, by st_dev and st_ino: each
 * once, whatever leads to it twice (a bind mount, a DIR inside another). */
struct seen {
	dev_t dev;
	ino_t ino;
	char *path;
};

/* Everything a run of the tool changes, passed to whatever changes it (a
 * trace keeps a pointer to it for its streams' messages): no function
 * keeps state of its own, so that main can run again (tests/fuzz_dump
 * calls it once per input) from a fresh one. */
struct dump {
	struct outbuf ob;
	/* messages: problems are collected and printed after the output */
	int status;                /* the exit status so far */
	char **msg;
	size_t nmsg, capmsg, lostmsg;
	int quiet;                 /* --repair's own indexing: no messages */
	unsigned long nerrs;       /* errors noted, shown or not */
	unsigned long nmissing;    /* of which: packets missing from a stream */
	char **skipped;            /* paths named as skipped (each once) */
	size_t nskipped, capskipped;
	int strict;                /* load_trace: check the metadata with strict_metadata */
	struct seen *seen;         /* the directories read for one DIR argument */
	size_t nseen, capseen;
	/* text */
	uint64_t sec;              /* the second of secstr (UINT64_MAX: none yet) */
	char secstr[32];
	size_t seclen;
	char *flagbuf;             /* flags_text's buffer */
	size_t flagcap;
	/* JSON */
	uint64_t origin;           /* ns of "ts":0 */
	int jfirst;
	struct u64set flows;       /* flow ids seen so far */
	/* --perfetto */
	struct pf_state *pf;       /* made and freed by the Perfetto writer */
	/* --repair */
	uint64_t tmpctr;           /* temporary names made */
};

static void ob_flush(struct dump *dx)
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

static char *ob_make(struct dump *dx, size_t k)
{
	ob_flush(dx);
	if (k > dx->ob.cap) {
		dx->ob.cap = k;
		dx->ob.b = (char *)xrealloc(dx->ob.b, dx->ob.cap);
	}
	return dx->ob.b;
}

/* Room for k more bytes: where they go (commit with ob_done). */
static inline char *ob_need(struct dump *dx, size_t k)
{
	if (dx->ob.cap - dx->ob.n < k)
		return ob_make(dx, k);
	return dx->ob.b + dx->ob.n;
}

static inline void ob_done(struct dump *dx, char *o)
{
	dx->ob.n = (size_t)(o - dx->ob.b);
}

static void ob_puts(struct dump *dx, const char *s, size_t n)
{
	char *o = ob_need(dx, n);
	memcpy(o, s, n);
	ob_done(dx, o + n);
}

static void ob_printf(struct dump *dx, const char *fmt, ...)
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
static void note(struct dump *dx, int err, const char *file, long long off, const char *fmt, ...)
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
		m = xasprintf("%s: %s: byte %lld: %s%s", prog, file, off, err ? "" : "warning: ", text);
	else
		m = xasprintf("%s: %s: %s%s", prog, file, err ? "" : "warning: ", text);
	free(text);
	GROW(dx->msg, dx->nmsg, dx->capmsg);
	dx->msg[dx->nmsg++] = m;
}

static void print_notes(struct dump *dx)
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

enum { FT_INT = 1, FT_FLOAT, FT_STR };
enum { BO_TRACE = 0, BO_LE, BO_BE };

/* One label of a CTF enumeration (a __print_symbolic/__print_flags table). */
struct sym {
	int64_t v;
	char *name;
};

struct ftype {
	struct sym *sym;     /* an enumeration's labels (fields only), or NULL */
	unsigned nsym;
	unsigned char kind;  /* FT_* */
	unsigned char size;  /* bytes of one element: 1, 2, 4, 8 */
	unsigned char align; /* bytes */
	unsigned char sgn, base, enc, bo, swap;
	const char *bad;     /* why this type cannot be read, or NULL */
};

struct field {
	char *name;          /* without the leading '_' */
	struct ftype t;
	unsigned count;      /* array length; 0: a scalar */
	int is_text;         /* a char array: printed as a string */
	uint32_t fixoff;     /* packed events: offset in the payload */
	char *jkey;          /* "name": */
	size_t jkeylen;
	unsigned seq;        /* a sequence: 1 + the index of its length field; 0: not one */
	int hidden;          /* a sequence's length field: not printed */
	char *fdelim;        /* an enumeration printed as flags (__print_flags), with this separator */
};

enum { SEG_LIT, SEG_INT, SEG_PTR, SEG_CHR, SEG_STR, SEG_SLOW, SEG_FLT, SEG_SYM, SEG_FLAGS, SEG_HEX };
enum { FL_MINUS = 1, FL_PLUS = 2, FL_SPACE = 4, FL_HASH = 8, FL_ZERO = 16 };

struct seg {
	unsigned char kind, conv, flags, bits, sgn;
	int width, prec;     /* -1: none */
	int field;
	unsigned idx;        /* element of an array (indexed arguments) */
	int indexed;
	const char *lit;     /* SEG_LIT */
	size_t litlen;
	char spec[40];       /* SEG_SLOW, SEG_FLT: the conversion for snprintf */
	uint64_t hexlen;     /* SEG_HEX: at most this many bytes */
};

struct event {
	char *name;          /* "system:event" */
	size_t namelen;
	char *sys, *ename;
	uint64_t id;
	int has_id;
	struct field *f;
	unsigned nf, capf;
	const char *bad;     /* a field this tool cannot read */
	int packed;          /* fixed fields at constant offsets */
	uint32_t fixsize;
	unsigned nstr;
	uint32_t *fixoffs;
	char *printk;        /* the comment's text after "printk:" */
	char *fmtbuf;        /* literal text of the compiled format */
	struct seg *seg;
	unsigned nseg;
	int use_printk;
	char *jpre;          /* {"name":..,"cat":..,"ph":"i","s":"t","ts": */
	size_t jprelen;
	uint64_t count;
	unsigned kind;       /* EK_* (metadata comment "kind:"; none: instant) */
	uint64_t pf_name, pf_cat; /* --perfetto: interned ids, 0: not yet */
	uint64_t *pf_key;    /* per field: interned annotation name ids */
	uint64_t *pf_ctr;    /* per field: counter track uuid (counters) */
};

struct packet {
	uint64_t off, psz, cend; /* bytes; cend: end of content, file offset */
	uint64_t tsb, tse, seq, disc;
	uint32_t tid, pid;
	char comm[17];
};

struct trace;

struct stream {
	struct trace *tr;
	char *path;
	const char *name;        /* its name in the trace directory (in path) */
	dev_t dev;               /* the file read (--repair replaces only it) */
	ino_t ino;
	mode_t mode;
	int fd;                  /* while it is indexed, else -1 */
	u8 *map;
	uint64_t size;
	struct packet *pk;
	size_t npk, cappk;
	uint64_t stop;           /* where a stream-mode walk stopped (size: clean end) */
	const char *stop_why;
	int stop_err;            /* the stop is an error, not a crashed writer's leftover */
	unsigned nunused, nover, nbadslot, ntrunc;
	int reordered;           /* stream mode: packets not in packet_seq_num order, or twice */
	unsigned ndup;           /* packets seen twice (the second ignored) */
	uint64_t slot;           /* flight: ring slot size */
	int nerr;
	/* summary */
	uint64_t events, bytes, dropped;
	uint64_t first_ns, last_ns;
	int have_ns;
};

struct alias {
	char *name;
	struct ftype t;
};

struct trace {
	char *dir;
	int ok;
	u8 uuid[16];
	int has_uuid, be, swap, flight, has_clock;
	char *procname, *hostname, *mode;
	long long vpid;
	int has_vpid;
	char *clk_name;
	uint64_t freq, off_c;
	int64_t off_s;
	struct event *ev;
	size_t nev, capev;
	struct event **idtab;
	size_t idtab_n;
	unsigned maxnf;
	struct stream *st;
	size_t nst;
	struct alias *al;
	size_t nal, capal;
	char *snapinfo;          /* subtraces, for the summary */
	int is_child;
	struct dump *dx;         /* the run that loaded it: its streams' messages */
};

/* ------------------------------------------------------------------ */
/* Metadata: lexer                                                    */
/* ------------------------------------------------------------------ */

enum { TK_ID = 1, TK_NUM, TK_STR, TK_PUNCT, TK_COMMENT };

struct tok {
	int type;
	const char *s;
	size_t n;
	unsigned line;
};

struct parser {
	struct tok *t;
	size_t n;
	const char *path;
	char err[300];
	struct trace *tr;
	int strict;          /* only what the recorder writes (--repair's check) */
};

static int tok_is(const struct tok *t, int type, const char *s)
{
	return t->type == type && t->n == strlen(s) && memcmp(t->s, s, t->n) == 0;
}

static int perr(struct parser *P, unsigned line, const char *fmt, ...)
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

static int lex(struct parser *P, const char *s, size_t len)
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
static char *unescape(const char *s, size_t n, size_t *outlen)
{
	char *d = (char *)xmalloc(n + 1);
	size_t i, k = 0;
	for (i = 0; i < n; i++) {
		char c = s[i];
		if (c == '\\' && i + 1 < n) {
			c = s[++i];
			switch (c) {
			case 'n': c = '\n'; break;
			case 't': c = '\t'; break;
			case 'r': c = '\r'; break;
			case 'a': c = '\a'; break;
			case 'b': c = '\b'; break;
			case 'f': c = '\f'; break;
			case 'v': c = '\v'; break;
			case 'e': c = 27; break;
			case 'x': {
				unsigned v = 0;
				while (i + 1 < n && isxdigit((unsigned char)s[i + 1])) {
					int h = (unsigned char)s[++i];
					v = v * 16 + (unsigned)(isdigit(h) ? h - '0' : tolower(h) - 'a' + 10);
				}
				c = (char)(v & 0xff);
				break;
			}
			default:
				if (c >= '0' && c <= '7') {
					unsigned v = (unsigned)(c - '0'), m = 1;
					while (m < 3 && i + 1 < n && s[i + 1] >= '0' && s[i + 1] <= '7') {
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

/* Index of the token closing the bracket at i, or 0. */
static size_t match_close(struct parser *P, size_t i, size_t lim)
{
	int depth = 0;
	for (; i < lim; i++) {
		const struct tok *t = &P->t[i];
		if (t->type != TK_PUNCT || t->n != 1)
			continue;
		if (strchr("{[(", t->s[0]))
			depth++;
		else if (strchr("}])", t->s[0]) && --depth == 0)
			return i;
	}
	return 0;
}

/* Index of the ';' ending the statement starting at i, or 0. */
static size_t stmt_end(struct parser *P, size_t i, size_t lim)
{
	int depth = 0;
	for (; i < lim; i++) {
		const struct tok *t = &P->t[i];
		if (t->type != TK_PUNCT || t->n != 1)
			continue;
		if (strchr("{[(", t->s[0]))
			depth++;
		else if (strchr("}])", t->s[0]))
			depth--;
		else if (t->s[0] == ';' && depth == 0)
			return i;
		if (depth < 0)
			return 0;
	}
	return 0;
}

struct val {
	int type; /* TK_STR, TK_NUM, TK_ID */
	const struct tok *tk;
	int neg;
	char key[64];
	char id[64]; /* TK_ID: dotted identifiers joined */
};

/* Reads "key = value" or "key := ..." from tokens [i, e) (comments
 * skipped).  Returns 1 for '=', 2 for ':=' (*rhs: first token after it),
 * 0 for anything else. */
static int get_assign(struct parser *P, size_t i, size_t e, struct val *v, size_t *rhs)
{
	size_t k = 0;
	memset(v, 0, sizeof(*v));
	while (i < e && P->t[i].type == TK_COMMENT)
		i++;
	while (i < e && P->t[i].type == TK_ID) {
		size_t n = P->t[i].n;
		if (k + n + 2 > sizeof(v->key))
			return 0;
		memcpy(v->key + k, P->t[i].s, n);
		k += n;
		i++;
		if (i < e && tok_is(&P->t[i], TK_PUNCT, ".")) {
			v->key[k++] = '.';
			i++;
		} else {
			break;
		}
	}
	v->key[k] = '\0';
	if (!k || i >= e)
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
		k = 0;
		while (i < e && P->t[i].type == TK_ID) {
			size_t n = P->t[i].n;
			if (k + n + 2 > sizeof(v->id))
				return 0;
			memcpy(v->id + k, P->t[i].s, n);
			k += n;
			i++;
			if (i < e && tok_is(&P->t[i], TK_PUNCT, ".")) {
				v->id[k++] = '.';
				i++;
			} else {
				break;
			}
		}
		v->id[k] = '\0';
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
	while (i < e) {
		while (i < e && P->t[i].type == TK_COMMENT)
			i++;
		if (i >= e)
			break;
		se = stmt_end(P, i, e);
		if (!se)
			return perr(P, P->t[i].line, "missing ';' in a type");
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
				else if (!strcmp(s, "hexadecimal") || !strcmp(s, "hex") || !strcmp(s, "x") ||
					 !strcmp(s, "X") || !strcmp(s, "p"))
					bn = 16;
				else if (!strcmp(s, "octal") || !strcmp(s, "oct") || !strcmp(s, "o"))
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
		sy[n].name = lt->type == TK_STR ? unescape(lt->s, lt->n, NULL) : xstrndup(lt->s, lt->n);
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
	if (tok_is(t, TK_ID, "integer") || tok_is(t, TK_ID, "floating_point") || tok_is(t, TK_ID, "string")) {
		size_t c;
		ft->kind = tok_is(t, TK_ID, "integer") ? FT_INT : tok_is(t, TK_ID, "string") ? FT_STR : FT_FLOAT;
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
			if (strlen(P->tr->al[k].name) == t->n && !memcmp(P->tr->al[k].name, t->s, t->n)) {
				*ft = P->tr->al[k].t;
				return 0;
			}
	}
	ft->kind = FT_INT;
	ft->bad = "a type other than integer, floating_point and string";
	return 0;
}

static void add_field(struct event *ev, const char *name, size_t n, const struct ftype *ft, unsigned count)
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
static int field_index(const struct event *ev, const char *s, size_t n);

static int parse_fields(struct parser *P, struct event *ev, size_t i, size_t e)
{
	size_t c, j, se;
	while (i < e && P->t[i].type == TK_COMMENT)
		i++;
	if (i + 1 >= e || !tok_is(&P->t[i], TK_ID, "struct") || !tok_is(&P->t[i + 1], TK_PUNCT, "{"))
		return perr(P, P->t[i < e ? i : e - 1].line, "fields: expected 'struct {'");
	c = match_close(P, i + 1, e);
	if (!c)
		return perr(P, P->t[i].line, "fields: unbalanced '{'");
	for (j = i + 2; j < c;) {
		size_t nameix, last;
		unsigned count = 0;
		struct ftype ft;
		while (j < c && P->t[j].type == TK_COMMENT)
			j++;
		if (j >= c)
			break;
		se = stmt_end(P, j, c);
		if (!se)
			return perr(P, P->t[j].line, "fields: missing ';'");
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
				if (li < 0 || ev->f[li].t.kind != FT_INT || ev->f[li].count || ev->f[li].seq)
					ft.bad = "a sequence whose length is not an earlier integer field";
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
	return 0;
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

/* One top-level block's statements, (b, e) exclusive of the braces. */
/* Event kinds (<trace/event_kinds.h>: enum trace_event_kind), written by
 * the recorder as a comment in the event block: "kind: slice_begin",
 * "kind: counter", "kind: instant flow" ...  Unknown words are ignored (a
 * newer recorder's kind reads as an instant). */
enum { EK_INSTANT = 0, EK_BEGIN = 1, EK_END = 2, EK_COUNTER = 3, EK_BASE = 15, EK_FLOW = 16 };

static unsigned parse_kind(const char *s, size_t n)
{
	static const struct {
		const char *w;
		unsigned k;
	} words[] = { { "slice_begin", EK_BEGIN }, { "slice_end", EK_END }, { "counter", EK_COUNTER },
		      { "flow", EK_FLOW } };
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
					if (s[x] == '*' && x + 2 < n && s[x + 1] == '\\' && s[x + 2] == '/') {
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
				} else if (!strcmp(v.key, "freq")) {
					if (val_u64(&v, &n) || !n)
						return perr(P, v.tk->line, "bad clock freq");
					tr->freq = n;
				} else if (!strcmp(v.key, "offset_s")) {
					if (v.type != TK_NUM || tok_u64(v.tk, &n) || n > (uint64_t)INT64_MAX / 2000000000u)
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
						return perr(P, v.tk->line, "event name is not a string");
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

static int parse_metadata(struct parser *P, const char *text, size_t len)
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
		    (tok_is(t, TK_ID, "trace") || tok_is(t, TK_ID, "env") || tok_is(t, TK_ID, "clock") ||
		     tok_is(t, TK_ID, "stream") || tok_is(t, TK_ID, "event") || tok_is(t, TK_ID, "callsite"))) {
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
				return perr(P, P->t[e].line, "missing ';' after the %s block", kind);
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

static int field_index(const struct event *ev, const char *s, size_t n)
{
	unsigned i;
	for (i = 0; i < ev->nf; i++)
		if (strlen(ev->f[i].name) == n && !memcmp(ev->f[i].name, s, n))
			return (int)i;
	return -1;
}

enum { AR_FIELD, AR_INDEX, AR_STR, AR_SYM, AR_FLAGS, AR_HEX, AR_DYN };
struct argref {
	int kind; /* AR_*: __entry->f, __entry->f[idx], __get_str(f), __print_symbolic(..),
		   * __print_flags(..), __print_hex(..), __get_dynamic_array(f) */
	int field;
	unsigned idx;
	uint64_t hexlen;      /* AR_HEX: bytes to print; UINT64_MAX: the whole field */
	char *delim;          /* AR_FLAGS: the separator (allocated) */
};

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
	for (; s <= e; s++) {
		char c = s < e ? *s : ',';
		if (c == '"' || c == '\'') {
			for (s++; s < e && *s != c; s++)
				if (*s == '\\' && s + 1 < e)
					s++;
			continue;
		}
		if (c == '(' || c == '[' || c == '{')
			depth++;
		else if (c == ')' || c == ']' || c == '}')
			depth--;
		else if (c == ',' && depth == 0) {
			if (n < max) {
				as[n] = a;
				ae[n] = s;
			}
			n++;
			a = s + 1;
		}
	}
	return depth == 0 ? n : -1;
}

static int parse_argref(const struct event *ev, const char *s, const char *e, struct argref *r);

/* __print_symbolic, __print_flags, __print_hex and __get_dynamic_array:
 * 0 and r filled, 1 if [s, e) is none of them, -1 if it cannot be read. */
static int parse_helper(const struct event *ev, const char *s, const char *e, struct argref *r)
{
	const char *as[3], *ae[3];
	struct argref in;
	int n;
	memset(&in, 0, sizeof(in));
	if ((n = split_call(s, e, "__print_symbolic", as, ae, 3)) >= 0 ||
	    (n = split_call(s, e, "__print_flags", as, ae, 3)) >= 0) {
		int flags = s[8] == 'f';
		if (n < (flags ? 3 : 2) || parse_argref(ev, as[0], ae[0], &in) || in.kind != AR_FIELD ||
		    !ev->f[in.field].t.sym || ev->f[in.field].count || ev->f[in.field].seq)
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
		if (n != 2 || parse_argref(ev, as[0], ae[0], &in) || (in.kind != AR_FIELD && in.kind != AR_DYN))
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
				if (parse_argref(ev, ls[0], lend[0], &lr) || lr.kind != AR_FIELD || lr.field != in.field)
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

static int parse_argref(const struct event *ev, const char *s, const char *e, struct argref *r)
{
	const char *id;
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
		id = s;
		while (s < e && is_ident((unsigned char)*s))
			s++;
		if (s == id || isdigit((unsigned char)*id))
			return -1;
		r->field = field_index(ev, id, (size_t)(s - id));
		if (r->field < 0)
			return -1;
		s = skip_ws(s, e);
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
			s = skip_ws(s, e);
			if (s >= e || *s != ']')
				return -1;
			s = skip_ws(s + 1, e);
			r->kind = 1;
			r->idx = (unsigned)v;
		}
		return s == e ? 0 : -1;
	}
	if (e - s > 9 && !memcmp(s, "__get_str", 9)) {
		s = skip_ws(s + 9, e);
		if (s >= e || *s != '(')
			return -1;
		s = skip_ws(s + 1, e);
		id = s;
		while (s < e && is_ident((unsigned char)*s))
			s++;
		if (s == id)
			return -1;
		r->field = field_index(ev, id, (size_t)(s - id));
		if (r->field < 0)
			return -1;
		s = skip_ws(s, e);
		if (s >= e || *s != ')')
			return -1;
		s = skip_ws(s + 1, e);
		r->kind = 2;
		return s == e ? 0 : -1;
	}
	return -1;
}

/* Length of a valid UTF-8 sequence at s (n bytes left), or 0. */
static size_t utf8_len(const u8 *s, size_t n)
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
	if ((k == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) || (k == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return k;
}

/* Text for one line of output, C-like (docs/tracepoint-dump.md): printable
 * ASCII and valid UTF-8 as they are; a backslash doubled; \n \r \t; any
 * other control character (C0, DEL, C1), and every byte that is not part
 * of valid UTF-8, as \xHH.  So a recorded string cannot end a line, move
 * the cursor or pass for an escape: the output reads back to the exact
 * bytes.  Needs 4 * n bytes. */
static char *put_text(char *o, const u8 *s, size_t n)
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
		case '\\': *o++ = '\\'; break;
		case '\n': *o++ = 'n'; break;
		case '\t': *o++ = 't'; break;
		case '\r': *o++ = 'r'; break;
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
static char *text_dup(const char *s)
{
	size_t n = strlen(s);
	char *d = (char *)xmalloc(4 * n + 1);
	*put_text(d, (const u8 *)s, n) = '\0';
	return d;
}

/* Compiles ev->printk into segments; 0 if the event must fall back to
 * name=value pairs. */
static int compile_printk(struct event *ev)
{
	const char *s = ev->printk, *e, *a;
	char *fmt = NULL, *lits = NULL;
	size_t fmtlen = 0, litcap, litlen = 0, nargs = 0, capargs = 0, i, nconv = 0;
	struct argref *args = NULL;
	struct seg *seg = NULL;
	size_t nseg = 0, capseg = 0;
	if (!s)
		return 0;
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
			while (s < e) {
				char c = *s;
				if (c == '"' || c == '\'') {
					char qc = c;
					s++;
					while (s < e && *s != qc) {
						if (*s == '\\' && s + 1 < e)
							s++;
						s++;
					}
					if (s < e)
						s++;
					continue;
				}
				if (c == '(' || c == '[' || c == '{')
					depth++;
				else if (c == ')' || c == ']' || c == '}')
					depth--;
				else if (c == ',' && depth == 0)
					break;
				s++;
			}
			GROW(args, nargs, capargs);
			memset(&args[nargs], 0, sizeof(args[nargs]));
			nargs++;
			if (parse_argref(ev, a, s, &args[nargs - 1]))
				goto fail;
			if (s >= e)
				break;
			s++;
		}
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
			int flags = 0, width = -1, prec = -1, lm = 0; /* lm: 0 none, 1 hh, 2 h, 3 l, 4 ll/q/j/z/t, 5 L */
			char conv;
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
				flags |= fmt[i] == '-' ? FL_MINUS : fmt[i] == '+' ? FL_PLUS : fmt[i] == ' ' ? FL_SPACE
					 : fmt[i] == '#' ? FL_HASH : FL_ZERO;
			if (i < fmtlen && isdigit((unsigned char)fmt[i])) {
				width = 0;
				while (i < fmtlen && isdigit((unsigned char)fmt[i])) {
					width = width * 10 + (fmt[i++] - '0');
					if (width > 4096)
						goto fail;
				}
			}
			if (i < fmtlen && fmt[i] == '.') {
				i++;
				prec = 0;
				while (i < fmtlen && isdigit((unsigned char)fmt[i])) {
					prec = prec * 10 + (fmt[i++] - '0');
					if (prec > 4096)
						goto fail;
				}
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
			f = &ev->f[r->field];
			memset(&sg, 0, sizeof(sg));
			sg.flags = (unsigned char)flags;
			sg.width = width;
			sg.prec = prec;
			sg.field = r->field;
			sg.conv = (unsigned char)conv;
			if (r->kind >= AR_SYM) { /* the kernel's helpers print with %s */
				if (conv != 's' || lm)
					goto fail;
				if (r->kind == AR_DYN && !f->is_text && !(f->t.kind == FT_INT && f->t.size == 1))
					goto fail;
				sg.kind = r->kind == AR_SYM ? SEG_SYM : r->kind == AR_FLAGS ? SEG_FLAGS
					: r->kind == AR_HEX ? SEG_HEX : SEG_STR;
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
				if (r->kind == 2 && f->t.kind != FT_STR && !(f->count && f->t.kind == FT_INT && f->t.size == 1))
					goto fail;
				if (r->kind == 1)
					goto fail;
				if (f->t.kind != FT_STR && !(f->count && f->t.kind == FT_INT && f->t.size == 1))
					goto fail;
				sg.kind = SEG_STR;
			} else {
				/* a whole array, fixed or dynamic (which may have no
				 * element at all), is not one number */
				if (r->kind == 2 || f->t.kind == FT_STR || ((f->count || f->seq) && r->kind != 1))
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
						snprintf(sg.spec, sizeof(sg.spec), "%%%s%s%s%s%s%.0d%s%.0d%s%c",
							 flags & FL_MINUS ? "-" : "", flags & FL_PLUS ? "+" : "",
							 flags & FL_SPACE ? " " : "", flags & FL_HASH ? "#" : "",
							 flags & FL_ZERO ? "0" : "", width > 0 ? width : 0,
							 prec >= 0 ? "." : "", prec > 0 ? prec : 0, "ll", conv);
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
						snprintf(sg.spec, sizeof(sg.spec), "%%%s%s%s%s%s%.0d%s%.0dp",
							 flags & FL_MINUS ? "-" : "", flags & FL_PLUS ? "+" : "",
							 flags & FL_SPACE ? " " : "", flags & FL_HASH ? "#" : "",
							 flags & FL_ZERO ? "0" : "", width > 0 ? width : 0,
							 prec >= 0 ? "." : "", prec > 0 ? prec : 0);
						if (width == 0)
							goto fail;
					} else {
						sg.kind = SEG_PTR;
					}
				} else { /* floating point */
					if (!isflt || (lm && lm != 3 && lm != 5))
						goto fail;
					sg.kind = SEG_FLT;
					snprintf(sg.spec, sizeof(sg.spec), "%%%s%s%s%s%s%.0d%s%.0d%c",
						 flags & FL_MINUS ? "-" : "", flags & FL_PLUS ? "+" : "",
						 flags & FL_SPACE ? " " : "", flags & FL_HASH ? "#" : "",
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
	free(fmt);
	for (i = 0; i < nargs; i++)
		free(args[i].delim);
	free(args);
	return 1;
fail:
	for (i = 0; i < nargs; i++)
		free(args[i].delim);
	free(fmt);
	free(lits);
	free(args);
	free(seg);
	return 0;
}

/* ------------------------------------------------------------------ */
/* JSON helpers                                                       */
/* ------------------------------------------------------------------ */

/* A JSON string (with quotes); needs 6 * n + 2 bytes. */
static char *put_json_str(char *o, const u8 *s, size_t n)
{
	size_t i = 0;
	*o++ = '"';
	while (i < n) {
		u8 c = s[i];
		if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
			*o++ = (char)c;
			i++;
			continue;
		}
		if (c == '"' || c == '\\') {
			*o++ = '\\';
			*o++ = (char)c;
			i++;
			continue;
		}
		if (c >= 0x80) {
			size_t k = utf8_len(s + i, n - i);
			if (k) {
				memcpy(o, s + i, k);
				o += k;
				i += k;
				continue;
			}
		}
		memcpy(o, "\\u00", 4);
		o[4] = "0123456789abcdef"[c >> 4];
		o[5] = "0123456789abcdef"[c & 15];
		o += 6;
		i++;
	}
	*o++ = '"';
	return o;
}

static char *json_str_dup(const char *s, size_t n, size_t *len)
{
	char *d = (char *)xmalloc(6 * n + 3), *o = put_json_str(d, (const u8 *)s, n);
	*o = '\0';
	*len = (size_t)(o - d);
	return d;
}

/* ------------------------------------------------------------------ */
/* Loading a trace                                                    */
/* ------------------------------------------------------------------ */

static int cmp_ev_id(const void *a, const void *b)
{
	const struct event *x = (const struct event *)a, *y = (const struct event *)b;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* The length of the name a slice shows: a begin event's name without its
 * "_begin" (TRACE_SLICE(gc, ...) makes gc_begin and gc_end: the slice is
 * "gc"); any other event's whole name. */
static size_t slice_name_len(const struct event *ev)
{
	size_t n = strlen(ev->ename);
	if ((ev->kind & EK_BASE) == EK_BEGIN && n > 6 && !strcmp(ev->ename + n - 6, "_begin"))
		return n - 6;
	return n;
}

/* The Chrome JSON phase of an event kind: slices B/E, counters C, the
 * rest thread-scoped instants. */
static const char *json_phase(unsigned kind)
{
	switch (kind & EK_BASE) {
	case EK_BEGIN:
		return "\"B\"";
	case EK_END:
		return "\"E\"";
	case EK_COUNTER:
		return "\"C\"";
	default:
		return "\"i\",\"s\":\"t\"";
	}
}

/* --summary: what an event of a kind other than instant stands for. */
static const char *kind_note(unsigned kind)
{
	static const char *const note[][2] = { { "", " (flow)" },
					       { " (slice begin)", " (slice begin, flow)" },
					       { " (slice end)", " (slice end, flow)" },
					       { " (counter)", " (counter, flow)" } };
	unsigned b = kind & EK_BASE;
	return b < 4 ? note[b][(kind & EK_FLOW) != 0] : "";
}

static void prepare_events(struct dump *dx, struct trace *tr)
{
	size_t i, k;
	for (i = 0; i < tr->nal; i++)
		free(tr->al[i].name);
	free(tr->al);
	tr->al = NULL;
	tr->nal = tr->capal = 0;
	if (tr->nev)
		qsort(tr->ev, tr->nev, sizeof(*tr->ev), cmp_ev_id);
	for (i = 0; i < tr->nev; i++) {
		struct event *ev = &tr->ev[i];
		const char *colon = strchr(ev->name, ':');
		size_t n1, n2;
		char *js, *jn, *o;
		uint32_t off = 0;
		int seen_str = 0;
		if (i > 0 && tr->ev[i - 1].id == ev->id)
			note(dx, 1, tr->dir, -1, "metadata: two events with id %llu (%s, %s); using the first",
			     (unsigned long long)ev->id, tr->ev[i - 1].name, ev->name);
		ev->name = (char *)xrealloc(ev->name, ev->namelen + 33); /* read by cpy_padded */
		memset(ev->name + ev->namelen, 0, 33);
		colon = strchr(ev->name, ':');
		ev->sys = colon ? xstrndup(ev->name, (size_t)(colon - ev->name)) : xstrdup("");
		ev->ename = xstrdup(colon ? colon + 1 : ev->name);
		js = json_str_dup(ev->sys, strlen(ev->sys), &n1);
		jn = json_str_dup(ev->ename, slice_name_len(ev), &n2);
		ev->jpre = (char *)xcalloc(n1 + n2 + 64 + 32, 1); /* + 32: read by cpy_padded */
		o = ev->jpre;
		o += sprintf(o, "{\"name\":%s,\"cat\":%s,\"ph\":%s,\"ts\":", jn, js,
			     json_phase(ev->kind));
		ev->jprelen = (size_t)(o - ev->jpre);
		free(js);
		free(jn);
		{ /* the name as text and --summary print it (JSON has its own) */
			char *t = text_dup(ev->name);
			size_t tn = strlen(t);
			ev->name = (char *)xrealloc(ev->name, tn + 33); /* read by cpy_padded */
			memcpy(ev->name, t, tn);
			memset(ev->name + tn, 0, 33);
			ev->namelen = tn;
			free(t);
		}
		if (ev->nf > tr->maxnf)
			tr->maxnf = ev->nf;
		ev->packed = 1;
		ev->fixoffs = (uint32_t *)xcalloc(ev->nf + 1, sizeof(uint32_t));
		for (k = 0; k < ev->nf; k++) {
			struct field *f = &ev->f[k];
			char *jk;
			size_t jl;
			f->t.swap = (unsigned char)((f->t.bo == BO_TRACE ? tr->be : f->t.bo == BO_BE) != host_be());
			f->is_text = f->count && f->t.kind == FT_INT && f->t.size == 1 && f->t.enc;
			jk = json_str_dup(f->name, strlen(f->name), &jl);
			f->jkey = (char *)xcalloc(jl + 2 + 32, 1); /* + 32: read by cpy_padded */
			memcpy(f->jkey, jk, jl);
			f->jkey[jl] = ':';
			f->jkey[jl + 1] = '\0';
			f->jkeylen = jl + 1;
			free(jk);
			if (f->t.kind == FT_STR || f->seq) {
				ev->nstr++;
				seen_str = 1;
				f->is_text = f->seq && f->t.kind == FT_INT && f->t.size == 1 && f->t.enc;
				continue;
			}
			if (f->t.align > 1 || seen_str)
				ev->packed = 0;
			f->fixoff = off;
			ev->fixoffs[k] = off;
			if (!f->t.bad) {
				uint64_t sz = (uint64_t)f->t.size * (f->count ? f->count : 1);
				if (off + sz > 0x7fffffffu)
					ev->bad = "a payload over 2 GiB";
				else
					off += (uint32_t)sz;
			}
		}
		ev->fixsize = off;
		ev->use_printk = compile_printk(ev);
	}
	/* the id lookup table */
	if (tr->nev) {
		uint64_t maxid = tr->ev[tr->nev - 1].id;
		tr->idtab_n = maxid < 65536 ? (size_t)maxid + 1 : 65536;
		tr->idtab = (struct event **)xcalloc(tr->idtab_n, sizeof(*tr->idtab));
		for (i = tr->nev; i-- > 0;)
			if (tr->ev[i].id < tr->idtab_n)
				tr->idtab[tr->ev[i].id] = &tr->ev[i];
	}
}

static const struct event *find_event(const struct trace *tr, uint64_t id)
{
	size_t lo = 0, hi = tr->nev;
	if (id < tr->idtab_n)
		return tr->idtab[id];
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (tr->ev[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < tr->nev && tr->ev[lo].id == id ? &tr->ev[lo] : NULL;
}

static char *path_join(const char *a, const char *b)
{
	size_t n = strlen(a);
	return xasprintf("%s%s%s", a, n && a[n - 1] == '/' ? "" : "/", b);
}

/* ---- Files and directories of a trace that may come from someone else.
 * Below a DIR argument nothing is opened by path: every directory and file
 * is opened relative to its parent's descriptor with O_NOFOLLOW, so no
 * symbolic link is followed out of or back into the trace; only regular
 * files and real directories are read (a FIFO, a socket or a device is
 * never opened: its type is looked at first, and O_NONBLOCK covers a file
 * swapped in between). */

enum { E_OTHER, E_REG, E_DIR };

struct dent {
	char *name;
	int kind;           /* E_* */
	mode_t mode;        /* lstat's, for E_OTHER's message */
};

static const char *kind_text(mode_t m)
{
	return S_ISLNK(m) ? "a symbolic link" : S_ISFIFO(m) ? "a FIFO" : S_ISSOCK(m) ? "a socket"
	       : S_ISCHR(m) ? "a character device" : S_ISBLK(m) ? "a block device" : "not a regular file";
}

static int cmp_dent(const void *a, const void *b)
{
	return strcmp(((const struct dent *)a)->name, ((const struct dent *)b)->name);
}

static void free_dents(struct dent *v, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		free(v[i].name);
	free(v);
}

/* The entries of the directory dfd, sorted, without the names that start
 * with '.'; each with its own type (links not followed).  -1 (errno) if it
 * cannot be listed. */
static int list_dir(int dfd, struct dent **out, size_t *n)
{
	int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dent *v = NULL;
	struct dirent *de;
	size_t cap = 0;
	*n = 0;
	*out = NULL;
	if (!d) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		errno = e;
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		struct stat sb;
		if (de->d_name[0] == '.')
			continue;
		if (fstatat(dfd, de->d_name, &sb, AT_SYMLINK_NOFOLLOW) != 0)
			continue; /* gone meanwhile */
		GROW(v, *n, cap);
		v[*n].name = xstrdup(de->d_name);
		v[*n].kind = S_ISREG(sb.st_mode) ? E_REG : S_ISDIR(sb.st_mode) ? E_DIR : E_OTHER;
		v[*n].mode = sb.st_mode;
		(*n)++;
	}
	closedir(d);
	if (*n)
		qsort(v, *n, sizeof(*v), cmp_dent);
	*out = v;
	return 0;
}

/* A real directory (not a link to one) in dfd, or -1 (errno). */
static int open_dir_at(int dfd, const char *name)
{
	return openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
}

/* A regular file in dfd, or -1 with *why saying what it is instead (or
 * NULL: errno). */
static int open_file_at(int dfd, const char *name, struct stat *sb, const char **why)
{
	struct stat ls;
	int fd;
	*why = NULL;
	if (fstatat(dfd, name, &ls, AT_SYMLINK_NOFOLLOW) != 0)
		return -1;
	if (!S_ISREG(ls.st_mode)) {
		*why = kind_text(ls.st_mode);
		return -1;
	}
	fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, sb) != 0 || !S_ISREG(sb->st_mode) || sb->st_dev != ls.st_dev || sb->st_ino != ls.st_ino) {
		close(fd);
		*why = "replaced while being opened";
		return -1;
	}
	return fd;
}

/* Does the directory dfd have a metadata file (of any type: a trace whose
 * metadata is not a regular file is a damaged trace)? */
static int has_metadata_at(int dfd)
{
	struct stat sb;
	return fstatat(dfd, "metadata", &sb, AT_SYMLINK_NOFOLLOW) == 0;
}

/* Skipped entries are reported once each (a directory may be listed by
 * --repair, then by the reading that checks it). */

static void skip_note(struct dump *dx, int err, const char *path, mode_t mode, const char *what)
{
	size_t i;
	if (dx->quiet) {
		note(dx, err, path, -1, "not read");
		return;
	}
	for (i = 0; i < dx->nskipped; i++)
		if (!strcmp(dx->skipped[i], path)) {
			if (err) {
				dx->status = 1;
				dx->nerrs++;
			}
			return;
		}
	GROW(dx->skipped, dx->nskipped, dx->capskipped);
	dx->skipped[dx->nskipped++] = xstrdup(path);
	note(dx, err, path, -1, "%s: not read (%s)", kind_text(mode), what);
}

/* The metadata file: at most this many bytes. */
#define MAX_METADATA ((size_t)64 << 20)

static int read_fd(int fd, const struct stat *sb, char **out, size_t *len)
{
	char *buf;
	size_t got = 0, cap;
	if ((uint64_t)sb->st_size > MAX_METADATA) {
		errno = EFBIG;
		return -1;
	}
	cap = (size_t)sb->st_size + 1;
	buf = (char *)xmalloc(cap);
	for (;;) {
		ssize_t r;
		if (got + 1 >= cap) {
			if (cap > MAX_METADATA) { /* it grew */
				free(buf);
				errno = EFBIG;
				return -1;
			}
			cap *= 2;
			buf = (char *)xrealloc(buf, cap);
		}
		r = read(fd, buf + got, cap - got - 1);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			free(buf);
			return -1;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	buf[got] = '\0';
	*out = buf;
	*len = got;
	return 0;
}

static void add_packet(struct stream *st, const struct packet *k)
{
	GROW(st->pk, st->npk, st->cappk);
	st->pk[st->npk++] = *k;
}

static int cmp_pk_seq(const void *a, const void *b)
{
	const struct packet *x = (const struct packet *)a, *y = (const struct packet *)b;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

static void snote(struct stream *st, int err, uint64_t off, const char *fmt, ...)
{
	struct dump *dx = st->tr->dx;
	va_list ap;
	char *text;
	if (err)
		dx->status = 1;
	if (++st->nerr > MAX_ERRS_PER_FILE) {
		if (st->nerr == MAX_ERRS_PER_FILE + 1)
			note(dx, err, st->path, -1, "more problems in this file are not shown");
		else if (err)
			dx->nerrs++;
		return;
	}
	va_start(ap, fmt);
	text = xvasprintf(fmt, ap);
	va_end(ap);
	note(dx, err, st->path, (long long)off, "%s", text);
	free(text);
}

/* Packets missing from a stream: packet_seq_num goes 0, 1, 2... in a
 * stream file, and by one from packet to packet in a flight ring (oldest
 * first, wherever it starts). */
static void check_missing(struct stream *st)
{
	size_t i;
	for (i = 0; i < st->npk; i++) {
		const struct packet *k = &st->pk[i];
		uint64_t want = i ? st->pk[i - 1].seq + 1 : st->tr->flight ? k->seq : 0;
		if (k->seq <= want)
			continue;
		st->tr->dx->nmissing++;
		if (i == 0)
			snote(st, 1, k->off, "packets 0..%llu missing: the stream starts at packet_seq_num %llu",
			      (unsigned long long)(k->seq - 1), (unsigned long long)k->seq);
		else if (k->seq - want == 1)
			snote(st, 1, k->off, "packet %llu missing: packet_seq_num %llu follows %llu",
			      (unsigned long long)want, (unsigned long long)k->seq, (unsigned long long)(want - 1));
		else
			snote(st, 1, k->off, "packets %llu..%llu missing: packet_seq_num %llu follows %llu",
			      (unsigned long long)want, (unsigned long long)(k->seq - 1), (unsigned long long)k->seq,
			      (unsigned long long)(want - 1));
	}
}

/* A stream file's packets must come in packet_seq_num order, each once
 * (the recorder appends them so); if not, they are read in that order and
 * a packet seen twice is read once. */
static void check_order(struct stream *st)
{
	size_t i, n = 0;
	for (i = 1; i < st->npk && st->pk[i].seq > st->pk[i - 1].seq; i++)
		;
	if (i >= st->npk)
		return;
	snote(st, 1, st->pk[i].off, "packet_seq_num %llu after %llu: packets duplicated or out of order; read "
	      "in packet_seq_num order, each once", (unsigned long long)st->pk[i].seq,
	      (unsigned long long)st->pk[i - 1].seq);
	st->reordered = 1;
	qsort(st->pk, st->npk, sizeof(*st->pk), cmp_pk_seq);
	for (i = 0; i < st->npk; i++) {
		const struct packet *k = &st->pk[i], *prev = n ? &st->pk[n - 1] : NULL;
		if (prev && k->seq == prev->seq) {
			uint64_t len = prev->cend - prev->off;
			int same = k->psz == prev->psz && k->cend - k->off == len &&
				   !memcmp(st->map + k->off, st->map + prev->off, (size_t)len);
			if (same)
				snote(st, 1, k->off, "a copy of the packet at byte %llu (packet_seq_num %llu); ignored",
				      (unsigned long long)prev->off, (unsigned long long)k->seq);
			else
				snote(st, 1, k->off, "a second packet with packet_seq_num %llu, not the same as the "
				      "one at byte %llu; ignored", (unsigned long long)k->seq,
				      (unsigned long long)prev->off);
			st->ndup++;
			continue;
		}
		st->pk[n++] = *k;
	}
	st->npk = n;
}

/* Sparse files: where the file system keeps no data (a hole) the bytes are
 * zeros, known without reading (or mapping) them.  <unistd.h> names these
 * whence values only with _GNU_SOURCE; where lseek does not know them, it
 * fails and every byte counts as data. */
#if defined(__linux__) && !defined(SEEK_DATA)
#define SEEK_DATA 3
#define SEEK_HOLE 4
#endif

/* The first offset in [off, end) that may hold data; end if none does. */
static uint64_t next_data(const struct stream *st, uint64_t off, uint64_t end)
{
#ifdef SEEK_DATA
	if (st->fd >= 0 && off < end) {
		off_t d = lseek(st->fd, (off_t)off, SEEK_DATA);
		if (d < 0)
			return errno == ENXIO ? end : off;
		return (uint64_t)d < end ? (uint64_t)d : end;
	}
#endif
	(void)st;
	return off < end ? off : end;
}

/* The first offset in [off, end) in a hole; end if none is. */
static uint64_t next_hole(const struct stream *st, uint64_t off, uint64_t end)
{
#ifdef SEEK_HOLE
	if (st->fd >= 0 && off < end) {
		off_t h = lseek(st->fd, (off_t)off, SEEK_HOLE);
		if (h < 0 || (uint64_t)h < off)
			return end;
		return (uint64_t)h < end ? (uint64_t)h : end;
	}
#endif
	(void)st;
	(void)off;
	return end;
}

/* Are the bytes [off, off + n) of the stream all zeros?  Holes are not read. */
static int zero_range(const struct stream *st, uint64_t off, uint64_t n)
{
	uint64_t end = off + n;
	while (off < end) {
		uint64_t d = next_data(st, off, end), h;
		if (d >= end)
			return 1;
		h = next_hole(st, d, end);
		if (h <= d)
			h = end;
		if (!all_zero(st->map + d, h - d))
			return 0;
		off = h;
	}
	return 1;
}

/* The largest window the recorder makes: a crashed writer leaves at most
 * one window of zeros at the end of a stream. */
#define MAX_WINDOW TRACE_WINDOW_MAX

/* Finds the packets of a stream file (checking every header against the
 * file); flight rings come out in packet_seq_num order. */
static void index_stream(struct stream *st)
{
	const struct trace *tr = st->tr;
	uint64_t size = st->size, off = 0, W = 0, maxps = 0;
	int sw = tr->swap;
	st->stop = size;
	while (off < size) {
		const u8 *h = st->map + off;
		uint64_t left = size - off;
		struct packet k;
		int slot = tr->flight && W && off % W == 0 && left >= W;
		uint64_t cs, ps;
		const char *why = NULL;
		if (slot && all_zero(h, PACKET_HDR)) {
			/* ring slots never written (a hole): skipped without reading them */
			uint64_t d = next_data(st, off, size);
			if (d >= off + W) {
				uint64_t nslot = (d - off) / W;
				st->nunused += (unsigned)nslot;
				off += nslot * W;
				continue;
			}
		}
		if (left < PACKET_HDR) {
			if (all_zero(h, left)) {
				st->stop_why = "zero-filled trailing bytes";
				if (!tr->flight)
					snote(st, 0, off, "%llu zero bytes at the end (a crashed writer's leftover; "
					      "--repair removes them)", (unsigned long long)left);
			} else {
				st->stop_why = "truncated packet header";
				st->stop_err = 1;
				snote(st, 1, off, "truncated packet header (%llu of %u bytes)",
				      (unsigned long long)left, PACKET_HDR);
			}
			st->stop = off;
			break;
		}
		memset(&k, 0, sizeof(k));
		k.off = off;
		cs = ld(h + TRACE_PACKET_OFF_CONTENT_SIZE, 8, sw);
		ps = ld(h + TRACE_PACKET_OFF_PACKET_SIZE, 8, sw);
		if (ld(h, 4, sw) != TRACE_PACKET_MAGIC)
			why = "bad packet magic";
		else if (tr->has_uuid && memcmp(h + TRACE_PACKET_OFF_UUID, tr->uuid, TRACE_PACKET_UUID_SIZE))
			why = "packet uuid differs from the metadata's";
		else if (cs % 8 || ps % 8 || cs < PACKET_HDR * 8 || cs > ps)
			why = "bad content_size/packet_size";
		if (why) {
			/* A packet being opened: nothing after its header yet.  At the
			 * end of a stream, at most one window of zeros (the largest
			 * packet before, else the recorder's largest window); more is
			 * not a crashed writer's leftover, whatever it holds (not read:
			 * a sparse file's gigabytes of holes are not mapped in). */
			uint64_t lim = slot ? W : maxps ? maxps : MAX_WINDOW;
			int big = !slot && left > lim;
			int opening = !big && (ld(h, 4, sw) != TRACE_PACKET_MAGIC || cs <= PACKET_HDR * 8) &&
				      zero_range(st, off + PACKET_HDR, (slot ? W : left) - PACKET_HDR);
			if (slot) {
				if (opening) {
					st->nunused++;
				} else {
					st->nbadslot++;
					snote(st, 1, off, "%s (magic 0x%08llx) in a ring slot; slot skipped", why,
					      (unsigned long long)ld(h, 4, sw));
				}
				off += W;
				continue;
			}
			st->stop = off;
			if (opening) {
				st->stop_why = "incomplete trailing packet (header not completely written)";
				if (!tr->flight)
					snote(st, 0, off, "incomplete trailing packet (a crashed writer's "
					      "leftover; --repair removes it)");
			} else if (big && all_zero(h, PACKET_HDR)) {
				st->stop_why = "zeros at the end, more than one window";
				st->stop_err = 1;
				snote(st, 1, off, "a packet header of zeros, and %llu bytes to the end of the file: more "
				      "than one window (%llu bytes), not a crashed writer's leftover",
				      (unsigned long long)left, (unsigned long long)lim);
			} else {
				st->stop_why = why;
				st->stop_err = 1;
				snote(st, 1, off, "%s (magic 0x%08llx, content_size %llu, packet_size %llu bits)",
				      why, (unsigned long long)ld(h, 4, sw), (unsigned long long)cs,
				      (unsigned long long)ps);
			}
			break;
		}
		k.psz = ps / 8;
		k.cend = off + cs / 8;
		k.tsb = ld(h + TRACE_PACKET_OFF_TIMESTAMP_BEGIN, 8, sw);
		k.tse = ld(h + TRACE_PACKET_OFF_TIMESTAMP_END, 8, sw);
		k.seq = ld(h + TRACE_PACKET_OFF_SEQ_NUM, 8, sw);
		k.disc = ld(h + TRACE_PACKET_OFF_EVENTS_DISCARDED, 8, sw);
		k.tid = (uint32_t)ld(h + TRACE_PACKET_OFF_TID, 4, sw);
		k.pid = (uint32_t)ld(h + TRACE_PACKET_OFF_PID, 4, sw);
		memcpy(k.comm, h + TRACE_PACKET_OFF_COMM, TRACE_PACKET_COMM_SIZE);
		k.comm[16] = '\0';
		if (tr->flight && !W && off == 0)
			W = k.psz;
		if (k.psz > maxps)
			maxps = k.psz;
		{
			/* the recorder writes every byte of a packet's content: a hole
			 * there (never written) is not a trace's */
			uint64_t ce = k.cend < size ? k.cend : size, hole = next_hole(st, off + PACKET_HDR, ce);
			if (hole < ce) {
				snote(st, 1, hole, "a hole (bytes never written) in the content of the packet at byte "
				      "%llu; the packet is read up to it", (unsigned long long)off);
				k.cend = hole;
			}
		}
		if (k.psz > left) {
			st->ntrunc++;
			st->stop = off;
			st->stop_why = "file shorter than its packet_size";
			st->stop_err = 1;
			snote(st, 1, off, "truncated packet: packet_size %llu bytes, %llu in the file",
			      (unsigned long long)k.psz, (unsigned long long)left);
			if (k.cend > size)
				k.cend = size; /* what is there; the cut event is reported */
			add_packet(st, &k);
			break;
		}
		add_packet(st, &k);
		off += k.psz;
	}
	st->slot = W;
	if (tr->flight && st->npk) {
		size_t i, n = 0;
		const struct packet *prev = NULL;
		qsort(st->pk, st->npk, sizeof(*st->pk), cmp_pk_seq);
		for (i = 0; i < st->npk; i++) {
			struct packet k = st->pk[i];
			if (prev && k.seq == prev->seq) {
				snote(st, 1, k.off, "a second packet with packet_seq_num %llu; ignored",
				      (unsigned long long)k.seq);
				continue;
			}
			if (k.tse < k.tsb || (prev && k.tsb < prev->tse)) {
				/* the oldest slot, caught being reused */
				st->nover++;
				if (k.cend - k.off > PACKET_HDR)
					snote(st, 0, k.off, "packet %llu was being overwritten; ignored",
					      (unsigned long long)k.seq);
				continue;
			}
			st->pk[n++] = k;
			prev = &st->pk[n - 1];
		}
		st->npk = n;
	}
	if (!tr->flight && st->npk) {
		size_t i;
		check_order(st);
		for (i = 0; i < st->npk; i++) {
			const struct packet *k = &st->pk[i];
			if (k->tse < k->tsb)
				snote(st, 1, k->off, "timestamp_end before timestamp_begin (%llu < %llu)",
				      (unsigned long long)k->tse, (unsigned long long)k->tsb);
			else if (i && k->tsb < st->pk[i - 1].tse)
				snote(st, 1, k->off, "timestamp_begin %llu before the previous packet's timestamp_end %llu",
				      (unsigned long long)k->tsb, (unsigned long long)st->pk[i - 1].tse);
		}
	}
	check_missing(st);
}

static void free_trace(struct trace *tr)
{
	size_t i, k;
	if (!tr)
		return;
	for (i = 0; i < tr->nst; i++) {
		if (tr->st[i].map && tr->st[i].size)
			munmap(tr->st[i].map, (size_t)tr->st[i].size);
		free(tr->st[i].path);
		free(tr->st[i].pk);
	}
	free(tr->st);
	for (i = 0; i < tr->nev; i++) {
		struct event *ev = &tr->ev[i];
		for (k = 0; k < ev->nf; k++) {
			unsigned y;
			for (y = 0; y < ev->f[k].t.nsym; y++)
				free(ev->f[k].t.sym[y].name);
			free(ev->f[k].t.sym);
			free(ev->f[k].fdelim);
			free(ev->f[k].name);
			free(ev->f[k].jkey);
		}
		free(ev->f);
		free(ev->name);
		free(ev->sys);
		free(ev->ename);
		free(ev->fixoffs);
		free(ev->printk);
		free(ev->pf_key);
		free(ev->pf_ctr);
		free(ev->fmtbuf);
		free(ev->seg);
		free(ev->jpre);
	}
	free(tr->ev);
	for (i = 0; i < tr->nal; i++)
		free(tr->al[i].name);
	free(tr->al);
	free(tr->idtab);
	free(tr->procname);
	free(tr->hostname);
	free(tr->mode);
	free(tr->clk_name);
	free(tr->snapinfo);
	free(tr->dir);
	free(tr);
}

/* The metadata's fixed part as the recorder writes it (tp__sink_meta_header
 * in include/trace/sink.h), comments left out: ANY_STR and ANY_NUM stand for
 * any string and number, BO for le or be, CLK for the clock's name. */
static const char meta_fixed[] =
	"typealias integer { size = 8; align = 8; signed = false; } := uint8_t;"
	"typealias integer { size = 32; align = 32; signed = false; } := uint32_t;"
	"typealias integer { size = 64; align = 64; signed = false; } := uint64_t;"
	"trace { major = 1; minor = 8; uuid = ANY_STR; byte_order = BO;"
	" packet.header := struct { uint32_t magic; uint8_t uuid[16]; }; };"
	"env { tracer_name = \"tracepoint.h\"; hostname = ANY_STR; procname = ANY_STR; vpid = ANY_NUM;"
	" mode = ANY_STR; };"
	"clock { name = ANY_STR; freq = ANY_NUM; offset_s = ANY_NUM; offset = ANY_NUM; absolute = FALSE; };"
	"typealias integer { size = 64; align = 64; signed = false; map = clock.CLK.value; } := uint64_clock_t;"
	"stream { packet.context := struct { uint64_clock_t timestamp_begin; uint64_clock_t timestamp_end;"
	" uint64_t content_size; uint64_t packet_size; uint64_t packet_seq_num; uint64_t events_discarded;"
	" uint32_t tid; uint32_t pid; integer { size = 8; align = 8; signed = false; encoding = UTF8; } comm[16]; };"
	" event.header := struct { enum : integer { size = 6; align = 8; signed = false; }"
	" { compact = 0 ... 62, extended = 63 } id;"
	" variant <id> { struct { integer { size = 26; align = 1; signed = false; map = clock.CLK.value; }"
	" timestamp; } compact; struct { integer { size = 32; align = 8; signed = false; } id;"
	" integer { size = 64; align = 8; signed = false; map = clock.CLK.value; } timestamp; } extended; }"
	" v; } align(8); };";

/* --repair's check of a parsed metadata: is it what the recorder writes
 * (its fixed part, then event blocks of name, id and fields of types this
 * reader knows), so that other readers take it too?  -1 (P->err) if not. */
static int strict_metadata(struct parser *P)
{
	struct parser T;
	size_t i = 0, j, k;
	int r = 0;
	memset(&T, 0, sizeof(T));
	if (lex(&T, meta_fixed, sizeof(meta_fixed) - 1))
		abort(); /* the template is this file's */
	for (j = 0; j < T.n && !r; j++, i++) {
		const struct tok *t = &T.t[j], *a;
		int same;
		while (i < P->n && P->t[i].type == TK_COMMENT)
			i++;
		if (i >= P->n) {
			r = perr(P, P->n ? P->t[P->n - 1].line : 1, "it ends in its fixed part");
			break;
		}
		a = &P->t[i];
		if (tok_is(t, TK_ID, "ANY_STR"))
			same = a->type == TK_STR;
		else if (tok_is(t, TK_ID, "ANY_NUM"))
			same = a->type == TK_NUM;
		else if (tok_is(t, TK_ID, "BO"))
			same = tok_is(a, TK_ID, "le") || tok_is(a, TK_ID, "be");
		else if (tok_is(t, TK_ID, "CLK"))
			same = a->type == TK_ID && P->tr->clk_name && strlen(P->tr->clk_name) == a->n &&
			       !memcmp(a->s, P->tr->clk_name, a->n);
		else
			same = a->type == t->type && a->n == t->n && !memcmp(a->s, t->s, a->n);
		if (!same)
			r = perr(P, a->line, "'%.*s' where the recorder writes '%.*s'", (int)(a->n > 40 ? 40 : a->n),
				 a->s, (int)t->n, t->s);
	}
	free(T.t);
	/* then event blocks only (parse_metadata checked their braces and ';') */
	while (!r && i < P->n) {
		size_t e, se;
		if (P->t[i].type == TK_COMMENT) {
			i++;
			continue;
		}
		if (!tok_is(&P->t[i], TK_ID, "event") || i + 1 >= P->n || !(e = match_close(P, i + 1, P->n))) {
			r = perr(P, P->t[i].line, "'%.*s' where the recorder writes only event blocks",
				 (int)(P->t[i].n > 40 ? 40 : P->t[i].n), P->t[i].s);
			break;
		}
		for (k = i + 2; k < e && !r; k = se + 1) {
			const struct tok *a;
			while (k < e && P->t[k].type == TK_COMMENT)
				k++;
			if (k >= e || !(se = stmt_end(P, k, e)))
				break;
			a = &P->t[k];
			if (!(k + 1 < se && ((tok_is(a, TK_ID, "name") && tok_is(&P->t[k + 1], TK_PUNCT, "=")) ||
					     (tok_is(a, TK_ID, "id") && tok_is(&P->t[k + 1], TK_PUNCT, "=")) ||
					     (tok_is(a, TK_ID, "fields") && tok_is(&P->t[k + 1], TK_PUNCT, ":=")))))
				r = perr(P, a->line, "'%.*s' in an event block", (int)(a->n > 40 ? 40 : a->n), a->s);
		}
		i = e + 2;
	}
	for (k = 0; !r && k < P->tr->nev; k++) {
		const struct event *ev = &P->tr->ev[k];
		for (j = 0; j < ev->nf; j++)
			if (ev->f[j].t.bad) {
				r = perr(P, 1, "event %s: field %s has %s", ev->name, ev->f[j].name, ev->f[j].t.bad);
				break;
			}
	}
	return r;
}


/* Loads the trace in the directory dfd (named dir in messages): metadata,
 * and the stream files mapped and indexed.  NULL (reported) if the
 * metadata cannot be used. */
static struct trace *load_trace(struct dump *dx, int dfd, const char *dir)
{
	struct trace *tr = (struct trace *)xcalloc(1, sizeof(*tr));
	char *mpath = path_join(dir, "metadata"), *text = NULL;
	size_t len, capst = 0, nd, i;
	struct parser P;
	struct dent *ds;
	struct stat sb;
	const char *why;
	int fd;
	tr->dx = dx;
	tr->dir = xstrdup(dir);
	tr->freq = 1000000000u;
	tr->be = host_be();
	fd = open_file_at(dfd, "metadata", &sb, &why);
	if (fd < 0 || read_fd(fd, &sb, &text, &len) != 0) {
		if (why)
			note(dx, 1, mpath, -1, "cannot read: %s, not a regular file", why);
		else if (errno == EFBIG)
			note(dx, 1, mpath, -1, "cannot read: larger than %zu MiB", MAX_METADATA >> 20);
		else
			note(dx, 1, mpath, -1, "cannot read: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		free(mpath);
		free_trace(tr);
		return NULL;
	}
	close(fd);
	memset(&P, 0, sizeof(P));
	P.path = mpath;
	P.tr = tr;
	if (len >= 4 && ((const u8 *)text)[0] == 0x57 && ((const u8 *)text)[1] == 0x1d &&
	    ((const u8 *)text)[2] == 0xd1 && ((const u8 *)text)[3] == 0x75) {
		snprintf(P.err, sizeof(P.err), "packetized metadata is not supported");
	} else if (memchr(text, '\0', len)) {
		snprintf(P.err, sizeof(P.err), "a NUL byte at offset %zu: not a text file",
			 (size_t)((char *)memchr(text, '\0', len) - text));
	} else if (len < 10 || memcmp(text, "/* CTF 1.", 9) != 0) {
		snprintf(P.err, sizeof(P.err), "does not start with \"/* CTF 1.8\"");
	} else {
		P.strict = dx->strict;
		if (parse_metadata(&P, text, len) == 0 && P.strict)
			strict_metadata(&P);
	}
	free(P.t);
	if (P.err[0]) {
		note(dx, 1, mpath, -1, "%s: %s", P.strict ? "not as the recorder writes it (other readers may refuse it)"
						       : "cannot parse the metadata", P.err);
		free(text);
		free(mpath);
		free_trace(tr);
		return NULL;
	}
	free(text);
	free(mpath);
	tr->swap = tr->be != host_be();
	tr->flight = tr->mode && !strcmp(tr->mode, "flight");
	prepare_events(dx, tr);
	/* the stream files: every regular file but metadata and dot files
	 * (subdirectories are nested traces; anything else is not read) */
	if (list_dir(dfd, &ds, &nd) != 0) {
		note(dx, 1, dir, -1, "cannot list: %s", strerror(errno));
		free_trace(tr);
		return NULL;
	}
	for (i = 0; i < nd; i++) {
		char *p;
		struct stream *st;
		if (ds[i].kind == E_DIR || !strcmp(ds[i].name, "metadata"))
			continue;
		p = path_join(dir, ds[i].name);
		if (ds[i].kind == E_OTHER) {
			/* a stream's name: a part of the trace is missing */
			int err = !strncmp(ds[i].name, "stream-", 7);
			skip_note(dx, err, p, ds[i].mode, "a trace holds only regular files and directories");
			free(p);
			continue;
		}
		GROW(tr->st, tr->nst, capst);
		st = &tr->st[tr->nst++];
		memset(st, 0, sizeof(*st));
		st->tr = tr;
		st->path = p;
		st->name = strrchr(p, '/') + 1;
		st->fd = -1;
		fd = open_file_at(dfd, ds[i].name, &sb, &why);
		if (fd < 0) {
			if (why)
				note(dx, 1, p, -1, "cannot open: %s", why);
			else
				note(dx, 1, p, -1, "cannot open: %s", strerror(errno));
			continue;
		}
		st->dev = sb.st_dev;
		st->ino = sb.st_ino;
		st->mode = sb.st_mode;
		st->size = (uint64_t)sb.st_size;
		if (st->size) {
			void *m = (uint64_t)(size_t)st->size == st->size
					  ? mmap(NULL, (size_t)st->size, PROT_READ, MAP_PRIVATE, fd, 0)
					  : MAP_FAILED;
			if (m == MAP_FAILED) {
				note(dx, 1, p, -1, "cannot map: %s", strerror(errno));
				st->size = 0;
			} else {
				st->map = (u8 *)m;
			}
		}
		st->fd = fd;
		index_stream(st);
		st->fd = -1;
		close(fd);
	}
	free_dents(ds, nd);
	tr->ok = 1;
	return tr;
}

/* ------------------------------------------------------------------ */
/* Cursors: one per stream, positioned on its next item               */
/* ------------------------------------------------------------------ */

enum { K_EVENT = 1, K_DROP };

struct cursor {
	struct stream *st;
	const struct trace *tr;
	size_t pk;
	const u8 *pkt, *p, *end;
	uint64_t last_ts, prev_disc;
	uint64_t pk_end;         /* the packet's timestamp_end */
	/* the current item */
	int kind;
	uint64_t ts, ns, dropn;
	const struct event *ev;
	const u8 *pl;
	const uint32_t *off;
	uint32_t *offbuf, *slen;
	uint32_t tid, pid, rawpid;
	int have_tid;
	char tidstr[32];
	size_t tidlen;
	size_t idx;
	/* clock: ts in [c_lo, c_lo + c_span) is c_ns + (ts - c_lo) * 1e9 / freq */
	uint64_t c_lo, c_span, c_ns, freq;
	char jtail[64];
	size_t jtaillen;
};

static uint64_t ns_slow(struct cursor *c, uint64_t ts)
{
	const struct trace *tr = c->tr;
	u128 cyc = (u128)tr->off_c + ts, q = cyc / tr->freq, r = cyc % tr->freq;
	i128 base = (i128)tr->off_s * 1000000000 + (i128)q * 1000000000;
	i128 ns = base + (i128)(r * 1000000000u / tr->freq);
	c->c_span = 0;
	if (tr->freq <= UINT64_MAX / 1000000000u && q * tr->freq >= tr->off_c && base >= 0 &&
	    base + 1000000000 <= (i128)UINT64_MAX) {
		c->c_lo = (uint64_t)(q * tr->freq - tr->off_c);
		c->c_span = tr->freq;
		c->c_ns = (uint64_t)base;
	}
	if (ns < 0)
		return 0;
	if (ns > (i128)UINT64_MAX)
		return UINT64_MAX;
	return (uint64_t)ns;
}

static inline uint64_t cur_ns(struct cursor *c, uint64_t ts)
{
	uint64_t d = ts - c->c_lo;
	if (d < c->c_span)
		return c->c_ns + d * 1000000000u / c->freq;
	return ns_slow(c, ts);
}

static uint64_t trace_ns(const struct trace *tr, uint64_t ts)
{
	struct cursor c;
	memset(&c, 0, sizeof(c));
	c.tr = tr;
	return ns_slow(&c, ts);
}

static void cur_init(struct cursor *c, struct stream *st, size_t idx)
{
	memset(c, 0, sizeof(*c));
	c->st = st;
	c->tr = st->tr;
	c->idx = idx;
	c->freq = st->tr->freq;
	c->offbuf = (uint32_t *)xcalloc(st->tr->maxnf + 1, sizeof(uint32_t));
	c->slen = (uint32_t *)xcalloc(st->tr->maxnf + 1, sizeof(uint32_t));
}

static void cur_free(struct cursor *c)
{
	free(c->offbuf);
	free(c->slen);
}

static void cur_set_tid(struct cursor *c, uint32_t tid, uint32_t pid)
{
	const struct trace *tr = c->tr;
	uint32_t p = tr->has_vpid ? (uint32_t)tr->vpid : pid;
	char *o;
	c->have_tid = 1;
	c->tid = tid;
	c->rawpid = pid;
	c->pid = p;
	o = put_u64(c->tidstr, tid);
	c->tidlen = (size_t)(o - c->tidstr);
	o = c->jtail;
	memcpy(o, ",\"pid\":", 7);
	o = put_u64(o + 7, p);
	memcpy(o, ",\"tid\":", 7);
	o = put_u64(o + 7, tid);
	memcpy(o, ",\"args\":{", 9);
	o += 9;
	c->jtaillen = (size_t)(o - c->jtail);
}

/* Decodes the record at c->p; 0 (reported) if it is damaged. */
#define ID_MASK ((1u << TRACE_HEADER_ID_BITS) - 1)
#define TS_MASK (((uint64_t)1 << TRACE_HEADER_TS_BITS) - 1)

static int decode_record(struct cursor *c)
{
	const struct trace *tr = c->tr;
	const u8 *p = c->p, *end = c->end, *pl, *pos;
	size_t left = (size_t)(end - p);
	uint64_t id, ts;
	const struct event *ev;
	unsigned hl;
	int ext;
	/* the id's bits: the low ones of the first word, its first byte's low
	 * bits (little-endian) or high bits (big-endian) */
	ext = (tr->be ? p[0] >> (8 - TRACE_HEADER_ID_BITS) : p[0] & ID_MASK) == TRACE_HEADER_EXTENDED;
	if (!ext) {
		uint64_t w, low;
		if (left < TRACE_HEADER_COMPACT_SIZE)
			goto cut;
		w = ld(p, 4, tr->swap);
		if (tr->be) {
			id = w >> TRACE_HEADER_TS_BITS;
			low = w & TS_MASK;
		} else {
			id = w & ID_MASK;
			low = w >> TRACE_HEADER_ID_BITS;
		}
		ts = c->last_ts + ((low - c->last_ts) & TS_MASK);
		hl = TRACE_HEADER_COMPACT_SIZE;
	} else {
		if (left < TRACE_HEADER_EXTENDED_SIZE)
			goto cut;
		id = ld(p + TRACE_HEADER_EXTENDED_OFF_ID, 4, tr->swap);
		ts = ld(p + TRACE_HEADER_EXTENDED_OFF_TS, 8, tr->swap);
		hl = TRACE_HEADER_EXTENDED_SIZE;
		if (ts < c->last_ts) {
			snote(c->st, 1, (uint64_t)(p - c->st->map),
			      "event timestamp goes back (%llu < %llu); rest of the packet skipped",
			      (unsigned long long)ts, (unsigned long long)c->last_ts);
			return 0;
		}
	}
	ev = find_event(tr, id);
	if (!ev) {
		snote(c->st, 1, (uint64_t)(p - c->st->map),
		      "event id %llu is not in the metadata; rest of the packet skipped", (unsigned long long)id);
		return 0;
	}
	if (ev->bad) {
		snote(c->st, 1, (uint64_t)(p - c->st->map), "event %s has %s, which this tool cannot read; "
		      "rest of the packet skipped", ev->name, ev->bad);
		return 0;
	}
	if (ts > c->pk_end) {
		/* every event of a packet is before its timestamp_end (stored first at
		 * each commit); readers that merge streams in time go back here */
		snote(c->st, 1, (uint64_t)(p - c->st->map),
		      "event timestamp after the packet's timestamp_end (%llu > %llu); rest of the packet skipped",
		      (unsigned long long)ts, (unsigned long long)c->pk_end);
		return 0;
	}
	pl = p + hl;
	if (ev->packed && !ev->nstr) {
		if ((size_t)(end - pl) < ev->fixsize)
			goto cut;
		c->off = ev->fixoffs;
		c->p = pl + ev->fixsize;
	} else {
		unsigned i;
		pos = pl;
		for (i = 0; i < ev->nf; i++) {
			const struct field *f = &ev->f[i];
			if (f->t.kind == FT_STR) {
				const u8 *z = (const u8 *)memchr(pos, 0, (size_t)(end - pos));
				if (!z)
					goto cut;
				c->offbuf[i] = (uint32_t)(pos - pl);
				c->slen[i] = (uint32_t)(z - pos);
				pos = z + 1;
			} else if (f->seq) {
				const struct field *lf = &ev->f[f->seq - 1];
				uint64_t n = ld(pl + c->offbuf[f->seq - 1], lf->t.size, lf->t.swap);
				if (f->t.align > 1)
					goto cut; /* the recorder writes packed sequences only */
				if (n > (uint64_t)(end - pos) / f->t.size)
					goto cut;
				c->offbuf[i] = (uint32_t)(pos - pl);
				c->slen[i] = (uint32_t)n;
				pos += n * f->t.size;
			} else {
				size_t need = (size_t)f->t.size * (f->count ? f->count : 1);
				if (f->t.align > 1) {
					size_t rel = (size_t)(pos - c->pkt), a = f->t.align;
					rel = (rel + a - 1) / a * a;
					if (rel > (size_t)(end - c->pkt))
						goto cut;
					pos = c->pkt + rel;
				}
				if ((size_t)(end - pos) < need)
					goto cut;
				c->offbuf[i] = (uint32_t)(pos - pl);
				pos += need;
			}
		}
		c->off = c->offbuf;
		c->p = pos;
	}
	c->kind = K_EVENT;
	c->ev = ev;
	c->pl = pl;
	c->ts = ts;
	c->last_ts = ts;
	c->ns = cur_ns(c, ts);
	return 1;
cut:
	snote(c->st, 1, (uint64_t)(p - c->st->map), "event runs past the packet's content (%llu bytes left)",
	      (unsigned long long)left);
	return 0;
}

/* Moves c to its stream's next item; 0 at the end. */
static int cur_next(struct cursor *c)
{
	struct stream *st = c->st;
	for (;;) {
		const struct packet *k;
		uint64_t base;
		if (c->p && c->p < c->end) {
			if (decode_record(c))
				return 1;
			c->p = c->end; /* damaged: skip the rest of the packet */
			continue;
		}
		if (c->pk >= st->npk)
			return 0;
		k = &st->pk[c->pk];
		c->pkt = st->map + k->off;
		c->p = c->pkt + PACKET_HDR;
		c->end = st->map + k->cend;
		c->last_ts = k->tsb;
		c->pk_end = k->tse;
		if (!c->have_tid || k->tid != c->tid || k->pid != c->rawpid)
			cur_set_tid(c, k->tid, k->pid);
		base = c->pk == 0 ? (k->seq == 0 ? 0 : k->disc) : c->prev_disc;
		c->pk++;
		c->prev_disc = k->disc > base ? k->disc : base;
		if (k->disc > base) {
			c->kind = K_DROP;
			c->dropn = k->disc - base;
			c->ts = k->tsb;
			c->ns = cur_ns(c, k->tsb);
			return 1;
		}
	}
}

/* ------------------------------------------------------------------ */
/* Field values                                                       */
/* ------------------------------------------------------------------ */

static inline uint64_t get_int(const struct cursor *c, int fi, unsigned idx)
{
	const struct field *f = &c->ev->f[fi];
	const u8 *p = c->pl + c->off[fi] + (size_t)idx * f->t.size;
	uint64_t v = ld(p, f->t.size, f->t.swap);
	return f->t.sgn ? sext(v, 8u * f->t.size) : v;
}

static double get_float(const struct cursor *c, int fi, unsigned idx)
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
static const u8 *get_text(const struct cursor *c, int fi, size_t *n)
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
		if ((int64_t)v < 0) {
			neg = 1;
			v = (uint64_t)0 - v;
		}
		/* fall through to decimal digits */
		q = put_u64(tmp, v);
		len = (size_t)(q - tmp);
		memmove(e - len, tmp, len);
		q = e - len;
		break;
	case 'u':
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
static const char *sym_name(const struct field *f, uint64_t v)
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
static const char *flags_text(struct dump *dx, const struct field *f, uint64_t v, size_t *n)
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
		case SEG_SLOW: {
			uint64_t v = get_int(c, s->field, s->idx);
			size_t room = 128 + (size_t)(s->width > 0 ? s->width : 0) + (size_t)(s->prec > 0 ? s->prec : 0);
			int n;
			o = ob_need(dx, room);
			if (s->conv == 'p') {
				n = snprintf(o, room, s->spec, (void *)(uintptr_t)v);
			} else {
				if (s->bits < 64)
					v = s->sgn ? sext(v, s->bits) : v & (((uint64_t)1 << s->bits) - 1);
				if (s->sgn)
					n = snprintf(o, room, s->spec, (long long)(int64_t)v);
				else
					n = snprintf(o, room, s->spec, (unsigned long long)v);
			}
			if (n > 0)
				o += (size_t)n < room ? (size_t)n : room - 1;
			break;
		}
		case SEG_SYM:
		case SEG_FLAGS: {
			const struct field *f = &ev->f[s->field];
			uint64_t v = get_int(c, s->field, 0);
			size_t n = 0;
			char hx[24];
			const char *t = s->kind == SEG_FLAGS ? flags_text(dx, f, v, &n) : sym_name(f, v);
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
			uint64_t n = (uint64_t)(f->seq ? c->slen[s->field] : f->count) * f->t.size, k;
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
		case SEG_FLT: {
			double d = get_float(c, s->field, s->idx);
			size_t room = 400 + (size_t)(s->width > 0 ? s->width : 0) + (size_t)(s->prec > 0 ? s->prec : 0);
			int n;
			o = ob_need(dx, room);
			n = snprintf(o, room, s->spec, d);
			if (n > 0)
				o += (size_t)n < room ? (size_t)n : room - 1;
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
static size_t field_room(const struct cursor *c, unsigned i)
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

static char *put_scalar(struct dump *dx, char *o, const struct cursor *c, unsigned i, unsigned idx, int json)
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
			return json ? put_json_str(o, (const u8 *)name, n) : put_text(o, (const u8 *)name, n);
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
static char *put_value(struct dump *dx, char *o, const struct cursor *c, unsigned i, int json)
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

static void emit_text(struct dump *dx, struct cursor *c)
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

/* ------------------------------------------------------------------ */
/* JSON output                                                        */
/* ------------------------------------------------------------------ */


static char *put_json_ts(struct dump *dx, char *o, uint64_t ns)
{
	uint64_t rel;
	unsigned frac;
	if (ns < dx->origin) {
		*o++ = '-';
		rel = dx->origin - ns;
	} else {
		rel = ns - dx->origin;
	}
	o = put_u64(o, rel / 1000);
	frac = (unsigned)(rel % 1000);
	*o++ = '.';
	*o++ = (char)('0' + frac / 100);
	memcpy(o, d2 + 2 * (frac % 100), 2);
	return o + 2;
}

static void json_sep(struct dump *dx)
{
	char *o = ob_need(dx, 2);
	if (!dx->jfirst)
		*o++ = ',';
	*o++ = '\n';
	dx->jfirst = 0;
	ob_done(dx, o);
}

/* Adds x; 1 if it was there already. */
static int u64set_add(struct u64set *s, uint64_t x)
{
	size_t i;
	if (!x) {
		int had = s->has0;
		s->has0 = 1;
		return had;
	}
	if (2 * (s->n + 1) > s->cap) {
		struct u64set t = { NULL, 0, s->cap ? 2 * s->cap : 1024, s->has0 };
		t.v = (uint64_t *)xcalloc(t.cap, sizeof(*t.v));
		for (i = 0; i < s->cap; i++)
			if (s->v[i])
				u64set_add(&t, s->v[i]);
		free(s->v);
		*s = t;
	}
	for (i = (size_t)(x * 0x9E3779B97F4A7C15u >> 20) & (s->cap - 1); s->v[i]; i = (i + 1) & (s->cap - 1))
		if (s->v[i] == x)
			return 1;
	s->v[i] = x;
	s->n++;
	return 0;
}


/* The flow id of an event of a flow kind: its first field, an integer. */
static int flow_id(const struct cursor *c, uint64_t *id)
{
	const struct field *f = c->ev->nf ? &c->ev->f[0] : NULL;
	if (!f || f->t.kind != FT_INT || f->count || f->t.bad)
		return 0;
	*id = get_int(c, 0, 0);
	return 1;
}

/* Closes the args of a flow event and binds it to its flow (Chrome JSON
 * flow v2, as Perfetto reads it: the first event of an id starts the flow,
 * each later one continues it). */
static void json_flow(struct dump *dx, const struct cursor *c)
{
	char *o = ob_need(dx, 96);
	uint64_t id;
	*o++ = '}';
	if (flow_id(c, &id)) {
		int seen = u64set_add(&dx->flows, id);
		memcpy(o, ",\"bind_id\":\"0x", 14);
		o = put_hex(o + 14, id, 0);
		memcpy(o, "\",\"flow_out\":true", 17);
		o += 17;
		if (seen) {
			memcpy(o, ",\"flow_in\":true", 15);
			o += 15;
		}
	}
	*o++ = '}';
	ob_done(dx, o);
}

static void emit_json(struct dump *dx, struct cursor *c)
{
	const struct event *ev = c->ev;
	char *o;
	unsigned i;
	int jfirst = 1;
	json_sep(dx);
	if (c->kind == K_DROP) {
		o = ob_need(dx, 200);
		o += sprintf(o, "{\"name\":\"events dropped\",\"cat\":\"tracepoints\",\"ph\":\"i\",\"s\":\"t\",\"ts\":");
		o = put_json_ts(dx, o, c->ns);
		memcpy(o, c->jtail, c->jtaillen);
		o += c->jtaillen;
		memcpy(o, "\"dropped\":", 10);
		o = put_u64(o + 10, c->dropn);
		memcpy(o, "}}", 2);
		ob_done(dx, o + 2);
		return;
	}
	o = ob_need(dx, ev->jprelen + 160);
	o = cpy_padded(o, ev->jpre, ev->jprelen);
	o = put_json_ts(dx, o, c->ns);
	memcpy(o, c->jtail, sizeof(c->jtail));
	ob_done(dx, o + c->jtaillen);
	for (i = 0; i < ev->nf; i++) {
		const struct field *f = &ev->f[i];
		if (f->hidden)
			continue;
		o = ob_need(dx, f->jkeylen + 40 + field_room(c, i));
		if (!jfirst)
			*o++ = ',';
		jfirst = 0;
		o = cpy_padded(o, f->jkey, f->jkeylen);
		ob_done(dx, put_value(dx, o, c, i, 1));
	}
	if (ev->kind & EK_FLOW) {
		json_flow(dx, c);
		return;
	}
	o = ob_need(dx, 2);
	memcpy(o, "}}", 2);
	ob_done(dx, o + 2);
}

static void json_str_out(struct dump *dx, const char *s)
{
	size_t n = strlen(s);
	char *o = ob_need(dx, 6 * n + 2);
	ob_done(dx, put_json_str(o, (const u8 *)s, n));
}

static uint32_t trace_pid(const struct trace *tr)
{
	size_t i;
	if (tr->has_vpid)
		return (uint32_t)tr->vpid;
	for (i = 0; i < tr->nst; i++)
		if (tr->st[i].npk)
			return tr->st[i].pk[0].pid;
	return 0;
}

static void json_meta(struct dump *dx, const struct trace *tr)
{
	uint32_t pid = trace_pid(tr);
	size_t i, j;
	json_sep(dx);
	ob_printf(dx, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%u,\"tid\":%u,\"args\":{\"name\":", pid, pid);
	json_str_out(dx, tr->procname ? tr->procname : "");
	ob_puts(dx, "}}", 2);
	for (i = 0; i < tr->nst; i++) {
		const struct stream *st = &tr->st[i];
		const struct packet *k;
		if (!st->npk)
			continue;
		k = &st->pk[st->npk - 1];
		for (j = i + 1; j < tr->nst; j++) /* a later stream of the same tid names it */
			if (tr->st[j].npk && tr->st[j].pk[0].tid == k->tid)
				break;
		if (j < tr->nst)
			continue;
		json_sep(dx);
		ob_printf(dx, "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%u,\"tid\":%u,\"args\":{\"name\":", pid,
			  k->tid);
		json_str_out(dx, k->comm);
		ob_puts(dx, "}}", 2);
	}
}

/* ------------------------------------------------------------------ */
/* Perfetto protobuf output (--perfetto)                              */
/* ------------------------------------------------------------------ */

/*
 * A Perfetto trace (protos/perfetto/trace/trace.proto) as one packet
 * sequence: a Trace is its TracePackets, each a length-delimited field 1.
 * Every thread gets a thread track, every process a process track, every
 * numeric field of a counter event a counter track below its process;
 * event names, systems (categories) and field names (debug annotation
 * names) are interned.  The field numbers are Perfetto's; the part used
 * here is tests/perfetto/perfetto_min.proto.
 */
enum {
	PF_TRACE_PACKET = 1,
	/* TracePacket */
	PF_TIMESTAMP = 8,
	PF_SEQ_ID = 10,
	PF_TRACK_EVENT = 11,
	PF_INTERNED = 12,
	PF_SEQ_FLAGS = 13,
	PF_TRACK_DESCRIPTOR = 60,
	PF_FIRST_ON_SEQ = 87,
	PF_CLOCK_SNAPSHOT = 6,
	PF_DEFAULTS = 59,
	/* ClockSnapshot, ClockSnapshot.Clock, TracePacketDefaults */
	PF_CS_CLOCKS = 1,
	PF_CLK_ID = 1,
	PF_CLK_TS = 2,
	PF_CLK_INCREMENTAL = 3,
	PF_DEF_CLOCK = 58,
	PF_DEF_TRACK_EVENT = 11, /* TracePacketDefaults.track_event_defaults */
	PF_TS_CLOCK = 58, /* TracePacket.timestamp_clock_id */
	/* clock ids: builtin BOOTTIME; 64-127 are the sequence's own */
	PF_CLOCK_BOOTTIME = 6,
	PF_CLOCK_DELTA = 64,
	/* TracePacket.SequenceFlags */
	PF_SEQ_CLEARED = 1,
	/* TrackDescriptor, ProcessDescriptor, ThreadDescriptor */
	PF_TD_UUID = 1,
	PF_TD_NAME = 2,
	PF_TD_PROCESS = 3,
	PF_TD_THREAD = 4,
	PF_TD_PARENT = 5,
	PF_TD_COUNTER = 8,
	PF_PD_PID = 1,
	PF_PD_NAME = 6,
	PF_THD_PID = 1,
	PF_THD_TID = 2,
	PF_THD_NAME = 5,
	/* TrackEvent */
	PF_TE_CATEGORY_IIDS = 3,
	PF_TE_ANNOTATIONS = 4,
	PF_TE_TYPE = 9,
	PF_TE_NAME_IID = 10,
	PF_TE_TRACK = 11,
	PF_TE_COUNTER = 30,
	PF_TE_DCOUNTER = 44,
	PF_TE_FLOW_IDS = 47,
	/* TrackEvent.Type */
	PF_SLICE_BEGIN = 1,
	PF_SLICE_END = 2,
	PF_INSTANT = 3,
	PF_COUNTER = 4,
	/* DebugAnnotation */
	PF_DA_NAME_IID = 1,
	PF_DA_UINT = 3,
	PF_DA_INT = 4,
	PF_DA_DOUBLE = 5,
	PF_DA_STRING = 6,
	PF_DA_POINTER = 7,
	PF_DA_ARRAY = 12,
	/* InternedData; EventCategory, EventName, DebugAnnotationName: iid 1, name 2 */
	PF_IN_CATEGORIES = 1,
	PF_IN_NAMES = 2,
	PF_IN_KEYS = 3,
	PF_IID = 1,
	PF_INAME = 2
};
/* Tracks: kind << 56 | number (pid, tid, counter number), mapped to small
 * uuids (1, 2, ...: one-byte varints) in order of appearance.  Each thread
 * is a packet sequence of its own (as each thread's writer in Perfetto's
 * SDK): its trusted_packet_sequence_id is its track's uuid, and its
 * events need no track_uuid (the sequence's default). */
enum { PF_UUID_PROCESS = 1, PF_UUID_THREAD = 2, PF_UUID_COUNTER = 3 };


enum { PF_TAB_NAMES, PF_TAB_CATS, PF_TAB_KEYS, PF_NTAB };
struct pf_tab {
	char **s;   /* interned strings; iid = index + 1 */
	size_t n, cap;
};

/* A thread's sequence: the time of its previous packet (its clock counts
 * from there), and the strings (table << 32 | iid) it has sent. */
struct pf_seq {
	uint64_t last_ns;
	struct u64set sent;
};

/* What --perfetto keeps while it writes. */
struct pf_state {
	struct pb pb;
	struct pf_tab tab[PF_NTAB];
	uint64_t *key, *uuid; /* track key -> uuid (open addressing) */
	size_t ntrack, captrack;
	struct pf_seq **seq;  /* by uuid (thread tracks only) */
	size_t capseq;
	uint64_t counters;    /* counter tracks made */
	uint64_t events;      /* TrackEvents written */
	uint64_t *need;       /* the strings the packet being written uses */
	size_t nneed, capneed;
};

/* The state of a --perfetto run, made before its first event. */
static void pf_start(struct dump *dx)
{
	dx->pf = (struct pf_state *)xcalloc(1, sizeof(*dx->pf));
}

static size_t pf_slot(uint64_t key, size_t cap)
{
	return (size_t)(key * 0x9E3779B97F4A7C15u >> 20) & (cap - 1);
}

/* The uuid of a track; *is_new: 1 the first time (describe it then). */
static uint64_t pf_uuid(struct dump *dx, unsigned kind, uint64_t n, int *is_new)
{
	uint64_t key = (uint64_t)kind << 56 | (n & (((uint64_t)1 << 56) - 1));
	size_t i, m;
	if (2 * (dx->pf->ntrack + 1) > dx->pf->captrack) {
		uint64_t *k = dx->pf->key, *u = dx->pf->uuid;
		size_t cap = dx->pf->captrack;
		dx->pf->captrack = cap ? 2 * cap : 256;
		dx->pf->key = (uint64_t *)xcalloc(dx->pf->captrack, sizeof(uint64_t));
		dx->pf->uuid = (uint64_t *)xcalloc(dx->pf->captrack, sizeof(uint64_t));
		for (i = 0; i < cap; i++) {
			if (!k[i])
				continue;
			for (m = pf_slot(k[i], dx->pf->captrack); dx->pf->key[m]; m = (m + 1) & (dx->pf->captrack - 1))
				;
			dx->pf->key[m] = k[i];
			dx->pf->uuid[m] = u[i];
		}
		free(k);
		free(u);
	}
	for (m = pf_slot(key, dx->pf->captrack); dx->pf->key[m]; m = (m + 1) & (dx->pf->captrack - 1))
		if (dx->pf->key[m] == key) {
			*is_new = 0;
			return dx->pf->uuid[m];
		}
	dx->pf->key[m] = key;
	dx->pf->uuid[m] = ++dx->pf->ntrack;
	*is_new = 1;
	return dx->pf->ntrack;
}

/* The iid of s in table t (interned on first use; a linear search, once per
 * event type and field, cached by the callers). */
static uint64_t pf_intern(struct dump *dx, unsigned t, const char *s)
{
	struct pf_tab *tb = &dx->pf->tab[t];
	size_t i;
	for (i = 0; i < tb->n; i++)
		if (!strcmp(tb->s[i], s))
			return i + 1;
	GROW(tb->s, tb->n, tb->cap);
	tb->s[tb->n++] = xstrdup(s);
	return tb->n;
}

/* The next packet uses string iid of table t. */
static void pf_need(struct dump *dx, unsigned t, uint64_t iid)
{
	GROW(dx->pf->need, dx->pf->nneed, dx->pf->capneed);
	dx->pf->need[dx->pf->nneed++] = (uint64_t)t << 32 | iid;
}

static void pf_flush(struct dump *dx)
{
	char *o;
	if (!dx->pf->pb.n)
		return; /* (nothing written yet: no buffer either) */
	o = ob_need(dx, dx->pf->pb.n);
	memcpy(o, dx->pf->pb.b, dx->pf->pb.n);
	ob_done(dx, o + dx->pf->pb.n);
	dx->pf->pb.n = 0;
}

static void pf_packet_open(struct dump *dx, uint64_t seq)
{
	pb_open(&dx->pf->pb, PF_TRACE_PACKET);
	pb_uint(&dx->pf->pb, PF_SEQ_ID, seq);
}

static void pf_packet_close(struct dump *dx)
{
	pb_close(&dx->pf->pb);
	if (dx->pf->pb.n >= 1 << 16)
		pf_flush(dx);
}

/* The strings of dx->pf->need that sequence s has not had yet, as the
 * packet's InternedData. */
static void pf_interned(struct dump *dx, struct pf_seq *s)
{
	static const unsigned field[PF_NTAB] = { PF_IN_NAMES, PF_IN_CATEGORIES, PF_IN_KEYS };
	unsigned t;
	size_t i;
	int open = 0;
	for (t = 0; t < PF_NTAB; t++)
		for (i = 0; i < dx->pf->nneed; i++) {
			uint64_t iid = dx->pf->need[i] & 0xffffffffu;
			if (dx->pf->need[i] >> 32 != t || u64set_add(&s->sent, dx->pf->need[i]))
				continue;
			if (!open)
				pb_open(&dx->pf->pb, PF_INTERNED);
			open = 1;
			pb_open(&dx->pf->pb, field[t]);
			pb_uint(&dx->pf->pb, PF_IID, iid);
			pb_str(&dx->pf->pb, PF_INAME, dx->pf->tab[t].s[iid - 1]);
			pb_close(&dx->pf->pb);
		}
	if (open)
		pb_close(&dx->pf->pb);
	dx->pf->nneed = 0;
}

static void pf_finish(struct dump *dx)
{
	unsigned t;
	size_t i;
	pf_flush(dx);
	for (t = 0; t < PF_NTAB; t++) {
		for (i = 0; i < dx->pf->tab[t].n; i++)
			free(dx->pf->tab[t].s[i]);
		free(dx->pf->tab[t].s);
	}
	for (i = 0; i < dx->pf->capseq; i++)
		if (dx->pf->seq[i]) {
			free(dx->pf->seq[i]->sent.v);
			free(dx->pf->seq[i]);
		}
	free(dx->pf->seq);
	free(dx->pf->need);
	free(dx->pf->key);
	free(dx->pf->uuid);
	free(dx->pf->pb.b);
	free(dx->pf);
	dx->pf = NULL;
}

/* A thread's sequence starts with cleared incremental state, its track as
 * the default of its events, and a clock of its own whose timestamps are
 * deltas to the previous packet's, counted from ns (the first event) on
 * the trace's clock: a timestamp takes one to three bytes, not nine. */
static void pf_seq_start(struct dump *dx, uint64_t tu, uint64_t ns)
{
	struct pb *p = &dx->pf->pb;
	if (tu >= dx->pf->capseq) {
		size_t cap = dx->pf->capseq;
		dx->pf->capseq = 2 * tu + 16;
		dx->pf->seq = (struct pf_seq **)xrealloc(dx->pf->seq, dx->pf->capseq * sizeof(*dx->pf->seq));
		memset(dx->pf->seq + cap, 0, (dx->pf->capseq - cap) * sizeof(*dx->pf->seq));
	}
	dx->pf->seq[tu] = (struct pf_seq *)xcalloc(1, sizeof(struct pf_seq));
	dx->pf->seq[tu]->last_ns = ns;
	pf_packet_open(dx, tu);
	pb_uint(p, PF_SEQ_FLAGS, PF_SEQ_CLEARED);
	pb_uint(p, PF_FIRST_ON_SEQ, 1);
	pb_open(p, PF_CLOCK_SNAPSHOT);
	pb_open(p, PF_CS_CLOCKS);
	pb_uint(p, PF_CLK_ID, PF_CLOCK_BOOTTIME);
	pb_uint(p, PF_CLK_TS, ns);
	pb_close(p);
	pb_open(p, PF_CS_CLOCKS);
	pb_uint(p, PF_CLK_ID, PF_CLOCK_DELTA);
	pb_uint(p, PF_CLK_TS, ns);
	pb_uint(p, PF_CLK_INCREMENTAL, 1);
	pb_close(p);
	pb_close(p);
	pb_open(p, PF_DEFAULTS);
	pb_uint(p, PF_DEF_CLOCK, PF_CLOCK_DELTA);
	pb_open(p, PF_DEF_TRACK_EVENT);
	pb_uint(p, PF_TE_TRACK, tu);
	pb_close(p);
	pb_close(p);
	pf_packet_close(dx);
}

/* The process and thread tracks of c's thread, described once: the uuid of
 * the thread's track (and sequence). */
static uint64_t pf_thread_track(struct dump *dx, const struct cursor *c)
{
	int newp, newt;
	uint64_t pu = pf_uuid(dx, PF_UUID_PROCESS, c->pid, &newp), tu = pf_uuid(dx, PF_UUID_THREAD, c->tid, &newt);
	if (newt)
		pf_seq_start(dx, tu, c->ns);
	if (newp) {
		pf_packet_open(dx, tu);
		pb_open(&dx->pf->pb, PF_TRACK_DESCRIPTOR);
		pb_uint(&dx->pf->pb, PF_TD_UUID, pu);
		pb_open(&dx->pf->pb, PF_TD_PROCESS);
		pb_uint(&dx->pf->pb, PF_PD_PID, c->pid);
		if (c->tr->procname)
			pb_str(&dx->pf->pb, PF_PD_NAME, c->tr->procname);
		pb_close(&dx->pf->pb);
		pb_close(&dx->pf->pb);
		pf_packet_close(dx);
	}
	if (newt) {
		const struct packet *k = &c->st->pk[c->pk ? c->pk - 1 : 0];
		pf_packet_open(dx, tu);
		pb_open(&dx->pf->pb, PF_TRACK_DESCRIPTOR);
		pb_uint(&dx->pf->pb, PF_TD_UUID, tu);
		pb_uint(&dx->pf->pb, PF_TD_PARENT, pu);
		pb_open(&dx->pf->pb, PF_TD_THREAD);
		pb_uint(&dx->pf->pb, PF_THD_PID, c->pid);
		pb_uint(&dx->pf->pb, PF_THD_TID, c->tid);
		if (c->st->npk)
			pb_str(&dx->pf->pb, PF_THD_NAME, k->comm);
		pb_close(&dx->pf->pb);
		pb_close(&dx->pf->pb);
		pf_packet_close(dx);
	}
	return tu;
}

/* A counter event's numbers: integer and float scalars (not pointers). */
static int pf_is_number(const struct field *f)
{
	return (f->t.kind == FT_INT || f->t.kind == FT_FLOAT) && !f->count && !f->t.bad && f->t.base != 16;
}

/* Counter field fi of a counter event: its track below the process,
 * described once, named after the event (event.field when the event has
 * several numbers). */
static uint64_t pf_counter_track(struct dump *dx, const struct cursor *c, uint64_t seq, unsigned fi)
{
	struct event *ev = (struct event *)c->ev;
	unsigned i, nnum = 0;
	char *name;
	int is_new;
	if (!ev->pf_ctr)
		ev->pf_ctr = (uint64_t *)xcalloc(ev->nf + 1, sizeof(uint64_t));
	if (ev->pf_ctr[fi])
		return ev->pf_ctr[fi];
	for (i = 0; i < ev->nf; i++)
		nnum += (unsigned)pf_is_number(&ev->f[i]);
	ev->pf_ctr[fi] = pf_uuid(dx, PF_UUID_COUNTER, ++dx->pf->counters, &is_new);
	name = nnum > 1 ? xasprintf("%s.%s", ev->ename, ev->f[fi].name) : xstrdup(ev->ename);
	pf_packet_open(dx, seq);
	pb_open(&dx->pf->pb, PF_TRACK_DESCRIPTOR);
	pb_uint(&dx->pf->pb, PF_TD_UUID, ev->pf_ctr[fi]);
	pb_uint(&dx->pf->pb, PF_TD_PARENT, pf_uuid(dx, PF_UUID_PROCESS, c->pid, &is_new));
	pb_str(&dx->pf->pb, PF_TD_NAME, name);
	pb_open(&dx->pf->pb, PF_TD_COUNTER);
	pb_close(&dx->pf->pb);
	pb_close(&dx->pf->pb);
	pf_packet_close(dx);
	free(name);
	return ev->pf_ctr[fi];
}

/* One element of field i as a DebugAnnotation value. */
static void pf_scalar(struct dump *dx, const struct cursor *c, unsigned i, unsigned idx)
{
	const struct field *f = &c->ev->f[i];
	if (f->t.kind == FT_FLOAT)
		pb_double(&dx->pf->pb, PF_DA_DOUBLE, get_float(c, (int)i, idx));
	else if (f->t.base == 16)
		pb_uint(&dx->pf->pb, PF_DA_POINTER, get_int(c, (int)i, idx));
	else
		pb_uint(&dx->pf->pb, f->t.sgn ? PF_DA_INT : PF_DA_UINT, get_int(c, (int)i, idx));
}

/* The fields as debug annotations: integers int/uint, pointers pointer,
 * floats double, strings and char arrays string, arrays (dynamic ones too)
 * array_values; a __print_symbolic/__print_flags field the string its text
 * shows (a value without a label stays a number); a dynamic array's length
 * field is left out. */
static void pf_annotations(struct dump *dx, const struct cursor *c)
{
	const struct event *ev = c->ev;
	unsigned i, k;
	for (i = 0; i < ev->nf; i++) {
		const struct field *f = &ev->f[i];
		unsigned cnt = f->seq ? c->slen[i] : f->count;
		const char *name = NULL;
		size_t nn = 0;
		if (f->t.bad || f->hidden)
			continue;
		pb_open(&dx->pf->pb, PF_TE_ANNOTATIONS);
		pb_uint(&dx->pf->pb, PF_DA_NAME_IID, ev->pf_key[i]);
		if (f->t.sym && !f->count && !f->seq) {
			uint64_t v = get_int(c, (int)i, 0);
			if (f->fdelim)
				name = flags_text(dx, f, v, &nn);
			else if ((name = sym_name(f, v)) != NULL)
				nn = strlen(name);
		}
		if (name) {
			pb_bytes(&dx->pf->pb, PF_DA_STRING, (const u8 *)name, nn);
		} else if (f->t.kind == FT_STR || f->is_text) {
			size_t n;
			const u8 *t = get_text(c, (int)i, &n);
			pb_bytes(&dx->pf->pb, PF_DA_STRING, t, n);
		} else if (!f->count && !f->seq) {
			pf_scalar(dx, c, i, 0);
		} else {
			for (k = 0; k < cnt; k++) {
				pb_open(&dx->pf->pb, PF_DA_ARRAY);
				pf_scalar(dx, c, i, k);
				pb_close(&dx->pf->pb);
			}
		}
		pb_close(&dx->pf->pb);
	}
}

/* Opens the packet of a TrackEvent at c's time on sequence seq (its
 * interned data first); track 0: the sequence's own. */
static void pf_event_open(struct dump *dx, const struct cursor *c, uint64_t seq, uint64_t track, unsigned type,
			  uint64_t name, uint64_t cat)
{
	struct pf_seq *s = dx->pf->seq[seq];
	pf_packet_open(dx, seq);
	if (c->ns >= s->last_ns) {
		pb_uint(&dx->pf->pb, PF_TIMESTAMP, c->ns - s->last_ns);
		s->last_ns = c->ns;
	} else { /* time never goes back within a thread; kept exact all the same */
		pb_uint(&dx->pf->pb, PF_TIMESTAMP, c->ns);
		pb_uint(&dx->pf->pb, PF_TS_CLOCK, PF_CLOCK_BOOTTIME);
	}
	/* No SEQ_NEEDS_INCREMENTAL_STATE: that flag only lets a reader drop
	 * packets after a loss within the sequence, and a file written in one
	 * go has none; 2 bytes an event less. */
	pf_interned(dx, s);
	pb_open(&dx->pf->pb, PF_TRACK_EVENT);
	pb_uint(&dx->pf->pb, PF_TE_TYPE, type);
	if (track)
		pb_uint(&dx->pf->pb, PF_TE_TRACK, track);
	if (name)
		pb_uint(&dx->pf->pb, PF_TE_NAME_IID, name);
	if (cat)
		pb_uint(&dx->pf->pb, PF_TE_CATEGORY_IIDS, cat);
	dx->pf->events++;
}

static void pf_event_close(struct dump *dx)
{
	pb_close(&dx->pf->pb);
	pf_packet_close(dx);
}

static void emit_pftrace(struct dump *dx, struct cursor *c)
{
	struct event *ev = (struct event *)c->ev;
	uint64_t seq = pf_thread_track(dx, c), id;
	unsigned i;
	int numbers;
	if (c->kind == K_DROP) {
		uint64_t name = pf_intern(dx, PF_TAB_NAMES, "events dropped");
		uint64_t cat = pf_intern(dx, PF_TAB_CATS, "tracepoints"), key = pf_intern(dx, PF_TAB_KEYS, "dropped");
		pf_need(dx, PF_TAB_NAMES, name);
		pf_need(dx, PF_TAB_CATS, cat);
		pf_need(dx, PF_TAB_KEYS, key);
		pf_event_open(dx, c, seq, 0, PF_INSTANT, name, cat);
		pb_open(&dx->pf->pb, PF_TE_ANNOTATIONS);
		pb_uint(&dx->pf->pb, PF_DA_NAME_IID, key);
		pb_uint(&dx->pf->pb, PF_DA_UINT, c->dropn);
		pb_close(&dx->pf->pb);
		pf_event_close(dx);
		return;
	}
	if (!ev->pf_name) { /* interned once per event type */
		char *sn = xstrndup(ev->ename, slice_name_len(ev));
		ev->pf_name = pf_intern(dx, PF_TAB_NAMES, sn);
		free(sn);
		ev->pf_cat = pf_intern(dx, PF_TAB_CATS, ev->sys);
		ev->pf_key = (uint64_t *)xcalloc(ev->nf + 1, sizeof(uint64_t));
		for (i = 0; i < ev->nf; i++)
			ev->pf_key[i] = pf_intern(dx, PF_TAB_KEYS, ev->f[i].name);
	}
	for (i = 0, numbers = 0; i < ev->nf && (ev->kind & EK_BASE) == EK_COUNTER; i++)
		numbers += pf_is_number(&ev->f[i]);
	if (numbers) { /* a counter: a value on each number's track */
		for (i = 0; i < ev->nf; i++) {
			const struct field *f = &ev->f[i];
			uint64_t ct;
			if (!pf_is_number(f))
				continue;
			ct = pf_counter_track(dx, c, seq, i);
			pf_event_open(dx, c, seq, ct, PF_COUNTER, 0, 0);
			if (f->t.kind == FT_FLOAT)
				pb_double(&dx->pf->pb, PF_TE_DCOUNTER, get_float(c, (int)i, 0));
			else
				pb_uint(&dx->pf->pb, PF_TE_COUNTER, get_int(c, (int)i, 0));
			pf_event_close(dx);
		}
		return;
	}
	if ((ev->kind & EK_BASE) != EK_END) { /* an end's name is its begin's */
		pf_need(dx, PF_TAB_NAMES, ev->pf_name);
		pf_need(dx, PF_TAB_CATS, ev->pf_cat);
	}
	for (i = 0; i < ev->nf; i++)
		pf_need(dx, PF_TAB_KEYS, ev->pf_key[i]);
	switch (ev->kind & EK_BASE) { /* a counter without numbers: an instant */
	case EK_BEGIN:
		pf_event_open(dx, c, seq, 0, PF_SLICE_BEGIN, ev->pf_name, ev->pf_cat);
		break;
	case EK_END:
		pf_event_open(dx, c, seq, 0, PF_SLICE_END, 0, 0);
		break;
	default:
		pf_event_open(dx, c, seq, 0, PF_INSTANT, ev->pf_name, ev->pf_cat);
		break;
	}
	pf_annotations(dx, c);
	if ((ev->kind & EK_FLOW) && flow_id(c, &id))
		pb_fixed64(&dx->pf->pb, PF_TE_FLOW_IDS, id);
	pf_event_close(dx);
}

/* ------------------------------------------------------------------ */
/* The merge                                                          */
/* ------------------------------------------------------------------ */

static inline int cur_less(const struct cursor *a, const struct cursor *b)
{
	return a->ns < b->ns || (a->ns == b->ns && a->idx < b->idx);
}

static void sift_down(struct cursor **h, size_t n, size_t i)
{
	struct cursor *x = h[i];
	for (;;) {
		size_t l = 2 * i + 1, m;
		if (l >= n)
			break;
		m = l + 1 < n && cur_less(h[l + 1], h[l]) ? l + 1 : l;
		if (!cur_less(h[m], x))
			break;
		h[i] = h[m];
		i = m;
	}
	h[i] = x;
}

/* Every item of these traces' streams in time order. */
static void merge(struct dump *dx, struct trace **trs, size_t ntr, void (*emit)(struct dump *, struct cursor *))
{
	size_t i, j, n = 0, ncur = 0;
	struct cursor *cs, **h;
	for (i = 0; i < ntr; i++)
		ncur += trs[i]->nst;
	cs = (struct cursor *)xcalloc(ncur, sizeof(*cs));
	h = (struct cursor **)xcalloc(ncur, sizeof(*h));
	ncur = 0;
	for (i = 0; i < ntr; i++)
		for (j = 0; j < trs[i]->nst; j++) {
			struct cursor *c = &cs[ncur];
			cur_init(c, &trs[i]->st[j], ncur);
			ncur++;
			if (cur_next(c))
				h[n++] = c;
		}
	for (i = n / 2; i-- > 0;)
		sift_down(h, n, i);
	while (n) {
		struct cursor *c = h[0];
		emit(dx, c);
		if (!cur_next(c))
			h[0] = h[--n];
		if (n)
			sift_down(h, n, 0);
	}
	for (i = 0; i < ncur; i++)
		cur_free(&cs[i]);
	free(cs);
	free(h);
}

/* ------------------------------------------------------------------ */
/* Summary                                                            */
/* ------------------------------------------------------------------ */

static int cmp_ev_count(const void *a, const void *b)
{
	const struct event *x = *(const struct event *const *)a, *y = *(const struct event *const *)b;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->name, y->name);
}

static void fmt_ns(char *buf, size_t len, uint64_t ns)
{
	time_t t = (time_t)(ns / 1000000000u);
	struct tm tm;
	char d[40] = "";
	if (gmtime_r(&t, &tm))
		strftime(d, sizeof(d), "%Y-%m-%d %H:%M:%S", &tm);
	snprintf(buf, len, "%llu.%09llu (%s.%09llu UTC)", (unsigned long long)(ns / 1000000000u),
		 (unsigned long long)(ns % 1000000000u), d, (unsigned long long)(ns % 1000000000u));
}

static void summary(struct dump *dx, struct trace *tr)
{
	size_t i;
	uint64_t total = 0, dropped = 0, first = UINT64_MAX, last = 0;
	struct event **evs;
	char b1[96], b2[96], *t[6];
	for (i = 0; i < tr->nst; i++) {
		struct stream *st = &tr->st[i];
		struct cursor c;
		size_t k;
		cur_init(&c, st, i);
		while (cur_next(&c)) {
			if (c.kind != K_EVENT)
				continue;
			((struct event *)c.ev)->count++;
			st->events++;
			if (!st->have_ns)
				st->first_ns = c.ns, st->have_ns = 1;
			st->last_ns = c.ns;
		}
		cur_free(&c);
		for (k = 0; k < st->npk; k++) {
			st->bytes += st->pk[k].cend - st->pk[k].off;
			if (st->pk[k].disc > st->dropped)
				st->dropped = st->pk[k].disc;
		}
		total += st->events;
		dropped += st->dropped;
		if (st->have_ns) {
			if (st->first_ns < first)
				first = st->first_ns;
			if (st->last_ns > last)
				last = st->last_ns;
		}
	}
	/* strings from the metadata and paths, escaped like recorded text */
	t[0] = text_dup(tr->dir);
	t[1] = text_dup(tr->procname ? tr->procname : "?");
	t[2] = text_dup(tr->hostname ? tr->hostname : "");
	t[3] = text_dup(tr->mode ? tr->mode : "?");
	t[4] = text_dup(tr->clk_name ? tr->clk_name : "?");
	t[5] = text_dup(tr->snapinfo ? tr->snapinfo : "");
	ob_printf(dx, "trace       %s\n", t[0]);
	ob_printf(dx, "process     %s, pid %u", t[1], trace_pid(tr));
	if (tr->hostname)
		ob_printf(dx, ", host %s", t[2]);
	ob_printf(dx, "\nmode        %s\n", t[3]);
	ob_printf(dx, "clock       %s, %llu Hz\n", t[4], (unsigned long long)tr->freq);
	if (total) {
		uint64_t d = last - first;
		fmt_ns(b1, sizeof(b1), first);
		fmt_ns(b2, sizeof(b2), last);
		ob_printf(dx, "first event %s\nlast event  %s\nduration    %llu.%09llu s\n", b1, b2,
			  (unsigned long long)(d / 1000000000u), (unsigned long long)(d % 1000000000u));
	} else {
		ob_printf(dx, "time span   (no events)\n");
	}
	ob_printf(dx, "events      %llu\n", (unsigned long long)total);
	ob_printf(dx, "dropped     %llu\n", (unsigned long long)dropped);
	if (tr->snapinfo)
		ob_printf(dx, "subtraces   %s\n", t[5]);
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		free(t[i]);
	evs = (struct event **)xcalloc(tr->nev + 1, sizeof(*evs));
	for (i = 0; i < tr->nev; i++)
		evs[i] = &tr->ev[i];
	qsort(evs, tr->nev, sizeof(*evs), cmp_ev_count);
	ob_printf(dx, "event types\n");
	for (i = 0; i < tr->nev; i++)
		if (evs[i]->count)
			ob_printf(dx, "  %12llu  %s%s\n", (unsigned long long)evs[i]->count, evs[i]->name,
				  kind_note(evs[i]->kind));
	free(evs);
	ob_printf(dx, "threads\n  %10s  %-16s %12s %10s %14s\n", "tid", "comm", "events", "dropped", "bytes");
	for (i = 0; i < tr->nst; i++) {
		const struct stream *st = &tr->st[i];
		const char *comm = st->npk ? st->pk[st->npk - 1].comm : "";
		char cm[70];
		size_t n = strlen(comm);
		char *o = put_text(cm, (const u8 *)comm, n > 16 ? 16 : n);
		*o = '\0';
		if (st->npk)
			ob_printf(dx, "  %10u  %-16s %12llu %10llu %14llu\n", st->pk[0].tid, cm,
				  (unsigned long long)st->events, (unsigned long long)st->dropped,
				  (unsigned long long)st->bytes);
		else
			ob_printf(dx, "  %10s  %-16s %12llu %10llu %14llu   (%s: no packets)\n", "-", "", 0ull, 0ull, 0ull,
				  strrchr(st->path, '/') ? strrchr(st->path, '/') + 1 : st->path);
	}
}

/* ------------------------------------------------------------------ */
/* Directories                                                        */
/* ------------------------------------------------------------------ */

#define MAX_DEPTH 8 /* directory levels searched below a DIR argument */


static void seen_reset(struct dump *dx)
{
	size_t i;
	for (i = 0; i < dx->nseen; i++)
		free(dx->seen[i].path);
	dx->nseen = 0;
}

/* NULL if the directory dfd was not seen yet (now it is, as path); else
 * the path it was seen as. */
static const char *seen_before(struct dump *dx, int dfd, const char *path)
{
	struct stat sb;
	size_t i;
	if (fstat(dfd, &sb) != 0)
		return NULL;
	for (i = 0; i < dx->nseen; i++)
		if (dx->seen[i].dev == sb.st_dev && dx->seen[i].ino == sb.st_ino)
			return dx->seen[i].path;
	GROW(dx->seen, dx->nseen, dx->capseen);
	dx->seen[dx->nseen].dev = sb.st_dev;
	dx->seen[dx->nseen].ino = sb.st_ino;
	dx->seen[dx->nseen].path = xstrdup(path);
	dx->nseen++;
	return NULL;
}

/* Sorted names of the subdirectories of dfd that are traces (with_snap:
 * snapshot-* too). */
static char **sub_traces(int dfd, int with_snap, size_t *n)
{
	struct dent *ds;
	size_t nd, i, cap = 0;
	char **v = NULL;
	*n = 0;
	if (list_dir(dfd, &ds, &nd) != 0)
		return NULL;
	for (i = 0; i < nd; i++) {
		int fd;
		if (ds[i].kind != E_DIR || (!with_snap && !strncmp(ds[i].name, "snapshot-", 9)))
			continue;
		if ((fd = open_dir_at(dfd, ds[i].name)) < 0)
			continue;
		if (has_metadata_at(fd)) {
			GROW(v, *n, cap);
			v[(*n)++] = xstrdup(ds[i].name);
		}
		close(fd);
	}
	free_dents(ds, nd);
	return v;
}

/* Called on each trace directory found: its descriptor, its path, its
 * depth below the DIR argument. */
typedef void (*trace_fn)(struct dump *dx, int dfd, const char *path, int depth, void *ctx);

/* Traces below the directory dfd (path), which is not one itself (a
 * session): searched like babeltrace2 does, without descending into a
 * trace, in real directories only, at most MAX_DEPTH levels down. */
static void find_traces(struct dump *dx, int dfd, const char *path, int depth, trace_fn fn, void *ctx)
{
	struct dent *ds;
	size_t nd, i;
	if (list_dir(dfd, &ds, &nd) != 0) {
		note(dx, 1, path, -1, "cannot list: %s", strerror(errno));
		return;
	}
	for (i = 0; i < nd; i++) {
		char *sub = path_join(path, ds[i].name);
		const char *prev;
		int fd;
		if (ds[i].kind == E_OTHER) {
			skip_note(dx, 0, sub, ds[i].mode, "only traces in real directories are read");
		} else if (ds[i].kind == E_DIR) {
			if ((fd = open_dir_at(dfd, ds[i].name)) < 0) {
				note(dx, 1, sub, -1, "cannot open: %s", strerror(errno));
			} else {
				if (has_metadata_at(fd))
					fn(dx, fd, sub, depth + 1, ctx);
				else if ((prev = seen_before(dx, fd, sub)) != NULL)
					note(dx, 0, sub, -1, "the same directory as %s: searched once", prev);
				else if (depth + 1 < MAX_DEPTH)
					find_traces(dx, fd, sub, depth + 1, fn, ctx);
				else
					note(dx, 0, sub, -1, "more than %d directories deep: not searched", MAX_DEPTH);
				close(fd);
			}
		}
		free(sub);
	}
	free_dents(ds, nd);
}

/* A directory with stream files but no metadata: a damaged trace. */
static int has_streams(int dfd)
{
	struct dent *ds;
	size_t nd, i;
	int r = 0;
	if (list_dir(dfd, &ds, &nd) != 0)
		return 0;
	for (i = 0; i < nd && !r; i++)
		r = !strncmp(ds[i].name, "stream-", 7);
	free_dents(ds, nd);
	return r;
}

struct group {
	const char *name; /* the DIR argument */
	struct trace **tr;
	size_t n, cap;
	size_t found;     /* trace directories found */
	int all;          /* --all */
};

static void add_trace_rec(struct dump *dx, struct group *g, int dfd, const char *dir, int child, int depth)
{
	struct trace *tr;
	size_t n, i;
	char **subs;
	const char *prev = seen_before(dx, dfd, dir);
	if (prev) {
		note(dx, 0, dir, -1, "the same directory as %s: read once", prev);
		return;
	}
	tr = load_trace(dx, dfd, dir);
	if (tr) {
		tr->is_child = child;
		GROW(g->tr, g->n, g->cap);
		g->tr[g->n++] = tr;
	}
	subs = sub_traces(dfd, 1, &n);
	for (i = 0; i < n; i++) {
		const char *base = subs[i];
		int snap = !strncmp(base, "snapshot-", 9), fd;
		if (tr && !g->all) {
			char *s = tr->snapinfo ? xasprintf("%s %s%s", tr->snapinfo, base, snap ? "" : " (child)")
					       : xasprintf("%s%s", base, snap ? "" : " (child)");
			free(tr->snapinfo);
			tr->snapinfo = s;
		}
		if (g->all && !snap) {
			char *sub = path_join(dir, base);
			if (depth + 1 >= MAX_DEPTH)
				note(dx, 0, sub, -1, "more than %d directories deep: not read", MAX_DEPTH);
			else if ((fd = open_dir_at(dfd, base)) >= 0) {
				add_trace_rec(dx, g, fd, sub, 1, depth + 1);
				close(fd);
			}
			free(sub);
		}
		free(subs[i]);
	}
	free(subs);
}

static void add_found(struct dump *dx, int dfd, const char *path, int depth, void *ctx)
{
	struct group *g = (struct group *)ctx;
	g->found++;
	add_trace_rec(dx, g, dfd, path, 0, depth);
}

/* A DIR argument: the user's path, followed as given. */
static int open_arg_dir(const char *dir)
{
	return open(dir, O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC);
}

/* ------------------------------------------------------------------ */
/* --repair                                                           */
/* ------------------------------------------------------------------ */

static int write_all(int fd, const void *p, size_t n)
{
	const char *s = (const char *)p;
	while (n) {
		ssize_t w = write(fd, s, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

/* 64 bits nobody can predict, for a temporary file's name. */
static uint64_t rand64(struct dump *dx)
{
	uint64_t r = 0;
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || read(fd, &r, sizeof(r)) != (ssize_t)sizeof(r)) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		r = ((uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec) ^ ((uint64_t)getpid() << 40) ^
		    (uint64_t)(uintptr_t)&ts;
	}
	if (fd >= 0)
		close(fd);
	dx->tmpctr++;
	return r ^ (dx->tmpctr * 0x9e3779b97f4a7c15u);
}

/* A new file in dfd, ".<base>.repair-<random>", made here (O_EXCL: never
 * a file or link that was there), mode 0600 until it is complete. */
static int make_temp(struct dump *dx, int dfd, const char *base, char **name)
{
	int i;
	for (i = 0; i < 100; i++) {
		int fd;
		*name = xasprintf(".%s.repair-%016llx", base, (unsigned long long)rand64(dx));
		fd = openat(dfd, *name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0)
			return fd;
		free(*name);
		*name = NULL;
		if (errno != EEXIST)
			return -1;
	}
	errno = EEXIST;
	return -1;
}

/* Writes the packets of st (shrink 1: each packet shrunk to its content,
 * with a rewritten header; 2: each packet as it is, in st->pk's order;
 * 0: the first trunc_at bytes) to a new temporary file in the
 * trace directory dfd, renamed over the stream file if that is still the
 * file that was read.  Nothing else is written, and no other file's mode
 * is changed. */
static int rewrite_stream(struct dump *dx, int dfd, struct stream *st, int shrink, uint64_t trunc_at)
{
	char *tmp = NULL;
	int fd = make_temp(dx, dfd, st->name, &tmp), ok = fd >= 0;
	const char *why = NULL;
	struct stat sb;
	size_t i;
	if (ok && !shrink) {
		ok = write_all(fd, st->map, (size_t)trunc_at) == 0;
	} else if (ok && shrink == 2) {
		for (i = 0; ok && i < st->npk; i++)
			ok = write_all(fd, st->map + st->pk[i].off, (size_t)st->pk[i].psz) == 0;
	} else if (ok) {
		for (i = 0; ok && i < st->npk; i++) {
			const struct packet *k = &st->pk[i];
			u8 h[PACKET_HDR];
			uint64_t bits = (k->cend - k->off) * 8;
			memcpy(h, st->map + k->off, PACKET_HDR);
			if (st->tr->swap)
				bits = bswap64(bits);
			memcpy(h + TRACE_PACKET_OFF_CONTENT_SIZE, &bits, 8);
			memcpy(h + TRACE_PACKET_OFF_PACKET_SIZE, &bits, 8);
			ok = write_all(fd, h, PACKET_HDR) == 0 &&
			     write_all(fd, st->map + k->off + PACKET_HDR, (size_t)(k->cend - k->off - PACKET_HDR)) == 0;
		}
	}
	/* the stream's permissions, given to the file made here (its fd) */
	if (ok)
		ok = fchmod(fd, st->mode & 0777) == 0 && fsync(fd) == 0;
	if (fd >= 0 && close(fd) != 0)
		ok = 0;
	if (ok && (fstatat(dfd, st->name, &sb, AT_SYMLINK_NOFOLLOW) != 0 || sb.st_dev != st->dev ||
		   sb.st_ino != st->ino)) {
		why = "replaced since it was read; left as it is";
		ok = 0;
	}
	if (ok)
		ok = renameat(dfd, tmp, dfd, st->name) == 0;
	if (ok)
		(void)fsync(dfd);
	if (!ok) {
		fprintf(stderr, "%s: %s: cannot rewrite: %s\n", prog, st->path, why ? why : strerror(errno));
		if (tmp)
			unlinkat(dfd, tmp, 0);
	}
	free(tmp);
	return ok ? 0 : -1;
}

/* Repairs one trace directory (not its subtraces); -1 on failure. */
static int repair_trace(struct dump *dx, int dfd, const char *dir, int *changed)
{
	struct trace *tr;
	size_t i;
	int rc = 0;
	dx->quiet = 1;
	tr = load_trace(dx, dfd, dir);
	dx->quiet = 0;
	if (!tr) {
		/* say why, without the quiet */
		tr = load_trace(dx, dfd, dir);
		free_trace(tr);
		return -1;
	}
	for (i = 0; i < tr->nst; i++) {
		struct stream *st = &tr->st[i];
		if (!tr->flight && st->reordered) {
			uint64_t out = 0;
			size_t k, ncut = 0;
			/* a packet cut by the end of the file is dropped (as below) */
			for (k = 0; k < st->npk; k++)
				if (st->pk[k].off + st->pk[k].psz > st->size) {
					memmove(&st->pk[k], &st->pk[k + 1], (st->npk - k - 1) * sizeof(*st->pk));
					st->npk--;
					k--;
					ncut++;
				}
			for (k = 0; k < st->npk; k++)
				out += st->pk[k].psz;
			if (rewrite_stream(dx, dfd, st, 2, 0) == 0) {
				fprintf(stderr, "%s: %s: %zu packet%s rewritten in packet_seq_num order", prog, st->path,
					st->npk, st->npk == 1 ? "" : "s");
				if (st->ndup)
					fprintf(stderr, ", %u seen twice kept once", st->ndup);
				if (ncut || st->stop < st->size)
					fprintf(stderr, ", damaged tail from byte %llu dropped", (unsigned long long)st->stop);
				fprintf(stderr, ": %llu -> %llu bytes\n", (unsigned long long)st->size,
					(unsigned long long)out);
				(*changed)++;
			} else {
				rc = -1;
			}
		} else if (!tr->flight) {
			if (st->stop < st->size) {
				const struct packet *k = st->npk ? &st->pk[st->npk - 1] : NULL;
				uint64_t at = st->stop;
				if (k && k->off == at) /* the truncated packet itself */
					at = k->off;
				if (rewrite_stream(dx, dfd, st, 0, at) == 0) {
					fprintf(stderr, "%s: %s: truncated at byte %llu, %s: %llu -> %llu bytes\n", prog,
						st->path, (unsigned long long)at, st->stop_why ? st->stop_why : "damaged",
						(unsigned long long)st->size, (unsigned long long)at);
					(*changed)++;
				} else {
					rc = -1;
				}
			}
		} else {
			uint64_t out = 0, lo = 0, hi = 0;
			size_t k, ntr = 0;
			int linear = 1;
			/* a packet cut by the end of the file cannot be shrunk: dropped */
			for (k = 0; k < st->npk; k++)
				if (st->pk[k].off + st->pk[k].psz > st->size) {
					memmove(&st->pk[k], &st->pk[k + 1], (st->npk - k - 1) * sizeof(*st->pk));
					st->npk--;
					k--;
					ntr++;
				}
			for (k = 0; k < st->npk; k++) {
				const struct packet *p = &st->pk[k];
				if (p->off != out || p->psz != p->cend - p->off)
					linear = 0;
				out += p->cend - p->off;
			}
			if (linear && out == st->size)
				continue;
			if (st->npk) {
				lo = st->pk[0].seq;
				hi = st->pk[st->npk - 1].seq;
			}
			if (rewrite_stream(dx, dfd, st, 1, 0) == 0) {
				fprintf(stderr, "%s: %s: flight ring rewritten oldest first: %zu packet%s", prog, st->path,
					st->npk, st->npk == 1 ? "" : "s");
				if (st->npk)
					fprintf(stderr, " (seq %llu..%llu)", (unsigned long long)lo, (unsigned long long)hi);
				fprintf(stderr, " shrunk to their content");
				if (st->nunused)
					fprintf(stderr, ", %u unused slot%s dropped", st->nunused, st->nunused == 1 ? "" : "s");
				if (st->nover)
					fprintf(stderr, ", %u packet%s being overwritten dropped", st->nover,
						st->nover == 1 ? "" : "s");
				if (st->nbadslot)
					fprintf(stderr, ", %u damaged slot%s dropped", st->nbadslot,
						st->nbadslot == 1 ? "" : "s");
				if (ntr || st->stop < st->size)
					fprintf(stderr, ", damaged tail from byte %llu dropped", (unsigned long long)st->stop);
				fprintf(stderr, ": %llu -> %llu bytes\n", (unsigned long long)st->size,
					(unsigned long long)out);
				(*changed)++;
			} else {
				rc = -1;
			}
		}
	}
	free_trace(tr);
	return rc;
}

/* Reads every event of the trace: 0 if nothing is damaged, 1 if only
 * packets are missing, -1 if anything else is wrong. */
static int verify_trace(struct dump *dx, int dfd, const char *dir)
{
	struct trace *tr;
	int before = dx->status, bad;
	unsigned long errs = dx->nerrs, missing = dx->nmissing;
	size_t i;
	dx->status = 0;
	dx->strict = 1;
	tr = load_trace(dx, dfd, dir);
	dx->strict = 0;
	bad = !tr;
	if (tr) {
		for (i = 0; i < tr->nst; i++) {
			struct cursor c;
			cur_init(&c, &tr->st[i], i);
			while (cur_next(&c))
				;
			cur_free(&c);
			if (tr->st[i].stop < tr->st[i].size && !tr->flight)
				bad = 1; /* babeltrace2 would stop there */
		}
	}
	free_trace(tr);
	missing = dx->nmissing - missing;
	bad |= dx->nerrs - errs > missing;
	dx->status = before;
	return bad ? -1 : missing ? 1 : 0;
}

struct repair_ctx {
	int status;
	size_t found;
};

/* --repair on the trace dfd (path), then on the traces nested in it
 * (snapshots; children in the older layout). */
static void repair_walk(struct dump *dx, int dfd, const char *path, int depth, void *ctx)
{
	struct repair_ctx *rc = (struct repair_ctx *)ctx;
	const char *prev = seen_before(dx, dfd, path);
	char **subs;
	size_t n, k;
	int changed = 0, v;
	rc->found++;
	if (prev) {
		fprintf(stderr, "%s: %s: warning: the same directory as %s: repaired once\n", prog, path, prev);
		return;
	}
	if (repair_trace(dx, dfd, path, &changed) != 0)
		rc->status = 1;
	print_notes(dx);
	v = verify_trace(dx, dfd, path);
	if (v < 0) {
		fprintf(stderr, "%s: %s: still damaged after repair:\n", prog, path);
		rc->status = 1;
	} else if (v > 0) {
		/* babeltrace2 reads it: it says which packets it lacks */
		fprintf(stderr, "%s: %s: %s; the trace is readable, but packets are missing:\n", prog, path,
			changed ? "repaired" : "nothing to repair");
		rc->status = 1;
	} else if (!changed) {
		fprintf(stderr, "%s: %s: nothing to repair; the trace is readable\n", prog, path);
	} else {
		fprintf(stderr, "%s: %s: repaired; the trace is readable\n", prog, path);
	}
	print_notes(dx);
	subs = sub_traces(dfd, 1, &n);
	for (k = 0; k < n; k++) {
		char *sub = path_join(path, subs[k]);
		int fd;
		if (depth + 1 >= MAX_DEPTH)
			fprintf(stderr, "%s: %s: warning: more than %d directories deep: not repaired\n", prog, sub,
				MAX_DEPTH);
		else if ((fd = open_dir_at(dfd, subs[k])) >= 0) {
			repair_walk(dx, fd, sub, depth + 1, ctx);
			close(fd);
		}
		free(sub);
		free(subs[k]);
	}
	free(subs);
}

static int do_repair(struct dump *dx, char **dirs, int ndirs)
{
	int i, status = 0;
	for (i = 0; i < ndirs; i++) {
		struct repair_ctx rc;
		int fd = open_arg_dir(dirs[i]);
		memset(&rc, 0, sizeof(rc));
		if (fd < 0) {
			fprintf(stderr, "%s: %s: %s\n", prog, dirs[i], errno == ENOTDIR ? "not a directory" : strerror(errno));
			status = 1;
			continue;
		}
		seen_reset(dx);
		if (has_metadata_at(fd)) {
			repair_walk(dx, fd, dirs[i], 0, &rc);
		} else if (has_streams(fd)) {
			fprintf(stderr, "%s: %s: stream files but no metadata file: cannot repair\n", prog, dirs[i]);
			status = 1;
			rc.found = 1;
		} else {
			(void)seen_before(dx, fd, dirs[i]);
			find_traces(dx, fd, dirs[i], 0, repair_walk, &rc);
			print_notes(dx);
		}
		close(fd);
		if (!rc.found) {
			fprintf(stderr, "%s: %s: not a trace directory (no metadata, no trace below it)\n", prog,
				dirs[i]);
			status = 1;
		}
		status |= rc.status;
	}
	return status;
}

/* ------------------------------------------------------------------ */
/* main                                                               */
/* ------------------------------------------------------------------ */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: %s [--text|--json|--perfetto|--summary] [--all] [-o FILE] DIR...\n"
		"       %s --repair DIR...\n"
		"Reads the trace directories that <trace/sink.h> writes (CTF 1.8: metadata and\n"
		"stream-* files; docs/trace-format.md).\n"
		"\n"
		"  --text        (default) one line per event, every thread merged in time order:\n"
		"                <sec>.<nsec> <tid> <system>:<event> <TP_printk output>\n"
		"                and '# N events of thread TID dropped' where drops were counted\n"
		"  --json        Chrome Trace Event JSON (Perfetto UI, chrome://tracing)\n"
		"  --perfetto    Perfetto's native protobuf trace (write it with -o FILE.pftrace;\n"
		"                open it in ui.perfetto.dev): a track per thread, slices,\n"
		"                counters and flows, the fields as arguments\n"
		"  --summary     process, mode, clock, time span, events and drops, events per\n"
		"                type and per thread\n"
		"  --all         also merge the traces nested in DIR (a forked child's\n"
		"                <comm>-<pid>/, recursively; never snapshot-*/)\n"
		"  -o, --output FILE   write the output there instead of standard output\n"
		"  --repair      make crashed traces readable by babeltrace2, in place: cut an\n"
		"                incomplete trailing packet; rewrite each flight-recorder ring\n"
		"                oldest packet first, each shrunk to its content, unused slots\n"
		"                dropped.  Repairs every trace in or below DIR.\n"
		"  -h, --help    this help\n"
		"  -V, --version the version\n"
		"\n"
		"DIR is a trace (it has a metadata file) or a session directory: then every\n"
		"trace below it (one per process) is read, merged in time order, as\n"
		"babeltrace2 does.  Snapshots (snapshot-<n>/) are read when named.  Flight\n"
		"rings are read directly (--repair is only needed for other readers).\n"
		"Problems (file and byte offset) go to stderr after the output.\n"
		"\n"
		"Links, FIFOs and devices below DIR are never followed or opened (each is\n"
		"named); --repair writes only files it creates.\n"
		"\n"
		"Exit status: 0 ok; 1 a trace is damaged, incomplete (packets missing,\n"
		"duplicated or out of order) or unreadable (what could be read was printed),\n"
		"or the output could not be written; 2 usage error.\n",
		prog, prog);
}

/* The time (ns) of the first packet of these traces: JSON's "ts":0. */
static uint64_t trace_origin(const struct group *groups, size_t ngroups)
{
	uint64_t origin = UINT64_MAX;
	size_t g, t, s;
	for (g = 0; g < ngroups; g++)
		for (t = 0; t < groups[g].n; t++) {
			const struct trace *tr = groups[g].tr[t];
			for (s = 0; s < tr->nst; s++)
				if (tr->st[s].npk) {
					uint64_t ns = trace_ns(tr, tr->st[s].pk[0].tsb);
					if (ns < origin)
						origin = ns;
				}
		}
	return origin == UINT64_MAX ? 0 : origin;
}

static int usage_err(const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", prog);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry '%s --help'.\n", prog);
	return 2;
}

/* The tool, given its context and room for argc directory names. */
static int dump_run(struct dump *dx, int argc, char **argv, char **dirs)
{
	const char *outfile = NULL;
	int ndirs = 0, all = 0, i, mode = -1, nomore = 0, g_mode = M_TEXT;
	struct group *groups = NULL;
	size_t ngroups = 0, capgroups = 0, g, t;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		int m = -1;
		if (nomore || a[0] != '-' || !a[1]) {
			dirs[ndirs++] = argv[i];
			continue;
		}
		if (!strcmp(a, "--")) {
			nomore = 1;
		} else if (!strcmp(a, "--text")) {
			m = M_TEXT;
		} else if (!strcmp(a, "--json")) {
			m = M_JSON;
		} else if (!strcmp(a, "--summary")) {
			m = M_SUMMARY;
		} else if (!strcmp(a, "--perfetto")) {
			m = M_PERFETTO;
		} else if (!strcmp(a, "--repair")) {
			m = M_REPAIR;
		} else if (!strcmp(a, "--all")) {
			all = 1;
		} else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
			if (++i >= argc)
				return usage_err("%s needs a file name", a);
			outfile = argv[i];
		} else if (!strncmp(a, "--output=", 9)) {
			outfile = a + 9;
		} else if (!strncmp(a, "-o", 2)) {
			outfile = a + 2;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(a, "-V") || !strcmp(a, "--version")) {
			printf("tracepoint-dump %s (CTF 1.8 traces of tracepoint.h's recorder)\n", TRACEPOINT_DUMP_VERSION);
			return 0;
		} else {
			return usage_err("unknown option '%s'", a);
		}
		if (m >= 0) {
			if (mode >= 0 && mode != m && (mode == M_REPAIR || m == M_REPAIR))
				return usage_err("%s cannot be combined with another mode", "--repair");
			if (mode >= 0 && mode != m)
				return usage_err("%s: one output at a time (--text, --json, --summary "
						 "or --perfetto)", a);
			mode = m;
		}
	}
	if (mode >= 0)
		g_mode = mode;
	if (!ndirs)
		return usage_err("%s", "no trace directory given");
	if (g_mode == M_REPAIR) {
		if (outfile || all)
			return usage_err("%s takes no -o or --all (it repairs subtraces too)", "--repair");
		return do_repair(dx, dirs, ndirs);
	}
	/* load everything first (JSON needs a common time origin) */
	for (i = 0; i < ndirs; i++) {
		int fd = open_arg_dir(dirs[i]);
		if (fd < 0) {
			note(dx, 1, dirs[i], -1, "%s", errno == ENOTDIR ? "not a directory" : strerror(errno));
			continue;
		}
		seen_reset(dx);
		GROW(groups, ngroups, capgroups);
		memset(&groups[ngroups], 0, sizeof(*groups));
		groups[ngroups].name = dirs[i];
		groups[ngroups].all = all;
		if (has_metadata_at(fd)) {
			add_trace_rec(dx, &groups[ngroups++], fd, dirs[i], 0, 0);
		} else if (has_streams(fd)) {
			note(dx, 1, dirs[i], -1, "stream files but no metadata file: cannot read this trace");
		} else {
			/* a session: every process's trace below, merged */
			(void)seen_before(dx, fd, dirs[i]);
			find_traces(dx, fd, dirs[i], 0, add_found, &groups[ngroups]);
			if (!groups[ngroups].found)
				note(dx, 1, dirs[i], -1, "not a trace directory (no metadata, no trace below it)");
			ngroups++;
		}
		close(fd);
	}
	dx->ob.fd = 1;
	dx->ob.name = "standard output";
	if (outfile && strcmp(outfile, "-")) {
		dx->ob.fd = open(outfile, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dx->ob.name = outfile;
		if (dx->ob.fd < 0) {
			fprintf(stderr, "%s: %s: %s\n", prog, outfile, strerror(errno));
			return 1;
		}
	}
	if (g_mode == M_PERFETTO && dx->ob.fd == 1 && isatty(1)) {
		fprintf(stderr, "%s: --perfetto writes a binary trace: give -o FILE.pftrace (or redirect the output)\n",
			prog);
		return 2;
	}
	dx->ob.cap = 1 << 20;
	dx->ob.b = (char *)xmalloc(dx->ob.cap);
	if (g_mode == M_PERFETTO) {
		pf_start(dx);
		for (g = 0; g < ngroups; g++)
			merge(dx, groups[g].tr, groups[g].n, emit_pftrace);
		pf_finish(dx);
	} else if (g_mode == M_JSON) {
		dx->origin = trace_origin(groups, ngroups);
		ob_puts(dx, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[", 39);
		for (g = 0; g < ngroups; g++)
			for (t = 0; t < groups[g].n; t++)
				json_meta(dx, groups[g].tr[t]);
		for (g = 0; g < ngroups; g++)
			merge(dx, groups[g].tr, groups[g].n, emit_json);
		ob_printf(dx, "\n],\"otherData\":{\"time_origin_unix_ns\":\"%llu\",\"source\":\"tracepoint-dump %s\"}}\n",
			  (unsigned long long)dx->origin, TRACEPOINT_DUMP_VERSION);
		free(dx->flows.v);
		memset(&dx->flows, 0, sizeof(dx->flows));
	} else if (g_mode == M_SUMMARY) {
		int first = 1;
		for (g = 0; g < ngroups; g++)
			for (t = 0; t < groups[g].n; t++) {
				if (!first)
					ob_puts(dx, "\n", 1);
				first = 0;
				summary(dx, groups[g].tr[t]);
			}
	} else {
		for (g = 0; g < ngroups; g++) {
			if (ngroups > 1) {
				char *gn = text_dup(groups[g].name);
				ob_printf(dx, "# %s\n", gn);
				free(gn);
			}
			merge(dx, groups[g].tr, groups[g].n, emit_text);
		}
	}
	ob_flush(dx);
	if (dx->ob.fd != 1 && close(dx->ob.fd) != 0) {
		fprintf(stderr, "%s: %s: %s\n", prog, outfile, strerror(errno));
		dx->status = 1;
	}
	print_notes(dx);
	for (g = 0; g < ngroups; g++) {
		for (t = 0; t < groups[g].n; t++)
			free_trace(groups[g].tr[t]);
		free(groups[g].tr);
	}
	free(groups);
	return dx->status;
}

int main(int argc, char **argv)
{
	struct dump dx;
	char **dirs;
	size_t i;
	int rc;
	/* as the program starts (tests/fuzz_dump calls main once per input) */
	memset(&dx, 0, sizeof(dx));
	dx.jfirst = 1;
	dx.sec = UINT64_MAX;
	dirs = (char **)xcalloc((size_t)argc + 1, sizeof(*dirs));
	rc = dump_run(&dx, argc, argv, dirs);
	free(dirs);
	free(dx.ob.b);
	free(dx.flagbuf);
	for (i = 0; i < dx.nskipped; i++)
		free(dx.skipped[i]);
	free(dx.skipped);
	for (i = 0; i < dx.nseen; i++)
		free(dx.seen[i].path);
	free(dx.seen);
	for (i = 0; i < dx.nmsg; i++)
		free(dx.msg[i]);
	free(dx.msg);
	return rc;
}
