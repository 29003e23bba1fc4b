/* Covers trace_lazy(): arguments evaluated only while a probe is attached, unlike trace_<name>(). */
#include <string.h>

#include "test_common.h"

#define CONFIG_TP_TEST 1
#include "events/tp_test.h"
DEFINE_TRACE(tp_test_int);
DEFINE_TRACE(tp_test_args);

static int evals;
static int next_value(int v)
{
	evals++;
	return v;
}

static int got[8];
static int ngot;
static void probe_int(int v, void *data)
{
	(void)data;
	if (ngot < (int)ARRAY_LEN(got))
		got[ngot] = v;
	ngot++;
}

static struct {
	int hits, i;
	long long ll;
	const char *s;
	double d;
	void *p;
} args_seen[2];

static void probe_args(int i, long long ll, const char *s, double d, void *p, void *data)
{
	int k = *(int *)data;
	args_seen[k].hits++;
	args_seen[k].i = i;
	args_seen[k].ll = ll;
	args_seen[k].s = s;
	args_seen[k].d = d;
	args_seen[k].p = p;
}

static int reset(void **state)
{
	(void)state;
	tp_test_detach_all(&__tracepoint_tp_test_int);
	tp_test_detach_all(&__tracepoint_tp_test_args);
	evals = 0;
	ngot = 0;
	memset(got, 0, sizeof(got));
	memset(args_seen, 0, sizeof(args_seen));
	return 0;
}

static void test_trace_lazy_does_not_evaluate_arguments_without_probe(void **state)
{
	(void)state;
	trace_lazy(tp_test_int, next_value(1));
	trace_lazy(tp_test_int, next_value(2));
	assert_int_equal(evals, 0);
	assert_int_equal(ngot, 0);
}

static void test_trace_lazy_evaluates_arguments_once_per_fire_with_probe(void **state)
{
	int ctx;
	(void)state;
	assert_int_equal(register_trace_tp_test_int(probe_int, &ctx), 0);
	trace_lazy(tp_test_int, next_value(11));
	assert_int_equal(evals, 1);
	trace_lazy(tp_test_int, next_value(12));
	assert_int_equal(evals, 2);
	assert_int_equal(ngot, 2);
	assert_int_equal(got[0], 11);
	assert_int_equal(got[1], 12);
}

static void test_trace_lazy_evaluates_once_even_with_several_probes(void **state)
{
	int c1, c2, c3;
	(void)state;
	assert_int_equal(register_trace_tp_test_int(probe_int, &c1), 0);
	assert_int_equal(register_trace_tp_test_int(probe_int, &c2), 0);
	assert_int_equal(register_trace_tp_test_int(probe_int, &c3), 0);
	trace_lazy(tp_test_int, next_value(5));
	assert_int_equal(evals, 1);
	assert_int_equal(ngot, 3);
}

static void test_trace_lazy_stops_evaluating_after_last_probe_detaches(void **state)
{
	int ctx;
	(void)state;
	assert_int_equal(register_trace_tp_test_int(probe_int, &ctx), 0);
	trace_lazy(tp_test_int, next_value(1));
	assert_int_equal(unregister_trace_tp_test_int(probe_int, &ctx), 0);
	trace_lazy(tp_test_int, next_value(2));
	assert_int_equal(evals, 1);
	assert_int_equal(ngot, 1);
}

static void test_trace_name_always_evaluates_arguments(void **state)
{
	int ctx;
	(void)state;
	trace_tp_test_int(next_value(1));
	trace_tp_test_int(next_value(2));
	assert_int_equal(evals, 2);
	assert_int_equal(ngot, 0);
	assert_int_equal(register_trace_tp_test_int(probe_int, &ctx), 0);
	trace_tp_test_int(next_value(3));
	assert_int_equal(evals, 3);
	assert_int_equal(ngot, 1);
	assert_int_equal(got[0], 3);
}

static void test_trace_lazy_and_trace_name_deliver_the_same_values(void **state)
{
	int k0 = 0, k1 = 1;
	char buf[] = "lazy";
	(void)state;
	assert_int_equal(register_trace_tp_test_args(probe_args, &k0), 0);
	trace_tp_test_args(-7, -0x7edcba9876543210LL, buf, -0.125, &buf[2]);
	assert_int_equal(unregister_trace_tp_test_args(probe_args, &k0), 0);
	assert_int_equal(register_trace_tp_test_args(probe_args, &k1), 0);
	trace_lazy(tp_test_args, next_value(-7), -0x7edcba9876543210LL, buf, -0.125, &buf[2]);
	assert_int_equal(evals, 1);
	assert_int_equal(args_seen[0].hits, 1);
	assert_int_equal(args_seen[1].hits, 1);
	assert_true(args_seen[0].i == -7 && args_seen[1].i == -7);
	assert_true(args_seen[0].ll == -0x7edcba9876543210LL);
	assert_true(args_seen[1].ll == -0x7edcba9876543210LL);
	assert_ptr_equal(args_seen[0].s, buf);
	assert_ptr_equal(args_seen[1].s, buf);
	assert_true(args_seen[0].d == -0.125 && args_seen[1].d == -0.125);
	assert_ptr_equal(args_seen[0].p, &buf[2]);
	assert_ptr_equal(args_seen[1].p, &buf[2]);
}

static void test_trace_lazy_evaluates_each_argument_exactly_once(void **state)
{
	int k0 = 0;
	int i = 0;
	long long ll = 0;
	(void)state;
	assert_int_equal(register_trace_tp_test_args(probe_args, &k0), 0);
	trace_lazy(tp_test_args, ++i, ll += 10, "x", 1.0, NULL);
	assert_int_equal(i, 1);
	assert_true(ll == 10);
	assert_int_equal(args_seen[0].i, 1);
	assert_true(args_seen[0].ll == 10);
}

static void test_trace_lazy_is_a_single_statement(void **state)
{
	int ctx;
	(void)state;
	assert_int_equal(register_trace_tp_test_int(probe_int, &ctx), 0);
	/* An unbraced if/else around it must compile and bind as expected. */
	if (evals == 0)
		trace_lazy(tp_test_int, next_value(1));
	else
		trace_lazy(tp_test_int, next_value(2));
	assert_int_equal(ngot, 1);
	assert_int_equal(got[0], 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_trace_lazy_does_not_evaluate_arguments_without_probe,
					  reset),
		cmocka_unit_test_teardown(
			test_trace_lazy_evaluates_arguments_once_per_fire_with_probe, reset),
		cmocka_unit_test_teardown(test_trace_lazy_evaluates_once_even_with_several_probes,
					  reset),
		cmocka_unit_test_teardown(
			test_trace_lazy_stops_evaluating_after_last_probe_detaches, reset),
		cmocka_unit_test_teardown(test_trace_name_always_evaluates_arguments, reset),
		cmocka_unit_test_teardown(test_trace_lazy_and_trace_name_deliver_the_same_values,
					  reset),
		cmocka_unit_test_teardown(test_trace_lazy_evaluates_each_argument_exactly_once,
					  reset),
		cmocka_unit_test_teardown(test_trace_lazy_is_a_single_statement, reset),
	};
	tp_test_watchdog(10);
	reset(NULL);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
