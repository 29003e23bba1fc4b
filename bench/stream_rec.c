/* Sustained recording: argv[2] threads fire argv[1] events in all, as fast
 * as they can, into a trace on disk; prints "<events> <seconds>" (wall
 * time from the first thread's start to the last one's end).
 *   built as is:     our recorder, trace in argv[3] (trace_evf_three), in
 *                    mode argv[4] (stream, the default, or flight)
 *   with -DV_LTTNG:  LTTng-UST's bench_prov:bench_ev, recorded by whatever
 *                    session is running (bench/stream.sh starts one)
 * Both events carry an int and two 64-bit integers. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifdef V_LTTNG
#include "lttng_tp.h"
#define FIRE(i) lttng_ust_tracepoint(bench_prov, bench_ev, (int)(i), (long)(i) * 2, (const void *)(i))
#else
#define CONFIG_EVF 1
#define CREATE_TRACE_POINTS
#include "events/ev_fields.h"
#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>
#define FIRE(i) trace_evf_three((int)(i), (unsigned long)(i) * 2, (long long)(i) * 3)
#endif

static long per_thread;

static void *worker(void *arg)
{
	long i;
	(void)arg;
	for (i = 0; i < per_thread; i++)
		FIRE(i);
	return NULL;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10000000;
	int t, threads = argc > 2 ? atoi(argv[2]) : 1;
	pthread_t th[64];
	struct timespec a, b;
	if (threads < 1 || threads > 64)
		return 2;
#ifndef V_LTTNG
	if (argc < 4 || trace_recorder_output(argc > 4 ? argv[4] : "stream", argv[3]) != 0 ||
	    trace_recorder_enable("evf:evf_three") != 1)
		return 1;
#endif
	per_thread = n / threads;
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (t = 0; t < threads; t++)
		pthread_create(&th[t], NULL, worker, NULL);
	for (t = 0; t < threads; t++)
		pthread_join(th[t], NULL);
	clock_gettime(CLOCK_MONOTONIC, &b);
#ifndef V_LTTNG
	if (trace_recorder_dropped())
		fprintf(stderr, "stream_rec: %llu dropped\n", trace_recorder_dropped());
#endif
	printf("%ld %.6f\n", per_thread * threads,
	       (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9);
	return 0;
}
