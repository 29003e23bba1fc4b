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

/* Detaches every probe still attached to tp, so that a failed test (cmocka
 * longjmps out of it) does not leak probes into the next one.  Use it as a
 * cmocka teardown through a small wrapper. */
static inline void tp_test_detach_all(struct tracepoint *tp)
{
	const struct tracepoint_probe *p;
	while ((p = __atomic_load_n(&tp->funcs, __ATOMIC_ACQUIRE)) != NULL && p[0].func)
		if (tracepoint_probe_unregister(tp, p[0].func, p[0].data) != 0)
			break;
	tracepoint_synchronize_unregister();
}

/* Kills the test binary with SIGALRM if it hangs (e.g. a deadlock). */
static inline void tp_test_watchdog(unsigned seconds)
{
	alarm(seconds);
}

#endif /* TEST_COMMON_H */
