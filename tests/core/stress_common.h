/* Helpers for the robustness tests: clock, durations (TP_STRESS_SECONDS), and a
 * watchdog that names the stuck test instead of hanging `make check`. */
#ifndef STRESS_COMMON_H
#define STRESS_COMMON_H

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/types.h>
#include <sys/wait.h>

static inline double st_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static inline void st_sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) != 0)
		;
}

/* How long one stress phase runs: `dflt` seconds under `make check`, or
 * TP_STRESS_SECONDS (set by `make stress`). */
static inline double st_seconds(double dflt)
{
	const char *s = getenv("TP_STRESS_SECONDS");
	double v = s ? atof(s) : 0;
	return v > 0 ? v : dflt;
}

/* Watchdog thread: st_watch(name, seconds) arms it for the current test; if
 * the test is still running when it expires, the process prints the test's
 * name and exits 1 (a deadlock is a failure, not a hang).  st_watch(NULL, 0)
 * disarms it.  A thread, not alarm(): some tests use SIGALRM themselves. */
static const char *volatile st_watch_name;
static long long st_watch_deadline_ms;
static int st_watch_started;

static void *st_watch_thread(void *arg)
{
	(void)arg;
	for (;;) {
		const char *n;
		st_sleep_ms(50);
		n = __atomic_load_n(&st_watch_name, __ATOMIC_ACQUIRE);
		if (n && st_now() * 1000 >
				 (double)__atomic_load_n(&st_watch_deadline_ms, __ATOMIC_ACQUIRE)) {
			fprintf(stderr, "\nWATCHDOG: test hung (deadlock?): %s\n", n);
			fflush(stderr);
			_exit(1);
		}
	}
	return NULL;
}

static inline void st_watch(const char *name, double seconds)
{
	if (!st_watch_started) {
		pthread_t th;
		sigset_t all, old;
		st_watch_started = 1;
		sigfillset(&all); /* signals used by the tests go elsewhere */
		pthread_sigmask(SIG_SETMASK, &all, &old);
		pthread_create(&th, NULL, st_watch_thread, NULL);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		pthread_detach(th);
	}
	__atomic_store_n(&st_watch_deadline_ms, (long long)((st_now() + seconds) * 1000),
			 __ATOMIC_RELEASE);
	__atomic_store_n(&st_watch_name, name, __ATOMIC_RELEASE);
}

/* Runs fn() in a forked child and waits at most `seconds` for it.  Returns
 * the child's exit status, or -1 if it had to be killed (it hung).  Lets a
 * test that may deadlock fail on its own while the others still run. */
static inline int st_run_forked(void (*fn)(void), double seconds)
{
	pid_t pid = fork();
	double t0 = st_now();
	int status;
	if (pid == 0) {
		fn();
		_exit(0);
	}
	if (pid < 0)
		return -2;
	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);
		if (r == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
		if (st_now() - t0 > seconds) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			return -1;
		}
		st_sleep_ms(10);
	}
}

#endif /* STRESS_COMMON_H */
