/* Unregistration's cost and its in-place removals: N probes that each
 * unregister themselves in one fire cost linear memory (the registry's
 * allocations during the fire are counted) and all run once; probes that
 * stay next to ones that leave, removals from the front, the back and the
 * middle, with and without a fire under way, keep every call exact. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The registry allocates through these: bytes asked for are counted. */
static size_t alloc_bytes;
static long live_blocks;
static void *counting_malloc(size_t n)
{
	void *p = malloc(n);
	if (p) {
		alloc_bytes += n;
		live_blocks++;
	}
	return p;
}
static void counting_free(void *p)
{
	if (p)
		live_blocks--;
	free(p);
}
#define TRACEPOINT_MALLOC(n) counting_malloc(n)
#define TRACEPOINT_FREE(p) counting_free(p)

#include "test_common.h"

#define CONFIG_TP_TEST 1
#include "events/tp_test.h"
DEFINE_TRACE(tp_test_int);

enum { N = 4000, M = 256 };

static int calls[N];
static long total_calls;

static int reset(void **state)
{
	(void)state;
	tp_test_detach_all(&__tracepoint_tp_test_int);
	tracepoint_synchronize_unregister();
	memset(calls, 0, sizeof(calls));
	total_calls = 0;
	return 0;
}

/* data: &calls[i] */
static void probe_leaves(int v, void *data)
{
	(void)v;
	(*(int *)data)++;
	total_calls++;
	assert_int_equal(unregister_trace_tp_test_int(probe_leaves, data), 0);
}

static void probe_stays(int v, void *data)
{
	(void)v;
	(*(int *)data)++;
	total_calls++;
}

static void test_n_probes_that_unregister_themselves_in_one_fire_cost_linear_memory(void **state)
{
	size_t before, during, quadratic = (size_t)N * N / 2 * sizeof(struct tracepoint_probe);
	int i;
	(void)state;
	for (i = 0; i < N; i++)
		assert_int_equal(register_trace_tp_test_int(probe_leaves, &calls[i]), 0);
	before = alloc_bytes;
	trace_tp_test_int(1);
	during = alloc_bytes - before;
	print_message("%d probes unregistering themselves in one fire: %zu bytes allocated "
		      "(copying the list each time: %zu)\n",
		      N, during, quadratic);
	assert_int_equal(total_calls, N);
	for (i = 0; i < N; i++)
		assert_int_equal(calls[i], 1);
	assert_false(trace_tp_test_int_enabled());
	/* linear: at most a few copies of the list's size, not one per probe */
	assert_true(during <= 4 * (size_t)N * sizeof(struct tracepoint_probe) + 4096);
	trace_tp_test_int(2);
	assert_int_equal(total_calls, N);
	tracepoint_synchronize_unregister();
	assert_int_equal(live_blocks, 0);
}

/* Every other probe leaves: the ones that stay are called on every fire,
 * the others once, whatever compactions happen in between.  (Each leaving
 * probe but the first has one that stays before it: it is removed from a
 * copy, O(M) each - see registry.h.) */
static void test_probes_that_stay_between_probes_that_leave_are_called_every_time(void **state)
{
	int i, fire;
	(void)state;
	for (i = 0; i < M; i++)
		assert_int_equal(
			register_trace_tp_test_int(i % 2 ? probe_stays : probe_leaves, &calls[i]),
			0);
	for (fire = 1; fire <= 3; fire++) {
		trace_tp_test_int(fire);
		for (i = 0; i < M; i++)
			assert_int_equal(calls[i], i % 2 ? fire : 1);
	}
	for (i = 0; i < M; i += 2)
		assert_int_equal(tracepoint_probe_attached(&__tracepoint_tp_test_int,
							   (tracepoint_func_t)probe_leaves,
							   &calls[i]),
				 0);
	/* the rest from the back, then a fire: nothing left */
	for (i = M - 1; i > 0; i -= 2)
		assert_int_equal(unregister_trace_tp_test_int(probe_stays, &calls[i]), 0);
	assert_false(trace_tp_test_int_enabled());
	trace_tp_test_int(4);
	assert_int_equal(total_calls, M / 2 + 3 * (M / 2));
	tracepoint_synchronize_unregister();
	assert_int_equal(live_blocks, 0);
}

/* N probes that leave in one fire ahead of one that stays (a lower
 * priority): linear too, and the one that stays is called every time. */
static void test_probes_that_leave_ahead_of_one_that_stays_cost_linear_memory(void **state)
{
	size_t before, during;
	int i;
	(void)state;
	for (i = 0; i < N - 1; i++)
		assert_int_equal(register_trace_prio_tp_test_int(probe_leaves, &calls[i], 10), 0);
	assert_int_equal(register_trace_prio_tp_test_int(probe_stays, &calls[N - 1], 0), 0);
	before = alloc_bytes;
	trace_tp_test_int(1);
	during = alloc_bytes - before;
	assert_true(during <= 4 * (size_t)N * sizeof(struct tracepoint_probe) + 4096);
	trace_tp_test_int(2);
	for (i = 0; i < N - 1; i++)
		assert_int_equal(calls[i], 1);
	assert_int_equal(calls[N - 1], 2);
	assert_true(trace_tp_test_int_enabled());
}

static size_t count_cb_n;
static int count_cb(tracepoint_func_t probe, void *data, int prio, void *priv)
{
	(void)probe;
	(void)data;
	(void)prio;
	(void)priv;
	count_cb_n++;
	return 0;
}

/* Removals from the front (in place), the middle and the back (copies),
 * outside of any fire: the walk and the fires see exactly the rest. */
static void test_removals_from_front_middle_and_back_leave_exactly_the_rest(void **state)
{
	int i, left = 64, gone[64] = { 0 };
	static const int order[] = { 0, 1, 63, 32, 2, 31, 33, 3, 62, 4, 5, 6, 7, 40, 41, 42 };
	(void)state;
	for (i = 0; i < 64; i++)
		assert_int_equal(register_trace_tp_test_int(probe_stays, &calls[i]), 0);
	for (i = 0; i < (int)ARRAY_LEN(order); i++) {
		int j;
		assert_int_equal(unregister_trace_tp_test_int(probe_stays, &calls[order[i]]), 0);
		assert_int_equal(unregister_trace_tp_test_int(probe_stays, &calls[order[i]]),
				 -ENOENT);
		gone[order[i]] = 1;
		left--;
		memset(calls, 0, sizeof(calls));
		trace_tp_test_int(1);
		for (j = 0; j < 64; j++)
			assert_int_equal(calls[j], !gone[j]);
		count_cb_n = 0;
		assert_int_equal(
			tracepoint_probe_for_each(&__tracepoint_tp_test_int, count_cb, NULL), 0);
		assert_int_equal(count_cb_n, (size_t)left);
	}
	/* and in the registration order, the in-place path, down to none */
	for (i = 0; i < 64; i++)
		if (!gone[i])
			assert_int_equal(unregister_trace_tp_test_int(probe_stays, &calls[i]), 0);
	assert_false(trace_tp_test_int_enabled());
	tracepoint_synchronize_unregister();
	assert_int_equal(live_blocks, 0);
}

/* A probe that removes a later one of the same fire: the fire under way
 * still calls it (the list in effect when the fire began), the next does
 * not; a probe that removes an earlier one: nothing changes for this fire. */
static int *victim;
static void probe_removes_victim(int v, void *data)
{
	(void)v;
	(*(int *)data)++;
	if (victim) {
		assert_int_equal(unregister_trace_tp_test_int(probe_stays, victim), 0);
		victim = NULL;
	}
}

static void test_a_probe_removed_by_an_earlier_probe_of_the_fire_still_runs_in_it(void **state)
{
	(void)state;
	assert_int_equal(register_trace_tp_test_int(probe_stays, &calls[0]), 0);
	assert_int_equal(register_trace_tp_test_int(probe_removes_victim, &calls[1]), 0);
	assert_int_equal(register_trace_tp_test_int(probe_stays, &calls[2]), 0);
	assert_int_equal(register_trace_tp_test_int(probe_stays, &calls[3]), 0);
	victim = &calls[2]; /* after it */
	trace_tp_test_int(1);
	assert_int_equal(calls[2], 1);
	trace_tp_test_int(2);
	assert_int_equal(calls[2], 1);
	victim = &calls[0]; /* before it, and the first live probe: in place */
	trace_tp_test_int(3);
	assert_int_equal(calls[0], 3);
	trace_tp_test_int(4);
	assert_int_equal(calls[0], 3);
	assert_int_equal(calls[1], 4);
	assert_int_equal(calls[3], 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(
			test_n_probes_that_unregister_themselves_in_one_fire_cost_linear_memory,
			reset),
		cmocka_unit_test_teardown(
			test_probes_that_leave_ahead_of_one_that_stays_cost_linear_memory, reset),
		cmocka_unit_test_teardown(
			test_probes_that_stay_between_probes_that_leave_are_called_every_time,
			reset),
		cmocka_unit_test_teardown(
			test_removals_from_front_middle_and_back_leave_exactly_the_rest, reset),
		cmocka_unit_test_teardown(
			test_a_probe_removed_by_an_earlier_probe_of_the_fire_still_runs_in_it,
			reset),
	};
	reset(NULL);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
