/* When code cannot be patched (mprotect refused, as under a strict W^X
 * policy).  Static-key sites are compiled idle, so nothing is written at
 * start-up and a disabled tracepoint costs what it always does; enabling
 * one needs its sites patched, so registration fails with the error and
 * attaches nothing (portable mode patches nothing and registers as usual).
 * The same holds when patching starts failing later. */
#include <errno.h>
#include <stddef.h>
#include <sys/mman.h>

static int deny = 1; /* refuse every mprotect */
static long mprotect_calls;
static int refusing_mprotect(void *addr, size_t len, int prot)
{
	mprotect_calls++;
	if (deny) {
		errno = EACCES;
		return -1;
	}
	return mprotect(addr, len, prot);
}
#define TRACEPOINT_MPROTECT refusing_mprotect

#include "test_common.h"

#define CONFIG_TP_STRESS 1
#include "events/tp_stress.h"

static int reg_calls, unreg_calls;
static int count_reg(void)
{
	reg_calls++;
	return 0;
}
static void count_unreg(void)
{
	unreg_calls++;
}
DEFINE_TRACE(tp_stress_hot);
DEFINE_TRACE_FN(tp_stress_regfn, count_reg, count_unreg);

#include "patch_common.h"

static int hits;
static void probe(int v, void *data)
{
	(void)data;
	(void)v;
	hits++;
}

__attribute__((noinline)) static void fire_hot(int v)
{
	trace_tp_stress_hot(v);
}
__attribute__((noinline, unused)) static void fire_regfn(int v)
{
	trace_tp_stress_regfn(v);
}

static int evaluated;
static int side_effect(void)
{
	evaluated++;
	return 7;
}

static int reset(void **state)
{
	(void)state;
	deny = 1;
	tp_test_detach_all(&__tracepoint_tp_stress_hot);
	tp_test_detach_all(&__tracepoint_tp_stress_regfn);
	hits = evaluated = 0;
	return 0;
}

/* What registering returns while mprotect is refused. */
#define DENIED_RESULT (TRACEPOINT_STATIC_KEYS ? -EACCES : 0)

static void test_refused_mprotect_nothing_is_patched_at_startup_and_enabling_fails_cleanly(
	void **state)
{
	int ctx;
	(void)state;
#if TRACEPOINT_STATIC_KEYS
	/* compiled idle: the constructor had nothing to write */
	assert_int_equal(mprotect_calls, 0);
	{
		struct site_count c = count_sites(&__tracepoint_tp_stress_hot);
		assert_true(c.idle >= 1);
		assert_int_equal(c.jump + c.other, 0);
	}
#endif
	assert_false(trace_tp_stress_hot_enabled());
	fire_hot(1);
	assert_int_equal(hits, 0);

	for (int round = 0; round < 3; round++) {
		int want = TRACEPOINT_STATIC_KEYS ? 0 : round + 1;
		assert_int_equal(register_trace_tp_stress_hot(probe, &ctx), DENIED_RESULT);
		assert_int_equal(trace_tp_stress_hot_enabled(), !TRACEPOINT_STATIC_KEYS);
		fire_hot(1);
		assert_int_equal(hits, want);
		assert_int_equal(tracepoint_probe_attached(&__tracepoint_tp_stress_hot,
							   TRACEPOINT_FUNC(probe), &ctx),
				 !TRACEPOINT_STATIC_KEYS);
		assert_int_equal(unregister_trace_tp_stress_hot(probe, &ctx),
				 TRACEPOINT_STATIC_KEYS ? -ENOENT : 0);
		tracepoint_synchronize_unregister();
		fire_hot(1);
		assert_int_equal(hits, want);
		assert_false(trace_tp_stress_hot_enabled());
#if TRACEPOINT_STATIC_KEYS
		assert_int_equal(count_sites(&__tracepoint_tp_stress_hot).jump, 0);
#endif
	}
}

static void test_trace_lazy_evaluates_nothing_while_disabled_even_when_sites_cannot_be_patched(
	void **state)
{
	int ctx;
	(void)state;
	trace_lazy(tp_stress_hot, side_effect());
	assert_int_equal(evaluated, 0);
	assert_int_equal(register_trace_tp_stress_hot(probe, &ctx), DENIED_RESULT);
	trace_lazy(tp_stress_hot, side_effect());
	assert_int_equal(evaluated, TRACEPOINT_STATIC_KEYS ? 0 : 1);
	assert_int_equal(hits, TRACEPOINT_STATIC_KEYS ? 0 : 1);
	if (!TRACEPOINT_STATIC_KEYS)
		assert_int_equal(unregister_trace_tp_stress_hot(probe, &ctx), 0);
	trace_lazy(tp_stress_hot, side_effect());
	assert_int_equal(evaluated, TRACEPOINT_STATIC_KEYS ? 0 : 1);
}

static void test_pages_stay_read_exec_when_mprotect_is_refused(void **state)
{
	int ctx;
	char perms[5];
	(void)state;
	assert_true(mapping_perms((const void *)(uintptr_t)fire_hot, perms));
	assert_string_equal(perms, "r-xp");
	assert_int_equal(register_trace_tp_stress_hot(probe, &ctx), DENIED_RESULT);
	if (!TRACEPOINT_STATIC_KEYS)
		assert_int_equal(unregister_trace_tp_stress_hot(probe, &ctx), 0);
	assert_true(mapping_perms((const void *)(uintptr_t)fire_hot, perms));
	assert_string_equal(perms, "r-xp");
}

/* Patching worked once, then is refused: enabling cannot make
 * the sites jump, so registration must fail with the error and leave the
 * tracepoint exactly as it was (no probe, reg undone by unreg). */
static void test_when_enabling_cannot_patch_registration_fails_with_the_error_and_attaches_nothing(
	void **state)
{
	(void)state;
	if (!TRACEPOINT_STATIC_KEYS) {
		print_message("portable mode: nothing is patched\n");
		skip();
	}
#if TRACEPOINT_STATIC_KEYS
	int ctx;
	/* a full enable/disable cycle works while allowed */
	deny = 0;
	assert_int_equal(register_trace_tp_stress_regfn(probe, &ctx), 0);
	assert_int_equal(unregister_trace_tp_stress_regfn(probe, &ctx), 0);
	{
		struct site_count c = count_sites(&__tracepoint_tp_stress_regfn);
		assert_int_equal(c.jump, 0);
		assert_true(c.idle >= 1);
	}
	reg_calls = unreg_calls = 0;
	deny = 1;
	assert_int_equal(register_trace_tp_stress_regfn(probe, &ctx), -EACCES);
	assert_false(trace_tp_stress_regfn_enabled());
	assert_int_equal(reg_calls, 1);
	assert_int_equal(unreg_calls, 1); /* reg's effect undone */
	fire_regfn(0);
	assert_int_equal(hits, 0);
	assert_int_equal(unregister_trace_tp_stress_regfn(probe, &ctx), -ENOENT);
	{
		struct site_count c = count_sites(&__tracepoint_tp_stress_regfn);
		assert_int_equal(c.jump, 0);
		assert_int_equal(c.other, 0);
	}
	/* once allowed again, it works */
	deny = 0;
	assert_int_equal(register_trace_tp_stress_regfn(probe, &ctx), 0);
	fire_regfn(0);
	assert_int_equal(hits, 1);
	assert_int_equal(unregister_trace_tp_stress_regfn(probe, &ctx), 0);
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(
			test_refused_mprotect_nothing_is_patched_at_startup_and_enabling_fails_cleanly,
			reset),
		cmocka_unit_test_teardown(
			test_trace_lazy_evaluates_nothing_while_disabled_even_when_sites_cannot_be_patched,
			reset),
		cmocka_unit_test_teardown(test_pages_stay_read_exec_when_mprotect_is_refused,
					  reset),
		cmocka_unit_test_teardown(
			test_when_enabling_cannot_patch_registration_fails_with_the_error_and_attaches_nothing,
			reset),
	};
	reset(NULL);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
