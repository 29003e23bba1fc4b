/* Concurrency: firing threads against probes that come and go (freed data is
 * never reached, a steady probe sees every fire exactly once), the static key
 * flipping under firing threads, and registration storms on 16 tracepoints. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "test_common.h"
#include "stress_common.h"

#define CONFIG_TP_STRESS 1
#include "events/tp_stress.h"
DEFINE_TRACE(tp_stress_hot);
DEFINE_TRACE(tp_stress_steady);
DEFINE_TRACE(tp_stress_0);
DEFINE_TRACE(tp_stress_1);
DEFINE_TRACE(tp_stress_2);
DEFINE_TRACE(tp_stress_3);
DEFINE_TRACE(tp_stress_4);
DEFINE_TRACE(tp_stress_5);
DEFINE_TRACE(tp_stress_6);
DEFINE_TRACE(tp_stress_7);
DEFINE_TRACE(tp_stress_8);
DEFINE_TRACE(tp_stress_9);
DEFINE_TRACE(tp_stress_10);
DEFINE_TRACE(tp_stress_11);
DEFINE_TRACE(tp_stress_12);
DEFINE_TRACE(tp_stress_13);
DEFINE_TRACE(tp_stress_14);
DEFINE_TRACE(tp_stress_15);

#define NFIRE 3
#define MAGIC 0x7e57da7a7e57da7aULL
#define POISON 0xdeaddeaddeaddeadULL

static struct tracepoint *const many[16] = {
	&__tracepoint_tp_stress_0,  &__tracepoint_tp_stress_1,	&__tracepoint_tp_stress_2,
	&__tracepoint_tp_stress_3,  &__tracepoint_tp_stress_4,	&__tracepoint_tp_stress_5,
	&__tracepoint_tp_stress_6,  &__tracepoint_tp_stress_7,	&__tracepoint_tp_stress_8,
	&__tracepoint_tp_stress_9,  &__tracepoint_tp_stress_10, &__tracepoint_tp_stress_11,
	&__tracepoint_tp_stress_12, &__tracepoint_tp_stress_13, &__tracepoint_tp_stress_14,
	&__tracepoint_tp_stress_15,
};

static void fire_many(int i, int v)
{
	switch (i) {
	case 0:
		trace_tp_stress_0(v);
		break;
	case 1:
		trace_tp_stress_1(v);
		break;
	case 2:
		trace_tp_stress_2(v);
		break;
	case 3:
		trace_tp_stress_3(v);
		break;
	case 4:
		trace_tp_stress_4(v);
		break;
	case 5:
		trace_tp_stress_5(v);
		break;
	case 6:
		trace_tp_stress_6(v);
		break;
	case 7:
		trace_tp_stress_7(v);
		break;
	case 8:
		trace_tp_stress_8(v);
		break;
	case 9:
		trace_tp_stress_9(v);
		break;
	case 10:
		trace_tp_stress_10(v);
		break;
	case 11:
		trace_tp_stress_11(v);
		break;
	case 12:
		trace_tp_stress_12(v);
		break;
	case 13:
		trace_tp_stress_13(v);
		break;
	case 14:
		trace_tp_stress_14(v);
		break;
	case 15:
		trace_tp_stress_15(v);
		break;
	}
}

static int reset(void **state)
{
	(void)state;
	st_watch(NULL, 0);
	tp_test_detach_all(&__tracepoint_tp_stress_hot);
	tp_test_detach_all(&__tracepoint_tp_stress_steady);
	for (size_t i = 0; i < ARRAY_LEN(many); i++)
		tp_test_detach_all(many[i]);
	return 0;
}

/* ------------------------------------------------------ shared machinery */

/* Heap data of a probe that comes and goes.  The magic sits away from the
 * allocator's bookkeeping at the start of a freed block. */
struct transient {
	char pad[48];
	uint64_t magic;
	int retired; /* set once unregister + synchronize returned */
	long calls;
};

static long bad_magic;	  /* a transient probe saw freed/poisoned data */
static long after_retire; /* a transient probe ran after its synchronize */
static long transient_calls;

static void check_transient(struct transient *t)
{
	if (__atomic_load_n(&t->magic, __ATOMIC_RELAXED) != MAGIC) {
		__atomic_fetch_add(&bad_magic, 1, __ATOMIC_RELAXED);
		return;
	}
	if (__atomic_load_n(&t->retired, __ATOMIC_ACQUIRE))
		__atomic_fetch_add(&after_retire, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&t->calls, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&transient_calls, 1, __ATOMIC_RELAXED);
}

/* Two functions, so that lists hold distinct (func, data) pairs. */
static void probe_transient_a(int v, void *data)
{
	(void)v;
	check_transient(data);
}
static void probe_transient_b(int v, void *data)
{
	(void)v;
	check_transient(data);
}

/* A probe attached for the whole run counts calls per firing thread. */
static long steady_calls[NFIRE];
static void probe_steady(int v, void *data)
{
	(void)data;
	if (v >= 0 && v < NFIRE)
		__atomic_fetch_add(&steady_calls[v], 1, __ATOMIC_RELAXED);
	else
		__atomic_fetch_add(&bad_magic, 1, __ATOMIC_RELAXED);
}

static int stop_firing;
static long fires[NFIRE]; /* written by the firing thread only */

/* Both sites in one small page-aligned function: patching tp_stress_hot's
 * site rewrites the page that also holds tp_stress_steady's. */
__attribute__((noinline, aligned(4096))) static void fire_pair(int v)
{
	trace_tp_stress_hot(v);
	trace_tp_stress_steady(v);
}

static int fire_mode; /* 0: tp_stress_hot only; 1: fire_pair */

static void *firer(void *arg)
{
	int idx = (int)(intptr_t)arg;
	while (!__atomic_load_n(&stop_firing, __ATOMIC_RELAXED)) {
		if (fire_mode)
			fire_pair(idx);
		else
			trace_tp_stress_hot(idx);
		__atomic_store_n(&fires[idx], fires[idx] + 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

static pthread_t firers[NFIRE];

static void start_firing(int mode)
{
	memset(fires, 0, sizeof(fires));
	memset(steady_calls, 0, sizeof(steady_calls));
	bad_magic = after_retire = transient_calls = 0;
	stop_firing = 0;
	fire_mode = mode;
	for (int i = 0; i < NFIRE; i++)
		assert_int_equal(pthread_create(&firers[i], NULL, firer, (void *)(intptr_t)i), 0);
}

static void stop_firing_and_join(void)
{
	__atomic_store_n(&stop_firing, 1, __ATOMIC_RELAXED);
	for (int i = 0; i < NFIRE; i++)
		pthread_join(firers[i], NULL);
}

/* Until every firing thread has completed two more fires. */
static void wait_for_fresh_fires(void)
{
	long base[NFIRE];
	double t0 = st_now();
	for (int i = 0; i < NFIRE; i++)
		base[i] = __atomic_load_n(&fires[i], __ATOMIC_RELAXED);
	for (int i = 0; i < NFIRE; i++)
		while (__atomic_load_n(&fires[i], __ATOMIC_RELAXED) < base[i] + 2 &&
		       st_now() - t0 < 1)
			sched_yield();
}

static struct transient *new_transient(long round)
{
	/* Varying sizes keep the allocator from handing the same block
	 * straight back, so a late reader would meet the poison. */
	struct transient *t = malloc(sizeof(*t) + (size_t)(round % 5) * 40);
	assert_non_null(t);
	memset(t, 0, sizeof(*t));
	t->magic = MAGIC;
	return t;
}

/* After unregister + synchronize: mark retired, give the firing threads a
 * chance to misbehave, then poison and free.  Returns 1 if the probe ran
 * after synchronize returned. */
static int retire_transient(struct transient *t, int wait)
{
	long calls;
	__atomic_store_n(&t->retired, 1, __ATOMIC_RELEASE);
	calls = __atomic_load_n(&t->calls, __ATOMIC_RELAXED);
	if (wait)
		wait_for_fresh_fires();
	if (__atomic_load_n(&t->calls, __ATOMIC_RELAXED) != calls)
		return 1;
	__atomic_store_n(&t->magic, POISON, __ATOMIC_RELAXED);
	free(t);
	return 0;
}

static void check_steady_exact(void)
{
	for (int i = 0; i < NFIRE; i++) {
		if (steady_calls[i] != fires[i])
			print_error("thread %d fired %ld times, steady probe ran %ld times\n", i,
				    fires[i], steady_calls[i]);
		assert_true(fires[i] > 0);
		assert_int_equal(steady_calls[i], fires[i]);
	}
}

/* --------------------------------------------------------------- part a */

enum { MIN_ROUNDS = 16 };

static void
test_a_transient_probes_with_freed_data_never_run_after_synchronize_and_steady_probe_runs_exactly_once_per_fire(
	void **state)
{
	static const int prios[] = { 20, 5, 0, 10, -3 };
	double secs = st_seconds(0.6), t0;
	long rounds = 0, errors = 0, late = 0;
	int ctx;
	(void)state;
	st_watch(__func__, secs + 10);
	/* prio 0: transient probes land before, after and next to it. */
	assert_int_equal(register_trace_prio_tp_stress_hot(probe_steady, &ctx, 0), 0);
	start_firing(0);
	t0 = st_now();
	/* At least MIN_ROUNDS: every case of rounds % 8 below, however slow
	 * the machine (a loaded one under TSan made 3 rounds in 0.3 s). */
	while (st_now() - t0 < secs || rounds < MIN_ROUNDS) {
		struct transient *a = new_transient(rounds), *b = new_transient(rounds + 2);
		int pa = prios[rounds % ARRAY_LEN(prios)],
		    pb = prios[(rounds + 3) % ARRAY_LEN(prios)];
		errors += register_trace_prio_tp_stress_hot(probe_transient_a, a, pa) != 0;
		if (rounds % 2)
			errors += register_trace_prio_tp_stress_hot(probe_transient_b, b, pb) != 0;
		if (rounds % 8 == 0)
			wait_for_fresh_fires();
		else
			sched_yield();
		errors += unregister_trace_tp_stress_hot(probe_transient_a, a) != 0;
		if (rounds % 3 == 0) {
			/* a goes first, b later: two grace periods overlap */
			tracepoint_synchronize_unregister();
			late += retire_transient(a, rounds % 8 == 1);
			a = NULL;
		}
		if (rounds % 2)
			errors += unregister_trace_tp_stress_hot(probe_transient_b, b) != 0;
		tracepoint_synchronize_unregister();
		if (a)
			late += retire_transient(a, rounds % 8 == 1);
		late += retire_transient(b, rounds % 8 == 5);
		rounds++;
	}
	stop_firing_and_join();
	assert_int_equal(unregister_trace_tp_stress_hot(probe_steady, &ctx), 0);
	tracepoint_synchronize_unregister();
	print_message("a: %ld rounds, fires %ld/%ld/%ld, %ld transient calls\n", rounds, fires[0],
		      fires[1], fires[2], transient_calls);
	assert_int_equal(errors, 0);
	assert_int_equal(bad_magic, 0);
	assert_int_equal(after_retire, 0);
	assert_int_equal(late, 0);
	assert_true(rounds >= MIN_ROUNDS);
	assert_true(transient_calls > 0);
	check_steady_exact();
}

/* --------------------------------------------------------------- part b */

struct site_pages {
	uintptr_t hot, steady; /* page of the first site found for each key */
	int n_hot, n_steady;
};

#if TRACEPOINT_STATIC_KEYS
static void find_site_pages(struct site_pages *sp)
{
	uintptr_t pagesz = (uintptr_t)sysconf(_SC_PAGESIZE);
	memset(sp, 0, sizeof(*sp));
	for (const struct tp__jump_entry *e = __start_tp__jump; e < __stop_tp__jump; e++) {
		uintptr_t site = (uintptr_t)&e->site + (uintptr_t)(intptr_t)e->site;
		uintptr_t fp = (uintptr_t)(void *)fire_pair;
		if (site < fp || site >= fp + 64)
			continue; /* only the sites inside fire_pair (it is tiny) */
		if (tp__jump_key(e) == &__tracepoint_tp_stress_hot) {
			sp->hot = site & ~(pagesz - 1);
			sp->n_hot++;
		} else if (tp__jump_key(e) == &__tracepoint_tp_stress_steady) {
			sp->steady = site & ~(pagesz - 1);
			sp->n_steady++;
		}
	}
}
#endif

static void
test_b_key_flipping_as_fast_as_possible_never_crashes_and_steady_probe_on_same_code_page_loses_no_fire(
	void **state)
{
	double secs = st_seconds(0.6), t0;
	long rounds = 0, errors = 0, late = 0, enabled_seen = 0;
	struct transient *pending[64];
	int ctx, npending = 0;
	(void)state;
	st_watch(__func__, secs + 10);
#if TRACEPOINT_STATIC_KEYS
	{
		struct site_pages sp;
		find_site_pages(&sp);
		print_message("b: fire_pair holds %d hot and %d steady sites\n", sp.n_hot,
			      sp.n_steady);
		assert_true(sp.n_hot >= 1);
		assert_true(sp.n_steady >= 1);
		assert_true(sp.hot == sp.steady); /* the point of this test */
	}
#endif
	assert_false(trace_tp_stress_hot_enabled());
	assert_int_equal(register_trace_tp_stress_steady(probe_steady, &ctx), 0);
	start_firing(1);
	t0 = st_now();
	while (st_now() - t0 < secs || rounds < MIN_ROUNDS) {
		struct transient *t = new_transient(rounds);
		/* 0 -> 1 -> 0 probes: every round enables and disables. */
		errors += register_trace_tp_stress_hot(probe_transient_a, t) != 0;
		enabled_seen += trace_tp_stress_hot_enabled();
		if (rounds % 64 == 0)
			wait_for_fresh_fires();
		errors += unregister_trace_tp_stress_hot(probe_transient_a, t) != 0;
		/* Synchronize every 64th flip only, so the key flips as fast as
		 * registration allows; the probes' data await retirement. */
		pending[npending++] = t;
		if (npending == (int)ARRAY_LEN(pending)) {
			tracepoint_synchronize_unregister();
			while (npending) {
				npending--;
				late += retire_transient(pending[npending], npending == 0);
			}
		}
		rounds++;
	}
	tracepoint_synchronize_unregister();
	while (npending)
		late += retire_transient(pending[--npending], 0);
	stop_firing_and_join();
	assert_false(trace_tp_stress_hot_enabled());
	assert_int_equal(unregister_trace_tp_stress_steady(probe_steady, &ctx), 0);
	tracepoint_synchronize_unregister();
	print_message("b: %ld flips, fires %ld/%ld/%ld, %ld transient calls\n", rounds, fires[0],
		      fires[1], fires[2], transient_calls);
	assert_int_equal(errors, 0);
	assert_int_equal(enabled_seen, rounds);
	assert_int_equal(bad_magic, 0);
	assert_int_equal(after_retire, 0);
	assert_int_equal(late, 0);
	assert_true(rounds >= MIN_ROUNDS);
	check_steady_exact();
}

/* --------------------------------------------------------------- part c */

#define NT 6  /* registering threads */
#define NK 24 /* (probe, data) pairs per thread */

struct slot {
	int t, k;
	long count[16]; /* calls per tracepoint index */
};

static struct slot slots[NT][NK];

static void count_slot(struct slot *s, int v)
{
	if (v >= 0 && v < 16)
		__atomic_fetch_add(&s->count[v], 1, __ATOMIC_RELAXED);
	else
		__atomic_fetch_add(&bad_magic, 1, __ATOMIC_RELAXED);
}
static void probe_slot_a(int v, void *data)
{
	count_slot(data, v);
}
static void probe_slot_b(int v, void *data)
{
	count_slot(data, v);
}

static tracepoint_func_t slot_probe(int k)
{
	return k % 2 ? TRACEPOINT_FUNC(probe_slot_b) : TRACEPOINT_FUNC(probe_slot_a);
}

/* Slot (t, k) lives on the shared tracepoint 0 and on "its own" one. */
static int own_tp(int t, int k)
{
	return 1 + (t * NK + k) % 15;
}
static int slot_prio(int t, int k)
{
	return (k * 7 + t) % 5 - 2;
}

static int storm_rounds;
static long storm_errors;

static void *storm_thread(void *arg)
{
	int t = (int)(intptr_t)arg;
	long errors = 0;
	for (int r = 0; r < storm_rounds; r++) {
		int last = r == storm_rounds - 1;
		for (int k = 0; k < NK; k++) {
			struct slot *s = &slots[t][k];
			errors += tracepoint_probe_register_prio(many[0], slot_probe(k), s,
								 slot_prio(t, k)) != 0;
			errors += tracepoint_probe_register_prio(many[own_tp(t, k)], slot_probe(k),
								 s, slot_prio(t, k)) != 0;
		}
		for (int k = 1; k < NK; k += 2) {
			errors += tracepoint_probe_unregister(many[0], slot_probe(k),
							      &slots[t][k]) != 0;
			errors += tracepoint_probe_unregister(many[own_tp(t, k)], slot_probe(k),
							      &slots[t][k]) != 0;
		}
		if (r % 3 == t % 3)
			tracepoint_synchronize_unregister();
		if (last)
			break;
		for (int k = 0; k < NK; k += 2) {
			errors += tracepoint_probe_unregister(many[own_tp(t, k)], slot_probe(k),
							      &slots[t][k]) != 0;
			errors += tracepoint_probe_unregister(many[0], slot_probe(k),
							      &slots[t][k]) != 0;
		}
	}
	__atomic_fetch_add(&storm_errors, errors, __ATOMIC_RELAXED);
	return NULL;
}

static int storm_stop;
static void *storm_firer(void *arg)
{
	long n = 0;
	(void)arg;
	while (!__atomic_load_n(&storm_stop, __ATOMIC_RELAXED)) {
		fire_many((int)(n % 16), (int)(n % 16));
		n++;
	}
	return NULL;
}

/* tracepoint_probe_for_each callback: counts the probes whose priority is
 * above the one before them (out of order: higher runs first). */
struct prio_walk {
	int seen, prev, rises;
};
static int prio_rises(tracepoint_func_t probe, void *data, int prio, void *priv)
{
	struct prio_walk *w = (struct prio_walk *)priv;
	(void)probe;
	(void)data;
	if (w->seen++ && prio > w->prev)
		w->rises++;
	w->prev = prio;
	return 0;
}

static void test_c_registration_storm_on_16_tracepoints_leaves_exactly_the_requested_probe_sets(
	void **state)
{
	pthread_t th[NT], fth;
	double t0 = st_now(), secs = st_seconds(0);
	long wrong = 0;
	(void)state;
	storm_rounds = secs > 0 ? (int)(secs * 200) : 40;
	st_watch(__func__, 20 + secs * 2);
	storm_errors = 0;
	bad_magic = 0;
	storm_stop = 0;
	for (int t = 0; t < NT; t++)
		for (int k = 0; k < NK; k++) {
			memset(&slots[t][k], 0, sizeof(slots[t][k]));
			slots[t][k].t = t;
			slots[t][k].k = k;
		}
	assert_int_equal(pthread_create(&fth, NULL, storm_firer, NULL), 0);
	for (int t = 0; t < NT; t++)
		assert_int_equal(pthread_create(&th[t], NULL, storm_thread, (void *)(intptr_t)t),
				 0);
	for (int t = 0; t < NT; t++)
		pthread_join(th[t], NULL);
	__atomic_store_n(&storm_stop, 1, __ATOMIC_RELAXED);
	pthread_join(fth, NULL);
	tracepoint_synchronize_unregister();
	print_message("c: %d rounds x %d threads x %d pairs in %.2fs\n", storm_rounds, NT, NK,
		      st_now() - t0);
	assert_int_equal(storm_errors, 0);
	assert_int_equal(bad_magic, 0);

	/* Exact final sets: even k on tracepoint 0 and on its own one. */
	for (int t = 0; t < NT; t++)
		for (int k = 0; k < NK; k++)
			memset(slots[t][k].count, 0, sizeof(slots[t][k].count));
	for (int i = 0; i < 16; i++)
		fire_many(i, i);
	for (int t = 0; t < NT; t++)
		for (int k = 0; k < NK; k++)
			for (int i = 0; i < 16; i++) {
				long want = k % 2 == 0 && (i == 0 || i == own_tp(t, k));
				if (slots[t][k].count[i] != want) {
					print_error("slot (%d,%d) on tp %d: %ld calls, want %ld\n",
						    t, k, i, slots[t][k].count[i], want);
					wrong++;
				}
			}
	assert_int_equal(wrong, 0);
	assert_int_equal(tp_test_probes(many[0]), NT * NK / 2);
	{
		size_t total = 0;
		for (int i = 1; i < 16; i++)
			total += tp_test_probes(many[i]);
		assert_int_equal(total, NT * NK / 2);
	}
	/* Priority order survives the storm (higher first). */
	for (int i = 0; i < 16; i++) {
		struct prio_walk w = { 0, 0, 0 };
		assert_int_equal(tracepoint_probe_for_each(many[i], prio_rises, &w), 0);
		assert_int_equal(w.rises, 0);
		assert_int_equal(tracepoint_enabled(many[i]), tp_test_probes(many[i]) > 0);
	}
}

/* The same (probe, data) registered by every thread at the same instant:
 * exactly one wins, the others get -EEXIST; then the same for removal. */
static pthread_barrier_t race_barrier;
static int race_data;
static int race_reg_ok, race_reg_exist, race_unreg_ok, race_unreg_noent, race_other;
static int race_rounds;

static void *race_thread(void *arg)
{
	(void)arg;
	for (int r = 0; r < race_rounds; r++) {
		int ret;
		pthread_barrier_wait(&race_barrier);
		ret = tracepoint_probe_register(many[5], TRACEPOINT_FUNC(probe_slot_a), &race_data);
		__atomic_fetch_add(ret == 0	    ? &race_reg_ok
				   : ret == -EEXIST ? &race_reg_exist
						    : &race_other,
				   1, __ATOMIC_RELAXED);
		pthread_barrier_wait(&race_barrier);
		ret = tracepoint_probe_unregister(many[5], TRACEPOINT_FUNC(probe_slot_a),
						  &race_data);
		__atomic_fetch_add(ret == 0	    ? &race_unreg_ok
				   : ret == -ENOENT ? &race_unreg_noent
						    : &race_other,
				   1, __ATOMIC_RELAXED);
		if (r % 16 == 0)
			tracepoint_synchronize_unregister();
	}
	return NULL;
}

static void test_c_same_probe_registered_by_all_threads_at_once_is_attached_exactly_once(
	void **state)
{
	pthread_t th[NT];
	double secs = st_seconds(0);
	(void)state;
	race_rounds = secs > 0 ? (int)(secs * 500) : 300;
	st_watch(__func__, 20 + secs * 2);
	race_reg_ok = race_reg_exist = race_unreg_ok = race_unreg_noent = race_other = 0;
	assert_int_equal(pthread_barrier_init(&race_barrier, NULL, NT), 0);
	for (int t = 0; t < NT; t++)
		assert_int_equal(pthread_create(&th[t], NULL, race_thread, NULL), 0);
	for (int t = 0; t < NT; t++)
		pthread_join(th[t], NULL);
	pthread_barrier_destroy(&race_barrier);
	assert_int_equal(race_other, 0);
	assert_int_equal(race_reg_ok, race_rounds);
	assert_int_equal(race_reg_exist, race_rounds * (NT - 1));
	assert_int_equal(race_unreg_ok, race_rounds);
	assert_int_equal(race_unreg_noent, race_rounds * (NT - 1));
	assert_false(tracepoint_enabled(many[5]));
}

/* Threads enabling and disabling different tracepoints (each enable and
 * disable patches code) while others wait in tracepoint_synchronize_unregister
 * with work pending: nobody may wait for anybody forever. */
static int flip_stop;
static long flip_errors, flip_syncs;

static void *flip_thread(void *arg)
{
	int i = (int)(intptr_t)arg;
	long n = 0;
	while (!__atomic_load_n(&flip_stop, __ATOMIC_RELAXED)) {
		/* few tracepoints, so that threads meet on them */
		struct tracepoint *tp = many[(i + n) % 3];
		int ret =
			tracepoint_probe_register(tp, TRACEPOINT_FUNC(probe_slot_a), &slots[i][0]);
		ret |= tracepoint_probe_unregister(tp, TRACEPOINT_FUNC(probe_slot_a), &slots[i][0]);
		if (ret)
			__atomic_fetch_add(&flip_errors, 1, __ATOMIC_RELAXED);
		if (i % 2) {
			tracepoint_synchronize_unregister();
			__atomic_fetch_add(&flip_syncs, 1, __ATOMIC_RELAXED);
		}
		n++;
	}
	return NULL;
}

static void *flip_firer(void *arg)
{
	long n = 0;
	(void)arg;
	while (!__atomic_load_n(&flip_stop, __ATOMIC_RELAXED)) {
		fire_many((int)(n % 3), 0);
		n++;
	}
	return NULL;
}

/* Runs NT flip threads (plus one firer) for flip_secs; exits non-zero on error. */
static double flip_secs;
static void *(*flip_fn)(void *);

static void flip_scenario(void)
{
	pthread_t th[NT], fth;
	flip_stop = 0;
	flip_errors = flip_syncs = 0;
	/* Readers keep grace periods pending, so synchronize has work to do
	 * on the very tracepoints being enabled and disabled. */
	if (pthread_create(&fth, NULL, flip_firer, NULL))
		_exit(3);
	for (int t = 0; t < NT; t++)
		if (pthread_create(&th[t], NULL, flip_fn, (void *)(intptr_t)t))
			_exit(3);
	st_sleep_ms((int)(flip_secs * 1000));
	__atomic_store_n(&flip_stop, 1, __ATOMIC_RELAXED);
	for (int t = 0; t < NT; t++)
		pthread_join(th[t], NULL);
	pthread_join(fth, NULL);
	fprintf(stderr, "c: flips done, %ld synchronize calls among them\n", flip_syncs);
	if (flip_errors)
		_exit(1);
	for (int i = 0; i < 16; i++)
		if (tracepoint_enabled(many[i]))
			_exit(2);
}

static void run_flip_scenario(const char *what, void *(*fn)(void *))
{
	int rc;
	flip_secs = st_seconds(0.5);
	flip_fn = fn;
	st_watch(what, flip_secs + 20);
	/* In a child, so that a deadlock fails this test only. */
	rc = st_run_forked(flip_scenario, flip_secs + 3);
	if (rc == -1)
		print_error("%s: DEADLOCK: the threads were still stuck after %.1fs\n", what,
			    flip_secs + 3);
	assert_int_equal(rc, 0);
}

static void test_c_concurrent_enable_disable_and_synchronize_on_many_tracepoints_never_deadlock(
	void **state)
{
	(void)state;
	run_flip_scenario(__func__, flip_thread);
}

/* Half the threads attach by name (tracepoint_probe_register_name walks the
 * loaded modules), the other half directly, on the same few tracepoints. */
static void *flip_name_thread(void *arg)
{
	int i = (int)(intptr_t)arg;
	long n = 0;
	static const char *const names[3] = { "tp_stress_0", "tp_stress_1", "tp_stress_2" };
	while (!__atomic_load_n(&flip_stop, __ATOMIC_RELAXED)) {
		int k = (int)((i + n) % 3), ret;
		if (i % 2) {
			ret = tracepoint_probe_register_name(
				names[k], TRACEPOINT_FUNC(probe_slot_a), &slots[i][0], 10);
			ret |= tracepoint_probe_unregister_name(
				names[k], TRACEPOINT_FUNC(probe_slot_a), &slots[i][0]);
		} else {
			ret = tracepoint_probe_register(many[k], TRACEPOINT_FUNC(probe_slot_a),
							&slots[i][0]);
			ret |= tracepoint_probe_unregister(many[k], TRACEPOINT_FUNC(probe_slot_a),
							   &slots[i][0]);
		}
		if (ret)
			__atomic_fetch_add(&flip_errors, 1, __ATOMIC_RELAXED);
		n++; /* no synchronize here: by-name against direct only */
	}
	return NULL;
}

static void test_c_concurrent_register_by_name_and_direct_register_never_deadlock(void **state)
{
	(void)state;
	run_flip_scenario(__func__, flip_name_thread);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(
			test_a_transient_probes_with_freed_data_never_run_after_synchronize_and_steady_probe_runs_exactly_once_per_fire,
			reset),
		cmocka_unit_test_teardown(
			test_b_key_flipping_as_fast_as_possible_never_crashes_and_steady_probe_on_same_code_page_loses_no_fire,
			reset),
		cmocka_unit_test_teardown(
			test_c_registration_storm_on_16_tracepoints_leaves_exactly_the_requested_probe_sets,
			reset),
		cmocka_unit_test_teardown(
			test_c_same_probe_registered_by_all_threads_at_once_is_attached_exactly_once,
			reset),
		cmocka_unit_test_teardown(
			test_c_concurrent_enable_disable_and_synchronize_on_many_tracepoints_never_deadlock,
			reset),
		cmocka_unit_test_teardown(
			test_c_concurrent_register_by_name_and_direct_register_never_deadlock,
			reset),
	};
	reset(NULL);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
