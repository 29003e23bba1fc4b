/* Covers per-subsystem compile-out: TRACE_CONFIG undefined/0/empty next to compiled-in and unconverted headers in one TU. */
#include <string.h>

#include "test_common.h"

#if defined(CONFIG_TP_OFF) || defined(CONFIG_TRACEPOINTS_ALL) || defined(CONFIG_TRACEPOINTS_OFF)
#error "this test needs CONFIG_TP_OFF and the global switches undefined"
#endif

/* Unconverted header first, while no TRACE_CONFIG is defined at all. */
#include "events/tp_legacy.h"
DEFINE_TRACE(tp_legacy_int);

/* Switch macro undefined: compiled out. */
#include "events/tp_off.h"
DEFINE_TRACE(tp_off_int);
DEFINE_TRACE(tp_off_args);
DEFINE_TRACE(tp_off_noargs);

/* Unconverted header right after a compiled-out one: still an unconverted
 * header, so it must be compiled in. */
#include "events/tp_legacy_late.h"
DEFINE_TRACE(tp_legacy_late_int);

/* Switch macro defined as 0: compiled out. */
#define CONFIG_TP_ZERO 0
#include "events/tp_zero.h"
DEFINE_TRACE(tp_zero_int);

/* Switch macro defined empty: compiled out. */
#define CONFIG_TP_EMPTY
#include "events/tp_empty.h"
DEFINE_TRACE(tp_empty_int);

/* Switch macro defined as 1: compiled in, in the same TU. */
#define CONFIG_TP_TEST 1
#include "events/tp_test.h"
DEFINE_TRACE(tp_test_int);

/* A compiled-out tracepoint must leave no symbol behind: a weak reference
 * to its struct resolves to NULL. */
extern struct tracepoint __tracepoint_tp_off_int __attribute__((weak));
extern struct tracepoint __tracepoint_tp_zero_int __attribute__((weak));
extern struct tracepoint __tracepoint_tp_empty_int __attribute__((weak));

static int evals;
static int side_effect(int v)
{
	evals++;
	return v;
}

static int hits;
static int last_v;
static void probe_int(int v, void *data)
{
	(void)data;
	hits++;
	last_v = v;
}

static void probe_args(int i, const char *s, double d, void *data)
{
	(void)data;
	(void)i;
	(void)s;
	(void)d;
	hits++;
}

static void probe_noargs(void *data)
{
	(void)data;
	hits++;
}

static int reset(void **state)
{
	(void)state;
	tp_test_detach_all(&__tracepoint_tp_test_int);
	tp_test_detach_all(&__tracepoint_tp_legacy_int);
	/* Not named directly: it is missing while the selection bug is there. */
	if (tracepoint_find("tp_legacy_late_int"))
		tp_test_detach_all(tracepoint_find("tp_legacy_late_int"));
	evals = 0;
	hits = 0;
	last_v = 0;
	return 0;
}

static void test_undefined_switch_register_functions_return_enosys(void **state)
{
	int ctx;
	(void)state;
	assert_int_equal(register_trace_tp_off_int(probe_int, &ctx), -ENOSYS);
	assert_int_equal(register_trace_prio_tp_off_int(probe_int, &ctx, 50), -ENOSYS);
	assert_int_equal(unregister_trace_tp_off_int(probe_int, &ctx), -ENOSYS);
	assert_int_equal(register_trace_tp_off_args(probe_args, &ctx), -ENOSYS);
	assert_int_equal(register_trace_prio_tp_off_args(probe_args, &ctx, 1), -ENOSYS);
	assert_int_equal(unregister_trace_tp_off_args(probe_args, &ctx), -ENOSYS);
	assert_int_equal(register_trace_tp_off_noargs(probe_noargs, &ctx), -ENOSYS);
	assert_int_equal(register_trace_prio_tp_off_noargs(probe_noargs, &ctx, 1), -ENOSYS);
	assert_int_equal(unregister_trace_tp_off_noargs(probe_noargs, &ctx), -ENOSYS);
}

static void test_zero_and_empty_switch_register_functions_return_enosys(void **state)
{
	int ctx;
	(void)state;
	assert_int_equal(register_trace_tp_zero_int(probe_int, &ctx), -ENOSYS);
	assert_int_equal(register_trace_prio_tp_zero_int(probe_int, &ctx, 50), -ENOSYS);
	assert_int_equal(unregister_trace_tp_zero_int(probe_int, &ctx), -ENOSYS);
	assert_int_equal(register_trace_tp_empty_int(probe_int, &ctx), -ENOSYS);
	assert_int_equal(register_trace_prio_tp_empty_int(probe_int, &ctx, 50), -ENOSYS);
	assert_int_equal(unregister_trace_tp_empty_int(probe_int, &ctx), -ENOSYS);
}

static void test_compiled_out_enabled_is_false_even_after_register_attempt(void **state)
{
	int ctx;
	(void)state;
	(void)register_trace_tp_off_int(probe_int, &ctx);
	(void)register_trace_tp_zero_int(probe_int, &ctx);
	(void)register_trace_tp_empty_int(probe_int, &ctx);
	(void)register_trace_tp_off_noargs(probe_noargs, &ctx);
	assert_false(trace_tp_off_int_enabled());
	assert_false(trace_tp_off_args_enabled());
	assert_false(trace_tp_off_noargs_enabled());
	assert_false(trace_tp_zero_int_enabled());
	assert_false(trace_tp_empty_int_enabled());
}

static void test_compiled_out_trace_call_is_callable_and_does_nothing(void **state)
{
	int ctx;
	(void)state;
	(void)register_trace_tp_off_int(probe_int, &ctx);
	(void)register_trace_tp_off_args(probe_args, &ctx);
	(void)register_trace_tp_off_noargs(probe_noargs, &ctx);
	(void)register_trace_tp_zero_int(probe_int, &ctx);
	(void)register_trace_tp_empty_int(probe_int, &ctx);
	trace_tp_off_int(1);
	trace_tp_off_args(2, "x", 3.0);
	trace_tp_off_noargs();
	trace_tp_zero_int(4);
	trace_tp_empty_int(5);
	assert_int_equal(hits, 0);
}

static void test_compiled_out_trace_lazy_does_not_evaluate_arguments(void **state)
{
	(void)state;
	trace_lazy(tp_off_int, side_effect(1));
	trace_lazy(tp_off_args, side_effect(2), "x", 1.0);
	trace_lazy(tp_zero_int, side_effect(3));
	trace_lazy(tp_empty_int, side_effect(4));
	assert_int_equal(evals, 0);
	assert_int_equal(hits, 0);
}

static void test_compiled_out_tracepoint_emits_no_symbol(void **state)
{
	(void)state;
	assert_null(&__tracepoint_tp_off_int);
	assert_null(&__tracepoint_tp_zero_int);
	assert_null(&__tracepoint_tp_empty_int);
}

static void test_tracepoint_find_does_not_find_compiled_out_names(void **state)
{
	(void)state;
	assert_null(tracepoint_find("tp_off_int"));
	assert_null(tracepoint_find("tp_off_args"));
	assert_null(tracepoint_find("tp_off_noargs"));
	assert_null(tracepoint_find("tp_zero_int"));
	assert_null(tracepoint_find("tp_empty_int"));
	assert_int_equal(
		tracepoint_probe_register_name("tp_off_int", TRACEPOINT_FUNC(probe_int), NULL, 10),
		-ENOENT);
}

static void test_compiled_in_tracepoint_in_same_tu_works(void **state)
{
	int ctx;
	(void)state;
	assert_ptr_equal(tracepoint_find("tp_test_int"), &__tracepoint_tp_test_int);
	assert_false(trace_tp_test_int_enabled());
	assert_int_equal(register_trace_tp_test_int(probe_int, &ctx), 0);
	assert_true(trace_tp_test_int_enabled());
	trace_tp_test_int(42);
	assert_int_equal(hits, 1);
	assert_int_equal(last_v, 42);
	trace_lazy(tp_test_int, side_effect(43));
	assert_int_equal(evals, 1);
	assert_int_equal(hits, 2);
	assert_int_equal(last_v, 43);
	/* Firing the compiled-out neighbours reaches none of its probes. */
	trace_tp_off_int(1);
	trace_tp_zero_int(2);
	assert_int_equal(hits, 2);
	assert_int_equal(unregister_trace_tp_test_int(probe_int, &ctx), 0);
	assert_false(trace_tp_test_int_enabled());
}

static void test_unconverted_header_included_first_is_compiled_in(void **state)
{
	int ctx;
	(void)state;
	assert_ptr_equal(tracepoint_find("tp_legacy_int"), &__tracepoint_tp_legacy_int);
	assert_int_equal(register_trace_tp_legacy_int(probe_int, &ctx), 0);
	assert_true(trace_tp_legacy_int_enabled());
	trace_tp_legacy_int(7);
	assert_int_equal(hits, 1);
	assert_int_equal(last_v, 7);
	assert_int_equal(unregister_trace_tp_legacy_int(probe_int, &ctx), 0);
}

/* The selection must not depend on which event header came before: an
 * unconverted header does not touch TRACE_CONFIG, so whatever the previous
 * converted header left there must not decide for it. */
static void test_unconverted_header_included_after_compiled_out_one_is_compiled_in(void **state)
{
	int ctx;
	int ret;
	(void)state;
	ret = register_trace_tp_legacy_late_int(probe_int, &ctx);
	assert_int_equal(ret, 0);
	assert_true(trace_tp_legacy_late_int_enabled());
	trace_tp_legacy_late_int(8);
	assert_int_equal(hits, 1);
	assert_int_equal(last_v, 8);
	assert_int_equal(unregister_trace_tp_legacy_late_int(probe_int, &ctx), 0);
	assert_non_null(tracepoint_find("tp_legacy_late_int"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_undefined_switch_register_functions_return_enosys,
					  reset),
		cmocka_unit_test_teardown(
			test_zero_and_empty_switch_register_functions_return_enosys, reset),
		cmocka_unit_test_teardown(
			test_compiled_out_enabled_is_false_even_after_register_attempt, reset),
		cmocka_unit_test_teardown(test_compiled_out_trace_call_is_callable_and_does_nothing,
					  reset),
		cmocka_unit_test_teardown(test_compiled_out_trace_lazy_does_not_evaluate_arguments,
					  reset),
		cmocka_unit_test_teardown(test_compiled_out_tracepoint_emits_no_symbol, reset),
		cmocka_unit_test_teardown(test_tracepoint_find_does_not_find_compiled_out_names,
					  reset),
		cmocka_unit_test_teardown(test_compiled_in_tracepoint_in_same_tu_works, reset),
		cmocka_unit_test_teardown(test_unconverted_header_included_first_is_compiled_in,
					  reset),
		cmocka_unit_test_teardown(
			test_unconverted_header_included_after_compiled_out_one_is_compiled_in,
			reset),
	};
	tp_test_watchdog(10);
	reset(NULL);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
