/* Covers tracepoint_synchronize_unregister(): grace periods, concurrent firing, probes that (un)register from inside. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "test_common.h"

#define CONFIG_TP_TEST 1
#include "events/tp_test.h"
DEFINE_TRACE(tp_test_int);
DEFINE_TRACE(tp_test_noargs);

#define NTHREADS 3
#define MAGIC 0x5afe5afe5afe5afeULL
#define POISON 0xdeaddeaddeaddeadULL

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

static int reset(void **state)
{
	(void)state;
	tp_test_detach_all(&__tracepoint_tp_test_int);
	tp_test_detach_all(&__tracepoint_tp_test_noargs);
	return 0;
}

/* ---------------------------------------------------------------- simple */

static int hits;
static void probe_count(int v, void *data)
{
	(void)data;
	(void)v;
	__atomic_fetch_add(&hits, 1, __ATOMIC_RELAXED);
}

static void test_synchronize_returns_promptly_with_nothing_pending(void **state)
{
	double t0;
	(void)state;
	t0 = now();
	tracepoint_synchronize_unregister();
	tracepoint_synchronize_unregister();
	assert_true(now() - t0 < 0.1);
}

static void test_synchronize_returns_promptly_after_unregister_without_readers(void **state)
{
	int ctx1, ctx2;
	double t0;
	(void)state;
	assert_int_equal(register_trace_tp_test_int(probe_count, &ctx1), 0);
	assert_int_equal(register_trace_tp_test_int(probe_count, &ctx2), 0);
	trace_tp_test_int(0);
	assert_int_equal(unregister_trace_tp_test_int(probe_count, &ctx1), 0);
	assert_int_equal(unregister_trace_tp_test_int(probe_count, &ctx2), 0);
	t0 = now();
	tracepoint_synchronize_unregister();
	assert_true(now() - t0 < 0.1);
}

static void test_probe_never_runs_after_unregister_and_synchronize(void **state)
{
	int ctx, other;
	(void)state;
	hits = 0;
	assert_int_equal(register_trace_tp_test_int(probe_count, &ctx), 0);
	trace_tp_test_int(1);
	assert_int_equal(hits, 1);
	assert_int_equal(unregister_trace_tp_test_int(probe_count, &ctx), 0);
	tracepoint_synchronize_unregister();
	for (int i = 0; i < 10; i++)
		trace_tp_test_int(i);
	assert_int_equal(hits, 1);
	/* Also while another probe keeps the tracepoint enabled. */
	assert_int_equal(register_trace_tp_test_int(probe_count, &ctx), 0);
	assert_int_equal(register_trace_tp_test_int(probe_count, &other), 0);
	trace_tp_test_int(2);
	assert_int_equal(hits, 3);
	assert_int_equal(unregister_trace_tp_test_int(probe_count, &ctx), 0);
	tracepoint_synchronize_unregister();
	trace_tp_test_int(3);
	assert_int_equal(hits, 4);
}

/* ------------------------------------------- a reader blocked in a probe */

static int blocker_inside, blocker_release;
static void probe_blocking(int v, void *data)
{
	(void)data;
	(void)v;
	__atomic_store_n(&blocker_inside, 1, __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(&blocker_release, __ATOMIC_SEQ_CST))
		sched_yield();
	__atomic_store_n(&blocker_inside, 2, __ATOMIC_SEQ_CST);
}

static void *fire_once(void *arg)
{
	(void)arg;
	trace_tp_test_int(0);
	return NULL;
}

static int sync_done;
static void *sync_thread(void *arg)
{
	(void)arg;
	tracepoint_synchronize_unregister();
	__atomic_store_n(&sync_done, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

static void test_synchronize_waits_for_a_probe_that_is_still_running(void **state)
{
	pthread_t reader, syncer;
	int ctx, ok_waited, ok_done;
	double t0;
	(void)state;
	blocker_inside = blocker_release = sync_done = 0;
	assert_int_equal(register_trace_tp_test_int(probe_blocking, &ctx), 0);
	assert_int_equal(pthread_create(&reader, NULL, fire_once, NULL), 0);
	t0 = now();
	while (!__atomic_load_n(&blocker_inside, __ATOMIC_SEQ_CST) && now() - t0 < 2)
		sched_yield();
	assert_int_equal(unregister_trace_tp_test_int(probe_blocking, &ctx), 0);
	assert_int_equal(pthread_create(&syncer, NULL, sync_thread, NULL), 0);
	sleep_ms(60);
	/* The probe is still running: synchronize must still be waiting. */
	ok_waited = __atomic_load_n(&blocker_inside, __ATOMIC_SEQ_CST) == 1 &&
		    !__atomic_load_n(&sync_done, __ATOMIC_SEQ_CST);
	__atomic_store_n(&blocker_release, 1, __ATOMIC_SEQ_CST);
	t0 = now();
	while (!__atomic_load_n(&sync_done, __ATOMIC_SEQ_CST) && now() - t0 < 2)
		sched_yield();
	ok_done = __atomic_load_n(&sync_done, __ATOMIC_SEQ_CST) &&
		  __atomic_load_n(&blocker_inside, __ATOMIC_SEQ_CST) == 2;
	pthread_join(reader, NULL);
	pthread_join(syncer, NULL);
	assert_true(ok_waited);
	assert_true(ok_done);
}

/* ------------------------------------------------ concurrent fire stress */

/* Data of the probe that comes and goes; the magic is kept clear of the
 * allocator's bookkeeping at the start of a freed block. */
struct transient {
	char pad[48];
	uint64_t magic;
	long calls;
};

static int stop_firing;
static long fires[NTHREADS];		/* per thread, written by that thread */
static long persistent_calls[NTHREADS]; /* per firing thread */
static long bad_magic;			/* transient probe saw freed memory */
static long transient_calls;

static void probe_persistent(int v, void *data)
{
	(void)data;
	if (v >= 0 && v < NTHREADS)
		__atomic_fetch_add(&persistent_calls[v], 1, __ATOMIC_RELAXED);
}

static void probe_transient(int v, void *data)
{
	struct transient *t = (struct transient *)data;
	(void)v;
	if (__atomic_load_n(&t->magic, __ATOMIC_RELAXED) != MAGIC) {
		__atomic_fetch_add(&bad_magic, 1, __ATOMIC_RELAXED);
		return;
	}
	__atomic_fetch_add(&t->calls, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&transient_calls, 1, __ATOMIC_RELAXED);
}

static void *firer(void *arg)
{
	int idx = (int)(intptr_t)arg;
	while (!__atomic_load_n(&stop_firing, __ATOMIC_RELAXED)) {
		trace_tp_test_int(idx);
		__atomic_store_n(&fires[idx], fires[idx] + 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

/* Waits until every firing thread has completed at least two more fires, so
 * that each has started one after the moment of the call. */
static void wait_for_fresh_fires(void)
{
	long base[NTHREADS];
	double t0 = now();
	for (int i = 0; i < NTHREADS; i++)
		base[i] = __atomic_load_n(&fires[i], __ATOMIC_RELAXED);
	for (int i = 0; i < NTHREADS; i++)
		while (__atomic_load_n(&fires[i], __ATOMIC_RELAXED) < base[i] + 2 && now() - t0 < 1)
			sched_yield();
}

struct stress_result {
	long rounds;
	long reg_errors;
	long ran_after_sync; /* transient probe called after its synchronize */
};

/* Registers, unregisters, synchronizes and frees a transient probe in a loop
 * for `seconds` while NTHREADS threads fire tp_test_int. */
static struct stress_result stress(double seconds)
{
	static const size_t sizes[] = { 0, 32, 64, 96 };
	struct stress_result r;
	pthread_t th[NTHREADS];
	double t0;

	memset(&r, 0, sizeof(r));
	memset(fires, 0, sizeof(fires));
	memset(persistent_calls, 0, sizeof(persistent_calls));
	bad_magic = transient_calls = 0;
	stop_firing = 0;
	for (int i = 0; i < NTHREADS; i++)
		assert_int_equal(pthread_create(&th[i], NULL, firer, (void *)(intptr_t)i), 0);

	t0 = now();
	while (now() - t0 < seconds) {
		/* Vary the size so that the freed block is not handed straight
		 * back, giving a late reader a chance to see the poison. */
		struct transient *t =
			(struct transient *)malloc(sizeof(*t) + sizes[r.rounds % ARRAY_LEN(sizes)]);
		long calls_at_sync;
		if (!t)
			break;
		t->magic = MAGIC;
		t->calls = 0;
		if (register_trace_tp_test_int(probe_transient, t) != 0)
			r.reg_errors++;
		if (r.rounds % 4 == 0)
			wait_for_fresh_fires();
		else
			sched_yield();
		if (unregister_trace_tp_test_int(probe_transient, t) != 0)
			r.reg_errors++;
		tracepoint_synchronize_unregister();
		calls_at_sync = __atomic_load_n(&t->calls, __ATOMIC_RELAXED);
		if (r.rounds % 4 == 1)
			wait_for_fresh_fires();
		if (__atomic_load_n(&t->calls, __ATOMIC_RELAXED) != calls_at_sync)
			r.ran_after_sync++;
		__atomic_store_n(&t->magic, POISON, __ATOMIC_RELAXED);
		free(t);
		r.rounds++;
	}

	__atomic_store_n(&stop_firing, 1, __ATOMIC_RELAXED);
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(th[i], NULL);
	return r;
}

static void test_concurrent_fire_never_reaches_freed_probe_data_and_persistent_probe_runs_once_per_fire(
	void **state)
{
	int ctx;
	struct stress_result r;
	long total_fires = 0, total_calls = 0;
	(void)state;
	assert_int_equal(register_trace_prio_tp_test_int(probe_persistent, &ctx, 0), 0);
	r = stress(0.5);
	assert_int_equal(unregister_trace_tp_test_int(probe_persistent, &ctx), 0);
	tracepoint_synchronize_unregister();

	print_message("stress with persistent probe: %ld rounds, %ld fires, %ld transient calls\n",
		      r.rounds, fires[0] + fires[1] + fires[2], transient_calls);
	assert_int_equal(r.reg_errors, 0);
	assert_int_equal(bad_magic, 0);
	assert_int_equal(r.ran_after_sync, 0);
	assert_true(r.rounds > 3);
	assert_true(transient_calls > 0);
	for (int i = 0; i < NTHREADS; i++) {
		assert_true(fires[i] > 0);
		assert_int_equal(persistent_calls[i], fires[i]);
		total_fires += fires[i];
		total_calls += persistent_calls[i];
	}
	assert_int_equal(total_calls, total_fires);
}

static void test_concurrent_fire_while_tracepoint_toggles_on_and_off_never_reaches_freed_probe_data(
	void **state)
{
	struct stress_result r;
	(void)state;
	/* The transient probe is the only one: every round enables and
	 * disables the tracepoint under the firing threads. */
	r = stress(0.4);
	print_message("stress toggling: %ld rounds, %ld fires, %ld transient calls\n", r.rounds,
		      fires[0] + fires[1] + fires[2], transient_calls);
	assert_int_equal(r.reg_errors, 0);
	assert_int_equal(bad_magic, 0);
	assert_int_equal(r.ran_after_sync, 0);
	assert_true(r.rounds > 3);
	assert_false(trace_tp_test_int_enabled());
}

/* ------------------------------------- registration from inside a probe */

static int inner_hits, outer_hits;
static int inner_reg_ret = 1, inner_unreg_ret = 1;
static int inner_ctx;

static void probe_inner(void *data)
{
	(void)data;
	inner_hits++;
}

static void probe_outer_reg_and_unreg(void *data)
{
	(void)data;
	outer_hits++;
	inner_reg_ret = register_trace_tp_test_noargs(probe_inner, &inner_ctx);
	inner_unreg_ret = unregister_trace_tp_test_noargs(probe_inner, &inner_ctx);
}

static void test_probe_registering_and_unregistering_another_probe_on_same_tracepoint_does_not_deadlock(
	void **state)
{
	int ctx;
	(void)state;
	outer_hits = inner_hits = 0;
	tp_test_watchdog(5); /* a deadlock kills the binary */
	assert_int_equal(register_trace_tp_test_noargs(probe_outer_reg_and_unreg, &ctx), 0);
	trace_tp_test_noargs();
	assert_int_equal(outer_hits, 1);
	assert_int_equal(inner_reg_ret, 0);
	assert_int_equal(inner_unreg_ret, 0);
	trace_tp_test_noargs();
	assert_int_equal(outer_hits, 2);
	assert_int_equal(inner_reg_ret, 0);
	assert_int_equal(inner_unreg_ret, 0);
	assert_int_equal(unregister_trace_tp_test_noargs(probe_outer_reg_and_unreg, &ctx), 0);
	tracepoint_synchronize_unregister();
	assert_false(trace_tp_test_noargs_enabled());
	tp_test_watchdog(10);
}

/* Registers the inner probe on one fire and removes it on the next. */
static void probe_outer_toggle(void *data)
{
	(void)data;
	outer_hits++;
	if (outer_hits % 2)
		inner_reg_ret = register_trace_tp_test_noargs(probe_inner, &inner_ctx);
	else
		inner_unreg_ret = unregister_trace_tp_test_noargs(probe_inner, &inner_ctx);
}

static void test_probe_registered_from_inside_a_probe_fires_on_later_fires(void **state)
{
	int ctx;
	(void)state;
	outer_hits = inner_hits = 0;
	inner_reg_ret = inner_unreg_ret = 1;
	tp_test_watchdog(5);
	assert_int_equal(register_trace_tp_test_noargs(probe_outer_toggle, &ctx), 0);
	trace_tp_test_noargs(); /* outer registers inner */
	assert_int_equal(inner_reg_ret, 0);
	trace_tp_test_noargs(); /* inner runs; outer unregisters it */
	assert_int_equal(inner_hits, 1);
	assert_int_equal(inner_unreg_ret, 0);
	trace_tp_test_noargs(); /* outer registers inner again */
	trace_tp_test_noargs();
	assert_int_equal(outer_hits, 4);
	assert_int_equal(inner_hits, 2);
	assert_int_equal(unregister_trace_tp_test_noargs(probe_outer_toggle, &ctx), 0);
	tracepoint_synchronize_unregister();
	trace_tp_test_noargs();
	assert_int_equal(inner_hits, 2);
	tp_test_watchdog(10);
}

static int self_ctx;
static int self_unreg_ret = 1;
static void probe_unregisters_itself(int v, void *data)
{
	(void)v;
	hits++;
	self_unreg_ret = unregister_trace_tp_test_int(probe_unregisters_itself, data);
}

static void test_probe_unregistering_itself_from_inside_runs_once(void **state)
{
	(void)state;
	hits = 0;
	tp_test_watchdog(5);
	assert_int_equal(register_trace_tp_test_int(probe_unregisters_itself, &self_ctx), 0);
	trace_tp_test_int(1);
	assert_int_equal(self_unreg_ret, 0);
	assert_false(trace_tp_test_int_enabled());
	tracepoint_synchronize_unregister();
	trace_tp_test_int(2);
	assert_int_equal(hits, 1);
	tp_test_watchdog(10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_synchronize_returns_promptly_with_nothing_pending,
					  reset),
		cmocka_unit_test_teardown(
			test_synchronize_returns_promptly_after_unregister_without_readers, reset),
		cmocka_unit_test_teardown(test_probe_never_runs_after_unregister_and_synchronize,
					  reset),
		cmocka_unit_test_teardown(test_synchronize_waits_for_a_probe_that_is_still_running,
					  reset),
		cmocka_unit_test_teardown(
			test_concurrent_fire_never_reaches_freed_probe_data_and_persistent_probe_runs_once_per_fire,
			reset),
		cmocka_unit_test_teardown(
			test_concurrent_fire_while_tracepoint_toggles_on_and_off_never_reaches_freed_probe_data,
			reset),
		cmocka_unit_test_teardown(
			test_probe_registering_and_unregistering_another_probe_on_same_tracepoint_does_not_deadlock,
			reset),
		cmocka_unit_test_teardown(
			test_probe_registered_from_inside_a_probe_fires_on_later_fires, reset),
		cmocka_unit_test_teardown(test_probe_unregistering_itself_from_inside_runs_once,
					  reset),
	};
	tp_test_watchdog(10);
	reset(NULL);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
