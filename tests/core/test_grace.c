/* The grace period's read side (tracepoint/grace.h): the slots exist once a
 * writer mapped them; a thread that fires an enabled tracepoint claims a slot of its own and counts there; threads that
 * find no slot count on the shared counters; slots of threads that are gone
 * are freed; and readers of both kinds keep a retired list alive. */
#include <pthread.h>
#include "test_common.h"

#define CONFIG_TP_TEST 1
#include "events/tp_test.h"
DEFINE_TRACE(tp_test_int);

static struct tp__domain *dom(void)
{
	return __tracepoint_tp_test_int.tp__priv.gp;
}

static long hits;
static void probe(int v, void *data)
{
	(void)data;
	(void)v;
	__atomic_add_fetch(&hits, 1, __ATOMIC_RELAXED);
}

static int teardown(void **state)
{
	(void)state;
	tp_test_detach_all(&__tracepoint_tp_test_int);
	hits = 0;
	return 0;
}

/* What a thread saw of itself after firing once. */
struct seen {
	struct tp__slot *slot;
	int state;
};

static void *fire_once(void *arg)
{
	struct seen *s = (struct seen *)arg;
	trace_tp_test_int(1);
	s->slot = tp__me.slot;
	s->state = tp__me.state;
	return NULL;
}

/* Runs first: a process that never attached a probe has only the domain's
 * header; the first writer maps the 1,024 slots (when it can use them). */
static void test_the_first_writer_maps_the_slots(void **state)
{
	int ctx;
	(void)state;
	assert_int_equal(sizeof(struct tp__domain), 128);
	trace_tp_test_int(1); /* idle: changes nothing */
	assert_null(dom()->slot);
	assert_int_equal(dom()->mode, TP__GP_UNDECIDED);
	assert_int_equal(register_trace_tp_test_int(probe, &ctx), 0);
	if (__atomic_load_n(&dom()->mode, __ATOMIC_ACQUIRE) == TP__GP_MEMBARRIER)
		assert_non_null(dom()->slot);
	else
		assert_null(dom()->slot);
	trace_tp_test_int(1);
	assert_int_equal(hits, 1);
}

static void test_a_firing_thread_claims_a_slot_of_its_own_and_counts_there(void **state)
{
	int ctx;
	struct seen a = { NULL, 0 }, b = { NULL, 0 };
	pthread_t ta, tb;
	(void)state;
	assert_int_equal(register_trace_tp_test_int(probe, &ctx), 0);
	if (__atomic_load_n(&dom()->mode, __ATOMIC_ACQUIRE) != TP__GP_MEMBARRIER) {
		print_message(
			"membarrier(PRIVATE_EXPEDITED) unavailable here: shared counters only\n");
		skip();
	}
	assert_int_equal(pthread_create(&ta, NULL, fire_once, &a), 0);
	assert_int_equal(pthread_join(ta, NULL), 0);
	assert_int_equal(pthread_create(&tb, NULL, fire_once, &b), 0);
	assert_int_equal(pthread_join(tb, NULL), 0);
	assert_int_equal(hits, 2);
	assert_non_null(a.slot);
	assert_non_null(b.slot);
	/* each slot is a cache line of its own, inside the domain */
	assert_true((uintptr_t)a.slot % 64 == 0);
	assert_true(a.slot >= &dom()->slot[0] && a.slot < &dom()->slot[TP__GP_SLOTS]);
	/* nobody is inside the dispatch now */
	assert_int_equal(tp__gp_active(dom()), 0);
}

static void test_slots_of_threads_that_are_gone_are_freed_by_a_sweep(void **state)
{
	int ctx;
	struct seen a = { NULL, 0 };
	pthread_t ta;
	(void)state;
	assert_int_equal(register_trace_tp_test_int(probe, &ctx), 0);
	if (__atomic_load_n(&dom()->mode, __ATOMIC_ACQUIRE) != TP__GP_MEMBARRIER)
		skip();
	assert_int_equal(pthread_create(&ta, NULL, fire_once, &a), 0);
	assert_int_equal(pthread_join(ta, NULL), 0);
	assert_non_null(a.slot);
	assert_int_not_equal(__atomic_load_n(&a.slot->owner, __ATOMIC_SEQ_CST), 0);
	/* the thread is gone once the kernel says so (join waits for that) */
	for (int i = 0; i < 1000 && __atomic_load_n(&a.slot->owner, __ATOMIC_SEQ_CST); i++) {
		assert_true(tp__gp_trylock(dom()));
		tp__gp_reap(dom(), 0, 1);
		tp__gp_unlock(dom());
		if (__atomic_load_n(&a.slot->owner, __ATOMIC_SEQ_CST))
			usleep(1000);
	}
	assert_int_equal(__atomic_load_n(&a.slot->owner, __ATOMIC_SEQ_CST), 0);
	/* ours is alive and stays */
	trace_tp_test_int(2);
	if (tp__me.slot) {
		assert_true(tp__gp_trylock(dom()));
		tp__gp_reap(dom(), 0, 1);
		tp__gp_unlock(dom());
		assert_int_equal(tp__me.slot->owner, (unsigned long)pthread_self());
	}
}

/* More threads alive at once than there are slots: the late ones count on
 * the shared counters, every fire arrives, and unregistering while all of
 * them fire still never lets a probe run after synchronize. */
#define MANY 1100
static pthread_barrier_t gate;
static int stop_firing;
static long after_sync;
static int synced;

static void late_probe(int v, void *data)
{
	(void)v;
	if (__atomic_load_n(&synced, __ATOMIC_ACQUIRE))
		__atomic_add_fetch(&after_sync, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch((long *)data, 1, __ATOMIC_RELAXED);
}

static void *fire_until_stopped(void *arg)
{
	(void)arg;
	trace_tp_test_int(1);
	pthread_barrier_wait(&gate);
	while (!__atomic_load_n(&stop_firing, __ATOMIC_ACQUIRE)) {
		trace_tp_test_int(1);
		sched_yield();
	}
	return NULL;
}

static void test_more_threads_than_slots_fall_back_to_shared_counters_and_stay_correct(void **state)
{
	static pthread_t th[MANY];
	static long late_hits;
	pthread_attr_t attr;
	int ctx, n = 0, shared = 0;
	(void)state;
	assert_int_equal(register_trace_tp_test_int(probe, &ctx), 0);
	assert_int_equal(register_trace_tp_test_int(late_probe, &late_hits), 0);
	assert_int_equal(pthread_barrier_init(&gate, NULL, MANY + 1), 0);
	assert_int_equal(pthread_attr_init(&attr), 0);
	assert_int_equal(pthread_attr_setstacksize(&attr, 64 * 1024), 0);
	for (; n < MANY; n++)
		if (pthread_create(&th[n], &attr, fire_until_stopped, NULL) != 0)
			break;
	if (n < MANY) { /* a limit on threads: let those started go, then skip */
		__atomic_store_n(&stop_firing, 1, __ATOMIC_RELEASE);
		print_message("could start only %d threads\n", n);
		skip();
	}
	pthread_barrier_wait(&gate);
	assert_true(__atomic_load_n(&hits, __ATOMIC_RELAXED) >= MANY);
	if (__atomic_load_n(&dom()->mode, __ATOMIC_ACQUIRE) == TP__GP_MEMBARRIER)
		shared = __atomic_load_n(&dom()->used, __ATOMIC_RELAXED) == TP__GP_SLOTS;
	/* the late probe goes while everybody fires */
	assert_int_equal(unregister_trace_tp_test_int(late_probe, &late_hits), 0);
	tracepoint_synchronize_unregister();
	__atomic_store_n(&synced, 1, __ATOMIC_RELEASE);
	usleep(20000);
	__atomic_store_n(&stop_firing, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	pthread_barrier_destroy(&gate);
	assert_int_equal(after_sync, 0);
	assert_int_equal(tp__gp_active(dom()), 0);
	print_message("%d threads, slots %s\n", n,
		      shared ? "all taken (the rest shared)" : "not all taken");
}

/* Threads claiming at once each get a slot of their own: one that extends
 * the slots in use and one that scans them for a free one never both take
 * the same (they would then lose each other's plain increments, and a
 * grace period would wait for ever).  Each round starts from a fresh
 * mapping, as after the first writer, so that first touches widen the
 * window between taking a slot and marking it owned. */
#define CLAIMERS 4
#define CLAIM_ROUNDS 3000
static struct tp__domain claim_dom;
static pthread_barrier_t claim_start, claim_done;
static struct tp__slot *claimed[CLAIMERS];

static void *claim_rounds(void *arg)
{
	long k = (long)arg;
	for (int r = 0; r < CLAIM_ROUNDS; r++) {
		pthread_barrier_wait(&claim_start);
		for (long spin = 0; spin < k * 50; spin++) /* stagger the arrivals */
			__asm__ __volatile__("" ::: "memory");
		claimed[k] = tp__gp_claim(&claim_dom);
		pthread_barrier_wait(&claim_done);
	}
	return NULL;
}

static void test_threads_claiming_at_once_never_share_a_slot(void **state)
{
	pthread_t th[CLAIMERS];
	size_t len = TP__GP_SLOTS * sizeof(struct tp__slot);
	int shared = 0;
	(void)state;
	assert_int_equal(pthread_barrier_init(&claim_start, NULL, CLAIMERS + 1), 0);
	assert_int_equal(pthread_barrier_init(&claim_done, NULL, CLAIMERS + 1), 0);
	for (long k = 0; k < CLAIMERS; k++)
		assert_int_equal(pthread_create(&th[k], NULL, claim_rounds, (void *)k), 0);
	for (int r = 0; r < CLAIM_ROUNDS; r++) {
		void *m =
			mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		assert_true(m != MAP_FAILED);
		memset(&claim_dom, 0, sizeof(claim_dom));
		claim_dom.slot = (struct tp__slot *)m;
		claim_dom.mode = TP__GP_MEMBARRIER;
		pthread_barrier_wait(&claim_start);
		pthread_barrier_wait(&claim_done);
		for (int i = 0; i < CLAIMERS; i++) {
			assert_non_null(claimed[i]);
			for (int j = 0; j < i; j++)
				shared += claimed[i] == claimed[j];
		}
		assert_int_equal(claim_dom.used, CLAIMERS);
		munmap(m, len);
	}
	for (int k = 0; k < CLAIMERS; k++)
		pthread_join(th[k], NULL);
	pthread_barrier_destroy(&claim_start);
	pthread_barrier_destroy(&claim_done);
	assert_int_equal(shared, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_the_first_writer_maps_the_slots, teardown),
		cmocka_unit_test_teardown(
			test_a_firing_thread_claims_a_slot_of_its_own_and_counts_there, teardown),
		cmocka_unit_test_teardown(test_slots_of_threads_that_are_gone_are_freed_by_a_sweep,
					  teardown),
		cmocka_unit_test_teardown(test_threads_claiming_at_once_never_share_a_slot,
					  teardown),
		cmocka_unit_test_teardown(
			test_more_threads_than_slots_fall_back_to_shared_counters_and_stay_correct,
			teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
