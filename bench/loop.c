/*
 * loop.c - the loop benchmark.  One source, compiled once per variant:
 *   -DV_BASE        no tracepoint at all (baseline)
 *   -DV_OURS        trace_bench_ev() from bench_tp.h; with -DCONFIG_BENCH_TP=1
 *                   compiled in (add -DTRACEPOINT_PORTABLE for load+branch),
 *                   without it compiled out
 *   -DV_LTTNG       lttng_ust_tracepoint(bench_prov, bench_ev, ...)
 *   -DV_USDT        DTRACE_PROBE3(bench, ev, ...)
 *   -DV_USDT_SEM    if (bench_ev_semaphore) DTRACE_PROBE3(bench, ev, ...)
 *   -DV_FNPTR       a flag and a function pointer: the enabled path with no
 *                   read side at all (the floor an indirect call sets)
 *
 * usage: loop cg   N PROBES   run bench_loop(N) once (for callgrind)
 *        loop time N PROBES   warm up, then print ns per call of bench_loop(N)
 *        loop threads N PROBES T   T threads run bench_loop(N) at once, all
 *                             firing the same tracepoint; prints the mean
 *                             ns per call of one thread (wall time / N)
 *        loop sites           print the opcode of every static-key site
 * PROBES (0..4) empty probes are registered first (V_OURS compiled in only).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pthread.h>

#if defined(__has_attribute)
#if __has_attribute(noipa)
#define BENCH_NOINLINE __attribute__((noinline, noipa))
#endif
#endif
#ifndef BENCH_NOINLINE
#define BENCH_NOINLINE __attribute__((noinline))
#endif

#if defined(V_OURS)
#include "bench_tp.h"
#define FIRE(a, b, p) trace_bench_ev(a, b, p)
#elif defined(V_LTTNG)
#include "lttng_tp.h"
#define FIRE(a, b, p) lttng_ust_tracepoint(bench_prov, bench_ev, a, b, p)
#elif defined(V_USDT)
#include <sys/sdt.h>
#define FIRE(a, b, p) DTRACE_PROBE3(bench, ev, a, b, p)
#elif defined(V_USDT_SEM)
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>
__extension__ unsigned short bench_ev_semaphore __attribute__((section(".probes"), used));
#define FIRE(a, b, p)                                                          \
	do {                                                                   \
		if (__builtin_expect(bench_ev_semaphore, 0))                   \
			DTRACE_PROBE3(bench, ev, a, b, p);                      \
	} while (0)
#elif defined(V_FNPTR)
static void (*volatile bench_fn)(int, long, const void *, void *);
static volatile int bench_flag;
#define FIRE(a, b, p)                                                          \
	do {                                                                   \
		if (__builtin_expect(bench_flag, 0))                           \
			bench_fn(a, b, p, NULL);                               \
	} while (0)
#elif defined(V_BASE)
#define FIRE(a, b, p) ((void)0)
#else
#error "pick a variant: -DV_BASE, -DV_OURS, -DV_LTTNG, -DV_USDT, -DV_USDT_SEM or -DV_FNPTR"
#endif

/* Thread-local: threads of the "threads" mode share no line through it. */
__thread long bench_sink;

/* The loop body: the same work in every variant, plus the tracepoint. */
BENCH_NOINLINE void bench_body(int a, long b, const void *p)
{
	/* p is live in every variant: without this, clang (no noipa) stops
	 * passing the argument the baseline ignores, skewing the difference. */
	__asm__ volatile("" : : "r"(p));
	bench_sink += a ^ b;
	FIRE(a, b, p);
}

BENCH_NOINLINE void bench_loop(long n)
{
	long i;
	for (i = 0; i < n; i++)
		bench_body((int)i, i, &bench_sink);
}

/* Empty probes (the compiler turns each into a bare ret). */
#define PROBE(k)                                                               \
	BENCH_NOINLINE void bench_probe##k(int a, long b, const void *p, void *d) \
	{                                                                      \
		(void)d; (void)a; (void)b; (void)p;                            \
	}
PROBE(0) PROBE(1) PROBE(2) PROBE(3)

static int attach(int n)
{
#if defined(V_OURS) && defined(CONFIG_BENCH_TP)
	void (*probes[4])(int, long, const void *, void *) = {
		bench_probe0, bench_probe1, bench_probe2, bench_probe3 };
	int k;
	for (k = 0; k < n && k < 4; k++) {
		int r = register_trace_bench_ev(probes[k], NULL);
		if (r) {
			fprintf(stderr, "register_trace_bench_ev: %d\n", r);
			return 1;
		}
	}
	return 0;
#elif defined(V_FNPTR)
	if (n > 1) {
		fprintf(stderr, "this variant takes at most one probe\n");
		return 1;
	}
	bench_fn = bench_probe0;
	bench_flag = n;
	return 0;
#else
	if (n) {
		fprintf(stderr, "this variant takes no probes\n");
		return 1;
	}
	return 0;
#endif
}

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static long mt_n;
static pthread_barrier_t mt_start;

static void *mt_thread(void *arg)
{
	(void)arg;
	bench_loop(mt_n / 10); /* warm up */
	pthread_barrier_wait(&mt_start);
	bench_loop(mt_n);
	return NULL;
}

/* T threads fire the same tracepoint together: ns per call of each. */
static int run_threads(long n, int t)
{
	pthread_t th[64];
	double t0, t1;
	int i;
	if (t < 1 || t > 64)
		return 2;
	mt_n = n;
	pthread_barrier_init(&mt_start, NULL, (unsigned)t + 1);
	for (i = 0; i < t; i++)
		if (pthread_create(&th[i], NULL, mt_thread, NULL) != 0)
			return 1;
	pthread_barrier_wait(&mt_start);
	t0 = now_ns();
	for (i = 0; i < t; i++)
		pthread_join(th[i], NULL);
	t1 = now_ns();
	printf("%.4f\n", (t1 - t0) / (double)n);
	return 0;
}

int main(int argc, char **argv)
{
	long n;
	if (argc == 5 && strcmp(argv[1], "threads") == 0) {
		if (attach(atoi(argv[3])))
			return 1;
		return run_threads(atol(argv[2]), atoi(argv[4]));
	}
	if (argc >= 2 && strcmp(argv[1], "sites") == 0) {
#if defined(V_OURS) && TRACEPOINT_STATIC_KEYS && defined(CONFIG_BENCH_TP)
		const struct tp__jump_entry *e;
		int k = argc >= 3 ? atoi(argv[2]) : 0;
		if (attach(k))
			return 1;
		for (e = __start_tp__jump; e < __stop_tp__jump; e++)
			printf("%02x\n", *((const unsigned char *)&e->site + e->site));
#endif
		return 0;
	}
	if (argc != 4) {
		fprintf(stderr, "usage: %s cg|time N PROBES | sites [PROBES]\n", argv[0]);
		return 2;
	}
	n = atol(argv[2]);
	if (attach(atoi(argv[3])))
		return 1;
	if (strcmp(argv[1], "cg") == 0) {
		bench_loop(n);
	} else {
		double t0, t1;
		bench_loop(n / 10); /* warm up caches, predictors and the clock */
		t0 = now_ns();
		bench_loop(n);
		t1 = now_ns();
		printf("%.4f\n", (t1 - t0) / (double)n);
	}
	return bench_sink == 42; /* keep the work observable */
}
