/* define_trace.h: TRACE_EVENT fields are recorded as TP_fast_assign wrote
 * them (scalars, pointers, doubles, __array, __string, NULL strings), the
 * metadata describes them (system, names, types, offsets, sizes, kinds),
 * DECLARE_EVENT_CLASS + DEFINE_EVENT share one class, and the text sink
 * prints "timestamp cpu tid system:event <TP_printk>" lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_common.h"

#define CONFIG_EVF 1
#define CREATE_TRACE_POINTS
#include "events/ev_fields.h"
#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>

static char out_path[] = "/tmp/tp_event_fields_XXXXXX";

/* Sends the text output to a fresh file. */
static void capture_begin(void)
{
	int fd = mkstemp(out_path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(tracepoint_output("text", out_path), 0);
}

/* Flushes, closes the file and returns its contents (static buffer). */
static const char *flush_text(void)
{
	static char buf[1 << 16];
	FILE *f;
	size_t n;
	tracepoint_flush();
	assert_int_equal(tracepoint_output("text", NULL), 0); /* closes the file */
	f = fopen(out_path, "r");
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	unlink(out_path);
	memcpy(out_path + strlen(out_path) - 6, "XXXXXX", 6);
	return buf;
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

static void metadata_describes_every_field(void **state)
{
	const struct trace_event *ev = trace_event_of(&__tracepoint_evf_mixed);
	const struct trace_event_field *f;
	unsigned n = 0;
	(void)state;
	assert_non_null(ev);
	assert_string_equal(ev->cls->system, "evf");
	assert_string_equal(ev->name, "evf_mixed");
	assert_ptr_equal(ev->tp, &__tracepoint_evf_mixed);
	ev->cls->fields(&n);
	assert_int_equal(n, 7);
	f = field(ev, "ptr");
	assert_string_equal(f->type, "const void *");
	assert_int_equal(f->kind, TRACE_FIELD_PTR);
	assert_int_equal(f->size, sizeof(void *));
	f = field(ev, "ratio");
	assert_int_equal(f->kind, TRACE_FIELD_FLOAT);
	f = field(ev, "bytes");
	assert_int_equal(f->array_len, 4);
	assert_int_equal(f->size, 4);
	assert_int_equal(f->is_signed, 0);
	f = field(ev, "small");
	assert_int_equal(f->kind, TRACE_FIELD_INT);
	assert_int_equal(f->is_signed, 1);
	f = field(ev, "name");
	assert_int_equal(f->kind, TRACE_FIELD_STRING);
	assert_non_null(strstr(ev->cls->print_fmt, "__get_str(name)"));
	ev = trace_event_of(&__tracepoint_evf_three);
	f = field(ev, "b");
	assert_string_equal(f->type, "unsigned long");
	assert_int_equal(f->is_signed, 0);
	assert_int_equal(field(ev, "c")->offset, 16);
	assert_null(trace_event_of(&__tracepoint_evf_plain));
}

static void event_class_is_shared(void **state)
{
	const struct trace_event *a = trace_event_of(&__tracepoint_evf_lock_acquire);
	const struct trace_event *r = trace_event_of(&__tracepoint_evf_lock_release);
	(void)state;
	assert_ptr_equal(a->cls, r->cls);
	assert_string_equal(a->cls->name, "evf_lock_class");
	assert_string_equal(a->name, "evf_lock_acquire");
	assert_string_equal(r->name, "evf_lock_release");
	assert_ptr_not_equal(a->cls, trace_event_of(&__tracepoint_evf_three)->cls);
}

/* A private sink: records go into a buffer the test inspects. */
static struct trace_buffer my_buf;
static unsigned char my_data[4096];
static struct trace_buffer *my_thread_buffer(struct trace_sink_base *s)
{
	(void)s;
	return &my_buf;
}
static struct trace_sink_base my_sink = { my_thread_buffer, TRACE_CLOCK_MONOTONIC };

static void fields_are_recorded_as_assigned(void **state)
{
	const struct trace_record *rec;
	const struct trace_event *ev = trace_event_of(&__tracepoint_evf_mixed);
	unsigned char bytes[4] = { 1, 2, 3, 0xff };
	char text[512];
	char *e;
	uint32_t loc;
	double ratio;
	(void)state;
	memset(&my_buf, 0, sizeof(my_buf));
	my_buf.data = my_data;
	my_buf.mask = sizeof(my_data) - 1;
	my_buf.sink = &my_sink;
	assert_int_equal(tracepoint_probe_register(&__tracepoint_evf_mixed, ev->probe, &my_sink), 0);
	trace_evf_mixed("alpha", bytes, 0.25, bytes, NULL, -5);
	assert_int_equal(tracepoint_probe_unregister(&__tracepoint_evf_mixed, ev->probe, &my_sink), 0);
	tracepoint_synchronize_unregister();

	rec = (const struct trace_record *)(const void *)my_data;
	assert_ptr_equal(rec->event, ev);
	assert_int_equal(my_buf.head, rec->size);
	assert_int_equal(rec->size % 8, 0);
	/* entry + "alpha\0" + "(null)\0" */
	assert_true(rec->size >= sizeof(*rec) + ev->cls->entry_size + 6 + 7);
	e = (char *)(uintptr_t)(rec + 1);
	memcpy(&ratio, e + field(ev, "ratio")->offset, sizeof(ratio));
	assert_true(ratio == 0.25);
	assert_memory_equal(e + field(ev, "bytes")->offset, bytes, 4);
	assert_string_equal(e + field(ev, "comm")->offset, "worker");
	assert_int_equal((signed char)e[field(ev, "small")->offset], -5);
	memcpy(&loc, e + field(ev, "name")->offset, sizeof(loc));
	assert_int_equal(loc >> 16, 6);
	assert_string_equal(e + (loc & 0xffff), "alpha");
	memcpy(&loc, e + field(ev, "tag")->offset, sizeof(loc));
	assert_string_equal(e + (loc & 0xffff), "(null)");
	ev->cls->format(text, sizeof(text), e, rec->size - sizeof(*rec));
	assert_non_null(strstr(text, "name=alpha "));
	assert_non_null(strstr(text, "ratio=0.25 bytes=010203ff comm=worker tag=(null) small=-5"));
}

static void long_strings_are_truncated(void **state)
{
	static char big[5000];
	const struct trace_event *ev = trace_event_of(&__tracepoint_evf_mixed);
	const struct trace_record *rec = (const struct trace_record *)(const void *)my_data;
	unsigned char bytes[4] = { 0, 0, 0, 0 };
	uint32_t loc;
	char *e;
	(void)state;
	memset(big, 'x', sizeof(big) - 1);
	memset(&my_buf, 0, sizeof(my_buf));
	my_buf.data = my_data;
	my_buf.mask = sizeof(my_data) - 1;
	my_buf.sink = &my_sink;
	assert_int_equal(tracepoint_probe_register(&__tracepoint_evf_mixed, ev->probe, &my_sink), 0);
	trace_evf_mixed(big, NULL, 0, bytes, "t", 0);
	tracepoint_probe_unregister(&__tracepoint_evf_mixed, ev->probe, &my_sink);
	tracepoint_synchronize_unregister();
	e = (char *)(uintptr_t)(rec + 1);
	memcpy(&loc, e + field(ev, "name")->offset, sizeof(loc));
	assert_int_equal(loc >> 16, TRACEPOINT_STRING_MAX + 1);
	assert_int_equal(strlen(e + (loc & 0xffff)), TRACEPOINT_STRING_MAX);
}

static void text_sink_prints_one_line_per_event(void **state)
{
	const char *out;
	unsigned long long sec, nsec;
	unsigned cpu;
	int tid, n;
	char name[64], rest[256];
	unsigned char bytes[4] = { 9, 8, 7, 6 };
	(void)state;
	capture_begin();
	assert_int_equal(tracepoint_enable("evf:*"), 4);
	trace_evf_three(-1, 42, 1234567890123LL);
	trace_evf_lock_acquire((const void *)0x1000, 3);
	trace_evf_mixed("beta", NULL, 1.5, bytes, "tag", 7);
	assert_int_equal(tracepoint_disable("evf:*"), 4);
	out = flush_text();
	print_message("%s", out);
	n = sscanf(out, "%llu.%9llu %u %d %63s %255[^\n]", &sec, &nsec, &cpu, &tid, name, rest);
	assert_int_equal(n, 6);
	assert_int_equal(tid, (int)syscall(__NR_gettid));
	assert_string_equal(name, "evf:evf_three");
	assert_string_equal(rest, "a=-1 b=42 c=1234567890123");
	assert_non_null(strstr(out, " evf:evf_lock_acquire lock=0x1000 depth=3\n"));
	assert_non_null(strstr(out, " evf:evf_mixed name=beta ptr=(nil) ratio=1.50 bytes=09080706 comm=worker tag=tag small=7\n"));
	/* three lines, in the order fired */
	assert_true(strstr(out, "evf_three") < strstr(out, "evf_lock_acquire"));
	assert_true(strstr(out, "evf_lock_acquire") < strstr(out, "evf_mixed"));
	n = 0;
	for (; *out; out++)
		n += *out == '\n';
	assert_int_equal(n, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(metadata_describes_every_field),
		cmocka_unit_test(event_class_is_shared),
		cmocka_unit_test(fields_are_recorded_as_assigned),
		cmocka_unit_test(long_strings_are_truncated),
		cmocka_unit_test(text_sink_prints_one_line_per_event),
	};
	tp_test_watchdog(60);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
