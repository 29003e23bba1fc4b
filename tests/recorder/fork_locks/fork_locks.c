/* fork() against every operation that takes a lock of the core or the
 * recorder, for tests/recorder/t_fork_locks.sh.  Usage:
 *   fork_locks FORKS SECONDS MODE PLUGIN
 * MODE is stream or flight; PLUGIN a shared library with tracepoints of
 * its own (dlopen()ed and dlclose()d in a loop).  Other threads, all the
 * time: enable and disable by pattern, with and without a field filter;
 * attach and detach a probe of our own; flush (and snapshot, in flight
 * mode); list every tracepoint; record from threads that start, record and
 * exit.  The main thread forks FORKS times (or until SECONDS have passed):
 * in the first half, each child records, enables, disables and exits; in
 * the second half another thread also dlopen()s and dlclose()s the plugin,
 * and each child records and ends by _exit().  (Not enable, nor exit():
 * glibc 2.36 leaves the loader's dl_iterate_phdr() lock and its atexit
 * list's lock held in a child forked while another thread was inside
 * dlopen() or dlclose(), so that any walk of the modules in such a child
 * hangs, ours, backtrace()'s or the unwinder's alike, and so does its
 * exit(); docs/design.md#fork.)  In the first half, one child in two ends
 * by exit() (destructors), the other by _exit().
 * A watchdog in each process reports a hang: the parent prints "HANG" and
 * exits 3; a hung child is killed by SIGALRM, which the parent counts.
 * The control channel (TRACEPOINTS_CONTROL=1) is driven from outside, by
 * the script.  Prints "forks N child-hangs H child-failures F". */
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CREATE_TRACE_POINTS
#include "events/ev_hook.h"
#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>

int (*evh_hook)(int v);

enum { FL_WATCHDOG_S = 20 };

static int fl_stop;    /* atomics: read by every thread */
static int fl_loading; /* the second half: the plugin comes and goes */
static int fl_forks;
static const char *fl_plugin;
static int fl_flight;

static void fl_on_alarm(int sig)
{
	char b[96];
	int n = snprintf(b, sizeof(b), "HANG: the parent is stuck after %d forks\n",
			 __atomic_load_n(&fl_forks, __ATOMIC_RELAXED));
	(void)sig;
	if (write(2, b, (size_t)n) < 0) {
		/* nothing else to do */
	}
	_exit(3);
}

static void *fl_enabler(void *a)
{
	(void)a;
	while (!__atomic_load_n(&fl_stop, __ATOMIC_RELAXED)) {
		tracepoint_enable("evh:*");
		tracepoint_filter("evh:evh_step", "v > 3", NULL, 0);
		tracepoint_disable("evh:evh_step");
		tracepoint_filter("evh:evh_step", NULL, NULL, 0);
		tracepoint_enable("evh:evh_step,plug:*");
		tracepoint_disable("evh:*,plug:*");
	}
	return NULL;
}

static void fl_probe(int v, void *data)
{
	(void)v;
	__atomic_add_fetch((int *)data, 1, __ATOMIC_RELAXED);
}

static void *fl_attacher(void *a)
{
	static int hits;
	(void)a;
	while (!__atomic_load_n(&fl_stop, __ATOMIC_RELAXED)) {
		register_trace_evh_step(fl_probe, &hits);
		unregister_trace_evh_step(fl_probe, &hits);
	}
	return NULL;
}

static void *fl_short_lived(void *a)
{
	int i;
	(void)a;
	for (i = 0; i < 100; i++)
		trace_evh_step(i);
	return NULL;
}

static void *fl_recorder(void *a)
{
	(void)a;
	while (!__atomic_load_n(&fl_stop, __ATOMIC_RELAXED)) {
		pthread_t t;
		trace_evh_step(1);
		if (pthread_create(&t, NULL, fl_short_lived, NULL) == 0)
			pthread_join(t, NULL);
	}
	return NULL;
}

static void *fl_flusher(void *a)
{
	(void)a;
	while (!__atomic_load_n(&fl_stop, __ATOMIC_RELAXED)) {
		tracepoint_flush();
		if (fl_flight)
			tracepoint_snapshot();
		usleep(1000);
	}
	return NULL;
}

static int fl_count(const struct tracepoint_info *info, void *priv)
{
	(void)info;
	++*(int *)priv;
	return 0;
}

static void *fl_lister(void *a)
{
	(void)a;
	while (!__atomic_load_n(&fl_stop, __ATOMIC_RELAXED)) {
		int n = 0;
		tracepoint_list(fl_count, &n);
	}
	return NULL;
}

static void *fl_loader(void *a)
{
	(void)a;
	while (!__atomic_load_n(&fl_stop, __ATOMIC_RELAXED) &&
	       !__atomic_load_n(&fl_loading, __ATOMIC_RELAXED))
		usleep(1000);
	while (!__atomic_load_n(&fl_stop, __ATOMIC_RELAXED)) {
		void *h = dlopen(fl_plugin, RTLD_NOW | RTLD_LOCAL);
		void (*run)(int);
		if (!h) {
			fprintf(stderr, "dlopen %s: %s\n", fl_plugin, dlerror());
			exit(2);
		}
		*(void **)(&run) = dlsym(h, "plug_run");
		if (run)
			run(1);
		dlclose(h);
	}
	return NULL;
}

/* The child: one thread of its own; every lock it may need is usable. */
static void fl_child(int k)
{
	alarm(FL_WATCHDOG_S);
	trace_evh_step(k);
	if (!__atomic_load_n(&fl_loading, __ATOMIC_RELAXED)) {
		tracepoint_enable("evh:evh_step");
		trace_evh_step(k + 1);
		tracepoint_disable("evh:evh_step");
	}
	if ((k & 1) && !__atomic_load_n(&fl_loading, __ATOMIC_RELAXED))
		exit(0);
	_exit(0);
}

int main(int argc, char **argv)
{
	void *(*const work[])(void *) = { fl_enabler, fl_attacher, fl_recorder,
					  fl_flusher, fl_lister,   fl_loader };
	enum { NWORK = sizeof(work) / sizeof(work[0]) };
	pthread_t t[NWORK];
	int forks, seconds, hangs = 0, failures = 0, i;
	time_t end;
	if (argc != 5) {
		fprintf(stderr, "usage: fork_locks FORKS SECONDS stream|flight PLUGIN\n");
		return 2;
	}
	forks = atoi(argv[1]);
	seconds = atoi(argv[2]);
	fl_flight = strcmp(argv[3], "flight") == 0;
	fl_plugin = argv[4];
	if ((i = tracepoint_output(argv[3], NULL)) != 0) {
		fprintf(stderr, "tracepoint_output(\"%s\"): %s\n", argv[3], strerror(-i));
		return 2;
	}
	signal(SIGALRM, fl_on_alarm);
	for (i = 0; i < NWORK; i++)
		if (pthread_create(&t[i], NULL, work[i], NULL) != 0)
			return 2;
	end = time(NULL) + seconds;
	for (i = 0; i < forks && time(NULL) < end; i++) {
		int st;
		pid_t p;
		alarm(FL_WATCHDOG_S);
		if (i == forks / 2 || time(NULL) >= end - seconds / 2)
			__atomic_store_n(&fl_loading, 1, __ATOMIC_RELAXED);
		p = fork();
		if (p < 0) {
			perror("fork");
			return 2;
		}
		if (p == 0)
			fl_child(i);
		while (waitpid(p, &st, 0) < 0)
			;
		if (WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM) {
			hangs++;
		} else if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
			failures++;
			fprintf(stderr, "child %d (fork %d%s): %s %d\n", (int)p, i,
				__atomic_load_n(&fl_loading, __ATOMIC_RELAXED) ? ", plugin loading"
									       : "",
				WIFSIGNALED(st) ? "signal" : "exit status",
				WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
		}
		__atomic_store_n(&fl_forks, i + 1, __ATOMIC_RELAXED);
	}
	alarm(FL_WATCHDOG_S);
	__atomic_store_n(&fl_stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < NWORK; i++)
		pthread_join(t[i], NULL);
	alarm(0);
	printf("forks %d child-hangs %d child-failures %d\n",
	       __atomic_load_n(&fl_forks, __ATOMIC_RELAXED), hangs, failures);
	return hangs || failures;
}
