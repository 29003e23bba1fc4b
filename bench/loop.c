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
 *        loop pairs N PROBES T R   R rounds of: bench_loop(N) on one thread
 *                             alone, then on T threads at once, all firing
 *                             the same tracepoint; prints the medians of
 *                             ns per call alone, of each thread together,
 *                             and of the per-round ratio
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

/* --- "pairs": one thread alone, then T threads together, in the same
 * process, round after round.  A VM's slow phases last longer than a round
 * (a few ms), so both halves of a pair see the same machine; the median of
 * the per-round ratios is what the tracepoint adds when threads share it. */
static long mt_n;
static int mt_t;
static pthread_barrier_t mt_go, mt_done;
static int mt_arrived;                 /* start line of the together phase */
static double mt_ns[64];               /* each thread's ns per call */

static void start_line(int gen)
{
	/* Spin until all threads of this round arrived: they start within
	 * a few hundred ns of each other, not a futex wake-up apart. */
	__atomic_add_fetch(&mt_arrived, 1, __ATOMIC_ACQ_REL);
	while (__atomic_load_n(&mt_arrived, __ATOMIC_ACQUIRE) < gen * mt_t)
		__asm__ volatile("" ::: "memory");
}

static double timed_loop(long n)
{
	double t0 = now_ns();
	bench_loop(n);
	return (now_ns() - t0) / (double)n;
}

static void *mt_thread(void *arg)
{
	int me = (int)(long)arg, gen = 0;
	for (;;) {
		pthread_barrier_wait(&mt_go);  /* the alone phase is over */
		if (mt_n == 0)
			return NULL;
		start_line(++gen);
		mt_ns[me] = timed_loop(mt_n);
		pthread_barrier_wait(&mt_done);
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Prints: median ns per call alone, median ns per call of each thread
 * together, median per-round ratio. */
static int run_pairs(long n, int t, int rounds)
{
	pthread_t th[64];
	static double alone[4096], together[4096], ratio[4096];
	int i, r;
	if (t < 1 || t > 64 || rounds < 1 || rounds > 4096)
		return 2;
	mt_n = n;
	mt_t = t;
	pthread_barrier_init(&mt_go, NULL, (unsigned)t);
	pthread_barrier_init(&mt_done, NULL, (unsigned)t);
	for (i = 1; i < t; i++)
		if (pthread_create(&th[i], NULL, mt_thread, (void *)(long)i) != 0)
			return 1;
	bench_loop(n); /* warm up */
	for (r = 0; r < rounds; r++) {
		double sum = 0;
		alone[r] = timed_loop(n);      /* the other threads sleep */
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
	printf("%.4f %.4f %.4f\n", alone[rounds / 2], together[rounds / 2], ratio[rounds / 2]);
	return 0;
}

int main(int argc, char **argv)
{
	long n;
	if (argc == 6 && strcmp(argv[1], "pairs") == 0) {
		if (attach(atoi(argv[3])))
			return 1;
		return run_pairs(atol(argv[2]), atoi(argv[4]), atoi(argv[5]));
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
