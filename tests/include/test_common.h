/* Shared helpers for the cmocka unit tests (includes cmocka in the order it needs). */
#ifndef TEST_COMMON_H
#define TEST_COMMON_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <unistd.h>
#include <cmocka.h>

#include <tracepoint.h>

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* 1 when built with -fsanitize=thread (gcc or clang). */
#if defined(__SANITIZE_THREAD__)
#define TP_UNDER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TP_UNDER_TSAN 1
#endif
#endif
#ifndef TP_UNDER_TSAN
#define TP_UNDER_TSAN 0
#endif

/* tracepoint_probe_for_each callbacks: count the probes (priv: a size_t);
 * detach each one from the tracepoint priv points at (stops at a failure). */
static inline int tp_test_count_cb(tracepoint_func_t probe, void *data, int prio, void *priv)
{
	(void)probe;
	(void)data;
	(void)prio;
	++*(size_t *)priv;
	return 0;
}

static inline int tp_test_detach_cb(tracepoint_func_t probe, void *data, int prio, void *priv)
{
	(void)prio;
	return tracepoint_probe_unregister((struct tracepoint *)priv, probe, data) != 0;
}

/* How many probes are attached to tp. */
static inline size_t tp_test_probes(struct tracepoint *tp)
{
	size_t n = 0;
	tracepoint_probe_for_each(tp, tp_test_count_cb, &n);
	return n;
}

/* Detaches every probe still attached to tp, so that a failed test (cmocka
 * longjmps out of it) does not leak probes into the next one.  Use it as a
 * cmocka teardown through a small wrapper. */
static inline void tp_test_detach_all(struct tracepoint *tp)
{
	while (tp_test_probes(tp) && tracepoint_probe_for_each(tp, tp_test_detach_cb, tp) == 0)
		;
	tracepoint_synchronize_unregister();
}

/* Kills the test binary with SIGALRM if it hangs (e.g. a deadlock). */
static inline void tp_test_watchdog(unsigned seconds)
{
	alarm(seconds);
}

#endif /* TEST_COMMON_H */
