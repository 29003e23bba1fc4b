/* SPDX-License-Identifier: MIT */
/*
 * tools/dump/dump.h - the parts of tracepoint-dump, the trace reader, and
 * what they share: the trace model (struct trace, stream, event, field),
 * the metadata parser's tokens, the cursors, the run's context (struct
 * dump) and the functions one part calls in another.
 *
 * tracepoint-dump reads the trace directories that <trace/sink.h> writes
 * (CTF 1.8; the contract is docs/trace-format.md) and prints them as text,
 * Chrome trace JSON, a Perfetto protobuf trace or a summary; --repair
 * makes a crashed trace readable by babeltrace2.  Its parts, one file
 * each, in the order data flows through them:
 *
 *   util.c      allocation, byte order, number formatting, the output
 *               buffer, the messages (collected, printed after the output)
 *   metadata.c  the TSDL lexer and parser (the metadata file)
 *   printk.c    TP_printk formats compiled into segments
 *   expr.c      TP_printk arguments that are expressions (casts, ?:,
 *               the kernel's __print_* helpers): compiled, evaluated
 *   symbols.c   %ps/%pS: an address's name, from the traced program's
 *               files (the metadata's "objects:" comment)
 *   reader.c    loading a trace: its files, the stream files indexed
 *               (packets), cursors over the streams and their merge
 *   ring.c      a stream-mode thread's warm ring, joined to its stream file
 *   text.c      field values and the text output
 *   json.c      Chrome trace JSON
 *   perfetto.c  the Perfetto protobuf output (encoder: protobuf.h)
 *   summary.c   --summary
 *   repair.c    --repair
 *   main.c      the command line and the directories it names
 *
 * Included by every part and by nothing else (tests/fuzz_dump includes the
 * parts whole).  Depends on libc (C99 + POSIX), the library's version
 * (include/tracepoint/version.h) and the trace's layout
 * (include/trace/wire.h), both found relative to this file: no -I is
 * needed.  No part keeps state of its own: whatever a run changes is in
 * struct dump, passed to what changes it; tables are static const.
 *
 *   cc -O2 -o tracepoint-dump tools/dump/[a-z]*.c
 */
#ifndef TOOLS_DUMP_DUMP_H_INCLUDED
#define TOOLS_DUMP_DUMP_H_INCLUDED

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
#include "../../include/tracepoint/version.h"
/* The trace's layout (packet header, record headers), written once in
 * include/trace/wire.h for the recorder and the tools. */
#include "../../include/trace/wire.h"
#ifndef TRACEPOINT_DUMP_VERSION
#define TRACEPOINT_DUMP_VERSION TRACEPOINT_VERSION_STRING
#endif

__extension__ typedef unsigned __int128 u128;
__extension__ typedef __int128 i128;
typedef unsigned char u8;

#define PACKET_HDR ((unsigned)TRACE_PACKET_HEADER_SIZE) /* header + context, bytes */
#define MAX_ERRS_PER_FILE 8     /* problems reported per stream file */

static const char *const prog = "tracepoint-dump";

enum { M_TEXT, M_JSON, M_SUMMARY, M_REPAIR, M_PERFETTO, M_HIST };

#define GROW(arr, n, cap)                                                         \
	do {                                                                      \
		if ((n) == (cap)) {                                               \
			(cap) = (cap) ? (cap) * 2 : 8;                            \
			(arr) = xrealloc((arr), (cap) * sizeof(*(arr)));          \
		}                                                                 \
	} while (0)

static const char d2[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

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

/* Flows (<trace/event_kinds.h>): each (scope, id) pair seen, with the id
 * written for it.  A process-scoped flow's scope is its trace and process;
 * a global flow's (TRACE_FLOW_GLOBAL) is none (tr NULL, pid 0). */
struct flow {
	const struct trace *tr;
	uint32_t pid;
	uint64_t id;  /* the event's first field */
	uint64_t out; /* 1, 2, ...: in order of first appearance */
};
struct flowmap {
	struct flow *v; /* open addressing; out 0: a free slot */
	size_t n, cap;
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
	int status; /* the exit status so far */
	char **msg;
	size_t nmsg, capmsg, lostmsg;
	int quiet;		/* --repair's own indexing: no messages */
	unsigned long nerrs;	/* errors noted, shown or not */
	unsigned long nmissing; /* of which: packets missing from a stream */
	char **skipped;		/* paths named as skipped (each once) */
	size_t nskipped, capskipped;
	int strict;	   /* load_trace: check the metadata with strict_metadata */
	struct seen *seen; /* the directories read for one DIR argument */
	size_t nseen, capseen;
	/* text */
	uint64_t sec; /* the second of secstr (UINT64_MAX: none yet) */
	char secstr[32];
	size_t seclen;
	char *flagbuf; /* flags_text's buffer */
	size_t flagcap;
	char *xbuf; /* the text of an expression's helpers (expr.c) */
	size_t xlen, xcap;
	/* JSON */
	uint64_t origin; /* ns of "ts":0 */
	int jfirst;
	struct flowmap flows; /* flows seen so far (--json, --perfetto) */
	int show_cpu; /* text: a trace read has CPUs (TRACEPOINTS_CPU=1): [CPU] on each line */
	/* the clock of the times shown: CLK_* (--clock; the trace's is realtime) */
	int clock;
	/* --perfetto */
	struct pf_state *pf; /* made and freed by the Perfetto writer */
	/* --hist: the triggers that merge() feeds (hist.c's), while it runs */
	void *hist;
	/* --repair */
	uint64_t tmpctr; /* temporary names made */
};

/* --clock: the index in trace.clk_at */
enum { CLK_REALTIME = 0, CLK_MONOTONIC = 1, CLK_BOOTTIME = 2 };

enum { FT_INT = 1, FT_FLOAT, FT_STR };
enum { BO_TRACE = 0, BO_LE, BO_BE };

/* One label of a CTF enumeration (a __print_symbolic/__print_flags table). */
struct sym {
	int64_t v;
	char *name;
};

struct ftype {
	struct sym *sym; /* an enumeration's labels (fields only), or NULL */
	unsigned nsym;
	unsigned char kind;  /* FT_* */
	unsigned char size;  /* bytes of one element: 1, 2, 4, 8 */
	unsigned char align; /* bytes */
	unsigned char sgn, base, enc, bo, swap;
	const char *bad; /* why this type cannot be read, or NULL */
};

struct field {
	char *name; /* without the leading '_' */
	struct ftype t;
	unsigned count;	 /* array length; 0: a scalar */
	int is_text;	 /* a char array: printed as a string */
	uint32_t fixoff; /* packed events: offset in the payload */
	char *jkey;	 /* "name": */
	size_t jkeylen;
	unsigned seq; /* a sequence: 1 + the index of its length field; 0: not one */
	int hidden;   /* a sequence's length field: not printed */
	char *fdelim; /* an enumeration printed as flags (__print_flags), with this separator */
};

enum {
	SEG_LIT,
	SEG_INT,
	SEG_PTR,
	SEG_CHR,
	SEG_STR,
	SEG_PSTR, /* %s of a pointer field: the string at the address (symbols.c) */
	SEG_SLOW,
	SEG_FLT,
	SEG_SYM,
	SEG_FLAGS,
	SEG_HEX,
	SEG_BITMASK,  /* __get_bitmask(f): the kernel's %*pb of f's bytes */
	SEG_SOCKADDR, /* %pIS... of __get_sockaddr(f): spec holds the letters after "IS" */
	SEG_IPADDR,   /* %pI4, %pi4, %pI6, %pi6, %pI6c of a byte array: spec holds the letters */
	SEG_DYNLEN,   /* __get_dynamic_array_len(f): its bytes, as SEG_INT */
	SEG_EXPR      /* an expression (expr.c): ev->xp[field] */
};
enum { FL_MINUS = 1, FL_PLUS = 2, FL_SPACE = 4, FL_HASH = 8, FL_ZERO = 16 };

struct seg {
	unsigned char kind, conv, flags, bits, sgn;
	int width, prec; /* -1: none */
	int field;
	unsigned idx; /* element of an array (indexed arguments) */
	int indexed;
	const char *lit; /* SEG_LIT */
	size_t litlen;
	char spec[40];	    /* SEG_SLOW, SEG_FLT: the conversion for snprintf */
	uint64_t hexlen;    /* SEG_HEX: at most this many bytes */
	unsigned char pext; /* SEG_EXPR %p: 's' or 'S' (%ps, %pS: a symbol), else 0 */
};

/* An argument of TP_printk compiled by expr.c: a tree of nodes, and what
 * its value is (XV_*). */
enum { XV_INT = 1, XV_STR, XV_BUF };
struct xnode;
struct expr {
	struct xnode *n;
	unsigned nn, capn;
	int root;
	int kind; /* XV_* */
};
/* A value: an integer (v, already of its type), text or bytes (p, n). */
struct xval {
	int kind;
	uint64_t v;
	const u8 *p;
	size_t n, off;
	unsigned esize;
	int scratch; /* the text is in dump.xbuf (at off) */
	int raw;     /* printed as it is (__print_hex_dump's lines) */
};

struct event {
	char *name; /* "system:event" */
	size_t namelen;
	char *sys, *ename;
	uint64_t id;
	int has_id;
	struct field *f;
	unsigned nf, capf;
	const char *bad; /* a field this tool cannot read */
	int packed;	 /* fixed fields at constant offsets */
	uint32_t fixsize;
	unsigned nstr;
	uint32_t *fixoffs;
	char *printk;	 /* the comment's text after "printk:" */
	struct expr *xp; /* the arguments compiled by expr.c (SEG_EXPR) */
	unsigned nxp;
	char *fmtbuf; /* literal text of the compiled format */
	struct seg *seg;
	unsigned nseg;
	int use_printk;
	char *jpre; /* {"name":..,"cat":..,"ph":"i","s":"t","ts": */
	size_t jprelen;
	uint64_t count;
	unsigned kind;		  /* EK_* (metadata comment "kind:"; none: instant) */
	uint64_t pf_name, pf_cat; /* --perfetto: interned ids, 0: not yet */
	uint64_t *pf_key;	  /* per field: interned annotation name ids */
	uint64_t *pf_ctr;	  /* per field: counter track uuid (counters) */
};

struct packet {
	uint64_t off, psz, cend; /* bytes; cend: end of content, file offset */
	uint64_t tsb, tse, seq, disc;
	uint32_t tid, pid;
	char comm[17];
};

struct stream {
	struct trace *tr;
	char *path;
	const char *name; /* its name in the trace directory (in path) */
	dev_t dev;	  /* the file read (--repair replaces only it) */
	ino_t ino;
	mode_t mode;
	int fd; /* while it is indexed, else -1 */
	u8 *map;
	uint64_t size;
	struct packet *pk;
	size_t npk, cappk;
	uint64_t stop; /* where a stream-mode walk stopped (size: clean end) */
	const char *stop_why;
	int stop_err; /* the stop is an error, not a crashed writer's leftover */
	unsigned nunused, nover, nbadslot, ntrunc;
	int reordered; /* stream mode: packets not in packet_seq_num order, or twice */
	int ring;      /* stream mode: joined with its warm ring (<name>.ring) */
	int rotated;   /* stream mode: a rotation file (<name>_<k>, TRACEPOINTS_FILE_MB):
			  its packet_seq_num goes on from the file before it */
	unsigned ndup; /* packets seen twice (the second ignored) */
	uint64_t slot; /* flight: ring slot size */
	int nerr;
	/* summary */
	uint64_t events, bytes, dropped;
	uint64_t first_ns, last_ns;
	int have_ns;
	int merged; /* a flight ring's file counted in an earlier one's row */
};

struct alias {
	char *name;
	struct ftype t;
};

/* An executable file mapping of the traced process (the metadata's
 * "objects:" comment) and, once read (symbols.c), its file's symbols. */
struct object {
	uint64_t lo, hi, off; /* the mapping: [lo, hi) from file offset off */
	char *path;
	int loaded, bad, have_bias;
	u8 *map; /* the file, mapped */
	size_t size;
	uint64_t bias; /* run-time address - link-time address */
	const u8 *sym; /* Elf64_Sym[nsym] */
	size_t nsym;
	const char *str;
	size_t strsize;
	uint64_t phoff; /* the program headers (Elf64_Phdr[phnum]) in map */
	unsigned phnum;
};

struct trace {
	char *dir;
	int ok;
	u8 uuid[16];
	int has_uuid, be, swap, flight, has_clock;
	unsigned flight_files; /* flight rings of this many files, each in time order
				  (read as streams; 0: one file a ring, in slots) */
	char *procname, *hostname, *mode;
	long long vpid;
	int has_vpid;
	unsigned ctx; /* bytes of event context after each event header: the
		       * CPU (env record_version >= 2, <trace/wire.h>), or 0 */
	char *clk_name;
	char *clk_uuid; /* the clock's uuid: the boot id of the recording (or NULL) */
	uint64_t freq, off_c;
	int64_t off_s;
	uint64_t clk_at[3];  /* env clock_{realtime,monotonic,boottime}_ns: one instant */
	unsigned has_clk_at; /* bit k: clk_at[k] was read */
	int64_t shift;	     /* added to every time: the clock shown (dump.clock) */
	struct event *ev;
	size_t nev, capev;
	struct event **idtab;
	size_t idtab_n;
	unsigned maxnf;
	struct stream *st;
	size_t nst;
	struct alias *al;
	size_t nal, capal;
	char *snapinfo; /* subtraces, for the summary */
	int is_child;
	struct dump *dx;    /* the run that loaded it: its streams' messages */
	struct object *obj; /* the traced process's files (symbols.c), read when needed */
	size_t nobj, capobj;
};

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
	int strict; /* only what the recorder writes (--repair's check) */
};

/* One top-level block's statements, (b, e) exclusive of the braces. */
/* Event kinds (<trace/event_kinds.h>: enum trace_event_kind), written by
 * the recorder as a comment in the event block: "kind: slice_begin",
 * "kind: counter", "kind: instant flow" ...  Unknown words are ignored (a
 * newer recorder's kind reads as an instant). */
enum {
	EK_INSTANT = 0,
	EK_BEGIN = 1,
	EK_END = 2,
	EK_COUNTER = 3,
	EK_BASE = 15,
	EK_FLOW = 16,
	EK_GLOBAL = 32 /* "flow global": ids shared by every process */
};

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
	int kind;    /* E_* */
	mode_t mode; /* lstat's, for E_OTHER's message */
};

enum { K_EVENT = 1, K_DROP };

struct cursor {
	struct stream *st;
	const struct trace *tr;
	size_t pk;
	const u8 *pkt, *p, *end;
	uint64_t last_ts, prev_disc;
	uint64_t pk_end; /* the packet's timestamp_end */
	/* the current item */
	int kind;
	uint64_t ts, ns, dropn;
	const struct event *ev;
	const u8 *pl;
	const uint32_t *off;
	uint32_t *offbuf, *slen;
	uint32_t tid, pid, rawpid;
	uint32_t cpu; /* the record's CPU (trace.ctx), or TRACE_CPU_UNKNOWN */
	int have_tid;
	char tidstr[32];
	size_t tidlen;
	size_t idx;
	/* clock: ts is base_ns + ts * 1e9 / freq (reader.c's cur_ns()) */
	i128 base_ns;
	uint64_t freq;
	char jtail[64];
	size_t jtaillen;
};

#define MAX_DEPTH 8 /* directory levels searched below a DIR argument */

/* Called on each trace directory found: its descriptor, its path, its
 * depth below the DIR argument. */
typedef void (*trace_fn)(struct dump *dx, int dfd, const char *path, int depth, void *ctx);

/* ---- Called from one part in another ---- */

int host_be(void);
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t s);
void *xrealloc(void *p, size_t n);
char *xstrndup(const char *s, size_t n);
char *xstrdup(const char *s);
char *xvasprintf(const char *fmt, va_list ap);
char *xasprintf(const char *fmt, ...);
int all_zero(const u8 *p, uint64_t n);
char *put_hex(char *o, uint64_t v, int upper);
char *put_double(char *o, double d, int is_float);
void ob_flush(struct dump *dx);
char *ob_make(struct dump *dx, size_t k);
void ob_puts(struct dump *dx, const char *s, size_t n);
void ob_printf(struct dump *dx, const char *fmt, ...);
void note(struct dump *dx, int err, const char *file, long long off, const char *fmt, ...);
/* ring.c: a stream's warm ring joined to it; is entry i the ring of another */
int join_ring(struct stream *st, int fd, int rfd, uint64_t rsize, const char *rname);
int ring_of(const struct dent *ds, size_t nd, size_t i);
void print_notes(struct dump *dx);
int tok_is(const struct tok *t, int type, const char *s);
int perr(struct parser *P, unsigned line, const char *fmt, ...);
int lex(struct parser *P, const char *s, size_t len);
char *unescape(const char *s, size_t n, size_t *outlen);
size_t match_close(struct parser *P, size_t i, size_t lim);
size_t stmt_end(struct parser *P, size_t i, size_t lim);
int parse_metadata(struct parser *P, const char *text, size_t len);
int field_index(const struct event *ev, const char *s, size_t n);
size_t utf8_len(const u8 *s, size_t n);
char *put_text(char *o, const u8 *s, size_t n);
char *text_dup(const char *s);
int compile_printk(struct event *ev);
/* expr.c */
int expr_compile(const struct event *ev, const char *s, const char *e, struct expr *x);
void expr_free(struct expr *x);
void expr_eval(struct dump *dx, const struct cursor *c, const struct expr *x, struct xval *out);
/* symbols.c */
void objects_parse(struct trace *tr, const char *text, size_t len);
void objects_free(struct trace *tr);
int symbol_of(struct trace *tr, uint64_t addr, int with_offset, char *buf, size_t len);
const char *string_at(struct trace *tr, uint64_t addr, size_t *n);
char *put_json_str(char *o, const u8 *s, size_t n);
char *json_str_dup(const char *s, size_t n, size_t *len);
size_t slice_name_len(const struct event *ev);
const char *kind_note(unsigned kind);
char *path_join(const char *a, const char *b);
void free_dents(struct dent *v, size_t n);
int list_dir(int dfd, struct dent **out, size_t *n);
int open_dir_at(int dfd, const char *name);
int has_metadata_at(int dfd);
void skip_note(struct dump *dx, int err, const char *path, mode_t mode, const char *what);
void free_trace(struct trace *tr);
struct trace *load_trace(struct dump *dx, int dfd, const char *dir);
uint64_t trace_ns(const struct trace *tr, uint64_t ts);
void cur_init(struct cursor *c, struct stream *st, size_t idx);
void cur_free(struct cursor *c);
int cur_next(struct cursor *c);
double get_float(const struct cursor *c, int fi, unsigned idx);
const u8 *get_text(const struct cursor *c, int fi, size_t *n);
const char *sym_name(const struct field *f, uint64_t v);
const char *flags_text(struct dump *dx, const struct field *f, uint64_t v, size_t *n);
size_t field_room(const struct cursor *c, unsigned i);
char *put_value(struct dump *dx, char *o, const struct cursor *c, unsigned i, int json);
void emit_text(struct dump *dx, struct cursor *c);
int u64set_add(struct u64set *s, uint64_t x);
int flow_id(const struct cursor *c, uint64_t *id);
uint64_t flow_out(struct dump *dx, const struct cursor *c, int *seen);
void emit_json(struct dump *dx, struct cursor *c);
uint32_t trace_pid(const struct trace *tr);
void json_meta(struct dump *dx, const struct trace *tr);
void pf_start(struct dump *dx);
void pf_finish(struct dump *dx);
void emit_pftrace(struct dump *dx, struct cursor *c);
void merge(struct dump *dx, struct trace **trs, size_t ntr,
	   void (*emit)(struct dump *, struct cursor *));
void summary(struct dump *dx, struct trace *tr);
int hist_check(const char *spec);
int hist_trace(struct dump *dx, struct trace *tr, const char *spec);
void seen_reset(struct dump *dx);
const char *seen_before(struct dump *dx, int dfd, const char *path);
char **sub_traces(int dfd, int with_snap, size_t *n);
void find_traces(struct dump *dx, int dfd, const char *path, int depth, trace_fn fn, void *ctx);
int has_streams(int dfd);
int open_arg_dir(const char *dir);
int do_repair(struct dump *dx, char **dirs, int ndirs);

/* ---- Inline helpers (hot paths) ---- */

static inline uint16_t bswap16(uint16_t v)
{
	return (uint16_t)((v >> 8) | (v << 8));
}

static inline uint32_t bswap32(uint32_t v)
{
	return (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
}

static inline uint64_t bswap64(uint64_t v)
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

static inline uint64_t get_int(const struct cursor *c, int fi, unsigned idx)
{
	const struct field *f = &c->ev->f[fi];
	const u8 *p = c->pl + c->off[fi] + (size_t)idx * f->t.size;
	uint64_t v = ld(p, f->t.size, f->t.swap);
	return f->t.sgn ? sext(v, 8u * f->t.size) : v;
}

#endif /* TOOLS_DUMP_DUMP_H_INCLUDED */
