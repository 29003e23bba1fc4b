/* Static-key code patching: every site of a disabled tracepoint is idle, all
 * of its sites jump to their slow path while a probe is attached and are idle
 * again afterwards, other tracepoints' sites are untouched, and the text
 * pages end up read+exec, never writable.  Skipped in portable mode. */
#include <stdint.h>
#include <string.h>

#include "test_common.h"

#define CONFIG_TP_STRESS 1
#include "events/tp_stress.h"
DEFINE_TRACE(tp_stress_hot);
DEFINE_TRACE(tp_stress_steady);

#include "patch_common.h"

#define SKIP_UNLESS_STATIC_KEYS()                                             \
	do {                                                                  \
		if (!TRACEPOINT_STATIC_KEYS) {                                \
			print_message("portable mode: no sites to patch\n");  \
			skip();                                               \
		}                                                             \
	} while (0)

static int hits;
__attribute__((unused)) static void probe(int v, void *data)
{
	(void)data;
	(void)v;
	hits++;
}

/* Several sites of tp_stress_hot in several functions, one of the other. */
__attribute__((noinline, unused)) static void fire_hot_1(int v)
{
	trace_tp_stress_hot(v);
}
__attribute__((noinline, unused)) static void fire_hot_2(int v)
{
	trace_tp_stress_hot(v);
	trace_tp_stress_hot(v + 1);
}
__attribute__((noinline, unused)) static void fire_steady(int v)
{
	trace_tp_stress_steady(v);
}

static int reset(void **state)
{
	(void)state;
	tp_test_detach_all(&__tracepoint_tp_stress_hot);
	tp_test_detach_all(&__tracepoint_tp_stress_steady);
	return 0;
}

#if TRACEPOINT_STATIC_KEYS
static void assert_all_sites(const struct tracepoint *key, int want_idle, int want_jump)
{
	struct site_count c = count_sites(key);
	if (c.idle != want_idle || c.jump != want_jump || c.other)
		print_error("%s: %d idle, %d jump, %d other sites (want %d idle, %d jump)\n",
			    key->name, c.idle, c.jump, c.other, want_idle, want_jump);
	assert_int_equal(c.other, 0);
	assert_int_equal(c.idle, want_idle);
	assert_int_equal(c.jump, want_jump);
}

static int nsites(const struct tracepoint *key)
{
	struct site_count c = count_sites(key);
	return c.idle + c.jump + c.other;
}

/* Every page holding a site: r-xp (not writable, still executable). */
static void assert_text_pages_not_writable(void)
{
	for (const struct tp__jump_entry *e = __start_tp__jump; e < __stop_tp__jump; e++) {
		char perms[5];
		assert_true(mapping_perms(site_addr(e), perms));
		if (strcmp(perms, "r-xp") != 0)
			print_error("site %p of %s is in a %s mapping\n",
				    (const void *)site_addr(e), tp__jump_key(e)->name, perms);
		assert_string_equal(perms, "r-xp");
	}
}
#endif

static void test_every_site_of_a_disabled_tracepoint_is_idle_after_startup(void **state)
{
	(void)state;
	SKIP_UNLESS_STATIC_KEYS();
#if TRACEPOINT_STATIC_KEYS
	print_message("%d sites of tp_stress_hot, %d of tp_stress_steady, %d in all\n",
		      nsites(&__tracepoint_tp_stress_hot), nsites(&__tracepoint_tp_stress_steady),
		      (int)(__stop_tp__jump - __start_tp__jump));
	/* -O0 keeps one out-of-line trace_tp_stress_hot(): one site only */
	assert_true(nsites(&__tracepoint_tp_stress_hot) >= 1);
	assert_true(nsites(&__tracepoint_tp_stress_steady) >= 1);
	for (const struct tp__jump_entry *e = __start_tp__jump; e < __stop_tp__jump; e++) {
		assert_false(tracepoint_enabled(tp__jump_key(e)));
		assert_int_equal(site_state(e), SITE_IDLE);
	}
	assert_text_pages_not_writable();
#endif
}

static void test_attaching_turns_every_site_into_a_jump_to_its_slow_path_and_detaching_idles_them_again(
	void **state)
{
	(void)state;
	SKIP_UNLESS_STATIC_KEYS();
#if TRACEPOINT_STATIC_KEYS
	{
		int ctx, ctx2;
		int n = nsites(&__tracepoint_tp_stress_hot),
		    m = nsites(&__tracepoint_tp_stress_steady);
		hits = 0;
		fire_hot_1(0);
		fire_hot_2(0);
		assert_int_equal(hits, 0);
		assert_int_equal(register_trace_tp_stress_hot(probe, &ctx), 0);
		assert_all_sites(&__tracepoint_tp_stress_hot, 0, n);
		assert_all_sites(&__tracepoint_tp_stress_steady, m, 0); /* untouched */
		assert_text_pages_not_writable();
		fire_hot_1(0);
		fire_hot_2(0);
		fire_steady(0);
		assert_int_equal(hits, 3);
		/* a second probe changes nothing in the code */
		assert_int_equal(register_trace_tp_stress_hot(probe, &ctx2), 0);
		assert_all_sites(&__tracepoint_tp_stress_hot, 0, n);
		assert_int_equal(unregister_trace_tp_stress_hot(probe, &ctx), 0);
		assert_all_sites(&__tracepoint_tp_stress_hot, 0, n);
		/* the last one idles every site */
		assert_int_equal(unregister_trace_tp_stress_hot(probe, &ctx2), 0);
		assert_all_sites(&__tracepoint_tp_stress_hot, n, 0);
		assert_all_sites(&__tracepoint_tp_stress_steady, m, 0);
		assert_text_pages_not_writable();
		tracepoint_synchronize_unregister();
		hits = 0;
		fire_hot_1(0);
		fire_hot_2(0);
		assert_int_equal(hits, 0);
		/* both tracepoints on, then off in the other order */
		assert_int_equal(register_trace_tp_stress_hot(probe, &ctx), 0);
		assert_int_equal(register_trace_tp_stress_steady(probe, &ctx), 0);
		assert_all_sites(&__tracepoint_tp_stress_hot, 0, n);
		assert_all_sites(&__tracepoint_tp_stress_steady, 0, m);
		assert_int_equal(unregister_trace_tp_stress_hot(probe, &ctx), 0);
		assert_all_sites(&__tracepoint_tp_stress_hot, n, 0);
		assert_all_sites(&__tracepoint_tp_stress_steady, 0, m);
		assert_int_equal(unregister_trace_tp_stress_steady(probe, &ctx), 0);
		assert_all_sites(&__tracepoint_tp_stress_steady, m, 0);
		assert_text_pages_not_writable();
	}
#endif
}

/* Sanitizers put their own code after the site of fire_hot_1. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
	__has_feature(undefined_behavior_sanitizer)
#define SANITIZED 1
#endif
#endif

/* A site in tail position (fire_hot_1 at -O2) has a slow path that is
 * one jump to the dispatch: enabled, the site jumps there itself. */
static void test_a_site_whose_slow_path_is_a_jump_jumps_straight_to_its_destination(void **state)
{
	(void)state;
	SKIP_UNLESS_STATIC_KEYS();
#if TRACEPOINT_STATIC_KEYS
	{
		int ctx, round, threaded = 0;
		for (round = 0; round < 2; round++) {
			hits = 0;
			assert_int_equal(register_trace_tp_stress_hot(probe, &ctx), 0);
			assert_int_equal(register_trace_tp_stress_steady(probe, &ctx), 0);
			threaded = 0;
			for (const struct tp__jump_entry *e = __start_tp__jump; e < __stop_tp__jump;
			     e++) {
				const unsigned char *via = jump_dest(target_addr(e));
				uintptr_t in_page = (uintptr_t)site_addr(e) &
						    (uintptr_t)(sysconf(_SC_PAGESIZE) - 1);
				if (!via || (SITE_BYTES == 5 &&
					     in_page > (uintptr_t)sysconf(_SC_PAGESIZE) - 5))
					continue;
				assert_ptr_equal(jump_dest(site_addr(e)), via);
				threaded++;
			}
			fire_hot_1(0);
			fire_steady(0);
			assert_int_equal(hits, 2);
			assert_int_equal(unregister_trace_tp_stress_hot(probe, &ctx), 0);
			assert_int_equal(unregister_trace_tp_stress_steady(probe, &ctx), 0);
			tracepoint_synchronize_unregister();
			fire_hot_1(0);
			assert_int_equal(hits, 2);
		}
		print_message("%d sites jump straight to their slow path's destination\n",
			      threaded);
#if defined(__OPTIMIZE__) && !defined(SANITIZED)
		assert_true(threaded >= 1); /* fire_hot_1 */
#endif
	}
#endif
}

static void test_thousand_flips_leave_every_site_idle_and_every_page_read_exec(void **state)
{
	(void)state;
	SKIP_UNLESS_STATIC_KEYS();
#if TRACEPOINT_STATIC_KEYS
	int ctx;
	hits = 0;
	for (int i = 0; i < 1000; i++) {
		assert_int_equal(register_trace_tp_stress_hot(probe, &ctx), 0);
		fire_hot_1(i);
		assert_int_equal(unregister_trace_tp_stress_hot(probe, &ctx), 0);
		fire_hot_1(i);
	}
	tracepoint_synchronize_unregister();
	assert_int_equal(hits, 1000);
	assert_all_sites(&__tracepoint_tp_stress_hot, nsites(&__tracepoint_tp_stress_hot), 0);
	assert_text_pages_not_writable();
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(
			test_every_site_of_a_disabled_tracepoint_is_idle_after_startup, reset),
		cmocka_unit_test_teardown(
			test_attaching_turns_every_site_into_a_jump_to_its_slow_path_and_detaching_idles_them_again,
			reset),
		cmocka_unit_test_teardown(
			test_a_site_whose_slow_path_is_a_jump_jumps_straight_to_its_destination,
			reset),
		cmocka_unit_test_teardown(
			test_thousand_flips_leave_every_site_idle_and_every_page_read_exec, reset),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
