/* hist_mt.c - a hist trigger under threads, timed (bench/hist-mt.sh runs it).
 * The event is bench/hist_record.c's, trace_evf_three(int, unsigned long,
 * long long), aggregated by 'evf:evf_three hist:keys=b:vals=c' (one u64
 * key, one sum); nothing is recorded.
 *
 * usage: hist_mt pairs N T R [off]   R rounds of: N events on one thread
 *                alone, then N on each of T threads at once (one trigger,
 *                keys 0..63 in each thread); prints the medians of ns per
 *                event alone, of each thread together, and of the
 *                per-round ratio.  "off": no trigger (the tracepoint is
 *                idle): the machine's own slowdown for the same loop.
 *        hist_mt read R K T  T threads fire events with K keys (the
 *                table's size is K) without pause while the main thread
 *                reads the table R times (trace_recorder_hist_text); prints
 *                the median and the largest read in microseconds and the
 *                entries of the last read.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CONFIG_EVF 1
#define CREATE_TRACE_POINTS
#include "events/ev_fields.h"
#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>

enum { MAX_THREADS = 16, MAX_ROUNDS = 4096 };

static unsigned long key_mask = 63; /* keys 0..key_mask, with 2^n keys */

__attribute__((noinline)) static void fire(long i)
{
	trace_evf_three((int)i, (unsigned long)i & key_mask, (long long)i * 3);
}

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static double timed_loop(long n)
{
	double t0 = now_ns();
	long i;
	for (i = 0; i < n; i++)
		fire(i);
	return (now_ns() - t0) / (double)n;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* ---- pairs: one thread alone, then T together, round after round (a
 * VM's slow phases last longer than a round, so both halves of a round see
 * the same machine). ---- */
static long mt_n;
static int mt_t, mt_arrived;
static pthread_barrier_t mt_go, mt_done;
static double mt_ns[MAX_THREADS];

static void start_line(int gen)
{
	__atomic_add_fetch(&mt_arrived, 1, __ATOMIC_ACQ_REL);
	while (__atomic_load_n(&mt_arrived, __ATOMIC_ACQUIRE) < gen * mt_t)
		__asm__ volatile("" ::: "memory");
}

static void *mt_thread(void *arg)
{
	int me = (int)(long)arg, gen = 0;
	fire(-1); /* claims its table outside the timed part */
	for (;;) {
		pthread_barrier_wait(&mt_go);
		if (mt_n == 0)
			return NULL;
		start_line(++gen);
		mt_ns[me] = timed_loop(mt_n);
		pthread_barrier_wait(&mt_done);
	}
}

static int run_pairs(long n, int t, int rounds)
{
	pthread_t th[MAX_THREADS];
	static double alone[MAX_ROUNDS], together[MAX_ROUNDS], ratio[MAX_ROUNDS];
	int i, r;
	if (t < 1 || t > MAX_THREADS || rounds < 1 || rounds > MAX_ROUNDS)
		return 2;
	mt_n = n;
	mt_t = t;
	pthread_barrier_init(&mt_go, NULL, (unsigned)t);
	pthread_barrier_init(&mt_done, NULL, (unsigned)t);
	for (i = 1; i < t; i++)
		if (pthread_create(&th[i], NULL, mt_thread, (void *)(long)i) != 0)
			return 1;
	timed_loop(n); /* warm up, and claims this thread's table */
	for (r = 0; r < rounds; r++) {
		double sum = 0;
		alone[r] = timed_loop(n); /* the other threads wait */
		pthread_barrier_wait(&mt_go);
		start_line(r + 1);
		mt_ns[0] = timed_loop(n);
		pthread_barrier_wait(&mt_done);
		for (i = 0; i < t; i++)
			sum += mt_ns[i];
		together[r] = sum / t;
		ratio[r] = together[r] / alone[r];
	}
	mt_n = 0;
	pthread_barrier_wait(&mt_go);
	for (i = 1; i < t; i++)
		pthread_join(th[i], NULL);
	qsort(alone, (size_t)rounds, sizeof(double), cmp_double);
	qsort(together, (size_t)rounds, sizeof(double), cmp_double);
	qsort(ratio, (size_t)rounds, sizeof(double), cmp_double);
	printf("%.3f %.3f %.4f\n", alone[rounds / 2], together[rounds / 2], ratio[rounds / 2]);
	return 0;
}

/* ---- read: the table read while threads fill it ---- */
static int rd_stop;

static void *rd_thread(void *arg)
{
	long i = (long)arg;
	while (!__atomic_load_n(&rd_stop, __ATOMIC_RELAXED))
		fire(i++);
	return NULL;
}

static int run_read(int reads, unsigned long keys, int t)
{
	pthread_t th[MAX_THREADS];
	static double us[MAX_ROUNDS];
	unsigned entries = 0;
	int i, r;
	if (reads < 1 || reads > MAX_ROUNDS || t < 1 || t > MAX_THREADS)
		return 2;
	key_mask = keys - 1;
	for (i = 0; i < t; i++)
		if (pthread_create(&th[i], NULL, rd_thread, (void *)(long)(i * 7919)) != 0)
			return 1;
	{ /* until every key is in */
		struct timespec ms = { 0, 20000000 };
		nanosleep(&ms, NULL);
	}
	for (r = 0; r < reads; r++) {
		double t0 = now_ns();
		char *txt = trace_recorder_hist_text("evf:evf_three");
		us[r] = (now_ns() - t0) / 1e3;
		if (!txt)
			return 1;
		if (r == reads - 1) {
			const char *e = strstr(txt, "Entries: ");
			entries = e ? (unsigned)strtoul(e + 9, NULL, 10) : 0;
		}
		free(txt);
	}
	__atomic_store_n(&rd_stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < t; i++)
		pthread_join(th[i], NULL);
	qsort(us, (size_t)reads, sizeof(double), cmp_double);
	printf("%.1f %.1f %u\n", us[reads / 2], us[reads - 1], entries);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 5 && !strcmp(argv[1], "pairs")) {
		if (!(argc > 5 && !strcmp(argv[5], "off")) &&
		    trace_recorder_enable("evf:evf_three hist:keys=b:vals=c") != 1)
			return 1;
		return run_pairs(atol(argv[2]), atoi(argv[3]), atoi(argv[4]));
	}
	if (argc >= 5 && !strcmp(argv[1], "read")) {
		char spec[128];
		unsigned long k = strtoul(argv[3], NULL, 10);
		if (k < 2 || (k & (k - 1))) {
			fprintf(stderr, "K: a power of two\n");
			return 2;
		}
		snprintf(spec, sizeof(spec), "evf:evf_three hist:keys=b:vals=c:size=%lu", k);
		if (trace_recorder_enable(spec) != 1)
			return 1;
		return run_read(atoi(argv[2]), k, atoi(argv[4]));
	}
	fprintf(stderr, "usage: hist_mt pairs N T R [off] | read R K T\n");
	return 2;
}
