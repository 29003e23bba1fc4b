/* libFuzzer target for the field filter language (trace/filter.h) and the
 * "patterns if filter; ..." splitter: any bytes are compiled, once for the
 * syntax alone and once against a set of fields of every kind; a program
 * that compiles is run on records (a well-formed one, one whose strings are
 * cut short); the bytes are also split as a TRACEPOINTS value and used as a
 * glob; and compiled a third time for an event class whose TP_printk
 * shows a (signed) by __print_symbolic labels and h by __print_flags
 * labels (trace_filter_compile_event).  Invariants: an error's offset lies inside the input and has a
 * reason; whatever compiles against fields compiles for the syntax alone;
 * a run answers 0 or 1 and reads nothing outside its record (ASan), and
 * the recorder's own path (first step inline, 8-byte loads) decides as
 * trace_filter_match does; whatever compiles without labels compiles
 * with them and decides the same (a label is only ever a value in
 * quotes, which the plain compile refuses for integers); the splitter makes progress and stays inside the input; "*" matches
 * everything and a glob without wildcards matches itself.  Built with
 * clang -fsanitize=fuzzer,address,undefined, or with -DFUZZ_REPLAY_MAIN as
 * a plain program that replays files (any CC). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <trace/filter.h>

/* a(int) b(unsigned long) c(long long) small(signed char) h(unsigned short)
 * comm(char[8]) ptr(void *) ratio(double) bytes(unsigned char[4]), then
 * the __string()s name and tag. */
static const struct trace_event_field fields[] = {
	{ "int", "a", 0, 4, TRACE_FIELD_INT, 1, 0 },
	{ "unsigned long", "b", 4, 8, TRACE_FIELD_INT, 0, 0 },
	{ "long long", "c", 12, 8, TRACE_FIELD_INT, 1, 0 },
	{ "signed char", "small", 20, 1, TRACE_FIELD_INT, 1, 0 },
	{ "unsigned short", "h", 21, 2, TRACE_FIELD_INT, 0, 0 },
	{ "char", "comm", 23, 8, TRACE_FIELD_INT, 1, 8 },
	{ "string", "name", 0, 0, TRACE_FIELD_STRING, 0, 0 },
	{ "const void *", "ptr", 31, 8, TRACE_FIELD_PTR, 0, 0 },
	{ "double", "ratio", 39, 8, TRACE_FIELD_FLOAT, 1, 0 },
	{ "unsigned char", "bytes", 47, 4, TRACE_FIELD_INT, 0, 4 },
	{ "string", "tag", 0, 0, TRACE_FIELD_STRING, 0, 0 },
};
#define FIXED 51u

/* The class: the fields above, the tables of a and h, and one of an
 * expression (no labels for filters). */
static const struct trace_event_field *class_fields(unsigned *n)
{
	*n = sizeof(fields) / sizeof(fields[0]);
	return fields;
}

static void class_symbols(trace_print_symbols_fn fn, void *priv)
{
	static const struct trace_print_flags states[] = { { -91, "NEG" },
							   { 0, "IDLE" },
							   { -1515870811, "FILL" },
							   { 7, "BUSY" },
							   { 0, NULL } };
	static const struct trace_print_flags bits[] = { { 0x0001, "READ" }, { 0x0002, "WRITE" },
							 { 0x0003, "RW" },   { 0x8000, "SYNC" },
							 { 0xa5a5, "FILL" }, { 0, NULL } };
	static const struct trace_print_flags odd[] = { { 1, "odd" }, { 0, NULL } };
	fn(priv, "__entry->a", states, NULL);
	fn(priv, "( __entry -> h )", bits, "|");
	fn(priv, "__entry->b & 1", odd, NULL);
}

static const struct trace_event_class cls = { "fz", "fz_class",	   "",	 FIXED, class_fields,
					      NULL, class_symbols, NULL, NULL };

static void check_error(const char *s, int r, size_t pos, const char *why)
{
	if (r == 0)
		return;
	if (r != -EINVAL || pos > strlen(s) || !why[0])
		abort();
}

/* What the recorder decides for the record rec[0..n) (placed, as in a
 * window, after 16 bytes of header): 1 kept, 0 given back.  Runs the
 * recorder's own path (tp__ev_filter_end, which it jumps to) on a
 * buffer and packet of its own. */
static int recorder_keeps(const struct trace_filter *f, const unsigned char *rec, size_t n)
{
	unsigned char *buf = (unsigned char *)malloc(16 + n);
	struct trace_packet pkt;
	struct trace_buffer b;
	int kept;
	if (!f) { /* no filter: the recorder commits (tp__ev_finish) */
		free(buf);
		return 1;
	}
	if (!buf)
		abort();
	memset(buf, 0x5a, 16);
	memcpy(buf + 16, rec, n);
	memset(&pkt, 0, sizeof(pkt));
	memset(&b, 0, sizeof(b));
	b.pos = buf + 16;
	b.pkt = &pkt;
	b.busy = 1;
	tp__ev_filter_end(f, &b, buf + 16 + n, 1, buf + 16, n);
	kept = b.pos == buf + 16 + n; /* committed, else given back */
	if (!kept && b.pos != buf + 16)
		abort(); /* given back: nothing may have been committed */
	if (b.busy)
		abort(); /* committed or given back, the buffer is free */
	free(buf);
	return kept;
}

static void run(const struct trace_filter *f)
{
	unsigned char rec[FIXED + 16];
	size_t n;
	int r;
	/* every record is malloc'd at its exact size: ASan sees any overread */
	memset(rec, 0xa5, FIXED);
	memcpy(rec + 23, "worker\0\0", 8);
	memcpy(rec + FIXED, "dentry\0x,y", 11);
	for (n = FIXED; n <= FIXED + 11; n += n == FIXED ? 3 : n == FIXED + 3 ? 8 : 1) {
		unsigned char *copy = (unsigned char *)malloc(n);
		if (!copy)
			return;
		memcpy(copy, rec, n);
		r = trace_filter_match(f, copy, n);
		if ((r != 0 && r != 1) || recorder_keeps(f, copy, n) != r)
			abort(); /* the recorder's path must agree with the plain one */
		free(copy);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = (char *)malloc(size + 1), why[256];
	struct trace_filter *f = NULL;
	struct trace_spec_group g;
	size_t pos = (size_t)-1, at = 0, len;
	int r1, r2, r3;
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	len = strlen(s);
	r1 = trace_filter_compile(s, NULL, 0, 0, NULL, &pos, why, sizeof(why));
	check_error(s, r1, pos, why);
	pos = (size_t)-1;
	r2 = trace_filter_compile(s, fields, sizeof(fields) / sizeof(fields[0]), FIXED, &f, &pos,
				  why, sizeof(why));
	check_error(s, r2, pos, why);
	if (r2 == 0) {
		if (r1 != 0 || !f || strcmp(f->text, s) != 0)
			abort();
		run(f);
		trace_filter_free(f);
	}
	pos = (size_t)-1;
	r3 = trace_filter_compile_event(s, &cls, &f, &pos, why, sizeof(why));
	check_error(s, r3, pos, why);
	if ((r2 == 0 && r3 != 0) || (r3 == 0 && r1 != 0))
		abort(); /* labels only add */
	if (r3 == 0) {
		if (!f || strcmp(f->text, s) != 0)
			abort();
		run(f);
		trace_filter_free(f);
	}
	do { /* the TRACEPOINTS splitter */
		size_t next = trace_spec_next(s, at, &g);
		if ((next && next <= at) || next > len + 1 || g.pat_at + g.pat_len > len ||
		    (g.filter && g.filter_at + g.filter_len > len))
			abort();
		at = next;
	} while (at);
	if (!trace_filter_glob("*", 1, s, len) ||
	    (len < 64 && !memchr(s, '*', len) && !memchr(s, '?', len) && !memchr(s, '[', len) &&
	     !trace_filter_glob(s, len, s, len)))
		abort();
	(void)trace_filter_glob(s, len, "dentry", 6);
	free(s);
	return 0;
}

#ifdef FUZZ_REPLAY_MAIN
int main(int argc, char **argv)
{
	int i;
	for (i = 1; i < argc; i++) {
		static uint8_t buf[1 << 16];
		size_t n;
		FILE *f = fopen(argv[i], "rb");
		if (!f) {
			perror(argv[i]);
			return 1;
		}
		n = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		LLVMFuzzerTestOneInput(buf, n);
	}
	printf("replayed %d input(s)\n", argc - 1);
	return 0;
}
#endif
