/* A program whose life is eventful, for tests/recorder/t_recorder_life.sh.  What it
 * records is decided by TRACEPOINTS*; what it does by argv[1]:
 *   fork    10 events, 3 children that record 5 each and exit, 10 more
 *   exec    10 events, then exec()s itself as "exec2" (records 7 events)
 *   signal  a thread whose first event is fired by a signal handler
 *   ctor    events from a constructor, a destructor and an atexit handler
 *   flight  100000 events, raise(SIGUSR2) (a snapshot, if so configured),
 *           then 10 more
 *   many N  N events (0, 1, 2...), then exit; N < 0: until killed
 *   paced   events until killed, 10 every 100 us (a trace of a few
 *           hundred thousand events per second at most)
 *   exit WHO US   4 threads record without pause; after US microseconds
 *           "result 42" goes to stdout (buffered when it is a file) and
 *           WHO ("main" or "worker": one of the four) calls exit(0)
 * Every event is evh_step(v) with v telling where it came from. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define CREATE_TRACE_POINTS
#include "events/ev_hook.h"
#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>

int (*evh_hook)(int v);

static void many(int base, int n)
{
	int i;
	for (i = 0; i < n; i++)
		trace_evh_step(base + i);
}

/* "exit": threads that record until the process ends. */
static int exit_worker; /* 1: the first worker calls exit() */
static long exit_after_us;

static void *recording_thread(void *arg)
{
	int k = (int)(long)arg, i;
	if (k == 0 && exit_worker) {
		for (i = 0; i < 1000; i++)
			trace_evh_step(i);
		usleep((useconds_t)exit_after_us);
		printf("result 42\n");
		exit(0);
	}
	for (i = 0;; i++)
		trace_evh_step(k * 100000000 + (i % 100000000));
	return NULL;
}

static volatile int got_signal;
static void on_signal(int sig)
{
	(void)sig;
	trace_evh_step(7000); /* this thread's very first event */
	got_signal = 1;
}

static void *quiet_thread(void *arg)
{
	(void)arg;
	while (!got_signal)
		usleep(1000);
	trace_evh_step(7001);
	return NULL;
}

/* Only for "ctor" (LIFE_CTOR set: argv is not at hand here). */
__attribute__((constructor)) static void ctor(void)
{
	if (getenv("LIFE_CTOR"))
		trace_evh_step(9001);
}

__attribute__((destructor)) static void dtor(void)
{
	if (getenv("LIFE_CTOR"))
		trace_evh_step(9003);
}

static void at_exit(void)
{
	trace_evh_step(9002);
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";
	int i;
	if (strcmp(what, "fork") == 0) {
		many(1000, 10);
		for (i = 0; i < 3; i++) {
			pid_t pid = fork();
			if (pid == 0) {
				many(2000 + 100 * i, 5);
				exit(0);
			}
			waitpid(pid, NULL, 0);
		}
		many(1010, 10);
	} else if (strcmp(what, "exec") == 0) {
		many(3000, 10);
		fflush(NULL);
		execl("/proc/self/exe", argv[0], "exec2", (char *)NULL);
		return 1;
	} else if (strcmp(what, "exec2") == 0) {
		many(4000, 7);
	} else if (strcmp(what, "signal") == 0) {
		pthread_t t;
		signal(SIGUSR1, on_signal);
		pthread_create(&t, NULL, quiet_thread, NULL);
		usleep(10000);
		pthread_kill(t, SIGUSR1);
		pthread_join(t, NULL);
	} else if (strcmp(what, "flight") == 0) {
		many(0, 100000);
		raise(SIGUSR2);
		many(100000, 10);
	} else if (strcmp(what, "many") == 0 && argc > 2) {
		long n = atol(argv[2]), k;
		for (k = 0; n < 0 || k < n; k++)
			trace_evh_step((int)k);
	} else if (strcmp(what, "paced") == 0) {
		for (i = 0;; i++) {
			trace_evh_step(i);
			if (i % 10 == 9)
				usleep(100);
		}
	} else if (strcmp(what, "exit") == 0 && argc > 3) {
		pthread_t t;
		long k;
		exit_worker = strcmp(argv[2], "worker") == 0;
		exit_after_us = atol(argv[3]);
		for (k = 0; k < 4; k++)
			if (pthread_create(&t, NULL, recording_thread, (void *)k) != 0)
				return 1;
		if (exit_worker)
			pause(); /* until the worker's exit() */
		usleep((useconds_t)exit_after_us);
		printf("result 42\n");
		exit(0);
	} else if (strcmp(what, "ctor") == 0) {
		atexit(at_exit);
		trace_evh_step(9000);
	}
	return 0;
}
