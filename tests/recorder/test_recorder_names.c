/* The recorder's public functions by both their names: trace_recorder_<name>
 * and the old tracepoint_<name>, kept.  Each pair is one function: what one
 * name changes the other sees, and both return the same.  The old names are
 * still exported symbols (the core's check for a recorder looks up
 * tracepoint_enable).  The control channel's three are test_control.c's
 * (it starts a thread; this test starts none, so it also runs under
 * qemu). */
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

static char trace_dir[] = "/tmp/tp_names_XXXXXX";

static int setup(void **state)
{
	if (!mkdtemp(trace_dir))
		return -1;
	*state = trace_dir;
	trace_recorder_buffer_size(1 << 16);
	tracepoint_buffer_size(1 << 16);
	trace_recorder_flight_size(1 << 20);
	tracepoint_flight_size(1 << 20);
	return trace_recorder_output("stream", trace_dir);
}

/* tracepoint_probe_for_each callback: is this the event's recorder (priv)? */
static int is_recorder(tracepoint_func_t probe, void *data, int prio, void *priv)
{
	(void)data;
	(void)prio;
	return probe == *(const tracepoint_func_t *)priv;
}

static int on(struct tracepoint *tp)
{
	tracepoint_func_t rec = trace_event_of(tp)->probe;
	return tracepoint_probe_for_each(tp, is_recorder, &rec);
}

static void output_and_trace_dir(void **state)
{
	(void)state;
	assert_int_equal(tracepoint_output("stream", trace_dir),
			 -EBUSY); /* started by the new name */
	assert_int_equal(trace_recorder_output("stream", trace_dir), -EBUSY);
	assert_non_null(trace_recorder_trace_dir());
	assert_ptr_equal(tracepoint_trace_dir(), trace_recorder_trace_dir());
	assert_memory_equal(trace_recorder_trace_dir(), trace_dir, strlen(trace_dir));
}

static void enable_and_disable(void **state)
{
	(void)state;
	assert_int_equal(trace_recorder_enable("evf:evf_three"), 1);
	assert_true(on(&__tracepoint_evf_three));
	assert_int_equal(tracepoint_disable("evf:evf_three"), 1);
	assert_false(on(&__tracepoint_evf_three));
	assert_int_equal(tracepoint_enable("evf:evf_lock_*"), 2);
	assert_true(on(&__tracepoint_evf_lock_acquire));
	assert_int_equal(trace_recorder_disable("evf:evf_lock_*"), 2);
	assert_false(on(&__tracepoint_evf_lock_acquire));
	assert_int_equal(trace_recorder_enable("evf:"), -EINVAL);
	assert_int_equal(tracepoint_enable("evf:"), -EINVAL);
}

static void filters(void **state)
{
	char err[256];
	(void)state;
	assert_int_equal(trace_recorder_filter("evf:evf_three", "a > 1", err, sizeof(err)), 1);
	assert_int_equal(tracepoint_filter("evf:evf_three", "b == 2 && c < 0", err, sizeof(err)),
			 1);
	assert_int_equal(tracepoint_filter("evf:evf_three", "nosuch > 1", err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "no field \"nosuch\""));
	err[0] = '\0';
	assert_int_equal(trace_recorder_filter("evf:evf_three", "nosuch > 1", err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "no field \"nosuch\""));
	assert_int_equal(trace_recorder_filter("evf:evf_three", NULL, err, sizeof(err)), 1);
	assert_int_equal(tracepoint_filter("evf:evf_three", NULL, err, sizeof(err)), 1);
}

static void flush_snapshot_dropped(void **state)
{
	(void)state;
	assert_int_equal(trace_recorder_enable("evf:evf_three"), 1);
	trace_evf_three(1, 2, 3);
	assert_int_equal(trace_recorder_flush(), 0);
	assert_int_equal(tracepoint_flush(), 0);
	assert_int_equal(trace_recorder_snapshot(), -EINVAL); /* stream mode */
	assert_int_equal(tracepoint_snapshot(), -EINVAL);
	assert_true(trace_recorder_dropped() == 0);
	assert_true(tracepoint_dropped() == trace_recorder_dropped());
	assert_int_equal(trace_recorder_disable("*"), 4);
}

static int count_cb(const struct tracepoint_info *info, void *priv)
{
	(void)info;
	(*(int *)priv)++;
	return 0;
}

/* What print(f) writes, in buf (NUL-terminated). */
static void printed(void (*print)(FILE *), char *buf, size_t size)
{
	FILE *f = tmpfile();
	size_t n;
	assert_non_null(f);
	print(f);
	rewind(f);
	n = fread(buf, 1, size - 1, f);
	buf[n] = '\0';
	fclose(f);
}

static void listing(void **state)
{
	static char a[16384], b[16384];
	int n_new = 0, n_old = 0;
	(void)state;
	assert_int_equal(trace_recorder_list(count_cb, &n_new), 0);
	assert_int_equal(tracepoint_list(count_cb, &n_old), 0);
	assert_true(n_new >= 4);
	assert_int_equal(n_new, n_old);
	assert_int_equal(trace_recorder_list(NULL, NULL), -EINVAL);
	assert_int_equal(tracepoint_list(NULL, NULL), -EINVAL);
	printed(trace_recorder_list_print, a, sizeof(a));
	printed(tracepoint_list_print, b, sizeof(b));
	assert_non_null(strstr(a, "evf:evf_three"));
	assert_string_equal(a, b);
	printed(trace_recorder_format_print, a, sizeof(a));
	printed(tracepoint_format_print, b, sizeof(b));
	assert_non_null(strstr(a, "print fmt:"));
	assert_string_equal(a, b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(output_and_trace_dir),
		cmocka_unit_test(enable_and_disable),
		cmocka_unit_test(filters),
		cmocka_unit_test(flush_snapshot_dropped),
		cmocka_unit_test(listing),
	};
	tp_test_watchdog(60);
	return cmocka_run_group_tests(tests, setup, tp_fixture_remove);
}
