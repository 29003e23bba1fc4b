/* tracepoint_batch_begin/end across threads (test_batch.c has the rest;
 * this part needs threads, which crawl under qemu-user: it runs natively
 * only, see scripts/check-aarch64.sh). */
#include "batch_common.h"

/* One thread enables and disables in batches while another registers and
 * unregisters outside of any batch and fires: no fault (a page given back
 * read+exec under a writer that thought it open would crash), every probe
 * runs once attached, and at the end the code is read+exec, the sites idle. */
#include <pthread.h>
static int stop;
static void *batcher(void *arg)
{
	int ctx, i;
	(void)arg;
	for (i = 0; i < 300; i++) {
		tracepoint_batch_begin();
		register_trace_tp_stress_0(probe, &ctx);
		register_trace_tp_stress_1(probe, &ctx);
		tracepoint_batch_end();
		tracepoint_batch_begin();
		unregister_trace_tp_stress_0(probe, &ctx);
		unregister_trace_tp_stress_1(probe, &ctx);
		tracepoint_batch_end();
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	return NULL;
}

static int other_hits;
static void other_probe(int v, void *data)
{
	(void)data;
	(void)v;
	__atomic_fetch_add(&other_hits, 1, __ATOMIC_RELAXED);
}

static void test_batches_and_plain_registrations_on_two_threads(void **state)
{
	pthread_t t;
	int ctx, rounds = 0;
	(void)state;
	assert_int_equal(pthread_create(&t, NULL, batcher, NULL), 0);
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE) || rounds < 10) {
		int before;
		assert_int_equal(register_trace_tp_stress_hot(other_probe, &ctx), 0);
		before = __atomic_load_n(&other_hits, __ATOMIC_RELAXED);
		fire_hot(1);
		fire_0(1);
		assert_int_equal(__atomic_load_n(&other_hits, __ATOMIC_RELAXED), before + 1);
		assert_int_equal(unregister_trace_tp_stress_hot(other_probe, &ctx), 0);
		rounds++;
	}
	assert_int_equal(pthread_join(t, NULL), 0);
	tracepoint_synchronize_unregister();
	assert_code_perms("r-xp");
#if TRACEPOINT_STATIC_KEYS
	assert_int_equal(count_sites(&__tracepoint_tp_stress_hot).jump, 0);
	assert_int_equal(count_sites(&__tracepoint_tp_stress_0).jump, 0);
	assert_int_equal(count_sites(&__tracepoint_tp_stress_1).jump, 0);
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_batches_and_plain_registrations_on_two_threads),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
