/* tracepoint_batch_begin/end: many enables with one protection change per
 * module.  Inside a batch each registration still patches its sites before
 * it returns and still fails cleanly when they cannot be patched; the
 * module's code is made writable once and made read+exec again once, at the
 * end of the last open batch.  Portable mode patches nothing: the batch only
 * counts. */
#include <errno.h>
#include <stddef.h>
#include <sys/mman.h>

static int deny;	    /* refuse every mprotect */
static long mprotect_calls; /* all of them, refused included */
static int counting_mprotect(void *addr, size_t len, int prot)
{
	mprotect_calls++;
	if (deny) {
		errno = EACCES;
		return -1;
	}
	return mprotect(addr, len, prot);
}
#define TRACEPOINT_MPROTECT counting_mprotect

#include "batch_common.h"

static int reset(void **state)
{
	(void)state;
	deny = 0;
	while (tracepoint_batch_end() == 0)
		;
	tp_test_detach_all(&__tracepoint_tp_stress_hot);
	tp_test_detach_all(&__tracepoint_tp_stress_0);
	tp_test_detach_all(&__tracepoint_tp_stress_1);
	hits = 0;
	return 0;
}

static void test_end_without_an_open_batch_is_einval_and_batches_nest(void **state)
{
	(void)state;
	assert_int_equal(tracepoint_batch_end(), -EINVAL);
	assert_int_equal(tracepoint_batch_begin(), 0);
	assert_int_equal(tracepoint_batch_begin(), 0);
	assert_int_equal(tracepoint_batch_end(), 0);
	assert_int_equal(tracepoint_batch_end(), 0);
	assert_int_equal(tracepoint_batch_end(), -EINVAL);
	assert_code_perms("r-xp");
}

static void test_in_a_batch_each_registration_works_at_once_and_the_code_is_opened_once(void **state)
{
	int ctx;
	long before;
	(void)state;
	before = mprotect_calls;
	assert_int_equal(tracepoint_batch_begin(), 0);
	assert_int_equal(register_trace_tp_stress_hot(probe, &ctx), 0);
	fire_hot(1); /* patched before register returned */
	assert_int_equal(hits, 1);
	assert_int_equal(register_trace_tp_stress_0(probe, &ctx), 0);
	assert_int_equal(register_trace_tp_stress_1(probe, &ctx), 0);
	fire_0(1);
	fire_1(1);
	assert_int_equal(hits, 3);
#if TRACEPOINT_STATIC_KEYS
	/* one mprotect for the module's code, which stays writable */
	assert_int_equal(mprotect_calls - before, 1);
	assert_code_perms("rwxp");
	assert_true(count_sites(&__tracepoint_tp_stress_0).jump >= 1);
#else
	assert_int_equal(mprotect_calls - before, 0);
#endif
	assert_int_equal(tracepoint_batch_end(), 0);
	assert_code_perms("r-xp");
	assert_int_equal(mprotect_calls - before, TRACEPOINT_STATIC_KEYS ? 2 : 0);
	fire_hot(1);
	assert_int_equal(hits, 4);

	/* disabling in a batch: the same, sites idle again */
	before = mprotect_calls;
	assert_int_equal(tracepoint_batch_begin(), 0);
	assert_int_equal(unregister_trace_tp_stress_hot(probe, &ctx), 0);
	assert_int_equal(unregister_trace_tp_stress_0(probe, &ctx), 0);
	assert_int_equal(unregister_trace_tp_stress_1(probe, &ctx), 0);
	assert_int_equal(tracepoint_batch_end(), 0);
	assert_int_equal(mprotect_calls - before, TRACEPOINT_STATIC_KEYS ? 2 : 0);
	assert_code_perms("r-xp");
	tracepoint_synchronize_unregister();
	fire_hot(1);
	fire_0(1);
	assert_int_equal(hits, 4);
#if TRACEPOINT_STATIC_KEYS
	assert_int_equal(count_sites(&__tracepoint_tp_stress_hot).jump, 0);
	assert_int_equal(count_sites(&__tracepoint_tp_stress_0).jump, 0);
#endif
}

static void test_the_code_is_given_back_by_the_last_open_batch_only(void **state)
{
	int ctx;
	(void)state;
	assert_int_equal(tracepoint_batch_begin(), 0);
	assert_int_equal(tracepoint_batch_begin(), 0);
	assert_int_equal(register_trace_tp_stress_hot(probe, &ctx), 0);
	assert_int_equal(tracepoint_batch_end(), 0);
	assert_code_perms(TRACEPOINT_STATIC_KEYS ? "rwxp" : "r-xp");
	/* while the code is open, a registration patches it without changing
	 * its protection */
	{
		long before = mprotect_calls;
		assert_int_equal(register_trace_tp_stress_0(probe, &ctx), 0);
		assert_int_equal(mprotect_calls - before, 0);
	}
	fire_0(1);
	assert_int_equal(hits, 1);
	assert_int_equal(tracepoint_batch_end(), 0);
	assert_code_perms("r-xp");
	/* after the batch: one mprotect pair per page again */
	{
		long before = mprotect_calls;
		long n;
		assert_int_equal(register_trace_tp_stress_1(probe, &ctx), 0);
		n = mprotect_calls - before;
		if (TRACEPOINT_STATIC_KEYS)
			assert_true(n >= 2 && n % 2 == 0);
		else
			assert_int_equal(n, 0);
		fire_1(1);
		assert_int_equal(hits, 2);
		assert_code_perms("r-xp");
	}
}

static void test_a_refused_mprotect_in_a_batch_fails_the_registration_and_attaches_nothing(
	void **state)
{
	int ctx;
	(void)state;
	deny = 1;
	assert_int_equal(tracepoint_batch_begin(), 0);
	assert_int_equal(register_trace_tp_stress_hot(probe, &ctx),
			 TRACEPOINT_STATIC_KEYS ? -EACCES : 0);
	assert_int_equal(tracepoint_probe_attached(&__tracepoint_tp_stress_hot,
						   TRACEPOINT_FUNC(probe), &ctx),
			 !TRACEPOINT_STATIC_KEYS);
	assert_int_equal(trace_tp_stress_hot_enabled(), !TRACEPOINT_STATIC_KEYS);
	assert_int_equal(tracepoint_batch_end(), 0);
	assert_code_perms("r-xp");
#if TRACEPOINT_STATIC_KEYS
	{
		struct site_count c = count_sites(&__tracepoint_tp_stress_hot);
		assert_int_equal(c.jump + c.other, 0);
	}
	fire_hot(1);
	assert_int_equal(hits, 0);
	/* allowed again: the next batch works */
	deny = 0;
	assert_int_equal(tracepoint_batch_begin(), 0);
	assert_int_equal(register_trace_tp_stress_hot(probe, &ctx), 0);
	assert_int_equal(tracepoint_batch_end(), 0);
	fire_hot(1);
	assert_int_equal(hits, 1);
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_end_without_an_open_batch_is_einval_and_batches_nest,
					  reset),
		cmocka_unit_test_teardown(
			test_in_a_batch_each_registration_works_at_once_and_the_code_is_opened_once,
			reset),
		cmocka_unit_test_teardown(test_the_code_is_given_back_by_the_last_open_batch_only,
					  reset),
		cmocka_unit_test_teardown(
			test_a_refused_mprotect_in_a_batch_fails_the_registration_and_attaches_nothing,
			reset),
	};
	reset(NULL);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
