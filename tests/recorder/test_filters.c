/* Field filters (trace/filter.h, tracepoint_filter, "patterns if filter"
 * in tracepoint_enable): real traces are recorded and read back
 * (trace_read.h); each case fires a few events through a filter and checks
 * which of them the trace holds - every operator, signed and unsigned
 * integers, masks, strings, globs, char arrays, precedence - and that a
 * rejected record takes no room and is not a drop.  Bad filters: the
 * message names the position, with a caret, and nothing changes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "test_common.h"
#include "sink_capture.h"

#define CONFIG_EVF 1
#define CREATE_TRACE_POINTS
#include "events/ev_fields.h"
#define CONFIG_EVL 1
#include "events/ev_labels.h"
#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>
#include "recorder_fixture.h"

static char trace_dir[] = "/tmp/tp_filters_XXXXXX";
static long long serial = 1000; /* evf_three's c / evf_mixed's ptr: which firing a record is */

struct kept {
	long long from, to; /* serials of this case */
	char list[256];	    /* indexes (serial - from) of the records in the trace */
	long n;
};

static void collect(const struct tr_rec *r, void *priv)
{
	struct kept *k = (struct kept *)priv;
	long long s;
	if (r->ev == trace_event_of(&__tracepoint_evf_three)) {
		memcpy(&s, tr_field(r, "c"), sizeof(s));
	} else if (r->ev == trace_event_of(&__tracepoint_evl_req)) {
		memcpy(&s, tr_field(r, "serial"), sizeof(s));
	} else if (r->ev == trace_event_of(&__tracepoint_evf_mixed)) {
		const void *p;
		memcpy(&p, tr_field(r, "ptr"), sizeof(p));
		s = (long long)(uintptr_t)p;
	} else {
		return;
	}
	if (s < k->from || s >= k->to)
		return;
	k->n++;
	snprintf(k->list + strlen(k->list), sizeof(k->list) - strlen(k->list), "%s%lld",
		 k->list[0] ? " " : "", s - k->from);
}

static const char *read_back(long long from, long long to)
{
	static struct kept k;
	memset(&k, 0, sizeof(k));
	k.from = from;
	k.to = to;
	assert_true(tr_read(trace_dir, collect, &k) >= 0);
	return k.list;
}

static const int ints[] = { -5, 0, 3, 4096, 5000 };

/* evf_three(a, (unsigned long)a, serial) for each of ints[] under filter f:
 * the indexes kept. */
static const char *three(const char *f)
{
	char err[512];
	long long from = serial;
	size_t i;
	int r = tracepoint_filter("evf:evf_three", f, err, sizeof(err));
	if (r != 1)
		fail_msg("filter \"%s\": %d %s", f, r, err);
	for (i = 0; i < ARRAY_LEN(ints); i++)
		trace_evf_three(ints[i], (unsigned long)(long)ints[i], serial++);
	return read_back(from, serial);
}

static void integers(void **state)
{
	(void)state;
	assert_string_equal(three(NULL), "0 1 2 3 4");
	assert_string_equal(three("a == 3"), "2");
	assert_string_equal(three("a != 3"), "0 1 3 4");
	assert_string_equal(three("a < 0"), "0"); /* signed */
	assert_string_equal(three("a <= 3"), "0 1 2");
	assert_string_equal(three("a > 4096"), "4");
	assert_string_equal(three("a >= 4096"), "3 4");
	assert_string_equal(three("a > -10"), "0 1 2 3 4");
	assert_string_equal(three("b > 4096"), "0 4"); /* unsigned: -5 is huge */
	assert_string_equal(three("b < 4096"), "1 2");
	assert_string_equal(three("a == 0x1000"), "3");
	assert_string_equal(three("a == 010"), ""); /* octal 8 */
	assert_string_equal(three("b == 18446744073709551611"), "0");
	assert_string_equal(three("a == -5"), "0");
	assert_string_equal(three(""), "0 1 2 3 4"); /* "" clears */
}

static void masks(void **state)
{
	(void)state;
	assert_string_equal(three("b & 0x1000"), "0 3 4"); /* 5000 = 0x1388, -5 = ...fffb */
	assert_string_equal(three("a & 1"), "0 2");
	assert_string_equal(three("a & 6"), "0 2"); /* 5000 & 6 == 0 */
	assert_string_equal(three("!(a & 1)"), "1 3 4");
}

static void logic_and_precedence(void **state)
{
	(void)state;
	assert_string_equal(three("a > -10 && a < 10"), "0 1 2");
	assert_string_equal(three("a == 0 || a == 5000"), "1 4");
	assert_string_equal(three("!(a == 3)"), "0 1 3 4");
	assert_string_equal(three("!a == 3"), "0 1 3 4"); /* ! binds to the condition */
	/* && binds tighter than ||: a == 3 || (a == 0 && b == 1) */
	assert_string_equal(three("a == 3 || a == 0 && b == 1"), "2");
	assert_string_equal(three("(a == 3 || a == 0) && b == 1"), "");
	assert_string_equal(three("a == 3 || (a == 0 && b == 0)"), "1 2");
	assert_string_equal(three("!!(a < 0 || a > 4096)"), "0 4");
	assert_string_equal(three("((a >= 0)) && !(a == 0) && a != 5000"), "2 3");
	assert_string_equal(three("a<0||a>=4096&&b!=4096"), "0 4");
	assert_string_equal(three(NULL), "0 1 2 3 4");
}

static const char *names[] = { "dentry", "inode", "d", "", "x,y;z" };
static const signed char smalls[] = { -1, 1, 127, -128, 0 };

static const char *mixed(const char *f)
{
	char err[512];
	long long from = serial;
	size_t i;
	static const unsigned char bytes[4] = { 1, 2, 3, 4 };
	int r = tracepoint_filter("evf_mixed", f, err, sizeof(err));
	if (r != 1)
		fail_msg("filter \"%s\": %d %s", f, r, err);
	for (i = 0; i < ARRAY_LEN(names); i++)
		trace_evf_mixed(names[i], (const void *)(uintptr_t)serial++, 0.5, bytes,
				names[(i + 1) % ARRAY_LEN(names)], smalls[i]);
	return read_back(from, serial);
}

static void strings_and_globs(void **state)
{
	(void)state;
	assert_string_equal(mixed("name == \"dentry\""), "0");
	assert_string_equal(mixed("name == 'dentry'"), "0");
	assert_string_equal(mixed("name != \"dentry\""), "1 2 3 4");
	assert_string_equal(mixed("name == \"\""), "3");
	assert_string_equal(mixed("name == \"dentr\""), "");
	assert_string_equal(mixed("name ~ \"d*\""), "0 2");
	assert_string_equal(mixed("name ~ \"?node\""), "1");
	assert_string_equal(mixed("name ~ \"*\""), "0 1 2 3 4");
	assert_string_equal(mixed("name ~ \"[a-e]*\""), "0 2");
	assert_string_equal(mixed("name ~ \"[!d]*\""), "1 4");
	assert_string_equal(mixed("name ~ \"*[,]*\""), "4");
	/* the second __string (tag: the next name) */
	assert_string_equal(mixed("tag == \"x,y;z\""), "3");
	assert_string_equal(mixed("tag ~ \"*e*\" && name ~ \"*e*\""), "0");
	/* a char array (comm = "worker") */
	assert_string_equal(mixed("comm == \"worker\""), "0 1 2 3 4");
	assert_string_equal(mixed("comm ~ \"w?rk*\""), "0 1 2 3 4");
	assert_string_equal(mixed("comm != \"worker\""), "");
	/* signed char; a pointer is an unsigned integer */
	assert_string_equal(mixed("small < 0"), "0 3");
	assert_string_equal(mixed("small >= -128 && small <= -1"), "0 3");
	assert_string_equal(mixed("small == 127 || name == \"\""), "2 3");
	assert_string_equal(mixed("ptr != 0"), "0 1 2 3 4");
	assert_string_equal(mixed(NULL), "0 1 2 3 4");
}

/* evl_req for each method (GET, PUT, DELETE, 9) with flags READ, WRITE,
 * READ|WRITE|SYNC, 0, err -2, 0, 0, 5 and mode 0..3 under filter f, read
 * back as three() does. */
static const char *labels(const char *f)
{
	static const unsigned flags[] = { 1, 2, 7, 0 };
	static const int errs[] = { -2, 0, 0, 5 };
	char err[512];
	long long from = serial;
	unsigned i;
	int r = tracepoint_filter("evl:evl_req", f, err, sizeof(err));
	if (r != 1)
		fail_msg("filter \"%s\": %d %s", f, r, err);
	for (i = 0; i < 4; i++)
		trace_evl_req(i < 3 ? (int)i + 1 : 9, flags[i], errs[i], i, serial++);
	return read_back(from, serial);
}

/* Labels of __print_symbolic and __print_flags fields as values: the same
 * records as their numbers (in the recorder's inline path: the records
 * are made by the probe; test_filters' fuzzer checks trace_filter_match
 * against it). */
static void labels_as_values(void **state)
{
	(void)state;
	assert_string_equal(labels("method == \"PUT\""), "1");
	assert_string_equal(labels("method == 2"), "1");
	assert_string_equal(labels("method != 'GET'"), "1 2 3");
	assert_string_equal(labels("method == \"DELETE\" || method == \"GET\""), "0 2");
	assert_string_equal(labels("flags & \"WRITE\""), "1 2");
	assert_string_equal(labels("flags & \"READ|SYNC\""), "0 2");
	assert_string_equal(labels("flags & \" READ | SYNC \""), "0 2");
	assert_string_equal(labels("flags == \"READ|WRITE|SYNC\""), "2");
	assert_string_equal(labels("flags == \"RW|SYNC\""), "2");
	assert_string_equal(labels("flags != \"READ\" && !(flags & \"SYNC\")"), "1 3");
	assert_string_equal(labels("err == \"ENOENT\""), "0"); /* a negative label */
	assert_string_equal(labels("err != \"OK\""), "0 3");
	assert_string_equal(labels(NULL), "0 1 2 3");
}

/* A bad filter: -EINVAL, the message (checked) with a caret under the
 * given 1-based position, and the filter in force unchanged. */
static void expect_error(const char *pat, const char *f, const char *why, size_t at)
{
	char err[1024], caret[64];
	int r = tracepoint_filter(pat, f, err, sizeof(err));
	const char *line;
	print_message("%s\n", err);
	assert_int_equal(r, -EINVAL);
	if (!strstr(err, why))
		fail_msg("\"%s\": expected \"%s\" in: %s", f, why, err);
	snprintf(caret, sizeof(caret), "at position %zu\n", at);
	assert_non_null(strstr(err, caret));
	line = strrchr(err, '\n');
	assert_non_null(line);
	assert_int_equal(strlen(line + 1), 2 + at); /* "  " + at - 1 spaces + '^' */
	assert_int_equal(line[1 + 2 + at - 1], '^');
}

static void errors(void **state)
{
	(void)state;
	assert_string_equal(three("a == 3"), "2");
	expect_error("evf_three", "bytes == 1",
		     "no field \"bytes\" in this event (its fields: a, b, c)", 1);
	expect_error("evf_three", "a == \"x\"",
		     "field a is an integer without labels (no __print_symbolic or "
		     "__print_flags in TP_printk): compare it with a number",
		     6);
	expect_error("evf_three", "a ~ \"x*\"", "field a is an integer", 5);
	expect_error("evf_three", "a ~ 1", "~ (glob) compares strings only", 3);
	expect_error("evf_three", "b == -1", "field b is unsigned", 6);
	expect_error("evf_three", "(a == 1", "this '(' is not closed", 1);
	expect_error("evf_three", "a == 1 )", "a ')' that closes nothing", 8);
	expect_error("evf_three", "a = 1", "expected an operator: equality is == (not =)", 3);
	expect_error("evf_three", "a == 1 &&", "unexpected end", 10);
	expect_error("evf_three", "a == 1 and a == 2", "expected && or ||", 8);
	expect_error("evf_three", "a == 1, b == 2", "';' starts the next group", 7);
	expect_error("evf_three", "a == 99999999999999999999", "number too large", 6);
	expect_error("evf_three", "a == 09", "not octal", 7);
	expect_error("evf_three", "a == b", "field names are not values", 6);
	expect_error("evf_three", "a == \"x", "unterminated string", 6);
	expect_error("evf_mixed", "name > \"x\"", "strings are compared with ==, != or ~ only", 6);
	expect_error("evf_mixed", "name == 1", "field name is a string: put the value in quotes",
		     9);
	expect_error("evf_mixed", "ratio > 1", "field ratio is floating point", 1);
	expect_error("evf_mixed", "bytes == 1", "field bytes is an array", 1);
	expect_error("evf:*", "a == 1", "no field \"a\" in this event (its fields: ",
		     1); /* evf_mixed or a lock event: the first met */
	expect_error("evf three", "a == 1", "malformed pattern list", 4);
	expect_error("evl_req", "method == \"PUTT\"",
		     "no label \"PUTT\" for method (its labels: GET, PUT, DELETE); did you mean "
		     "\"PUT\"?",
		     12);
	expect_error("evl_req", "flags & \"READ|WRTE\"",
		     "no label \"WRTE\" for flags (its labels: RW, READ, WRITE, SYNC); did you "
		     "mean \"WRITE\"?",
		     15);
	expect_error("evl_req", "method == \"DEL\"",
		     "no label \"DEL\" for method (its labels: GET, PUT, DELETE); did you mean "
		     "\"DELETE\"?",
		     12); /* a label's beginning */
	expect_error("evl_req", "method == \"PTU\"",
		     "no label \"PTU\" for method (its labels: GET, PUT, DELETE); did you mean "
		     "\"PUT\"?",
		     12); /* two letters swapped: one edit */
	expect_error("evl_req", "method == \"x\"",
		     "no label \"x\" for method (its labels: GET, PUT, DELETE)", 12);
	expect_error("evl_req", "method < \"PUT\"", "a label is compared with == or !=", 8);
	expect_error("evl_req", "method & \"PUT\"", "a label is compared with == or !=", 8);
	expect_error("evl_req", "flags > \"READ\"",
		     "a label is compared with == or != (or &: any of its bits)", 7);
	expect_error("evl_req", "method == \"GET|PUT\"", "field method takes one label", 15);
	expect_error("evl_req", "flags & \"READ|\"", "a label is missing", 15);
	expect_error("evl_req", "mode == \"odd\"", "field mode is an integer without labels", 9);
	expect_error("evl_req", "methd == 1",
		     "no field \"methd\" in this event (its fields: method, flags, err, mode, "
		     "serial); did you mean \"method\"?",
		     1);
	/* nothing changed: the last good filter is in force */
	assert_string_equal(three(NULL), "0 1 2 3 4");
	assert_int_equal(tracepoint_filter("nosuch_event", "a == 1", NULL, 0), 0);
}

/* The limits: TRACE_FILTER_MAX bytes, TRACE_FILTER_MAX_PREDS comparisons,
 * TRACE_FILTER_MAX_DEPTH nested '(' and '!'. */
static void limits(void **state)
{
	static char f[TRACE_FILTER_MAX + 2];
	char err[1024];
	size_t n = 0;
	int i;
	(void)state;
	for (i = 0; i < TRACE_FILTER_MAX_PREDS; i++)
		n += (size_t)snprintf(f + n, sizeof(f) - n, "%sa == %d", i ? "||" : "", i);
	assert_int_equal(tracepoint_filter("evf_three", f, err, sizeof(err)), 1); /* 256: fine */
	assert_string_equal(three(NULL), "0 1 2 3 4");
	snprintf(f + n, sizeof(f) - n, "||a == 1");
	assert_int_equal(tracepoint_filter("evf_three", f, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "too many conditions (at most 256)"));
	memset(f, 0, sizeof(f));
	for (i = 0; i < TRACE_FILTER_MAX_DEPTH; i++)
		f[i] = i % 2 ? '!' : '(';
	strcat(f, "a == 1");
	for (i = 0; i < TRACE_FILTER_MAX_DEPTH / 2; i++)
		strcat(f, ")");
	assert_int_equal(tracepoint_filter("evf_three", f, err, sizeof(err)),
			 1); /* 64 deep: fine */
	memmove(f + 1, f, strlen(f) + 1);
	f[0] = '!';
	assert_int_equal(tracepoint_filter("evf_three", f, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "too deeply nested (at most 64"));
	memset(f, ' ', TRACE_FILTER_MAX + 1);
	memcpy(f, "a == 1", 6);
	f[TRACE_FILTER_MAX + 1] = '\0';
	assert_int_equal(tracepoint_filter("evf_three", f, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "filter too long (at most 4096 bytes)"));
	assert_int_equal(tracepoint_filter("evf_three", NULL, NULL, 0), 1);
}

/* <trace/filter.h> on its own: compile for an event's fields, match
 * payloads made by hand, syntax-only checks, the glob, the splitter. */
static void filter_functions(void **state)
{
	const struct trace_event *ev = trace_event_of(&__tracepoint_evf_three);
	const struct trace_event_field *fl;
	struct trace_filter *f = NULL;
	unsigned n = 0;
	unsigned char entry[20];
	int a = -7;
	unsigned long b = 4096;
	long long c = 3;
	size_t pos = 99;
	char why[256];
	struct trace_spec_group g;
	size_t next;
	(void)state;
	fl = ev->cls->fields(&n);
	assert_int_equal(ev->cls->entry_size, sizeof(entry));
	memcpy(entry, &a, 4);
	memcpy(entry + 4, &b, 8);
	memcpy(entry + 12, &c, 8);
	assert_int_equal(trace_filter_compile("a < 0 && b & 0x1000 && c == 3", fl, n,
					      ev->cls->entry_size, &f, &pos, why, sizeof(why)),
			 0);
	assert_non_null(f);
	assert_string_equal(f->text, "a < 0 && b & 0x1000 && c == 3");
	assert_int_equal(trace_filter_match(f, entry, sizeof(entry)), 1);
	c = 4;
	memcpy(entry + 12, &c, 8);
	assert_int_equal(trace_filter_match(f, entry, sizeof(entry)), 0);
	trace_filter_free(f);
	trace_filter_free(NULL);
	assert_int_equal(trace_filter_match(NULL, entry, sizeof(entry)), 1);
	assert_int_equal(trace_filter_compile("a < 0 && d == 1", fl, n, ev->cls->entry_size, &f,
					      &pos, why, sizeof(why)),
			 -EINVAL);
	assert_null(f);
	assert_int_equal(pos, 9);
	assert_string_equal(why, "no field \"d\" in this event (its fields: a, b, c)");
	/* syntax only: any field, any value type */
	assert_int_equal(
		trace_filter_compile("d == \"x\" || e ~ 1", NULL, 0, 0, &f, &pos, why, sizeof(why)),
		0);
	assert_null(f);
	assert_int_equal(trace_filter_compile("d == ", NULL, 0, 0, NULL, &pos, NULL, 0), -EINVAL);
	assert_int_equal(pos, 5);
	assert_int_equal(trace_filter_compile(NULL, NULL, 0, 0, NULL, &pos, why, sizeof(why)),
			 -EINVAL);
	assert_string_equal(why, "no filter (NULL)");
	assert_int_equal(trace_filter_glob("d*[!x]?", 7, "dentry", 6), 1);
	assert_int_equal(trace_filter_glob("d*[!y]", 6, "dentry", 6), 0); /* ends in y */
	/* the TRACEPOINTS splitter */
	next = trace_spec_next("kmem:kmalloc if cache == \"a;b\" ; sched:*", 0, &g);
	assert_int_equal(g.pat_len, 12);
	assert_non_null(g.filter);
	assert_int_equal(g.filter_at, 15);
	assert_int_equal(g.filter_len, 16); /* " cache == \"a;b\" " */
	assert_int_equal(next, 32);
	assert_int_equal(trace_spec_next("kmem:kmalloc if cache == \"a;b\" ; sched:*", next, &g),
			 0);
	assert_null(g.filter);
	assert_int_equal(g.pat_at, 32);
	assert_int_equal(trace_spec_is_plain("a, if"), 1); /* an event named "if" */
	assert_int_equal(trace_spec_is_plain("a if b == 1"), 0);
	assert_int_equal(trace_spec_is_plain("a;b"), 0);
	assert_int_equal(trace_spec_is_plain("kmem:*,sched:*"), 1);
}

/* "patterns if filter; patterns" through tracepoint_enable() (the
 * TRACEPOINTS language; tests/recorder/t_filters.sh runs it from the environment). */
static void enable_with_a_filter(void **state)
{
	char err[64];
	long long from;
	(void)state;
	assert_int_equal(tracepoint_enable("evf:evf_three if a >= 3 && a != 5000; "
					   "evf:evf_lock_acquire,evf_lock_release"),
			 3);
	from = serial;
	trace_evf_three(2, 0, serial++);
	trace_evf_three(3, 0, serial++);
	trace_evf_three(5000, 0, serial++);
	trace_evf_three(4, 0, serial++);
	assert_string_equal(read_back(from, serial), "1 3");
	/* a bad one changes nothing (a group before it included) */
	sc_stderr_begin();
	assert_int_equal(tracepoint_enable("evf:evf_three if a == 1; evf_mixed if nosuch == 2"),
			 -EINVAL);
	assert_non_null(strstr(sc_stderr_end(), "no field \"nosuch\""));
	from = serial;
	trace_evf_three(3, 0, serial++);
	trace_evf_three(1, 0, serial++);
	assert_string_equal(read_back(from, serial), "0");
	/* disable takes no filter */
	sc_stderr_begin();
	assert_int_equal(tracepoint_disable("evf:evf_three if a == 1"), -EINVAL);
	assert_non_null(strstr(sc_stderr_end(), "no meaning here"));
	assert_int_equal(tracepoint_filter("evf_three", NULL, err, sizeof(err)), 1);
}

/* A rejected record is given back: the stream holds only kept records,
 * nothing is counted as dropped, and the bytes are the kept ones'. */
static void rejected_records_cost_no_storage(void **state)
{
	long long from = serial;
	int i;
	(void)state;
	assert_int_equal(tracepoint_filter("evf_three", "a == 7", NULL, 0), 1);
	for (i = 0; i < 100000; i++) /* 2.4 MB if they were kept: several windows */
		trace_evf_three(i % 10000 == 7 ? 7 : 0, 0, serial++);
	assert_string_equal(read_back(from, serial),
			    "7 10007 20007 30007 40007 50007 60007 70007 80007 90007");
	assert_int_equal(tracepoint_dropped(), 0);
	assert_int_equal(tracepoint_filter("evf_three", NULL, NULL, 0), 1);
}

struct two_ts {
	long long a_serial, b_serial;
	uint64_t a, b;
	int seen;
};

static void find_two(const struct tr_rec *r, void *priv)
{
	struct two_ts *t = (struct two_ts *)priv;
	long long s;
	if (r->ev != trace_event_of(&__tracepoint_evf_three))
		return;
	memcpy(&s, tr_field(r, "c"), sizeof(s));
	if (s == t->a_serial) {
		t->a = r->ts;
		t->seen |= 1;
	} else if (s == t->b_serial) {
		t->b = r->ts;
		t->seen |= 2;
	}
}

/* Rejected records leave the time reference of the stream alone: a record
 * kept more than 2^26 clock ticks after the previous kept one, with
 * rejected ones every millisecond meanwhile, still reads back that much
 * later (were the reference moved by the rejected records, it would be
 * written with a compact header relative to a time no reader sees, and
 * read back less than 2^26 ticks after the first). */
static void rejected_records_leave_the_clock_alone(void **state)
{
	struct two_ts t;
	struct timespec ms = { 0, 1000000 };
	const uint64_t gap = ((uint64_t)1 << TRACE_HEADER_TS_BITS) + 1000;
	uint64_t t0;
	int i;
	(void)state;
	memset(&t, 0, sizeof(t));
	assert_int_equal(tracepoint_filter("evf_three", "a == 1", NULL, 0), 1);
	t.a_serial = serial;
	trace_evf_three(1, 0, serial++);
	t0 = tp__ev_clock(tp__sink.base.clock);
	/* 2^26 ticks: 34 ms of a 2 GHz cycle counter, 1.1 s of a 62.5 MHz
	 * aarch64 counter, 67 ms of the monotonic clock */
	for (i = 0; i < 10000 && tp__ev_clock(tp__sink.base.clock) - t0 < gap; i++) {
		nanosleep(&ms, NULL);
		trace_evf_three(0, 0, serial++);
	}
	assert_true(tp__ev_clock(tp__sink.base.clock) - t0 >= gap);
	t.b_serial = serial;
	trace_evf_three(1, 0, serial++);
	assert_true(tr_read(trace_dir, find_two, &t) >= 0);
	assert_int_equal(t.seen, 3);
	assert_true(t.b - t.a >= gap);
	assert_int_equal(tracepoint_filter("evf_three", NULL, NULL, 0), 1);
}

static int setup(void **state)
{
	return tp_fixture_record(state, trace_dir, 64 * 1024,
				 "evf:evf_three,evf:evf_mixed,evl:evl_req", 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(integers),
		cmocka_unit_test(masks),
		cmocka_unit_test(logic_and_precedence),
		cmocka_unit_test(strings_and_globs),
		cmocka_unit_test(labels_as_values),
		cmocka_unit_test(errors),
		cmocka_unit_test(limits),
		cmocka_unit_test(filter_functions),
		cmocka_unit_test(enable_with_a_filter),
		cmocka_unit_test(rejected_records_cost_no_storage),
		cmocka_unit_test(rejected_records_leave_the_clock_alone),
	};
	return cmocka_run_group_tests(tests, setup, tp_fixture_remove);
}
