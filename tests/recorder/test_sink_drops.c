/* Records that cannot be kept are dropped, counted - by
 * tracepoint_dropped() and in the trace itself (the packets'
 * events_discarded) - and their cause reported once on stderr with the
 * path; recording resumes when the cause goes away:
 *  - a record bigger than a window;
 *  - a window the file system refuses (here: RLIMIT_FSIZE; t_recorder_errors.sh
 *    fills a real file system);
 *  - a record from a signal handler that interrupted a record (one of
 *    variable size: a record of fixed size is assigned on the stack before
 *    it is reserved, so a handler that records during its TP_fast_assign
 *    interrupts nothing, and both are kept). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "test_common.h"
#include "sink_capture.h"

#define TRACEPOINT_STRING_MAX 8192
#define CONFIG_EVH 1
#define CREATE_TRACE_POINTS
#include "events/ev_hook.h"
#include "events/ev_nested.h"
#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>
#include "recorder_fixture.h"

int (*evh_hook)(int v);
static char trace_dir[] = "/tmp/tp_drops_XXXXXX";

struct tally {
	long n;
	int last_v;
	uint64_t max_discarded;
	long minus_one, v12345; /* evh_step records with these values */
};

static void tally(const struct tr_rec *r, void *priv)
{
	struct tally *t = (struct tally *)priv;
	t->n++;
	if (r->ev == trace_event_of(&__tracepoint_evh_step)) {
		memcpy(&t->last_v, tr_field(r, "v"), sizeof(int));
		t->minus_one += t->last_v == -1;
		t->v12345 += t->last_v == 12345;
	}
	if (r->discarded > t->max_discarded)
		t->max_discarded = r->discarded;
}

static void too_big_for_a_window(void **state)
{
	static char big[6000];
	const char *err;
	struct tally t = { 0, 0, 0, 0, 0 };
	(void)state;
	memset(big, 'x', sizeof(big) - 1);
	sc_stderr_begin();
	trace_evh_text(big); /* 6000 bytes: a 4 KiB window cannot hold it */
	trace_evh_text(big);
	trace_evh_text("small");
	err = sc_stderr_end();
	assert_int_equal(tracepoint_dropped(), 2);
	assert_int_equal(sc_count(err, "does not fit a window of 4096 bytes"), 1);
	assert_int_equal(tr_read(trace_dir, tally, &t), 1);
	assert_int_equal(t.max_discarded, 2);
}

static void file_system_refuses_a_window(void **state)
{
	struct rlimit old, lim;
	const char *err;
	struct tally t = { 0, 0, 0, 0, 0 };
	int i;
	(void)state;
	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &old);
	lim = old;
	lim.rlim_cur = 64 * 1024; /* the main thread's stream may not grow past 64 KiB */
	setrlimit(RLIMIT_FSIZE, &lim);
	sc_stderr_begin();
	for (i = 20000; i < 120000; i++) /* (12345 is the last test's) */
		trace_evh_step(i);	 /* 8 bytes each: 800 KB, three times the warm ring */
	err = sc_stderr_end();
	print_message("%s", err);
	assert_true(tracepoint_dropped() > 2);
	assert_int_equal(sc_count(err, "tracepoints: cannot extend "), 1);
	assert_non_null(strstr(err, trace_dir));
	assert_non_null(strstr(err, "File too large"));
	/* room again: recording resumes within 1024 records, counting what was lost */
	setrlimit(RLIMIT_FSIZE, &old);
	for (i = 120000; i < 122000; i++)
		trace_evh_step(i);
	assert_int_equal(tr_read(trace_dir, tally, &t) + (long)tracepoint_dropped(), 102000 + 3);
	assert_int_equal(t.last_v, 121999);
	assert_int_equal(t.max_discarded, tracepoint_dropped());
}

/* A record made by a signal handler while the thread was in the middle of
 * one: dropped (not interleaved, never a deadlock). */
static void on_signal(int sig)
{
	(void)sig;
	evh_hook = NULL;
	trace_evh_step(-1);
}

static int raise_signal(int v)
{
	raise(SIGUSR1);
	return v;
}

static void nested_record_from_a_signal_handler(void **state)
{
	unsigned long long before = tracepoint_dropped();
	(void)state;
	signal(SIGUSR1, on_signal);
	evh_hook = raise_signal;
	trace_evn_note(12345, "outer"); /* reserved, then assigned: interrupted */
	assert_null(evh_hook);
	assert_int_equal(tracepoint_dropped(), before + 1);
	trace_evh_step(23456); /* and the thread records normally afterwards */
	assert_int_equal(tracepoint_dropped(), before + 1);
}

static void record_from_a_signal_handler_during_a_fixed_size_assign(void **state)
{
	unsigned long long before = tracepoint_dropped();
	struct tally t = { 0, 0, 0, 0, 0 };
	(void)state;
	signal(SIGUSR1, on_signal);
	evh_hook = raise_signal;
	trace_evh_step(12345); /* the handler's evh_step(-1) comes first */
	assert_null(evh_hook);
	assert_int_equal(tracepoint_dropped(), before);
	tr_read(trace_dir, tally, &t);
	assert_int_equal(t.minus_one, 1);
	assert_int_equal(t.v12345, 1);
}

static int setup(void **state)
{
	return tp_fixture_record(state, trace_dir, 4096, "evh:*,evn:*", 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(too_big_for_a_window),
		cmocka_unit_test(file_system_refuses_a_window),
		cmocka_unit_test(nested_record_from_a_signal_handler),
		cmocka_unit_test(record_from_a_signal_handler_during_a_fixed_size_assign),
	};
	tp_test_watchdog(60);
	return cmocka_run_group_tests(tests, setup, tp_fixture_remove);
}
