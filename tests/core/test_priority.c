/* Covers probe call order: priorities, ties, extreme values, default priority, removal. */
#include <limits.h>
#include <string.h>

#include "test_common.h"

#define CONFIG_TP_TEST 1
#include "events/tp_test.h"
DEFINE_TRACE(tp_test_int);

/* Every probe is the same function; its data is its label. */
static int order[16];
static int norder;

static void probe(int v, void *data)
{
	(void)v;
	if (norder < (int)ARRAY_LEN(order))
		order[norder] = *(const int *)data;
	norder++;
}

static const int L1 = 1, L2 = 2, L3 = 3, L4 = 4, L5 = 5;

static int reset(void **state)
{
	(void)state;
	tp_test_detach_all(&__tracepoint_tp_test_int);
	memset(order, 0, sizeof(order));
	norder = 0;
	return 0;
}

/* Fires once and checks the labels arrived in exactly this order. */
static void fire_and_expect(const int *want, int n)
{
	norder = 0;
	trace_tp_test_int(0);
	assert_int_equal(norder, n);
	for (int i = 0; i < n; i++)
		assert_int_equal(order[i], want[i]);
}

static int reg(const int *label, int prio)
{
	return register_trace_prio_tp_test_int(probe, (void *)label, prio);
}

static void test_highest_priority_runs_first(void **state)
{
	(void)state;
	assert_int_equal(reg(&L1, 5), 0);
	assert_int_equal(reg(&L2, 50), 0);
	assert_int_equal(reg(&L3, 20), 0);
	assert_int_equal(reg(&L4, 1), 0);
	fire_and_expect((const int[]){ 2, 3, 1, 4 }, 4);
}

static void test_registering_in_descending_priority_keeps_that_order(void **state)
{
	(void)state;
	assert_int_equal(reg(&L1, 30), 0);
	assert_int_equal(reg(&L2, 20), 0);
	assert_int_equal(reg(&L3, 10), 0);
	fire_and_expect((const int[]){ 1, 2, 3 }, 3);
}

static void test_equal_priorities_keep_registration_order(void **state)
{
	(void)state;
	assert_int_equal(reg(&L1, 7), 0);
	assert_int_equal(reg(&L2, 7), 0);
	assert_int_equal(reg(&L3, 7), 0);
	fire_and_expect((const int[]){ 1, 2, 3 }, 3);
}

static void test_equal_priorities_keep_registration_order_among_other_priorities(void **state)
{
	(void)state;
	assert_int_equal(reg(&L1, 7), 0);
	assert_int_equal(reg(&L2, 9), 0);
	assert_int_equal(reg(&L3, 7), 0);
	assert_int_equal(reg(&L4, 3), 0);
	assert_int_equal(reg(&L5, 9), 0);
	fire_and_expect((const int[]){ 2, 5, 1, 3, 4 }, 5);
}

static void test_int_min_int_max_and_negative_priorities_order_correctly(void **state)
{
	(void)state;
	assert_int_equal(reg(&L1, -5), 0);
	assert_int_equal(reg(&L2, INT_MIN), 0);
	assert_int_equal(reg(&L3, INT_MAX), 0);
	assert_int_equal(reg(&L4, 0), 0);
	assert_int_equal(reg(&L5, -1), 0);
	fire_and_expect((const int[]){ 3, 4, 5, 1, 2 }, 5);
}

static void test_int_min_registered_first_still_runs_last(void **state)
{
	(void)state;
	assert_int_equal(reg(&L1, INT_MIN), 0);
	assert_int_equal(reg(&L2, INT_MIN + 1), 0);
	assert_int_equal(reg(&L3, INT_MIN), 0);
	fire_and_expect((const int[]){ 2, 1, 3 }, 3);
}

static void test_default_priority_is_tracepoint_default_prio_10(void **state)
{
	(void)state;
	assert_int_equal(TRACEPOINT_DEFAULT_PRIO, 10);
	/* A default probe ties with an explicit 10: registration order wins. */
	assert_int_equal(register_trace_tp_test_int(probe, (void *)&L1), 0);
	assert_int_equal(reg(&L2, 10), 0);
	assert_int_equal(register_trace_tp_test_int(probe, (void *)&L3), 0);
	fire_and_expect((const int[]){ 1, 2, 3 }, 3);
}

static void test_prio_11_probe_runs_before_default_priority_probes(void **state)
{
	(void)state;
	assert_int_equal(register_trace_tp_test_int(probe, (void *)&L1), 0);
	assert_int_equal(register_trace_tp_test_int(probe, (void *)&L2), 0);
	assert_int_equal(reg(&L3, 11), 0);
	assert_int_equal(reg(&L4, 9), 0);
	fire_and_expect((const int[]){ 3, 1, 2, 4 }, 4);
}

static void test_untyped_register_uses_default_priority(void **state)
{
	(void)state;
	assert_int_equal(reg(&L1, 9), 0);
	assert_int_equal(tracepoint_probe_register(&__tracepoint_tp_test_int,
						   TRACEPOINT_FUNC(probe), (void *)&L2),
			 0);
	assert_int_equal(reg(&L3, 11), 0);
	fire_and_expect((const int[]){ 3, 2, 1 }, 3);
}

static void test_unregistering_a_middle_probe_keeps_the_others_in_order(void **state)
{
	(void)state;
	assert_int_equal(reg(&L1, 30), 0);
	assert_int_equal(reg(&L2, 20), 0);
	assert_int_equal(reg(&L3, 20), 0);
	assert_int_equal(reg(&L4, 10), 0);
	assert_int_equal(unregister_trace_tp_test_int(probe, (void *)&L2), 0);
	fire_and_expect((const int[]){ 1, 3, 4 }, 3);
	/* A newcomer of the removed probe's priority goes after its equals. */
	assert_int_equal(reg(&L5, 20), 0);
	fire_and_expect((const int[]){ 1, 3, 5, 4 }, 4);
	assert_int_equal(unregister_trace_tp_test_int(probe, (void *)&L3), 0);
	fire_and_expect((const int[]){ 1, 5, 4 }, 3);
}

static void test_reregistered_probe_goes_after_its_equals(void **state)
{
	(void)state;
	assert_int_equal(reg(&L1, 10), 0);
	assert_int_equal(reg(&L2, 10), 0);
	assert_int_equal(unregister_trace_tp_test_int(probe, (void *)&L1), 0);
	assert_int_equal(reg(&L1, 10), 0);
	fire_and_expect((const int[]){ 2, 1 }, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_highest_priority_runs_first, reset),
		cmocka_unit_test_teardown(test_registering_in_descending_priority_keeps_that_order,
					  reset),
		cmocka_unit_test_teardown(test_equal_priorities_keep_registration_order, reset),
		cmocka_unit_test_teardown(
			test_equal_priorities_keep_registration_order_among_other_priorities,
			reset),
		cmocka_unit_test_teardown(
			test_int_min_int_max_and_negative_priorities_order_correctly, reset),
		cmocka_unit_test_teardown(test_int_min_registered_first_still_runs_last, reset),
		cmocka_unit_test_teardown(test_default_priority_is_tracepoint_default_prio_10,
					  reset),
		cmocka_unit_test_teardown(test_prio_11_probe_runs_before_default_priority_probes,
					  reset),
		cmocka_unit_test_teardown(test_untyped_register_uses_default_priority, reset),
		cmocka_unit_test_teardown(
			test_unregistering_a_middle_probe_keeps_the_others_in_order, reset),
		cmocka_unit_test_teardown(test_reregistered_probe_goes_after_its_equals, reset),
	};
	tp_test_watchdog(10);
	reset(NULL);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
