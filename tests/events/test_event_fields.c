/* define_trace.h: TRACE_EVENT fields are recorded as TP_fast_assign wrote
 * them (scalars, pointers, doubles, __array, __string, NULL strings), the
 * metadata describes them (system, names, types, offsets, sizes, kinds),
 * DECLARE_EVENT_CLASS + DEFINE_EVENT share one class, a sink of one's own
 * receives the records, and the class's formatter prints TP_printk text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_common.h"

#define CONFIG_EVF 1
#define CREATE_TRACE_POINTS
#include "events/ev_fields.h"
#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>
#include "recorder_fixture.h"

static char trace_dir[] = "/tmp/tp_event_fields_XXXXXX";

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
	assert_int_equal(field(ev, "c")->offset, 12); /* packed */
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

/* A sink of one's own: one window in memory, records as the recorder
 * writes them. */
static unsigned char my_window[8192] __attribute__((aligned(8)));
static struct trace_buffer my_buf;
static int my_windows;
static struct trace_buffer *my_thread_buffer(struct trace_sink_base *s)
{
	(void)s;
	return &my_buf;
}
static int my_next_window(struct trace_sink_base *s, struct trace_buffer *b, uint64_t ts,
			  size_t need)
{
	struct trace_packet *p = (struct trace_packet *)(void *)my_window;
	(void)s;
	if (my_windows++ || need > sizeof(my_window) - sizeof(*p))
		return -1; /* one window only */
	memset(my_window, 0, sizeof(my_window));
	p->content_size = sizeof(*p) * 8;
	b->pkt = p;
	b->pos = my_window + sizeof(*p);
	b->end = my_window + sizeof(my_window);
	b->last_ts = ts;
	return 0;
}
static struct trace_sink_base my_sink = { my_thread_buffer, my_next_window, TRACE_CLOCK_MONOTONIC };
static struct trace_event_sink my_slot = { &my_sink, 70, NULL,
					   NULL }; /* id 70: an extended header */

static void a_sink_of_ones_own_gets_the_records(void **state)
{
	const struct trace_event *ev = trace_event_of(&__tracepoint_evf_mixed);
	const struct trace_packet *p = (const struct trace_packet *)(const void *)my_window;
	unsigned char bytes[4] = { 1, 2, 3, 0xff };
	const unsigned char *e;
	char text[512];
	double ratio;
	uint32_t id;
	size_t size;
	(void)state;
	memset(&my_buf, 0, sizeof(my_buf));
	my_buf.sink = &my_sink;
	my_windows = 0;
	my_slot.event = ev;
	assert_int_equal(tracepoint_probe_register(&__tracepoint_evf_mixed, ev->probe, &my_slot),
			 0);
	trace_evf_mixed("alpha", bytes, 0.25, bytes, NULL, -5);
	assert_int_equal(tracepoint_probe_unregister(&__tracepoint_evf_mixed, ev->probe, &my_slot),
			 0);
	tracepoint_synchronize_unregister();

	/* extended header: 63, the 32-bit id, the 64-bit time */
	assert_int_equal(my_window[sizeof(*p)], TRACE_HEADER_EXTENDED);
	memcpy(&id, my_window + sizeof(*p) + 1, 4);
	assert_int_equal(id, 70);
	e = my_window + sizeof(*p) + TRACE_HEADER_EXTENDED_SIZE;
	/* fixed part + "alpha\0" + "(null)\0", and the packet covers exactly that */
	size = ev->cls->entry_size + 6 + 7;
	assert_int_equal(p->content_size / 8, sizeof(*p) + TRACE_HEADER_EXTENDED_SIZE + size);
	assert_ptr_equal(my_buf.pos, my_window + p->content_size / 8);
	assert_int_equal(my_buf.busy, 0);
	memcpy(&ratio, e + field(ev, "ratio")->offset, sizeof(ratio));
	assert_true(ratio == 0.25);
	assert_memory_equal(e + field(ev, "bytes")->offset, bytes, 4);
	assert_string_equal((const char *)e + field(ev, "comm")->offset, "worker");
	assert_int_equal((signed char)e[field(ev, "small")->offset], -5);
	assert_string_equal((const char *)e + ev->cls->entry_size, "alpha");
	assert_string_equal((const char *)e + ev->cls->entry_size + 6, "(null)");
	ev->cls->format(text, sizeof(text), (void *)(uintptr_t)e, size);
	assert_non_null(strstr(text, "name=alpha "));
	assert_non_null(strstr(text, "ratio=0.25 bytes=010203ff comm=worker tag=(null) small=-5"));
	/* a second record does not fit the one window: dropped and counted */
	my_buf.pos = my_buf.end - 8;
	assert_int_equal(tracepoint_probe_register(&__tracepoint_evf_mixed, ev->probe, &my_slot),
			 0);
	trace_evf_mixed("beta", bytes, 0.5, bytes, "t", 1);
	tracepoint_probe_unregister(&__tracepoint_evf_mixed, ev->probe, &my_slot);
	tracepoint_synchronize_unregister();
	assert_int_equal(my_buf.busy, 0);
}

struct seen {
	int n;
	char text[8][512];
	const char *name[8];
	size_t size[8];
	uint32_t tid;
};

static void collect(const struct tr_rec *r, void *priv)
{
	struct seen *s = (struct seen *)priv;
	if (s->n >= 8)
		return;
	r->ev->cls->format(s->text[s->n], sizeof(s->text[0]), (void *)(uintptr_t)r->payload,
			   r->size);
	s->name[s->n] = r->ev->name;
	s->size[s->n] = r->size;
	s->tid = r->tid;
	s->n++;
}

static void the_recorder_writes_every_field(void **state)
{
	static struct seen s;
	unsigned char bytes[4] = { 9, 8, 7, 6 };
	static char big[5000], utf[TRACEPOINT_STRING_MAX + 8];
	(void)state;
	memset(big, 'x', sizeof(big) - 1);
	/* "é" (0xC3 0xA9) across the cut: kept neither half */
	memset(utf, 'x', TRACEPOINT_STRING_MAX - 1);
	memcpy(utf + TRACEPOINT_STRING_MAX - 1, "\xc3\xa9yy", 5);
	assert_int_equal(tracepoint_enable("evf:*"), 4);
	trace_evf_three(-1, 42, 1234567890123LL);
	trace_evf_lock_acquire((const void *)0x1000, 3);
	trace_evf_mixed("beta", NULL, 1.5, bytes, "tag", 7);
	trace_evf_mixed(big, NULL, 0, bytes, "", 0);
	trace_evf_mixed(utf, NULL, 0, bytes, "", 0);
	/* the other event of the class: the class's one probe, its own id */
	trace_evf_lock_release((const void *)0x2000, 2);
	assert_int_equal(tracepoint_disable("evf:*"), 4);
	memset(&s, 0, sizeof(s));
	assert_int_equal(tr_read(trace_dir, collect, &s), 6);
	assert_int_equal(s.tid, (uint32_t)syscall(__NR_gettid));
	assert_string_equal(s.name[0], "evf_three");
	assert_string_equal(s.text[0], "a=-1 b=42 c=1234567890123");
	assert_string_equal(s.name[1], "evf_lock_acquire");
	assert_string_equal(s.text[1], "lock=0x1000 depth=3");
	assert_string_equal(s.name[5], "evf_lock_release");
	assert_string_equal(s.text[5], "lock=0x2000 depth=2");
	assert_ptr_equal(trace_event_of(&__tracepoint_evf_lock_acquire)->probe,
			 trace_event_of(&__tracepoint_evf_lock_release)->probe);
	assert_string_equal(
		s.text[2],
		"name=beta ptr=(nil) ratio=1.50 bytes=09080706 comm=worker tag=tag small=7");
	/* long strings are cut at TRACEPOINT_STRING_MAX */
	assert_int_equal(s.size[3], trace_event_of(&__tracepoint_evf_mixed)->cls->entry_size +
					    TRACEPOINT_STRING_MAX + 1 + 1);
	/* ... and before a character that would not fit whole */
	assert_int_equal(s.size[4], trace_event_of(&__tracepoint_evf_mixed)->cls->entry_size +
					    TRACEPOINT_STRING_MAX - 1 + 1 + 1);
}

static int setup(void **state)
{
	return tp_fixture_record(state, trace_dir, 0, NULL, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(metadata_describes_every_field),
		cmocka_unit_test(event_class_is_shared),
		cmocka_unit_test(a_sink_of_ones_own_gets_the_records),
		cmocka_unit_test(the_recorder_writes_every_field),
	};
	tp_test_watchdog(60);
	return cmocka_run_group_tests(tests, setup, tp_fixture_remove);
}
