/* tracepoint_enable/disable: exact names, globs, lists; what they return;
 * empty ';' groups are skipped; malformed lists are rejected with the
 * position, change nothing and say so; a list of more than 64 items is
 * walked in parts; unknown events and empty globs
 * are reported once; plain tracepoints are reported as not recordable. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_common.h"
#include "sink_capture.h"

#define CONFIG_EVF 1
#define CREATE_TRACE_POINTS
#include "events/ev_fields.h"
#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>
#include "trace_read.h"

/* Call sites of the events these tests enable, never run: enabling events
 * none of which has a call site says that nothing of them is recorded. */
void sites_of_every_event(void);
void sites_of_every_event(void)
{
	unsigned char b[4] = { 0, 0, 0, 0 };
	trace_evf_mixed("", NULL, 0, b, "", 0);
	trace_evf_lock_acquire(NULL, 0);
	trace_evf_lock_release(NULL, 0);
}

/* tracepoint_probe_for_each callback: is this the event's recorder (priv)? */
static int is_recorder(tracepoint_func_t probe, void *data, int prio, void *priv)
{
	(void)data;
	(void)prio;
	return probe == *(const tracepoint_func_t *)priv;
}

/* The event's recorder is attached to tp (with whatever data). */
static int on(struct tracepoint *tp)
{
	tracepoint_func_t rec = trace_event_of(tp)->probe;
	return tracepoint_probe_for_each(tp, is_recorder, &rec);
}

static int teardown(void **state)
{
	(void)state;
	tracepoint_disable("*");
	return 0;
}

static void exact_name_enables_one_event(void **state)
{
	(void)state;
	assert_int_equal(tracepoint_enable("evf:evf_three"), 1);
	assert_true(on(&__tracepoint_evf_three));
	assert_false(on(&__tracepoint_evf_mixed));
	assert_int_equal(tracepoint_enable("evf:evf_three"), 1); /* again: no error */
	assert_int_equal(tracepoint_disable("evf:evf_three"), 1);
	assert_false(on(&__tracepoint_evf_three));
	assert_false(trace_evf_three_enabled());
}

/* The by-name lookups take an event as the recorder spells it. */
static int by_name_hits;
static void count_by_name(int a, unsigned long b, long long c, void *data)
{
	(void)data;
	(void)a;
	(void)b;
	(void)c;
	by_name_hits++;
}

static void find_takes_system_and_name(void **state)
{
	(void)state;
	assert_ptr_equal(tracepoint_find("evf:evf_three"), &__tracepoint_evf_three);
	assert_ptr_equal(tracepoint_find("evf_three"), &__tracepoint_evf_three);
	assert_null(tracepoint_find("evg:evf_three")); /* another system */
	assert_null(tracepoint_find("ev:evf_three"));  /* a prefix of it */
	assert_null(tracepoint_find("evf:"));
	assert_null(tracepoint_find(":evf_three"));
	assert_null(tracepoint_find("evf:evf_*")); /* no patterns here */
	assert_int_equal(tracepoint_probe_register_name("evf:evf_three",
							TRACEPOINT_FUNC(count_by_name), NULL, 0),
			 0);
	trace_evf_three(1, 2, 3);
	assert_int_equal(by_name_hits, 1);
	assert_int_equal(tracepoint_probe_unregister_name("evf:evf_three",
							  TRACEPOINT_FUNC(count_by_name), NULL),
			 0);
	assert_int_equal(tracepoint_probe_unregister_name("evf:evf_three",
							  TRACEPOINT_FUNC(count_by_name), NULL),
			 -ENOENT);
	tracepoint_synchronize_unregister();
	trace_evf_three(1, 2, 3);
	assert_int_equal(by_name_hits, 1);
}

static void glob_enables_every_match(void **state)
{
	(void)state;
	assert_int_equal(tracepoint_enable("evf:evf_lock_*"), 2);
	assert_true(on(&__tracepoint_evf_lock_acquire));
	assert_true(on(&__tracepoint_evf_lock_release));
	assert_false(on(&__tracepoint_evf_three));
	assert_int_equal(tracepoint_disable("*:*_release"), 1);
	assert_true(on(&__tracepoint_evf_lock_acquire));
	assert_false(on(&__tracepoint_evf_lock_release));
	assert_int_equal(tracepoint_enable("e?f:evf_thre?"), 1);
	assert_true(on(&__tracepoint_evf_three));
	assert_int_equal(tracepoint_enable("evf_mixed"), 1); /* event name, any system */
	assert_true(on(&__tracepoint_evf_mixed));
	assert_int_equal(tracepoint_disable("*"), 4);
}

static void list_of_patterns(void **state)
{
	(void)state;
	assert_int_equal(tracepoint_enable(" evf:evf_three , evf:evf_mixed"), 2);
	assert_true(on(&__tracepoint_evf_three));
	assert_true(on(&__tracepoint_evf_mixed));
	assert_false(on(&__tracepoint_evf_lock_acquire));
}

/* A list longer than the 64 items one walk takes is walked again from
 * its 65th item on: each walk counts the events it matched. */
static void long_lists_are_walked_in_parts(void **state)
{
	char list[66 * 20 + 32];
	size_t at = 0;
	int i;
	(void)state;
	for (i = 0; i < 65; i++)
		at += (size_t)snprintf(list + at, sizeof(list) - at, "%sevf:evf_three",
				       i ? ", " : "");
	snprintf(list + at, sizeof(list) - at, " ,evf_mixed");
	assert_int_equal(tracepoint_enable(list), 3); /* evf_three in both walks, evf_mixed */
	assert_true(on(&__tracepoint_evf_three));
	assert_true(on(&__tracepoint_evf_mixed));
	assert_false(on(&__tracepoint_evf_lock_acquire));
	assert_int_equal(tracepoint_disable(list), 3);
	assert_false(on(&__tracepoint_evf_mixed));
}

/* Empty groups (a trailing ';', ";;", spaces and line ends) stand for
 * nothing, as in ftrace; a list with no pattern at all is still refused. */
static void empty_groups_are_skipped(void **state)
{
	const char *err;
	(void)state;
	sc_stderr_begin();
	assert_int_equal(tracepoint_enable("evf:evf_three;"), 1);
	assert_int_equal(tracepoint_enable(" ;evf:evf_mixed ;; \n"), 1);
	assert_int_equal(tracepoint_enable("\tevf:evf_lock_acquire,\r\n evf:evf_lock_release\n"),
			 2);
	err = sc_stderr_end();
	assert_string_equal(err, "");
	assert_true(on(&__tracepoint_evf_three));
	assert_true(on(&__tracepoint_evf_mixed));
	assert_true(on(&__tracepoint_evf_lock_release));
	sc_stderr_begin();
	assert_int_equal(tracepoint_disable("evf:evf_three;;"), 1);
	assert_int_equal(tracepoint_enable(" ; ;"), -EINVAL);
	err = sc_stderr_end();
	print_message("%s", err);
	assert_non_null(strstr(err, "no pattern at all (only ';' and spaces) at position 5\n"));
	assert_false(on(&__tracepoint_evf_three));
	sc_stderr_begin();
	assert_int_equal(tracepoint_enable("evf:evf_three; if a > 1"), -EINVAL);
	err = sc_stderr_end();
	assert_non_null(strstr(err, "no pattern before 'if' at position 16\n"));
	assert_false(on(&__tracepoint_evf_three));
}

static void check_malformed(const char *list, int pos, const char *why)
{
	char want[64];
	const char *err;
	sc_stderr_begin();
	assert_int_equal(tracepoint_enable(list), -EINVAL);
	err = sc_stderr_end();
	print_message("%s", err);
	snprintf(want, sizeof(want), "at position %d\n", pos);
	assert_non_null(strstr(err, "malformed pattern list"));
	assert_non_null(strstr(err, want));
	assert_non_null(strstr(err, why));
}

static void malformed_lists_are_rejected_with_position(void **state)
{
	(void)state;
	check_malformed("evf:evf_three,,evf:evf_mixed", 15, "empty pattern");
	check_malformed("evf:evf_three,", 15, "empty pattern");
	check_malformed("", 1, "empty pattern");
	check_malformed("evf:evf-three", 8, "not allowed");
	check_malformed("a:b:c", 4, "second ':'");
	check_malformed(":x", 1, "empty system");
	check_malformed("evf:", 5, "empty event");
	check_malformed("evf:a b", 6, "space inside");
	check_malformed("evf:\x01", 5, "control");
	check_malformed("evf:\xc3\xa9", 5, "non-ASCII");
	assert_int_equal(tracepoint_enable(NULL), -EINVAL);
	assert_int_equal(tracepoint_disable("x,,y"), -EINVAL);
	/* nothing was enabled by the good items of a bad list */
	assert_false(on(&__tracepoint_evf_three));
	assert_false(on(&__tracepoint_evf_mixed));
}

static void unknown_events_are_reported_once(void **state)
{
	const char *err;
	(void)state;
	sc_stderr_begin();
	assert_int_equal(tracepoint_enable("evf:no_such_event"), 0);
	assert_int_equal(tracepoint_enable("evf:no_such_event"), 0);
	assert_int_equal(tracepoint_enable("nosys:*,evf:evf_three"), 1);
	assert_int_equal(tracepoint_enable("nosys:*"), 0);
	assert_int_equal(tracepoint_enable("evf_plain"), 0);
	assert_int_equal(tracepoint_enable("evf"), 0);
	assert_int_equal(tracepoint_enable("evf:evf_thre"), 0); /* one letter short */
	assert_int_equal(tracepoint_enable("evf_mixde"), 0);	/* two swapped, no system */
	assert_int_equal(tracepoint_enable("evf:three"), 0);	/* the name's prefix left out */
	assert_int_equal(tracepoint_enable("evx:mixed"), 0);	/* and the system misspelt */
	err = sc_stderr_end();
	print_message("%s", err);
	assert_int_equal(sc_count(err, "unknown event \"evf:no_such_event\" ("), 1); /* no guess */
	assert_int_equal(
		sc_count(err, "unknown event \"evf:evf_thre\"; did you mean \"evf:evf_three\"?"),
		1);
	assert_int_equal(
		sc_count(err, "unknown event \"evf_mixde\"; did you mean \"evf:evf_mixed\"?"), 1);
	assert_int_equal(
		sc_count(err, "unknown event \"evf:three\"; did you mean \"evf:evf_three\"?"), 1);
	assert_int_equal(
		sc_count(err, "unknown event \"evx:mixed\"; did you mean \"evf:evf_mixed\"?"), 1);
	assert_int_equal(sc_count(err, "pattern \"nosys:*\" matches no event"), 1);
	assert_int_equal(sc_count(err, "evf_plain is a plain tracepoint"), 1);
	assert_int_equal(
		sc_count(err,
			 "unknown event \"evf\": evf is a subsystem; \"evf:*\" records its events"),
		1);
	assert_true(on(&__tracepoint_evf_three));
}

static int count_cb(const struct tracepoint_info *info, void *priv)
{
	int *n = (int *)priv;
	if (strcmp(info->system, "evf") == 0 && info->event)
		n[0]++;
	if (!info->event && strcmp(info->name, "evf_plain") == 0)
		n[1]++;
	if (info->enabled)
		n[2]++;
	return 0;
}

static void listing_shows_every_event(void **state)
{
	int n[3] = { 0, 0, 0 };
	(void)state;
	tracepoint_enable("evf:evf_mixed");
	assert_int_equal(tracepoint_list(count_cb, n), 0);
	assert_int_equal(n[0], 4);
	assert_int_equal(n[1], 1);
	assert_int_equal(n[2], 1);
	assert_int_equal(tracepoint_list(NULL, NULL), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(exact_name_enables_one_event, teardown),
		cmocka_unit_test_teardown(find_takes_system_and_name, teardown),
		cmocka_unit_test_teardown(glob_enables_every_match, teardown),
		cmocka_unit_test_teardown(list_of_patterns, teardown),
		cmocka_unit_test_teardown(long_lists_are_walked_in_parts, teardown),
		cmocka_unit_test_teardown(empty_groups_are_skipped, teardown),
		cmocka_unit_test_teardown(malformed_lists_are_rejected_with_position, teardown),
		cmocka_unit_test_teardown(unknown_events_are_reported_once, teardown),
		cmocka_unit_test_teardown(listing_shows_every_event, teardown),
	};
	static char root[] = "/tmp/tp_patterns_XXXXXX";
	int r;
	tp_test_watchdog(60);
	if (!mkdtemp(root) || tracepoint_output("stream", root) != 0)
		return 1;
	r = cmocka_run_group_tests(tests, NULL, NULL);
	tr_remove(root);
	return r;
}
