/* The hist trigger tests' program (tests/recorder/t_hist.sh): THREADS
 * threads (argv[1], default 4) each fire ROUNDS (argv[2], default 3000)
 * hst_op and hst_named events with values that depend only on the round
 * (thread t named hst-wT);
 * with argv[3] = "fork", a forked child fires its own share too.  With
 * HST_LIVE set, main reads trace_recorder_hist_text(HST_LIVE) while the
 * threads run, and prints it at the end, before exit.  With HST_READY and HST_GO set (file names), main creates
 * the first once the threads are done and waits (at most 20 s) for the
 * second to exist: the control channel's `hist` reads the live table
 * meanwhile (and, with HST_AFTER set, main fires ROUNDS events more
 * before and after, for the triggers the control channel adds or clears;
 * in "req" mode it starts ROUNDS requests before and ends them after).
 * With argv[3] = "req", each thread starts ROUNDS requests
 * (hst_req_start, ids t * ROUNDS + i, kind i % 3), all wait for each other
 * and 2 ms, then each ends the requests of the next thread (hst_req_end)
 * and ROUNDS / 10 that never started, and runs 20 slices hst_work (kind
 * i % 2, 1 or 2 ms long). */
#define CREATE_TRACE_POINTS
#include "hst_events.h"
#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static int rounds = 3000;

/* Two functions whose addresses (+ 0, 1 or 2) hst_site carries: built
 * with -rdynamic, .sym names them. */
void hst_site_a(int i);
void hst_site_b(int i);
__attribute__((noinline)) void hst_site_a(int i)
{
	trace_hst_site((unsigned long)(uintptr_t)&hst_site_a + (unsigned long)(i % 3));
}
__attribute__((noinline)) void hst_site_b(int i)
{
	trace_hst_site((unsigned long)(uintptr_t)&hst_site_b + (unsigned long)(i % 3));
}

static void fire(int t, int n)
{
	static const char *const names[] = { "alpha", "beta", "gamma",
					     "a-much-longer-name-than-the-rest" };
	static const char *const tags[] = { "read", "write", "sync" };
	int i;
	for (i = 0; i < n; i++) {
		unsigned long bytes = (unsigned long)((i * 7 + t * 3) % 1000);
		long lat = (long)((i * 13) % 5000) - 100;
		trace_hst_op(i % 5, bytes, lat, (unsigned char)(i % 256), tags[(i + t) % 3]);
		trace_hst_named(names[(i + t) % 4], (unsigned)i);
		trace_hst_bench((unsigned long)(i % 16), (unsigned long)i);
		if (i % 4)
			hst_site_a(i);
		else
			hst_site_b(i);
	}
}

static int threads = 4, req;
static pthread_barrier_t started;

static void requests(int t)
{
	unsigned long next = (unsigned long)((t + 1) % threads) * (unsigned long)rounds;
	struct timespec ms = { 0, 1000000 };
	int i;
	for (i = 0; i < rounds; i++)
		trace_hst_req_start((unsigned long)t * (unsigned long)rounds + (unsigned long)i,
				    i % 3);
	pthread_barrier_wait(&started);
	ms.tv_nsec = 2000000;
	nanosleep(&ms, NULL);
	for (i = 0; i < rounds; i++)
		trace_hst_req_end(next + (unsigned long)i);
	for (i = 0; i < rounds / 10; i++)
		trace_hst_req_end(1000000000ul + (unsigned long)i);
	for (i = 0; i < 20; i++) {
		trace_hst_work_begin(i % 2);
		ms.tv_nsec = 1000000 * (1 + i % 2);
		nanosleep(&ms, NULL);
		trace_hst_work_end(i % 2);
	}
}

static void *worker(void *arg)
{
	char name[16];
	snprintf(name, sizeof(name), "hst-w%d", (int)(long)arg); /* for .execname */
	prctl(PR_SET_NAME, name);
	if (req)
		requests((int)(long)arg);
	else
		fire((int)(long)arg, rounds);
	return NULL;
}

int main(int argc, char **argv)
{
	int i;
	pthread_t th[64];
	const char *live = getenv("HST_LIVE");
	if (argc > 1)
		threads = atoi(argv[1]);
	if (argc > 2)
		rounds = atoi(argv[2]);
	if (threads > 64 || threads < 1)
		threads = threads < 1 ? 1 : 64;
	req = argc > 3 && !strcmp(argv[3], "req");
	pthread_barrier_init(&started, NULL, (unsigned)threads);
	for (i = 0; i < threads; i++)
		pthread_create(&th[i], NULL, worker, (void *)(long)i);
	for (i = 0; live && i < 20; i++) /* read while the threads aggregate */
		free(trace_recorder_hist_text(live));
	for (i = 0; i < threads; i++)
		pthread_join(th[i], NULL);
	if (argc > 3 && !strcmp(argv[3], "fork")) {
		pid_t p = fork();
		if (p == 0) {
			fire(100, rounds / 2);
			exit(0);
		}
		waitpid(p, NULL, 0);
	}
	if (getenv("HST_READY") && getenv("HST_GO")) {
		FILE *f;
		if (getenv("HST_AFTER") && req) /* requests started before, ended after */
			for (i = 0; i < rounds; i++)
				trace_hst_req_start(2000000000ul + (unsigned long)i, i % 3);
		else if (getenv("HST_AFTER")) /* main's own table, before and after */
			fire(7, rounds);
		f = fopen(getenv("HST_READY"), "w");
		if (f)
			fclose(f);
		for (i = 0; i < 2000 && access(getenv("HST_GO"), F_OK) != 0; i++)
			usleep(10000);
		if (getenv("HST_AFTER") && req)
			for (i = 0; i < rounds; i++)
				trace_hst_req_end(2000000000ul + (unsigned long)i);
		else if (getenv("HST_AFTER")) /* for triggers the control channel added */
			fire(7, rounds);
	}
	if (live) {
		char *t = trace_recorder_hist_text(live);
		fputs(t ? t : "(null)\n", stdout);
		free(t);
	}
	return 0;
}
