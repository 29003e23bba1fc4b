/* define_trace.h, kernel TRACE_EVENT parity (tests/include/events/ev_parity.h):
 * __dynamic_array and __get_dynamic_array(_len), __print_symbolic,
 * __print_flags and __print_hex (formatter text, CTF enumerations in the
 * metadata), TRACE_EVENT_CONDITION and DEFINE_EVENT_CONDITION (the
 * condition runs before any probe), TRACE_EVENT_FN (reg/unreg),
 * DEFINE_EVENT_PRINT, events without fields or arguments, and
 * tracepoint_format_print (TRACEPOINTS=list-format).  Records are written
 * by the recorder and read back with tests/include/trace_read.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_common.h"

#define CONFIG_EVF 1
#define CREATE_TRACE_POINTS
#include "events/ev_parity.h"
#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>
#include "recorder_fixture.h"

static char trace_dir[] = "/tmp/tp_event_parity_XXXXXX";

static int regs, unregs, reg_error;
int evp_reg(void)
{
	regs++;
	return reg_error;
}
void evp_unreg(void)
{
	unregs++;
}

static const struct trace_event_field *field(const struct trace_event *ev, const char *name)
{
	unsigned n = 0, i;
	const struct trace_event_field *f = ev->cls->fields(&n);
	for (i = 0; i < n; i++)
		if (strcmp(f[i].name, name) == 0)
			return &f[i];
	fail_msg("no field %s in %s", name, ev->name);
	return NULL;
}

static void dynamic_array_metadata(void **state)
{
	const struct trace_event *ev = trace_event_of(&__tracepoint_evp_gc);
	const struct trace_event_field *f;
	unsigned n = 0;
	(void)state;
	ev->cls->fields(&n);
	assert_int_equal(n, 5);
	f = field(ev, "data");
	assert_int_equal(f->kind, TRACE_FIELD_DYNAMIC);
	assert_string_equal(f->type, "unsigned char");
	assert_int_equal(f->size, 1);			 /* one element */
	assert_int_equal(f->array_len, TRACE_FIELD_INT); /* the element's kind */
	assert_int_equal(f->offset, 8);			 /* its count, after state and flags */
	f = field(ev, "nums");
	assert_int_equal(f->size, sizeof(int));
	assert_int_equal(f->is_signed, 1);
	assert_int_equal(f->offset, 12);
	/* state, flags and the two counts */
	assert_int_equal(ev->cls->entry_size, 16);
}

struct syms {
	int n;
	char expr[4][64];
	const struct trace_print_flags *tab[4];
	const char *delim[4];
};

static void syms_cb(void *priv, const char *expr, const struct trace_print_flags *t,
		    const char *delim)
{
	struct syms *s = (struct syms *)priv;
	if (s->n >= 4)
		return;
	snprintf(s->expr[s->n], sizeof(s->expr[0]), "%s", expr);
	s->tab[s->n] = t;
	s->delim[s->n] = delim;
	s->n++;
}

static void symbol_tables_reach_the_class(void **state)
{
	const struct trace_event *ev = trace_event_of(&__tracepoint_evp_gc);
	struct syms s;
	int i;
	(void)state;
	memset(&s, 0, sizeof(s));
	assert_non_null(ev->cls->symbols);
	ev->cls->symbols(syms_cb, &s);
	assert_int_equal(s.n, 2);
	i = strcmp(s.expr[0], "__entry->state") == 0 ? 0
						     : 1; /* in the order of argument evaluation */
	assert_string_equal(s.expr[i], "__entry->state");
	assert_null(s.delim[i]);
	assert_int_equal(s.tab[i][1].mask, EVP_MARK);
	assert_string_equal(s.tab[i][1].name, "mark");
	assert_null(s.tab[i][3].name);
	assert_string_equal(s.expr[1 - i], "__entry->flags");
	assert_string_equal(s.delim[1 - i], "|");
	assert_int_equal(s.tab[1 - i][2].mask, EVP_EXEC);
	/* a class without helpers hands over nothing */
	memset(&s, 0, sizeof(s));
	trace_event_of(&__tracepoint_evp_odd)->cls->symbols(syms_cb, &s);
	assert_int_equal(s.n, 0);
}

/* The formatter on a record laid out by hand. */
static void formatter_prints_as_the_kernel(void **state)
{
	const struct trace_event *ev = trace_event_of(&__tracepoint_evp_gc);
	unsigned char rec[64];
	char text[256];
	int state_v = EVP_SWEEP, nums[2] = { 5, 6 };
	unsigned flags = EVP_READ | EVP_EXEC | 8u;
	uint32_t n3 = 3, n2 = 2;
	size_t size;
	(void)state;
	memset(rec, 0, sizeof(rec));
	memcpy(rec, &state_v, 4);
	memcpy(rec + 4, &flags, 4);
	memcpy(rec + 8, &n3, 4);
	memcpy(rec + 12, &n2, 4);
	memcpy(rec + 16, "\x00\x7f\xff", 3);
	memcpy(rec + 19, "tg", 3);
	memcpy(rec + 22, nums, sizeof(nums));
	size = 22 + sizeof(nums);
	assert_int_equal(ev->cls->format(text, sizeof(text), rec, size),
			 (int)strlen("state=sweep flags=READ|EXEC|0x8 data=00 7f ff tag=tg"));
	assert_string_equal(text, "state=sweep flags=READ|EXEC|0x8 data=00 7f ff tag=tg");
	/* a value without a name is printed in hex; no flag set: nothing */
	state_v = 7;
	flags = 0;
	n3 = 0;
	memcpy(rec, &state_v, 4);
	memcpy(rec + 4, &flags, 4);
	memcpy(rec + 8, &n3, 4);
	memcpy(rec + 16, "tg", 3);
	memcpy(rec + 19, nums, sizeof(nums));
	ev->cls->format(text, sizeof(text), rec, 19 + sizeof(nums));
	assert_string_equal(text, "state=0x7 flags= data= tag=tg");
	/* DEFINE_EVENT_PRINT: the class's layout, its own text */
	ev = trace_event_of(&__tracepoint_evp_hexv);
	assert_ptr_not_equal(ev->cls, trace_event_of(&__tracepoint_evp_big)->cls);
	assert_ptr_equal(ev->cls->fields, trace_event_of(&__tracepoint_evp_big)->cls->fields);
	assert_string_equal(ev->cls->name, "evp_class");
	assert_string_equal(ev->cls->print_fmt, "\"hex=%#x\", __entry->v");
	memcpy(rec, &nums[0], 4);
	ev->cls->format(text, sizeof(text), rec, 4);
	assert_string_equal(text, "hex=0x5");
	/* an empty TP_printk */
	ev = trace_event_of(&__tracepoint_evp_tick);
	assert_int_equal(ev->cls->entry_size, 0);
	assert_int_equal(ev->cls->format(text, sizeof(text), rec, 0), 0);
	assert_string_equal(text, "");
}

static int odd_seen[8], odd_n;
static void odd_probe(int v, void *data)
{
	(void)data;
	if (odd_n < 8)
		odd_seen[odd_n++] = v;
}
static int ticks;
static void tick_probe(void *data)
{
	(void)data;
	ticks++;
}

/* The condition runs before any probe (ours too), only while enabled. */
static void condition_before_any_probe(void **state)
{
	int i;
	(void)state;
	assert_int_equal(register_trace_evp_odd(odd_probe, NULL), 0);
	for (i = 0; i < 6; i++)
		trace_evp_odd(i);
	assert_int_equal(unregister_trace_evp_odd(odd_probe, NULL), 0);
	tracepoint_synchronize_unregister();
	assert_int_equal(odd_n, 3);
	assert_int_equal(odd_seen[0], 1);
	assert_int_equal(odd_seen[2], 5);
	/* trace_lazy goes through the same dispatch */
	odd_n = 0;
	assert_int_equal(register_trace_evp_odd(odd_probe, NULL), 0);
	trace_lazy(evp_odd, 2);
	trace_lazy(evp_odd, 7);
	assert_int_equal(unregister_trace_evp_odd(odd_probe, NULL), 0);
	tracepoint_synchronize_unregister();
	assert_int_equal(odd_n, 1);
	assert_int_equal(odd_seen[0], 7);
	/* an event without arguments takes probes of (void *data) */
	assert_int_equal(register_trace_evp_tick(tick_probe, NULL), 0);
	trace_evp_tick();
	trace_evp_tick();
	assert_int_equal(unregister_trace_evp_tick(tick_probe, NULL), 0);
	tracepoint_synchronize_unregister();
	assert_int_equal(ticks, 2);
}

/* TRACE_EVENT_FN: reg when the first probe attaches, unreg when the last
 * one detaches; reg's error aborts the registration. */
static void reg_and_unreg_callbacks(void **state)
{
	(void)state;
	regs = unregs = 0;
	assert_int_equal(tracepoint_enable("evp:evp_fn"), 1);
	assert_int_equal(regs, 1);
	assert_int_equal(register_trace_evp_fn((void (*)(int, void *))odd_probe, NULL), 0);
	assert_int_equal(regs, 1);
	assert_int_equal(unregister_trace_evp_fn((void (*)(int, void *))odd_probe, NULL), 0);
	assert_int_equal(unregs, 0);
	assert_int_equal(tracepoint_disable("evp:evp_fn"), 1);
	assert_int_equal(unregs, 1);
	reg_error = -EBUSY;
	assert_int_equal(register_trace_evp_fn((void (*)(int, void *))odd_probe, NULL), -EBUSY);
	assert_int_equal(
		tracepoint_probe_attached(&__tracepoint_evp_fn, (tracepoint_func_t)odd_probe, NULL),
		0);
	assert_int_equal(unregs, 1);
	reg_error = 0;
}

struct seen {
	int n;
	char text[16][256];
	const char *name[16];
	size_t size[16];
	uint32_t count[16];
	unsigned char data[16][8];
	int nums[16][2];
};

static void collect(const struct tr_rec *r, void *priv)
{
	struct seen *s = (struct seen *)priv;
	if (s->n >= 16)
		return;
	r->ev->cls->format(s->text[s->n], sizeof(s->text[0]), (void *)(uintptr_t)r->payload,
			   r->size);
	s->name[s->n] = r->ev->name;
	s->size[s->n] = r->size;
	if (strcmp(r->ev->name, "evp_gc") == 0) {
		uint32_t k;
		const unsigned char *d = (const unsigned char *)tr_dyn(r, "data", &s->count[s->n]);
		const void *nums = tr_dyn(r, "nums", &k);
		assert_non_null(d);
		assert_int_equal(k, 2);
		memcpy(s->data[s->n], d, s->count[s->n] < 8 ? s->count[s->n] : 8);
		memcpy(s->nums[s->n], nums, sizeof(s->nums[0]));
	}
	s->n++;
}

static int read_file(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;
	if (!f)
		return -1;
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
	return 0;
}

static void the_recorder_writes_them(void **state)
{
	static struct seen s;
	static char meta[65536];
	char path[4200];
	const unsigned char bytes[5] = { 0xde, 0xad, 0xbe, 0xef, 0x01 };
	int i;
	(void)state;
	assert_int_equal(tracepoint_enable("evp:*"), 8);
	trace_evp_gc(EVP_MARK, EVP_READ | EVP_WRITE, bytes, 5, "first");
	trace_evp_gc(EVP_IDLE, 0, bytes, 0, NULL);
	for (i = 9; i <= 12; i++) {
		trace_evp_odd(i);
		trace_evp_big(i);
	}
	trace_evp_hexv(255);
	trace_evp_tick();
	trace_evp_nofield(1);
	trace_evp_small(200);
	assert_int_equal(tracepoint_disable("evp:*"), 8);
	tracepoint_synchronize_unregister();
	memset(&s, 0, sizeof(s));
	assert_int_equal(tr_read(tracepoint_trace_dir(), collect, &s), 10);
	assert_string_equal(s.name[0], "evp_gc");
	assert_string_equal(s.text[0], "state=mark flags=READ|WRITE data=de ad be ef 01 tag=first");
	assert_int_equal(s.count[0], 5);
	assert_memory_equal(s.data[0], bytes, 5);
	assert_int_equal(s.nums[0][0], -1);
	assert_int_equal(s.nums[0][1], 5); /* __get_dynamic_array_len(data) in TP_fast_assign */
	/* fixed part, 5 bytes, "first\0", two ints */
	assert_int_equal(s.size[0], 16 + 5 + 6 + 2 * sizeof(int));
	assert_string_equal(s.text[1], "state=idle flags= data= tag=(null)");
	assert_int_equal(s.count[1], 0);
	assert_int_equal(s.nums[1][1], 0);
	/* conditions: odd 9, 11; big 11, 12 */
	assert_string_equal(s.name[2], "evp_odd");
	assert_string_equal(s.text[2], "v=9");
	assert_string_equal(s.name[3], "evp_odd");
	assert_string_equal(s.text[3], "v=11");
	assert_string_equal(s.name[4], "evp_big");
	assert_string_equal(s.text[4], "v=11");
	assert_string_equal(s.name[5], "evp_big");
	assert_string_equal(s.text[5], "v=12");
	assert_string_equal(s.text[6], "hex=0xff");
	assert_string_equal(s.name[7], "evp_tick");
	assert_int_equal(s.size[7], 0);
	assert_string_equal(s.text[7], "");
	assert_string_equal(s.name[8], "evp_nofield");
	assert_int_equal(s.size[8], 0);
	assert_string_equal(s.text[8], "nothing");
	assert_string_equal(s.text[9], "c=0xc8");
	/* the metadata: enumerations and sequences */
	snprintf(path, sizeof(path), "%s/metadata", tracepoint_trace_dir());
	assert_int_equal(read_file(path, meta, sizeof(meta)), 0);
	assert_non_null(strstr(meta, "{ \"idle\" = 0, \"mark\" = 1, \"sweep\" = 2 } _state;"));
	assert_non_null(strstr(meta, "{ \"READ\" = 1, \"WRITE\" = 2, \"EXEC\" = 4 } _flags;"));
	assert_non_null(strstr(meta, "signed = false; base = 10; } __len_data;"));
	assert_non_null(strstr(meta, "_data[__len_data];"));
	assert_non_null(strstr(meta, "_nums[__len_nums];"));
	/* no value of the table fits an unsigned char: a plain integer */
	assert_non_null(
		strstr(meta, "integer { size = 8; align = 8; signed = false; base = 10; } _c;"));
}

static void list_format_prints_format_files(void **state)
{
	static char out[65536];
	FILE *f = tmpfile();
	size_t n;
	(void)state;
	assert_non_null(f);
	tracepoint_format_print(f);
	rewind(f);
	n = fread(out, 1, sizeof(out) - 1, f);
	out[n] = '\0';
	fclose(f);
	assert_non_null(strstr(
		out, "system: evp\nname: evp_gc\nID: ")); /* as in events/evp/evp_gc/format */
	assert_non_null(strstr(
		out, "format:\n\tfield:int state;\toffset:0;\tsize:4;\tsigned:1;\n"
		     "\tfield:unsigned flags;\toffset:4;\tsize:4;\tsigned:0;\n"
		     "\tfield:__data_loc unsigned char[] data;\toffset:8;\tsize:4;\tsigned:0;\n"));
	assert_non_null(strstr(out, "\nprint fmt: \"state=%s flags=%s data=%s tag=%s\", "
				    "__print_symbolic(REC->state, "));
	assert_non_null(strstr(out, "system: evp\nname: evp_hexv\nID: "));
	assert_non_null(strstr(out, "print fmt: \"hex=%#x\", REC->v\n"));
	assert_non_null(strstr(out, "system: evp\nname: evp_tick\nID: "));
	assert_int_equal(strncmp(out, "system: ", 8), 0); /* a block starts with it */
}

/* A string filter on a __string() that follows a dynamic array (the
 * variable part holds both, in declaration order). */
struct tags {
	int odd, even;
};

static void count_tags(const struct tr_rec *r, void *priv)
{
	struct tags *t = (struct tags *)priv;
	char text[256];
	if (strcmp(r->ev->name, "evp_gc") != 0)
		return;
	r->ev->cls->format(text, sizeof(text), (void *)(uintptr_t)r->payload, r->size);
	t->odd += strstr(text, "tag=odd") != NULL;
	t->even += strstr(text, "tag=even") != NULL;
}

static void a_filter_finds_a_string_after_an_array(void **state)
{
	const unsigned char bytes[4] = { 1, 2, 3, 4 };
	struct tags t = { 0, 0 };
	char err[256] = "";
	unsigned i;
	(void)state;
	assert_int_equal(tracepoint_filter("evp:evp_gc", "tag == \"odd\"", err, sizeof(err)), 1);
	assert_int_equal(tracepoint_enable("evp:evp_gc"), 1);
	for (i = 0; i < 20; i++)
		trace_evp_gc(EVP_MARK, 0, bytes, i % 5, i % 2 ? "odd" : "even");
	assert_int_equal(tracepoint_disable("evp:evp_gc"), 1);
	tracepoint_synchronize_unregister();
	assert_int_equal(tracepoint_filter("evp:evp_gc", NULL, err, sizeof(err)), 1);
	assert_true(tr_read(tracepoint_trace_dir(), count_tags, &t) > 0);
	assert_int_equal(t.odd, 10);
	assert_int_equal(t.even, 0);
}

static int setup(void **state)
{
	return tp_fixture_record(state, trace_dir, 0, NULL, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(dynamic_array_metadata),
		cmocka_unit_test(symbol_tables_reach_the_class),
		cmocka_unit_test(formatter_prints_as_the_kernel),
		cmocka_unit_test(condition_before_any_probe),
		cmocka_unit_test(reg_and_unreg_callbacks),
		cmocka_unit_test(the_recorder_writes_them),
		cmocka_unit_test(a_filter_finds_a_string_after_an_array),
		cmocka_unit_test(list_format_prints_format_files),
	};
	tp_test_watchdog(60);
	return cmocka_run_group_tests(tests, setup, tp_fixture_remove);
}
