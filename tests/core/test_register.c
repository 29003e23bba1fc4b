/* Covers probe registration and unregistration: return codes, data pointers, arguments, enabled state. */
#include <limits.h>
#include <string.h>

#include "test_common.h"

#define CONFIG_TP_TEST 1
#include "events/tp_test.h"
DEFINE_TRACE(tp_test_int);
DEFINE_TRACE(tp_test_args);
DEFINE_TRACE(tp_test_noargs);
DEFINE_TRACE(tp_test_six);

/* One record per probe call: which probe, which data, which value. */
struct call {
	int probe;
	void *data;
	int v;
};

static struct call calls[16];
static int ncalls;

static void record(int probe, void *data, int v)
{
	if (ncalls < (int)ARRAY_LEN(calls)) {
		calls[ncalls].probe = probe;
		calls[ncalls].data = data;
		calls[ncalls].v = v;
	}
	ncalls++;
}

static void probe_a(int v, void *data)
{
	record(1, data, v);
}
static void probe_b(int v, void *data)
{
	record(2, data, v);
}

static int noargs_hits;
static void *noargs_data;
static void probe_noargs(void *data)
{
	noargs_hits++;
	noargs_data = data;
}

static struct {
	int hits;
	void *data;
	int i;
	long long ll;
	const char *s;
	double d;
	void *p;
} args_seen;

static void probe_args(int i, long long ll, const char *s, double d, void *p, void *data)
{
	args_seen.hits++;
	args_seen.data = data;
	args_seen.i = i;
	args_seen.ll = ll;
	args_seen.s = s;
	args_seen.d = d;
	args_seen.p = p;
}

static int reset(void **state)
{
	(void)state;
	tp_test_detach_all(&__tracepoint_tp_test_int);
	tp_test_detach_all(&__tracepoint_tp_test_args);
	tp_test_detach_all(&__tracepoint_tp_test_noargs);
	memset(calls, 0, sizeof(calls));
	ncalls = 0;
	noargs_hits = 0;
	noargs_data = NULL;
	memset(&args_seen, 0, sizeof(args_seen));
	return 0;
}

static void test_register_then_unregister_returns_zero(void **state)
{
	int ctx;
	(void)state;
	assert_int_equal(register_trace_tp_test_int(probe_a, &ctx), 0);
	assert_int_equal(unregister_trace_tp_test_int(probe_a, &ctx), 0);
}

static void test_probe_attached_says_which_probe_and_data_are_attached(void **state)
{
	int ctx, other;
	struct tracepoint *tp = &__tracepoint_tp_test_int;
	tracepoint_func_t f = TRACEPOINT_FUNC(probe_a);
	(void)state;
	assert_int_equal(tracepoint_probe_attached(tp, f, &ctx), 0);
	assert_int_equal(register_trace_tp_test_int(probe_a, &ctx), 0);
	assert_int_equal(tracepoint_probe_attached(tp, f, &ctx), 1);
	assert_int_equal(tracepoint_probe_attached(tp, f, &other), 0);
	assert_int_equal(tracepoint_probe_attached(&__tracepoint_tp_test_args, f, &ctx), 0);
	assert_int_equal(tracepoint_probe_attached(NULL, f, &ctx), -EINVAL);
	assert_int_equal(tracepoint_probe_attached(tp, NULL, &ctx), -EINVAL);
	assert_int_equal(unregister_trace_tp_test_int(probe_a, &ctx), 0);
	assert_int_equal(tracepoint_probe_attached(tp, f, &ctx), 0);
}

static void test_sites_counts_the_call_sites_compiled_in(void **state)
{
	(void)state;
#if TRACEPOINT_STATIC_KEYS
	/* this file fires tp_test_int at least once; tp_test_noargs below */
	assert_true(tracepoint_sites(&__tracepoint_tp_test_int) >= 1);
	assert_int_equal(tracepoint_sites(NULL), -EINVAL);
#else
	assert_int_equal(tracepoint_sites(&__tracepoint_tp_test_int), -ENOSYS);
#endif
}

static void test_register_same_probe_and_data_twice_returns_eexist(void **state)
{
	int ctx;
	(void)state;
	assert_int_equal(register_trace_tp_test_int(probe_a, &ctx), 0);
	assert_int_equal(register_trace_tp_test_int(probe_a, &ctx), -EEXIST);
	assert_int_equal(register_trace_prio_tp_test_int(probe_a, &ctx, 99), -EEXIST);
	/* The duplicate was not added: one fire, one call. */
	trace_tp_test_int(5);
	assert_int_equal(ncalls, 1);
	assert_int_equal(unregister_trace_tp_test_int(probe_a, &ctx), 0);
	assert_int_equal(unregister_trace_tp_test_int(probe_a, &ctx), -ENOENT);
}

static void test_register_null_data_twice_returns_eexist(void **state)
{
	(void)state;
	assert_int_equal(register_trace_tp_test_int(probe_a, NULL), 0);
	assert_int_equal(register_trace_tp_test_int(probe_a, NULL), -EEXIST);
	assert_int_equal(unregister_trace_tp_test_int(probe_a, NULL), 0);
}

static void test_same_probe_with_different_data_is_allowed_and_both_fire(void **state)
{
	int ctx1, ctx2;
	(void)state;
	assert_int_equal(register_trace_tp_test_int(probe_a, &ctx1), 0);
	assert_int_equal(register_trace_tp_test_int(probe_a, &ctx2), 0);
	trace_tp_test_int(7);
	assert_int_equal(ncalls, 2);
	assert_int_equal(calls[0].probe, 1);
	assert_ptr_equal(calls[0].data, &ctx1);
	assert_int_equal(calls[0].v, 7);
	assert_int_equal(calls[1].probe, 1);
	assert_ptr_equal(calls[1].data, &ctx2);
	assert_int_equal(calls[1].v, 7);
	assert_int_equal(unregister_trace_tp_test_int(probe_a, &ctx1), 0);
	assert_int_equal(unregister_trace_tp_test_int(probe_a, &ctx2), 0);
}

/* Probes take the arguments, then their data: with six integer arguments
 * the data is the seventh (x86-64: on the stack), for a lone probe (called
 * by the dispatch) and for two (called by the slow dispatch's loop). */
static long six_seen[2][7];
static void probe_six_a(long a, long b, long c, long d, long e, long f, void *data)
{
	long v[7] = { a, b, c, d, e, f, (long)(intptr_t)data };
	memcpy(six_seen[0], v, sizeof(v));
}
static void probe_six_b(long a, long b, long c, long d, long e, long f, void *data)
{
	long v[7] = { a, b, c, d, e, f, (long)(intptr_t)data };
	memcpy(six_seen[1], v, sizeof(v));
}

__attribute__((noinline)) static void fire_six(long a, long b, long c, long d, long e, long f)
{
	trace_tp_test_six(a, b, c, d, e, f);
}

static void test_six_arguments_then_data_reach_one_probe_and_two(void **state)
{
	int ctx_a, ctx_b, k;
	(void)state;
	memset(six_seen, 0, sizeof(six_seen));
	assert_int_equal(register_trace_tp_test_six(probe_six_a, &ctx_a), 0);
	fire_six(1, -2, 3, LONG_MIN, LONG_MAX, 6);
	{
		long want[7] = { 1, -2, 3, LONG_MIN, LONG_MAX, 6, (long)(intptr_t)&ctx_a };
		for (k = 0; k < 7; k++)
			assert_true(six_seen[0][k] == want[k]);
	}
	assert_int_equal(register_trace_tp_test_six(probe_six_b, &ctx_b), 0);
	fire_six(11, 12, 13, 14, 15, 16);
	{
		long want_a[7] = { 11, 12, 13, 14, 15, 16, (long)(intptr_t)&ctx_a };
		long want_b[7] = { 11, 12, 13, 14, 15, 16, (long)(intptr_t)&ctx_b };
		for (k = 0; k < 7; k++) {
			assert_true(six_seen[0][k] == want_a[k]);
			assert_true(six_seen[1][k] == want_b[k]);
		}
	}
	assert_int_equal(unregister_trace_tp_test_six(probe_six_a, &ctx_a), 0);
	assert_int_equal(unregister_trace_tp_test_six(probe_six_b, &ctx_b), 0);
	tracepoint_synchronize_unregister();
}

static void test_register_null_probe_returns_einval(void **state)
{
	int ctx;
	(void)state;
	assert_int_equal(register_trace_tp_test_int((void (*)(int, void *))NULL, &ctx), -EINVAL);
	assert_int_equal(register_trace_prio_tp_test_int((void (*)(int, void *))NULL, &ctx, 3),
			 -EINVAL);
	assert_int_equal(unregister_trace_tp_test_int((void (*)(int, void *))NULL, &ctx), -EINVAL);
	assert_false(trace_tp_test_int_enabled());
	assert_int_equal(tp_test_probes(&__tracepoint_tp_test_int), 0);
}

static void test_untyped_register_with_null_probe_or_null_tp_returns_einval(void **state)
{
	int ctx;
	(void)state;
	assert_int_equal(tracepoint_probe_register(&__tracepoint_tp_test_int, NULL, &ctx), -EINVAL);
	assert_int_equal(tracepoint_probe_register(NULL, TRACEPOINT_FUNC(probe_a), &ctx), -EINVAL);
	assert_int_equal(tracepoint_probe_register_prio(NULL, TRACEPOINT_FUNC(probe_a), &ctx, 1),
			 -EINVAL);
	assert_int_equal(tracepoint_probe_unregister(NULL, TRACEPOINT_FUNC(probe_a), &ctx),
			 -EINVAL);
	assert_int_equal(tracepoint_probe_unregister(&__tracepoint_tp_test_int, NULL, &ctx),
			 -EINVAL);
	assert_false(trace_tp_test_int_enabled());
}

static void test_untyped_register_fires_like_typed_one(void **state)
{
	int ctx;
	(void)state;
	assert_int_equal(tracepoint_probe_register(&__tracepoint_tp_test_int,
						   TRACEPOINT_FUNC(probe_a), &ctx),
			 0);
	/* The typed and untyped APIs share one registry. */
	assert_int_equal(register_trace_tp_test_int(probe_a, &ctx), -EEXIST);
	trace_tp_test_int(3);
	assert_int_equal(ncalls, 1);
	assert_ptr_equal(calls[0].data, &ctx);
	assert_int_equal(calls[0].v, 3);
	assert_int_equal(unregister_trace_tp_test_int(probe_a, &ctx), 0);
}

static void test_unregister_never_registered_returns_enoent(void **state)
{
	int ctx;
	(void)state;
	assert_int_equal(unregister_trace_tp_test_int(probe_a, &ctx), -ENOENT);
	assert_int_equal(unregister_trace_tp_test_int(probe_a, NULL), -ENOENT);
	/* Also when another probe is attached. */
	assert_int_equal(register_trace_tp_test_int(probe_b, &ctx), 0);
	assert_int_equal(unregister_trace_tp_test_int(probe_a, &ctx), -ENOENT);
	assert_true(trace_tp_test_int_enabled());
	assert_int_equal(unregister_trace_tp_test_int(probe_b, &ctx), 0);
}

static void test_unregister_with_wrong_data_returns_enoent_and_keeps_probe(void **state)
{
	int ctx, other;
	(void)state;
	assert_int_equal(register_trace_tp_test_int(probe_a, &ctx), 0);
	assert_int_equal(unregister_trace_tp_test_int(probe_a, &other), -ENOENT);
	assert_int_equal(unregister_trace_tp_test_int(probe_a, NULL), -ENOENT);
	assert_true(trace_tp_test_int_enabled());
	trace_tp_test_int(1);
	assert_int_equal(ncalls, 1);
	assert_int_equal(unregister_trace_tp_test_int(probe_a, &ctx), 0);
}

static void test_reregister_after_unregister_works_and_fires(void **state)
{
	int ctx;
	(void)state;
	for (int round = 0; round < 3; round++) {
		assert_int_equal(register_trace_tp_test_int(probe_a, &ctx), 0);
		trace_tp_test_int(round);
		assert_int_equal(unregister_trace_tp_test_int(probe_a, &ctx), 0);
		trace_tp_test_int(100 + round);
	}
	assert_int_equal(ncalls, 3);
	for (int round = 0; round < 3; round++)
		assert_int_equal(calls[round].v, round);
}

static void test_unregistered_probe_is_no_longer_called_but_others_are(void **state)
{
	int ctx1, ctx2;
	(void)state;
	assert_int_equal(register_trace_tp_test_int(probe_a, &ctx1), 0);
	assert_int_equal(register_trace_tp_test_int(probe_b, &ctx2), 0);
	assert_int_equal(unregister_trace_tp_test_int(probe_a, &ctx1), 0);
	trace_tp_test_int(9);
	assert_int_equal(ncalls, 1);
	assert_int_equal(calls[0].probe, 2);
	assert_ptr_equal(calls[0].data, &ctx2);
	assert_int_equal(unregister_trace_tp_test_int(probe_b, &ctx2), 0);
}

static void test_each_probe_receives_its_own_data_and_the_exact_arguments(void **state)
{
	int ctx_a, ctx_b;
	(void)state;
	assert_int_equal(register_trace_tp_test_int(probe_a, &ctx_a), 0);
	assert_int_equal(register_trace_tp_test_int(probe_b, &ctx_b), 0);
	trace_tp_test_int(INT_MIN);
	trace_tp_test_int(-1);
	trace_tp_test_int(INT_MAX);
	assert_int_equal(ncalls, 6);
	static const int want[] = { INT_MIN, -1, INT_MAX };
	for (int k = 0; k < 3; k++) {
		assert_int_equal(calls[2 * k].probe, 1);
		assert_ptr_equal(calls[2 * k].data, &ctx_a);
		assert_true(calls[2 * k].v == want[k]);
		assert_int_equal(calls[2 * k + 1].probe, 2);
		assert_ptr_equal(calls[2 * k + 1].data, &ctx_b);
		assert_true(calls[2 * k + 1].v == want[k]);
	}
	assert_int_equal(unregister_trace_tp_test_int(probe_a, &ctx_a), 0);
	assert_int_equal(unregister_trace_tp_test_int(probe_b, &ctx_b), 0);
}

static void test_mixed_type_arguments_arrive_intact(void **state)
{
	int ctx;
	char buf[] = "hello";
	(void)state;
	assert_int_equal(register_trace_tp_test_args(probe_args, &ctx), 0);
	trace_tp_test_args(-42, 0x123456789abcdefLL, buf, 2.5, &buf[1]);
	assert_int_equal(args_seen.hits, 1);
	assert_ptr_equal(args_seen.data, &ctx);
	assert_true(args_seen.i == -42);
	assert_true(args_seen.ll == 0x123456789abcdefLL);
	assert_ptr_equal(args_seen.s, buf);
	assert_true(args_seen.d == 2.5);
	assert_ptr_equal(args_seen.p, &buf[1]);
	assert_int_equal(unregister_trace_tp_test_args(probe_args, &ctx), 0);
}

static void test_enabled_is_true_iff_at_least_one_probe_attached(void **state)
{
	int ctx1, ctx2;
	(void)state;
	assert_false(trace_tp_test_int_enabled());
	assert_int_equal(register_trace_tp_test_int(probe_a, &ctx1), 0);
	assert_true(trace_tp_test_int_enabled());
	assert_int_equal(register_trace_tp_test_int(probe_b, &ctx2), 0);
	assert_true(trace_tp_test_int_enabled());
	assert_int_equal(unregister_trace_tp_test_int(probe_a, &ctx1), 0);
	assert_true(trace_tp_test_int_enabled());
	assert_int_equal(unregister_trace_tp_test_int(probe_b, &ctx2), 0);
	assert_false(trace_tp_test_int_enabled());
	/* A failed registration does not enable it. */
	assert_int_equal(register_trace_tp_test_int((void (*)(int, void *))NULL, &ctx1), -EINVAL);
	assert_false(trace_tp_test_int_enabled());
	/* Other tracepoints are not affected. */
	assert_int_equal(register_trace_tp_test_int(probe_a, &ctx1), 0);
	assert_false(trace_tp_test_args_enabled());
	assert_false(trace_tp_test_noargs_enabled());
	assert_int_equal(unregister_trace_tp_test_int(probe_a, &ctx1), 0);
}

static void test_tracepoint_enabled_agrees_with_trace_name_enabled(void **state)
{
	int ctx;
	(void)state;
	assert_false(tracepoint_enabled(&__tracepoint_tp_test_int));
	assert_int_equal(register_trace_tp_test_int(probe_a, &ctx), 0);
	assert_true(tracepoint_enabled(&__tracepoint_tp_test_int));
	assert_true(trace_tp_test_int_enabled());
	assert_false(tracepoint_enabled(&__tracepoint_tp_test_args));
	assert_int_equal(unregister_trace_tp_test_int(probe_a, &ctx), 0);
	assert_false(tracepoint_enabled(&__tracepoint_tp_test_int));
	assert_false(trace_tp_test_int_enabled());
}

static void test_disabled_tracepoint_fires_no_probe(void **state)
{
	(void)state;
	trace_tp_test_int(1);
	trace_tp_test_noargs();
	assert_int_equal(ncalls, 0);
	assert_int_equal(noargs_hits, 0);
}

static void test_noargs_tracepoint_registers_fires_and_unregisters(void **state)
{
	int ctx;
	(void)state;
	assert_false(trace_tp_test_noargs_enabled());
	assert_int_equal(register_trace_tp_test_noargs(probe_noargs, &ctx), 0);
	assert_int_equal(register_trace_tp_test_noargs(probe_noargs, &ctx), -EEXIST);
	assert_true(trace_tp_test_noargs_enabled());
	assert_true(tracepoint_enabled(&__tracepoint_tp_test_noargs));
	trace_tp_test_noargs();
	trace_tp_test_noargs();
	assert_int_equal(noargs_hits, 2);
	assert_ptr_equal(noargs_data, &ctx);
	assert_int_equal(unregister_trace_tp_test_noargs(probe_noargs, &ctx), 0);
	assert_int_equal(unregister_trace_tp_test_noargs(probe_noargs, &ctx), -ENOENT);
	assert_false(trace_tp_test_noargs_enabled());
	trace_tp_test_noargs();
	assert_int_equal(noargs_hits, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_six_arguments_then_data_reach_one_probe_and_two,
					  reset),
		cmocka_unit_test_teardown(test_register_then_unregister_returns_zero, reset),
		cmocka_unit_test_teardown(
			test_probe_attached_says_which_probe_and_data_are_attached, reset),
		cmocka_unit_test_teardown(test_sites_counts_the_call_sites_compiled_in, reset),
		cmocka_unit_test_teardown(test_register_same_probe_and_data_twice_returns_eexist,
					  reset),
		cmocka_unit_test_teardown(test_register_null_data_twice_returns_eexist, reset),
		cmocka_unit_test_teardown(
			test_same_probe_with_different_data_is_allowed_and_both_fire, reset),
		cmocka_unit_test_teardown(test_register_null_probe_returns_einval, reset),
		cmocka_unit_test_teardown(
			test_untyped_register_with_null_probe_or_null_tp_returns_einval, reset),
		cmocka_unit_test_teardown(test_untyped_register_fires_like_typed_one, reset),
		cmocka_unit_test_teardown(test_unregister_never_registered_returns_enoent, reset),
		cmocka_unit_test_teardown(
			test_unregister_with_wrong_data_returns_enoent_and_keeps_probe, reset),
		cmocka_unit_test_teardown(test_reregister_after_unregister_works_and_fires, reset),
		cmocka_unit_test_teardown(
			test_unregistered_probe_is_no_longer_called_but_others_are, reset),
		cmocka_unit_test_teardown(
			test_each_probe_receives_its_own_data_and_the_exact_arguments, reset),
		cmocka_unit_test_teardown(test_mixed_type_arguments_arrive_intact, reset),
		cmocka_unit_test_teardown(test_enabled_is_true_iff_at_least_one_probe_attached,
					  reset),
		cmocka_unit_test_teardown(test_tracepoint_enabled_agrees_with_trace_name_enabled,
					  reset),
		cmocka_unit_test_teardown(test_disabled_tracepoint_fires_no_probe, reset),
		cmocka_unit_test_teardown(test_noargs_tracepoint_registers_fires_and_unregisters,
					  reset),
	};
	tp_test_watchdog(10);
	reset(NULL);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
