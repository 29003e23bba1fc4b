/* Faults and misuse: every allocation of a registration sequence fails in
 * turn (ENOMEM leaves the previous set intact, unregister never fails,
 * nothing leaks), a failing reg callback, bad arguments and priorities. */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The registry allocates through these: the Nth allocation can be made to fail. */
static long fail_at;	 /* 1-based index of the allocation to fail, 0: none */
static long alloc_calls; /* allocations attempted */
static long live_blocks; /* allocated and not yet freed */
static void *faulty_malloc(size_t n)
{
	void *p;
	if (++alloc_calls == fail_at)
		return NULL;
	p = malloc(n);
	if (p)
		live_blocks++;
	return p;
}
static void counting_free(void *p)
{
	if (p)
		live_blocks--;
	free(p);
}
#define TRACEPOINT_MALLOC(n) faulty_malloc(n)
#define TRACEPOINT_FREE(p) counting_free(p)

#include "test_common.h"

#define CONFIG_TP_STRESS 1
#include "events/tp_stress.h"

static int reg_ret, reg_calls, unreg_calls;
static int my_reg(void)
{
	reg_calls++;
	return reg_ret;
}
static void my_unreg(void)
{
	unreg_calls++;
}
DEFINE_TRACE(tp_stress_0);
DEFINE_TRACE_FN(tp_stress_regfn, my_reg, my_unreg);

static int reset(void **state)
{
	(void)state;
	fail_at = 0;
	reg_ret = 0;
	tp_test_detach_all(&__tracepoint_tp_stress_0);
	tp_test_detach_all(&__tracepoint_tp_stress_regfn);
	reg_calls = unreg_calls = 0;
	return 0;
}

/* Probes record the order they ran in. */
#define NPROBES 6
static int ids[NPROBES] = { 0, 1, 2, 3, 4, 5 };
static int order[64], norder;
static void probe_rec(int v, void *data)
{
	(void)v;
	if (norder < (int)ARRAY_LEN(order))
		order[norder++] = *(int *)data;
}
static void probe_other(int v, void *data)
{
	(void)data;
	(void)v;
	if (norder < (int)ARRAY_LEN(order))
		order[norder++] = 100;
}

/* --------------------------------------------------- allocation failures */

struct op {
	int reg; /* 1 register, 0 unregister */
	int id;
	int prio;
};

/* Different priorities, equal ones, both extremes, re-registration. */
static const struct op sequence[] = {
	{ 1, 0, 10 }, { 1, 1, 20 },	 { 1, 2, 10 },	    { 1, 3, INT_MIN }, { 1, 4, INT_MAX },
	{ 0, 1, 0 },  { 1, 5, 10 },	 { 0, 0, 0 },	    { 1, 1, 10 },      { 0, 4, 0 },
	{ 0, 2, 0 },  { 1, 0, INT_MAX }, { 1, 4, INT_MIN }, { 0, 3, 0 },       { 0, 5, 0 },
	{ 0, 1, 0 },  { 1, 2, 10 },	 { 0, 4, 0 },
};

/* Model of the attached set: registration order is kept by `stamp`. */
struct model {
	int on[NPROBES], prio[NPROBES];
	long stamp[NPROBES];
	long clock;
};

static int model_expected(const struct model *m, int *out)
{
	int n = 0, used[NPROBES] = { 0 };
	for (;;) {
		int best = -1;
		for (int i = 0; i < NPROBES; i++) {
			if (!m->on[i] || used[i])
				continue;
			if (best < 0 || m->prio[i] > m->prio[best] ||
			    (m->prio[i] == m->prio[best] && m->stamp[i] < m->stamp[best]))
				best = i;
		}
		if (best < 0)
			return n;
		used[best] = 1;
		out[n++] = best;
	}
}

/* Fires once and compares the order the probes ran in with the model. */
static void check_fires_as_model(const struct model *m, long n_fail, int step)
{
	int want[NPROBES], nwant = model_expected(m, want);
	norder = 0;
	trace_tp_stress_0(0);
	if (norder != nwant || memcmp(order, want, sizeof(int) * (size_t)nwant) != 0) {
		print_error("fail_at=%ld step %d: ran", n_fail, step);
		for (int i = 0; i < norder; i++)
			print_error(" %d", order[i]);
		print_error(", want");
		for (int i = 0; i < nwant; i++)
			print_error(" %d", want[i]);
		print_error("\n");
		fail();
	}
	assert_int_equal(trace_tp_stress_0_enabled(), nwant > 0);
}

/* Runs the sequence with allocation number n_fail failing (0: none);
 * returns the number of allocations it attempted. */
static long run_sequence(long n_fail, int *enomem_seen)
{
	struct model m;
	long start = alloc_calls;
	memset(&m, 0, sizeof(m));
	*enomem_seen = 0;
	fail_at = n_fail ? alloc_calls + n_fail : 0;
	for (size_t s = 0; s < ARRAY_LEN(sequence); s++) {
		const struct op *o = &sequence[s];
		int ret;
		if (o->reg) {
			ret = register_trace_prio_tp_stress_0(probe_rec, &ids[o->id], o->prio);
			if (ret == -ENOMEM) {
				(*enomem_seen)++;
			} else {
				assert_int_equal(ret, 0);
				m.on[o->id] = 1;
				m.prio[o->id] = o->prio;
				m.stamp[o->id] = m.clock++;
			}
		} else {
			/* removal never fails, even without memory */
			ret = unregister_trace_tp_stress_0(probe_rec, &ids[o->id]);
			if (m.on[o->id]) {
				assert_int_equal(ret, 0);
				m.on[o->id] = 0;
			} else {
				/* its registration was the one that failed */
				assert_int_equal(ret, -ENOENT);
			}
		}
		check_fires_as_model(&m, n_fail, (int)s);
	}
	fail_at = 0;
	return alloc_calls - start;
}

static void
test_every_failing_allocation_of_a_registration_sequence_returns_enomem_keeps_the_set_and_leaks_nothing(
	void **state)
{
	int enomem;
	long total, failed_regs = 0;
	(void)state;
	assert_int_equal(live_blocks, 0);
	total = run_sequence(0, &enomem);
	assert_int_equal(enomem, 0);
	tp_test_detach_all(&__tracepoint_tp_stress_0);
	assert_int_equal(live_blocks, 0);
	print_message("the sequence makes %ld allocations; failing each in turn\n", total);
	assert_true(total >= (long)ARRAY_LEN(sequence) / 2);
	for (long n = 1; n <= total + 1; n++) {
		run_sequence(n, &enomem);
		/* exactly one allocation failed; it was a registration's or a
		 * removal's (then nobody saw an error) */
		assert_true(enomem <= 1);
		failed_regs += enomem;
		/* final unregister-all + synchronize frees every list and stub */
		tp_test_detach_all(&__tracepoint_tp_stress_0);
		assert_false(trace_tp_stress_0_enabled());
		if (live_blocks != 0)
			print_error("fail_at=%ld: %ld probe lists leaked\n", n, live_blocks);
		assert_int_equal(live_blocks, 0);
	}
	/* both kinds were hit: registrations that failed, removals that didn't */
	print_message("%ld registrations returned -ENOMEM, %ld removals ran short\n", failed_regs,
		      total - failed_regs);
	assert_true(failed_regs > 0);
	assert_true(failed_regs < total);
}

static void test_unregister_without_memory_returns_0_and_the_probe_stops_being_called(void **state)
{
	struct model m;
	(void)state;
	memset(&m, 0, sizeof(m));
	for (int i = 0; i < 4; i++) {
		assert_int_equal(register_trace_prio_tp_stress_0(probe_rec, &ids[i], 10), 0);
		m.on[i] = 1;
		m.prio[i] = 10;
		m.stamp[i] = i;
	}
	/* every removal that needs a shorter copy fails to get one */
	for (int i = 0; i < 4; i++) {
		fail_at = alloc_calls + 1;
		assert_int_equal(unregister_trace_tp_stress_0(probe_rec, &ids[i]), 0);
		fail_at = 0;
		m.on[i] = 0;
		check_fires_as_model(&m, 1, i);
		/* gone as far as the API is concerned */
		assert_int_equal(unregister_trace_tp_stress_0(probe_rec, &ids[i]), -ENOENT);
	}
	assert_false(trace_tp_stress_0_enabled());
	/* a removed-while-short probe can come back, once */
	assert_int_equal(register_trace_tp_stress_0(probe_rec, &ids[1]), 0);
	assert_int_equal(register_trace_tp_stress_0(probe_rec, &ids[1]), -EEXIST);
	m.on[1] = 1;
	m.stamp[1] = 10;
	check_fires_as_model(&m, 0, 5);
	tp_test_detach_all(&__tracepoint_tp_stress_0);
	assert_int_equal(live_blocks, 0);
}

/* ------------------------------------------------------- reg callbacks */

static void test_failing_reg_callback_returns_its_error_attaches_nothing_and_never_calls_unreg(
	void **state)
{
	(void)state;
	reg_ret = -EBUSY;
	assert_int_equal(register_trace_tp_stress_regfn(probe_rec, &ids[0]), -EBUSY);
	assert_int_equal(reg_calls, 1);
	assert_false(trace_tp_stress_regfn_enabled());
	norder = 0;
	trace_tp_stress_regfn(0);
	assert_int_equal(norder, 0);
	assert_int_equal(unregister_trace_tp_stress_regfn(probe_rec, &ids[0]), -ENOENT);
	assert_int_equal(unreg_calls, 0);
	tracepoint_synchronize_unregister();
	assert_int_equal(live_blocks, 0);
	/* once reg succeeds, the same probe attaches normally */
	reg_ret = 0;
	assert_int_equal(register_trace_tp_stress_regfn(probe_rec, &ids[0]), 0);
	assert_int_equal(reg_calls, 2);
	trace_tp_stress_regfn(0);
	assert_int_equal(norder, 1);
	assert_int_equal(unregister_trace_tp_stress_regfn(probe_rec, &ids[0]), 0);
	assert_int_equal(unreg_calls, 1);
}

static void test_allocation_failure_before_reg_callback_calls_neither_reg_nor_unreg(void **state)
{
	(void)state;
	fail_at = alloc_calls + 1;
	assert_int_equal(register_trace_tp_stress_regfn(probe_rec, &ids[0]), -ENOMEM);
	fail_at = 0;
	assert_int_equal(reg_calls, 0);
	assert_int_equal(unreg_calls, 0);
	assert_false(trace_tp_stress_regfn_enabled());
	assert_int_equal(live_blocks, 0);
}

/* ------------------------------------------------------------- misuse */

static int known_name_seen;
static int find_name(struct tracepoint *tp, void *priv)
{
	(void)priv;
	if (strcmp(tp->name, "tp_stress_0") == 0)
		known_name_seen++;
	return 0;
}

static void test_bad_arguments_get_their_documented_error_codes_and_crash_nothing(void **state)
{
	int a, b;
	struct tracepoint *tp = &__tracepoint_tp_stress_0;
	tracepoint_func_t f = TRACEPOINT_FUNC(probe_rec);
	(void)state;
	/* NULL probe, NULL tracepoint */
	assert_int_equal(tracepoint_probe_register(tp, NULL, &a), -EINVAL);
	assert_int_equal(tracepoint_probe_register_prio(tp, NULL, &a, 3), -EINVAL);
	assert_int_equal(tracepoint_probe_unregister(tp, NULL, &a), -EINVAL);
	assert_int_equal(tracepoint_probe_register(NULL, f, &a), -EINVAL);
	assert_int_equal(tracepoint_probe_unregister(NULL, f, &a), -EINVAL);
	assert_int_equal(tracepoint_probe_register_name("tp_stress_0", NULL, &a, 10), -EINVAL);
	assert_int_equal(tracepoint_probe_unregister_name("tp_stress_0", NULL, &a), -EINVAL);
	/* NULL and unknown names */
	assert_int_equal(tracepoint_probe_register_name(NULL, f, &a, 10), -EINVAL);
	assert_int_equal(tracepoint_probe_unregister_name(NULL, f, &a), -EINVAL);
	assert_null(tracepoint_find(NULL));
	assert_int_equal(tracepoint_probe_register_name("no_such_tracepoint", f, &a, 10), -ENOENT);
	assert_int_equal(tracepoint_probe_unregister_name("no_such_tracepoint", f, &a), -ENOENT);
	assert_int_equal(tracepoint_probe_register_name("", f, &a, 10), -ENOENT);
	assert_int_equal(tracepoint_probe_register_name("tp_stress_", f, &a, 10), -ENOENT);
	assert_null(tracepoint_find("no_such_tracepoint"));
	assert_int_equal(tracepoint_for_each(NULL, NULL), -EINVAL);
	assert_false(trace_tp_stress_0_enabled());

	/* unregister of a never-registered probe, with nothing attached and
	 * with something attached */
	assert_int_equal(unregister_trace_tp_stress_0(probe_rec, &a), -ENOENT);
	assert_int_equal(register_trace_tp_stress_0(probe_rec, &ids[0]), 0);
	assert_int_equal(unregister_trace_tp_stress_0(probe_other, &ids[0]), -ENOENT);
	/* wrong data: -ENOENT and the registered probe keeps firing */
	assert_int_equal(unregister_trace_tp_stress_0(probe_rec, &b), -ENOENT);
	assert_int_equal(unregister_trace_tp_stress_0(probe_rec, NULL), -ENOENT);
	norder = 0;
	trace_tp_stress_0(0);
	assert_int_equal(norder, 1);
	/* double registration, also by name and with another priority */
	assert_int_equal(register_trace_tp_stress_0(probe_rec, &ids[0]), -EEXIST);
	assert_int_equal(register_trace_prio_tp_stress_0(probe_rec, &ids[0], 99), -EEXIST);
	assert_int_equal(tracepoint_probe_register_name("tp_stress_0", f, &ids[0], 5), -EEXIST);
	/* same function with other data, and NULL data, are distinct probes */
	assert_int_equal(register_trace_tp_stress_0(probe_rec, &ids[1]), 0);
	assert_int_equal(register_trace_tp_stress_0(probe_other, NULL), 0);
	assert_int_equal(register_trace_tp_stress_0(probe_other, NULL), -EEXIST);
	norder = 0;
	trace_tp_stress_0(0);
	assert_int_equal(norder, 3);
	assert_int_equal(unregister_trace_tp_stress_0(probe_other, NULL), 0);
	assert_int_equal(tracepoint_probe_unregister_name("tp_stress_0", f, &ids[1]), 0);
	assert_int_equal(tracepoint_probe_unregister_name("tp_stress_0", f, &ids[1]), -ENOENT);
	assert_int_equal(unregister_trace_tp_stress_0(probe_rec, &ids[0]), 0);
	assert_int_equal(unregister_trace_tp_stress_0(probe_rec, &ids[0]), -ENOENT);
	assert_false(trace_tp_stress_0_enabled());
	/* the walk still works after all that and sees the tracepoint once */
	known_name_seen = 0;
	assert_int_equal(tracepoint_for_each(find_name, NULL), 0);
	assert_int_equal(known_name_seen, 1);
	tracepoint_synchronize_unregister();
	assert_int_equal(live_blocks, 0);
}

/* ---------------------------------------------------------- priorities */

static void test_equal_priorities_keep_registration_order_and_int_min_int_max_work(void **state)
{
	static const int want[] = { 1, 4, 2, 5, 0, 3 };
	(void)state;
	assert_int_equal(register_trace_prio_tp_stress_0(probe_rec, &ids[0], INT_MIN), 0);
	assert_int_equal(register_trace_prio_tp_stress_0(probe_rec, &ids[1], INT_MAX), 0);
	assert_int_equal(register_trace_prio_tp_stress_0(probe_rec, &ids[2], 0), 0);
	assert_int_equal(register_trace_prio_tp_stress_0(probe_rec, &ids[3], INT_MIN), 0);
	assert_int_equal(register_trace_prio_tp_stress_0(probe_rec, &ids[4], INT_MAX), 0);
	assert_int_equal(register_trace_prio_tp_stress_0(probe_rec, &ids[5], 0), 0);
	norder = 0;
	trace_tp_stress_0(0);
	assert_int_equal(norder, 6);
	assert_memory_equal(order, want, sizeof(want));
	/* removing and re-adding moves a probe to the end of its equals */
	assert_int_equal(unregister_trace_tp_stress_0(probe_rec, &ids[1]), 0);
	assert_int_equal(register_trace_prio_tp_stress_0(probe_rec, &ids[1], INT_MAX), 0);
	norder = 0;
	trace_tp_stress_0(0);
	assert_int_equal(order[0], 4);
	assert_int_equal(order[1], 1);
	/* negative priorities order correctly too */
	assert_int_equal(unregister_trace_tp_stress_0(probe_rec, &ids[2]), 0);
	assert_int_equal(register_trace_prio_tp_stress_0(probe_rec, &ids[2], -1), 0);
	norder = 0;
	trace_tp_stress_0(0);
	{
		static const int want2[] = { 4, 1, 5, 2, 0, 3 };
		assert_memory_equal(order, want2, sizeof(want2));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(
			test_every_failing_allocation_of_a_registration_sequence_returns_enomem_keeps_the_set_and_leaks_nothing,
			reset),
		cmocka_unit_test_teardown(
			test_unregister_without_memory_returns_0_and_the_probe_stops_being_called,
			reset),
		cmocka_unit_test_teardown(
			test_failing_reg_callback_returns_its_error_attaches_nothing_and_never_calls_unreg,
			reset),
		cmocka_unit_test_teardown(
			test_allocation_failure_before_reg_callback_calls_neither_reg_nor_unreg,
			reset),
		cmocka_unit_test_teardown(
			test_bad_arguments_get_their_documented_error_codes_and_crash_nothing,
			reset),
		cmocka_unit_test_teardown(
			test_equal_priorities_keep_registration_order_and_int_min_int_max_work,
			reset),
	};
	reset(NULL);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
