/* Flight-recorder mode: each thread keeps a fixed ring of windows and
 * overwrites the oldest, so the trace holds the last records - contiguous,
 * in order, ending with the last one fired - whatever ran before; and
 * tracepoint_snapshot() freezes a copy that later records do not change. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_common.h"

#define CONFIG_EVH 1
#define CREATE_TRACE_POINTS
#include "events/ev_hook.h"
#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>
#include "trace_read.h"

int (*evh_hook)(int v);
static char root[] = "/tmp/tp_flight_XXXXXX";

struct run {
	long n;
	int first, last, gaps;
	uint64_t seq_prev;
};

static void follow(const struct tr_rec *r, void *priv)
{
	struct run *u = (struct run *)priv;
	int v;
	memcpy(&v, tr_field(r, "v"), sizeof(v));
	if (u->n == 0)
		u->first = v;
	else if (v != u->last + 1)
		u->gaps++;
	u->last = v;
	u->n++;
}

static void keeps_the_last_records(void **state)
{
	struct run u;
	int i;
	(void)state;
	for (i = 0; i < 200000; i++) /* 1.6 MB of records through a 32 KiB ring */
		trace_evh_step(i);
	memset(&u, 0, sizeof(u));
	assert_true(tr_read(tracepoint_trace_dir(), follow, &u) > 0);
	print_message("ring holds %ld records: %d..%d\n", u.n, u.first, u.last);
	assert_int_equal(u.last, 199999);
	assert_int_equal(u.gaps, 0);
	/* 8 windows of 4 KiB, 2 a file: 5 files (recorder/stream.h, the
	 * flight ring), of which the newest 8 to 10 windows are readable */
	assert_true(u.n > 3000 && u.n <= 5 * 2 * 4096 / 8);
	assert_int_equal(tracepoint_dropped(), 0);
}

static void snapshot_is_frozen(void **state)
{
	char snap[4200];
	struct run a, b;
	int k, i;
	(void)state;
	k = tracepoint_snapshot();
	assert_int_equal(k, 1);
	snprintf(snap, sizeof(snap), "%s/snapshot-1", tracepoint_trace_dir());
	memset(&a, 0, sizeof(a));
	assert_true(tr_read(snap, follow, &a) > 0);
	assert_int_equal(a.last, 199999);
	assert_int_equal(a.gaps, 0);
	for (i = 0; i < 100000; i++)
		trace_evh_step(1000000 + i);
	memset(&b, 0, sizeof(b));
	assert_int_equal(tr_read(snap, follow, &b), a.n);
	assert_int_equal(b.first, a.first);
	assert_int_equal(b.last, 199999);
	if (system("command -v babeltrace2 >/dev/null") == 0) {
		char cmd[4400];
		snprintf(cmd, sizeof(cmd), "babeltrace2 '%s' | grep -c 'v = ' | grep -qx %ld", snap,
			 a.n);
		assert_int_equal(system(cmd), 0);
	}
	assert_int_equal(tracepoint_snapshot(), 2);
}

static void *other_thread(void *arg)
{
	int i;
	(void)arg;
	for (i = 0; i < 50000; i++)
		trace_evh_step(5000000 + i);
	return NULL;
}

/* A snapshot copies a packet the way a seqlock reader does: it reads the
 * packet's sequence number before and after, and drops the copy if a
 * recording thread reused the slot meanwhile.  ThreadSanitizer rightly sees
 * that copy race with the reuse (the race is detected, by design), so this
 * test does not run under it. */
static void snapshot_while_threads_record(void **state)
{
	pthread_t t[2];
	int i, k = 0;
	(void)state;
	if (TP_UNDER_TSAN)
		skip();
	for (i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, other_thread, NULL);
	for (i = 0; i < 20; i++) {
		int r = tracepoint_snapshot();
		assert_true(r > 0);
		k = r;
	}
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	for (i = 3; i <= k; i++) { /* every snapshot reads back, each thread in order */
		char snap[4200];
		snprintf(snap, sizeof(snap), "%s/snapshot-%d", tracepoint_trace_dir(), i);
		assert_true(tr_read(snap, NULL, NULL) >= 0);
	}
}

static void stream_mode_has_no_snapshots(void **state)
{
	(void)state;
	assert_int_equal(tracepoint_output("stream", NULL), -EBUSY);
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(root))
		return -1;
	tracepoint_buffer_size(4096);
	tracepoint_flight_size(32768);
	if (tracepoint_snapshot() != -EINVAL) /* nothing recorded yet */
		return -1;
	if (tracepoint_output("flight", root) != 0)
		return -1;
	return tracepoint_enable("evh:evh_step") == 1 ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	tr_remove(root);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(keeps_the_last_records),
		cmocka_unit_test(snapshot_is_frozen),
		cmocka_unit_test(snapshot_while_threads_record),
		cmocka_unit_test(stream_mode_has_no_snapshots),
	};
	tp_test_watchdog(60);
	return cmocka_run_group_tests(tests, setup, teardown);
}
