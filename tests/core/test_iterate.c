/* Covers tracepoint discovery: tracepoint_for_each, tracepoint_find, the by-name probe registry
 * and tracepoint_probe_for_each. */
#include <string.h>

#include "test_common.h"

#include "events/tp_legacy.h"
DEFINE_TRACE(tp_legacy_int);

#define CONFIG_TP_TEST 1
#include "events/tp_test.h"
DEFINE_TRACE(tp_test_int);
DEFINE_TRACE(tp_test_args);
DEFINE_TRACE(tp_test_noargs);

/* Every tracepoint this binary defines (it is a single translation unit and
 * links no other module carrying tracepoints). */
static struct tracepoint *const all_tps[] = {
	&__tracepoint_tp_legacy_int,
	&__tracepoint_tp_test_int,
	&__tracepoint_tp_test_args,
	&__tracepoint_tp_test_noargs,
};
static const char *const all_names[] = {
	"tp_legacy_int",
	"tp_test_int",
	"tp_test_args",
	"tp_test_noargs",
};

/* What one walk saw. */
struct walk {
	int visits;  /* callback invocations */
	int stop_at; /* return stop_ret on this visit (1-based), 0: never */
	int stop_ret;
	int unknown;	   /* visits of a tracepoint not in all_tps */
	int name_mismatch; /* visits whose name is not the expected one */
	int seen[4];	   /* visits per all_tps entry */
	int enabled[4];	   /* enabled state seen per all_tps entry */
};

static int walk_cb(struct tracepoint *tp, void *priv)
{
	struct walk *w = (struct walk *)priv;
	size_t i;
	w->visits++;
	for (i = 0; i < ARRAY_LEN(all_tps); i++)
		if (tp == all_tps[i])
			break;
	if (i == ARRAY_LEN(all_tps)) {
		w->unknown++;
	} else {
		w->seen[i]++;
		w->enabled[i] = tracepoint_enabled(tp);
		if (!tp->name || strcmp(tp->name, all_names[i]) != 0)
			w->name_mismatch++;
	}
	if (w->stop_at && w->visits == w->stop_at)
		return w->stop_ret;
	return 0;
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

static int order[4];
static int norder;
static void probe_order(int v, void *data)
{
	(void)v;
	if (norder < (int)ARRAY_LEN(order))
		order[norder] = *(const int *)data;
	norder++;
}

static int reset(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(all_tps); i++)
		tp_test_detach_all(all_tps[i]);
	memset(&args_seen, 0, sizeof(args_seen));
	norder = 0;
	return 0;
}

static void test_for_each_visits_every_defined_tracepoint_exactly_once(void **state)
{
	struct walk w;
	(void)state;
	memset(&w, 0, sizeof(w));
	assert_int_equal(tracepoint_for_each(walk_cb, &w), 0);
	assert_int_equal(w.unknown, 0);
	assert_int_equal(w.name_mismatch, 0);
	for (size_t i = 0; i < ARRAY_LEN(all_tps); i++)
		assert_int_equal(w.seen[i], 1);
	assert_int_equal(w.visits, (int)ARRAY_LEN(all_tps));
}

static void test_for_each_reports_enabled_state_of_each_tracepoint(void **state)
{
	struct walk w;
	int ctx;
	(void)state;
	memset(&w, 0, sizeof(w));
	assert_int_equal(tracepoint_for_each(walk_cb, &w), 0);
	for (size_t i = 0; i < ARRAY_LEN(all_tps); i++)
		assert_int_equal(w.enabled[i], 0);

	assert_int_equal(register_trace_tp_test_args(probe_args, &ctx), 0);
	memset(&w, 0, sizeof(w));
	assert_int_equal(tracepoint_for_each(walk_cb, &w), 0);
	assert_int_equal(w.enabled[0], 0); /* tp_legacy_int */
	assert_int_equal(w.enabled[1], 0); /* tp_test_int */
	assert_int_equal(w.enabled[2], 1); /* tp_test_args */
	assert_int_equal(w.enabled[3], 0); /* tp_test_noargs */

	assert_int_equal(unregister_trace_tp_test_args(probe_args, &ctx), 0);
	memset(&w, 0, sizeof(w));
	assert_int_equal(tracepoint_for_each(walk_cb, &w), 0);
	assert_int_equal(w.enabled[2], 0);
}

static void test_for_each_nonzero_callback_return_stops_walk_and_is_returned(void **state)
{
	struct walk w;
	(void)state;
	memset(&w, 0, sizeof(w));
	w.stop_at = 2;
	w.stop_ret = 7;
	assert_int_equal(tracepoint_for_each(walk_cb, &w), 7);
	assert_int_equal(w.visits, 2);

	memset(&w, 0, sizeof(w));
	w.stop_at = 1;
	w.stop_ret = -5;
	assert_int_equal(tracepoint_for_each(walk_cb, &w), -5);
	assert_int_equal(w.visits, 1);

	/* Stopping on the very last one still returns the value. */
	memset(&w, 0, sizeof(w));
	w.stop_at = (int)ARRAY_LEN(all_tps);
	w.stop_ret = 1;
	assert_int_equal(tracepoint_for_each(walk_cb, &w), 1);
	assert_int_equal(w.visits, (int)ARRAY_LEN(all_tps));
}

static void test_for_each_with_null_callback_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(tracepoint_for_each(NULL, NULL), -EINVAL);
}

static void test_find_by_name_returns_the_tracepoint_struct(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(all_tps); i++)
		assert_ptr_equal(tracepoint_find(all_names[i]), all_tps[i]);
	assert_string_equal(tracepoint_find("tp_test_args")->name, "tp_test_args");
}

static void test_find_unknown_or_partial_name_returns_null(void **state)
{
	(void)state;
	assert_null(tracepoint_find("no_such_tracepoint"));
	assert_null(tracepoint_find(""));
	assert_null(tracepoint_find("tp_test"));       /* prefix */
	assert_null(tracepoint_find("tp_test_int_x")); /* longer */
	assert_null(tracepoint_find("TP_TEST_INT"));   /* case matters */
	assert_null(tracepoint_find(NULL));
}

static void test_register_by_name_attaches_untyped_probe_that_fires_with_right_arguments(
	void **state)
{
	int ctx;
	char buf[] = "by name";
	(void)state;
	assert_int_equal(tracepoint_probe_register_name("tp_test_args", TRACEPOINT_FUNC(probe_args),
							&ctx, TRACEPOINT_DEFAULT_PRIO),
			 0);
	assert_true(trace_tp_test_args_enabled());
	assert_true(tracepoint_enabled(&__tracepoint_tp_test_args));
	trace_tp_test_args(123, -9876543210LL, buf, 0.75, &ctx);
	assert_int_equal(args_seen.hits, 1);
	assert_ptr_equal(args_seen.data, &ctx);
	assert_int_equal(args_seen.i, 123);
	assert_true(args_seen.ll == -9876543210LL);
	assert_ptr_equal(args_seen.s, buf);
	assert_true(args_seen.d == 0.75);
	assert_ptr_equal(args_seen.p, &ctx);
	/* Same registry as the typed API. */
	assert_int_equal(register_trace_tp_test_args(probe_args, &ctx), -EEXIST);
	assert_int_equal(tracepoint_probe_register_name("tp_test_args", TRACEPOINT_FUNC(probe_args),
							&ctx, 3),
			 -EEXIST);

	assert_int_equal(
		tracepoint_probe_unregister_name("tp_test_args", TRACEPOINT_FUNC(probe_args), &ctx),
		0);
	assert_false(trace_tp_test_args_enabled());
	trace_tp_test_args(1, 2, buf, 3.0, NULL);
	assert_int_equal(args_seen.hits, 1);
	assert_int_equal(
		tracepoint_probe_unregister_name("tp_test_args", TRACEPOINT_FUNC(probe_args), &ctx),
		-ENOENT);
}

static void test_register_by_name_then_unregister_typed_works(void **state)
{
	int ctx;
	(void)state;
	assert_int_equal(tracepoint_probe_register_name("tp_test_args", TRACEPOINT_FUNC(probe_args),
							&ctx, 10),
			 0);
	assert_int_equal(unregister_trace_tp_test_args(probe_args, &ctx), 0);
	assert_false(trace_tp_test_args_enabled());
}

static void test_register_by_name_honours_priority(void **state)
{
	static const int L1 = 1, L2 = 2, L3 = 3;
	(void)state;
	assert_int_equal(register_trace_tp_test_int(probe_order, (void *)&L1), 0);
	assert_int_equal(tracepoint_probe_register_name("tp_test_int", TRACEPOINT_FUNC(probe_order),
							(void *)&L2, 11),
			 0);
	assert_int_equal(tracepoint_probe_register_name("tp_test_int", TRACEPOINT_FUNC(probe_order),
							(void *)&L3, -1),
			 0);
	trace_tp_test_int(0);
	assert_int_equal(norder, 3);
	assert_int_equal(order[0], 2);
	assert_int_equal(order[1], 1);
	assert_int_equal(order[2], 3);
}

static void test_by_name_with_unknown_name_returns_enoent(void **state)
{
	int ctx;
	(void)state;
	assert_int_equal(tracepoint_probe_register_name("no_such_tracepoint",
							TRACEPOINT_FUNC(probe_args), &ctx, 10),
			 -ENOENT);
	assert_int_equal(tracepoint_probe_unregister_name("no_such_tracepoint",
							  TRACEPOINT_FUNC(probe_args), &ctx),
			 -ENOENT);
	assert_int_equal(
		tracepoint_probe_register_name("tp_test", TRACEPOINT_FUNC(probe_args), &ctx, 10),
		-ENOENT);
}

static void test_by_name_with_null_probe_returns_einval(void **state)
{
	int ctx;
	(void)state;
	assert_int_equal(tracepoint_probe_register_name("tp_test_args", NULL, &ctx, 10), -EINVAL);
	assert_int_equal(tracepoint_probe_unregister_name("tp_test_args", NULL, &ctx), -EINVAL);
	/* Even for an unknown name the NULL probe is what is wrong. */
	assert_int_equal(tracepoint_probe_register_name("no_such_tracepoint", NULL, &ctx, 10),
			 -EINVAL);
	assert_false(trace_tp_test_args_enabled());
}

static void test_by_name_with_null_name_returns_einval(void **state)
{
	int ctx;
	(void)state;
	assert_int_equal(
		tracepoint_probe_register_name(NULL, TRACEPOINT_FUNC(probe_args), &ctx, 10),
		-EINVAL);
	assert_int_equal(tracepoint_probe_unregister_name(NULL, TRACEPOINT_FUNC(probe_args), &ctx),
			 -EINVAL);
}

/* What one tracepoint_probe_for_each walk saw. */
struct probe_walk {
	int n;
	tracepoint_func_t probe[4];
	void *data[4];
	int prio[4];
	int stop_at; /* return stop_ret on this visit (1-based), 0: never */
	int stop_ret;
	struct tracepoint *detach; /* detach each probe visited from it */
	int detach_errors;
	struct tracepoint *attach; /* attach probe_order(&L9) to it on the first visit */
};

static const int L9 = 9;

static int probe_walk_cb(tracepoint_func_t probe, void *data, int prio, void *priv)
{
	struct probe_walk *w = (struct probe_walk *)priv;
	if (w->n < (int)ARRAY_LEN(w->probe)) {
		w->probe[w->n] = probe;
		w->data[w->n] = data;
		w->prio[w->n] = prio;
	}
	w->n++;
	if (w->detach && tracepoint_probe_unregister(w->detach, probe, data) != 0)
		w->detach_errors++;
	if (w->attach && w->n == 1)
		tracepoint_probe_register(w->attach, TRACEPOINT_FUNC(probe_order), (void *)&L9);
	return w->stop_at && w->n == w->stop_at ? w->stop_ret : 0;
}

static void test_probe_for_each_visits_the_probes_in_call_order(void **state)
{
	static const int L1 = 1, L2 = 2, L3 = 3;
	struct probe_walk w;
	(void)state;
	memset(&w, 0, sizeof(w));
	assert_int_equal(tracepoint_probe_for_each(&__tracepoint_tp_test_int, probe_walk_cb, &w),
			 0);
	assert_int_equal(w.n, 0);
	assert_int_equal(register_trace_prio_tp_test_int(probe_order, (void *)&L1, 5), 0);
	assert_int_equal(register_trace_prio_tp_test_int(probe_order, (void *)&L2, 50), 0);
	assert_int_equal(register_trace_tp_test_int(probe_order, (void *)&L3), 0);
	assert_int_equal(tracepoint_probe_for_each(&__tracepoint_tp_test_int, probe_walk_cb, &w),
			 0);
	assert_int_equal(w.n, 3);
	assert_ptr_equal(w.data[0], &L2);
	assert_int_equal(w.prio[0], 50);
	assert_ptr_equal(w.data[1], &L3);
	assert_int_equal(w.prio[1], TRACEPOINT_DEFAULT_PRIO);
	assert_ptr_equal(w.data[2], &L1);
	assert_int_equal(w.prio[2], 5);
	for (int i = 0; i < 3; i++)
		assert_true(w.probe[i] == TRACEPOINT_FUNC(probe_order));
	/* the same order as a firing */
	trace_tp_test_int(0);
	assert_int_equal(norder, 3);
	assert_int_equal(order[0], 2);
	assert_int_equal(order[1], 3);
	assert_int_equal(order[2], 1);
	/* another tracepoint's list is its own */
	memset(&w, 0, sizeof(w));
	assert_int_equal(tracepoint_probe_for_each(&__tracepoint_tp_test_args, probe_walk_cb, &w),
			 0);
	assert_int_equal(w.n, 0);
}

/* Attaches probe_order to tp_test_int three times, with the data &labels[0..2]
 * and the default priority (so called in that order). */
static const int labels[3] = { 1, 2, 3 };
static void attach_three(void)
{
	for (size_t i = 0; i < ARRAY_LEN(labels); i++)
		assert_int_equal(register_trace_tp_test_int(probe_order, (void *)&labels[i]), 0);
}

static void test_probe_for_each_nonzero_return_stops_walk_and_is_returned(void **state)
{
	struct probe_walk w;
	(void)state;
	attach_three();
	memset(&w, 0, sizeof(w));
	w.stop_at = 2;
	w.stop_ret = -42;
	assert_int_equal(tracepoint_probe_for_each(&__tracepoint_tp_test_int, probe_walk_cb, &w),
			 -42);
	assert_int_equal(w.n, 2);
	assert_ptr_equal(w.data[1], &labels[1]);
}

static void test_probe_for_each_callback_may_detach_and_attach(void **state)
{
	struct probe_walk w;
	(void)state;
	attach_three();
	/* Every probe detached from inside the walk: each is still visited. */
	memset(&w, 0, sizeof(w));
	w.detach = &__tracepoint_tp_test_int;
	assert_int_equal(tracepoint_probe_for_each(&__tracepoint_tp_test_int, probe_walk_cb, &w),
			 0);
	assert_int_equal(w.n, 3);
	assert_int_equal(w.detach_errors, 0);
	assert_false(trace_tp_test_int_enabled());
	trace_tp_test_int(0);
	assert_int_equal(norder, 0);
	/* A probe attached from inside the walk is not part of it. */
	assert_int_equal(register_trace_tp_test_int(probe_order, (void *)&labels[0]), 0);
	memset(&w, 0, sizeof(w));
	w.attach = &__tracepoint_tp_test_int;
	assert_int_equal(tracepoint_probe_for_each(&__tracepoint_tp_test_int, probe_walk_cb, &w),
			 0);
	assert_int_equal(w.n, 1);
	assert_int_equal(tracepoint_probe_attached(&__tracepoint_tp_test_int,
						   TRACEPOINT_FUNC(probe_order), (void *)&L9),
			 1);
	assert_int_equal(tp_test_probes(&__tracepoint_tp_test_int), 2);
}

static void test_probe_for_each_with_null_tp_or_callback_returns_einval(void **state)
{
	struct probe_walk w;
	(void)state;
	memset(&w, 0, sizeof(w));
	assert_int_equal(tracepoint_probe_for_each(NULL, probe_walk_cb, &w), -EINVAL);
	assert_int_equal(tracepoint_probe_for_each(&__tracepoint_tp_test_int, NULL, &w), -EINVAL);
	assert_int_equal(w.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(
			test_for_each_visits_every_defined_tracepoint_exactly_once, reset),
		cmocka_unit_test_teardown(test_for_each_reports_enabled_state_of_each_tracepoint,
					  reset),
		cmocka_unit_test_teardown(
			test_for_each_nonzero_callback_return_stops_walk_and_is_returned, reset),
		cmocka_unit_test_teardown(test_for_each_with_null_callback_returns_einval, reset),
		cmocka_unit_test_teardown(test_find_by_name_returns_the_tracepoint_struct, reset),
		cmocka_unit_test_teardown(test_find_unknown_or_partial_name_returns_null, reset),
		cmocka_unit_test_teardown(
			test_register_by_name_attaches_untyped_probe_that_fires_with_right_arguments,
			reset),
		cmocka_unit_test_teardown(test_register_by_name_then_unregister_typed_works, reset),
		cmocka_unit_test_teardown(test_register_by_name_honours_priority, reset),
		cmocka_unit_test_teardown(test_by_name_with_unknown_name_returns_enoent, reset),
		cmocka_unit_test_teardown(test_by_name_with_null_probe_returns_einval, reset),
		cmocka_unit_test_teardown(test_by_name_with_null_name_returns_einval, reset),
		cmocka_unit_test_teardown(test_probe_for_each_visits_the_probes_in_call_order,
					  reset),
		cmocka_unit_test_teardown(
			test_probe_for_each_nonzero_return_stops_walk_and_is_returned, reset),
		cmocka_unit_test_teardown(test_probe_for_each_callback_may_detach_and_attach,
					  reset),
		cmocka_unit_test_teardown(
			test_probe_for_each_with_null_tp_or_callback_returns_einval, reset),
	};
	tp_test_watchdog(10);
	reset(NULL);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
