/* Covers DEFINE_TRACE_FN: the reg callback on first attach, unreg on last detach, and a failing reg. */
#include <string.h>

#include "test_common.h"

static int reg_calls, unreg_calls;
static int reg_result;	       /* what reg() returns */
static int enabled_during_reg; /* tracepoint state seen from inside reg() */
static int enabled_during_unreg;

#define CONFIG_TP_TEST 1
#include "events/tp_test.h"

static int my_reg(void);
static void my_unreg(void);
DEFINE_TRACE_FN(tp_test_regfn, my_reg, my_unreg);

static int my_reg(void)
{
	reg_calls++;
	enabled_during_reg = trace_tp_test_regfn_enabled();
	return reg_result;
}

static void my_unreg(void)
{
	unreg_calls++;
	enabled_during_unreg = trace_tp_test_regfn_enabled();
}

static int hits;
static void probe_a(int v, void *data)
{
	(void)data;
	(void)v;
	hits++;
}
static void probe_b(int v, void *data)
{
	(void)data;
	(void)v;
	hits++;
}

static int reset(void **state)
{
	(void)state;
	reg_result = 0;
	tp_test_detach_all(&__tracepoint_tp_test_regfn);
	reg_calls = unreg_calls = 0;
	enabled_during_reg = enabled_during_unreg = -1;
	hits = 0;
	return 0;
}

static void test_reg_runs_once_when_first_probe_attaches(void **state)
{
	int c1, c2, c3;
	(void)state;
	assert_int_equal(register_trace_tp_test_regfn(probe_a, &c1), 0);
	assert_int_equal(reg_calls, 1);
	assert_int_equal(unreg_calls, 0);
	/* reg runs before the probe is published. */
	assert_int_equal(enabled_during_reg, 0);
	assert_int_equal(register_trace_tp_test_regfn(probe_a, &c2), 0);
	assert_int_equal(register_trace_prio_tp_test_regfn(probe_b, &c3, 50), 0);
	assert_int_equal(reg_calls, 1);
	assert_int_equal(unreg_calls, 0);
}

static void test_unreg_runs_once_when_last_probe_detaches_not_on_intermediate_ones(void **state)
{
	int c1, c2, c3;
	(void)state;
	assert_int_equal(register_trace_tp_test_regfn(probe_a, &c1), 0);
	assert_int_equal(register_trace_tp_test_regfn(probe_a, &c2), 0);
	assert_int_equal(register_trace_tp_test_regfn(probe_b, &c3), 0);
	assert_int_equal(unregister_trace_tp_test_regfn(probe_a, &c2), 0);
	assert_int_equal(unreg_calls, 0);
	assert_int_equal(unregister_trace_tp_test_regfn(probe_a, &c1), 0);
	assert_int_equal(unreg_calls, 0);
	assert_int_equal(unregister_trace_tp_test_regfn(probe_b, &c3), 0);
	assert_int_equal(unreg_calls, 1);
	/* unreg runs after the last probe is unpublished. */
	assert_int_equal(enabled_during_unreg, 0);
	assert_int_equal(reg_calls, 1);
}

static void test_failed_registrations_do_not_call_reg_or_unreg(void **state)
{
	int c1, c2;
	(void)state;
	assert_int_equal(unregister_trace_tp_test_regfn(probe_a, &c1), -ENOENT);
	assert_int_equal(reg_calls, 0);
	assert_int_equal(unreg_calls, 0);
	assert_int_equal(register_trace_tp_test_regfn(probe_a, &c1), 0);
	assert_int_equal(register_trace_tp_test_regfn(probe_a, &c1), -EEXIST);
	assert_int_equal(unregister_trace_tp_test_regfn(probe_a, &c2), -ENOENT);
	assert_int_equal(reg_calls, 1);
	assert_int_equal(unreg_calls, 0);
	assert_int_equal(unregister_trace_tp_test_regfn(probe_a, &c1), 0);
	assert_int_equal(unregister_trace_tp_test_regfn(probe_a, &c1), -ENOENT);
	assert_int_equal(unreg_calls, 1);
}

static void test_reg_and_unreg_run_again_for_each_attach_detach_cycle(void **state)
{
	int c;
	(void)state;
	for (int round = 1; round <= 3; round++) {
		assert_int_equal(register_trace_tp_test_regfn(probe_a, &c), 0);
		assert_int_equal(reg_calls, round);
		assert_int_equal(unreg_calls, round - 1);
		assert_int_equal(unregister_trace_tp_test_regfn(probe_a, &c), 0);
		assert_int_equal(reg_calls, round);
		assert_int_equal(unreg_calls, round);
	}
}

static void test_failing_reg_aborts_registration_and_returns_its_value(void **state)
{
	int c;
	(void)state;
	reg_result = -EPERM;
	assert_int_equal(register_trace_tp_test_regfn(probe_a, &c), -EPERM);
	assert_int_equal(reg_calls, 1);
	assert_false(trace_tp_test_regfn_enabled());
	assert_false(tracepoint_enabled(&__tracepoint_tp_test_regfn));
	assert_int_equal(tp_test_probes(&__tracepoint_tp_test_regfn), 0);
	trace_tp_test_regfn(1);
	assert_int_equal(hits, 0);
	assert_int_equal(unreg_calls, 0);
	/* Nothing is attached, so there is nothing to unregister. */
	assert_int_equal(unregister_trace_tp_test_regfn(probe_a, &c), -ENOENT);
	assert_int_equal(unreg_calls, 0);
}

static void test_failing_reg_returns_positive_values_unchanged(void **state)
{
	int c;
	(void)state;
	reg_result = 17;
	assert_int_equal(register_trace_prio_tp_test_regfn(probe_a, &c, 3), 17);
	assert_false(trace_tp_test_regfn_enabled());
	assert_int_equal(unreg_calls, 0);
}

static void test_registration_after_failing_reg_retries_reg(void **state)
{
	int c;
	(void)state;
	reg_result = -EBUSY;
	assert_int_equal(register_trace_tp_test_regfn(probe_a, &c), -EBUSY);
	assert_int_equal(register_trace_tp_test_regfn(probe_a, &c), -EBUSY);
	assert_int_equal(reg_calls, 2);
	reg_result = 0;
	assert_int_equal(register_trace_tp_test_regfn(probe_a, &c), 0);
	assert_int_equal(reg_calls, 3);
	assert_true(trace_tp_test_regfn_enabled());
	trace_tp_test_regfn(1);
	assert_int_equal(hits, 1);
	assert_int_equal(unreg_calls, 0);
	assert_int_equal(unregister_trace_tp_test_regfn(probe_a, &c), 0);
	assert_int_equal(unreg_calls, 1);
}

static void test_failing_reg_is_not_consulted_while_probes_are_attached(void **state)
{
	int c1, c2;
	(void)state;
	assert_int_equal(register_trace_tp_test_regfn(probe_a, &c1), 0);
	reg_result = -EPERM;
	/* Not the first probe: reg is not called, so it cannot refuse. */
	assert_int_equal(register_trace_tp_test_regfn(probe_b, &c2), 0);
	assert_int_equal(reg_calls, 1);
	trace_tp_test_regfn(1);
	assert_int_equal(hits, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_reg_runs_once_when_first_probe_attaches, reset),
		cmocka_unit_test_teardown(
			test_unreg_runs_once_when_last_probe_detaches_not_on_intermediate_ones,
			reset),
		cmocka_unit_test_teardown(test_failed_registrations_do_not_call_reg_or_unreg,
					  reset),
		cmocka_unit_test_teardown(test_reg_and_unreg_run_again_for_each_attach_detach_cycle,
					  reset),
		cmocka_unit_test_teardown(
			test_failing_reg_aborts_registration_and_returns_its_value, reset),
		cmocka_unit_test_teardown(test_failing_reg_returns_positive_values_unchanged,
					  reset),
		cmocka_unit_test_teardown(test_registration_after_failing_reg_retries_reg, reset),
		cmocka_unit_test_teardown(
			test_failing_reg_is_not_consulted_while_probes_are_attached, reset),
	};
	tp_test_watchdog(10);
	reset(NULL);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
