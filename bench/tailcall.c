/*
 * tailcall.c - what an idle tracepoint costs where it sits in real code,
 * not in a loop body made for it: three common shapes of function, each
 * compiled once per variant (the same -DV_* switches as loop.c):
 *
 *   alloc  an allocator wrapper, the tracepoint after the call:
 *            void *p = impl(n); trace(p, n); return p;
 *          without the tracepoint the call is a tail call (jmp impl); any
 *          code after it makes it a normal call and keeps n alive across it
 *   entry  a tracepoint at function entry, then a tail call:
 *            trace(op, arg); return impl(op, arg);
 *   leaf   a leaf function (calls nothing) with a 4-argument tracepoint:
 *            r = f(a, b, c, d); trace(a, b, c, d); return r;
 *
 *   -DV_BASE      no tracepoint
 *   -DV_OURS      trace_tc_*() of tailcall_tp.h; compiled in with
 *                 -DCONFIG_BENCH_TP=1 (+ -DTRACEPOINT_PORTABLE or
 *                 -DTRACEPOINT_USDT), compiled out without it
 *   -DV_LTTNG     lttng_ust_tracepoint(bench_tc, ...) (tailcall_lttng.h)
 *   -DV_USDT      DTRACE_PROBEn(bench_tc, ...)
 *   -DV_USDT_SEM  the same guarded by its semaphore
 *
 * usage: tailcall cg N     each shape's loop (tc_loop_SHAPE) runs N calls
 *        tailcall time N   warm up, then ns per call of each shape's loop
 *                          (three numbers: alloc entry leaf)
 * Nothing is attached: every variant is measured idle.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__has_attribute)
#if __has_attribute(noipa)
#define BENCH_NOINLINE __attribute__((noinline, noipa))
#endif
#endif
#ifndef BENCH_NOINLINE
#define BENCH_NOINLINE __attribute__((noinline))
#endif

#if defined(V_OURS)
#include "tailcall_tp.h"
#define FIRE_ALLOC(p, n) trace_tc_alloc(p, n)
#define FIRE_ENTRY(op, arg) trace_tc_entry(op, arg)
#define FIRE_LEAF(a, b, c, d) trace_tc_leaf(a, b, c, d)
#elif defined(V_LTTNG)
#include "tailcall_lttng.h"
#define FIRE_ALLOC(p, n) lttng_ust_tracepoint(bench_tc, tc_alloc, p, n)
#define FIRE_ENTRY(op, arg) lttng_ust_tracepoint(bench_tc, tc_entry, op, arg)
#define FIRE_LEAF(a, b, c, d) lttng_ust_tracepoint(bench_tc, tc_leaf, a, b, c, d)
#elif defined(V_USDT) || defined(V_USDT_SEM)
#if defined(V_USDT_SEM)
#define _SDT_HAS_SEMAPHORES 1
#define SEM(ev) bench_tc_##ev##_semaphore
__extension__ unsigned short bench_tc_tc_alloc_semaphore __attribute__((section(".probes"), used));
__extension__ unsigned short bench_tc_tc_entry_semaphore __attribute__((section(".probes"), used));
__extension__ unsigned short bench_tc_tc_leaf_semaphore __attribute__((section(".probes"), used));
#define GUARD(ev) if (__builtin_expect(SEM(ev), 0))
#else
#define GUARD(ev)
#endif
#include <sys/sdt.h>
#define FIRE_ALLOC(p, n) do { GUARD(tc_alloc) DTRACE_PROBE2(bench_tc, tc_alloc, p, n); } while (0)
#define FIRE_ENTRY(op, arg) do { GUARD(tc_entry) DTRACE_PROBE2(bench_tc, tc_entry, op, arg); } while (0)
#define FIRE_LEAF(a, b, c, d) do { GUARD(tc_leaf) DTRACE_PROBE4(bench_tc, tc_leaf, a, b, c, d); } while (0)
#elif defined(V_BASE)
#define FIRE_ALLOC(p, n) ((void)0)
#define FIRE_ENTRY(op, arg) ((void)0)
#define FIRE_LEAF(a, b, c, d) ((void)0)
#else
#error "pick a variant: -DV_BASE, -DV_OURS, -DV_LTTNG, -DV_USDT or -DV_USDT_SEM"
#endif

long tc_sink;
static char tc_pool[128];

/* The callees: opaque to the compiler (noipa, and an asm it cannot see
 * through), like malloc or a function of another file. */
BENCH_NOINLINE void *tc_impl_alloc(size_t n)
{
	__asm__ volatile("" : "+r"(n));
	return tc_pool + (n & 63);
}

BENCH_NOINLINE long tc_impl_op(int op, long arg)
{
	__asm__ volatile("" : "+r"(arg));
	return arg + op;
}

/* --- The three shapes: the functions measured. --- */
BENCH_NOINLINE void *tc_alloc(size_t n)
{
	void *p = tc_impl_alloc(n);
	FIRE_ALLOC(p, n);
	return p;
}

BENCH_NOINLINE long tc_entry(int op, long arg)
{
	FIRE_ENTRY(op, arg);
	return tc_impl_op(op, arg);
}

BENCH_NOINLINE long tc_leaf(long a, long b, long c, long d)
{
	long r = (a + b) ^ (c - d);
	FIRE_LEAF(a, b, c, d);
	return r;
}

/* --- Their loops (the same in every variant). --- */
BENCH_NOINLINE void tc_loop_alloc(long n)
{
	long i;
	for (i = 0; i < n; i++)
		tc_sink += (long)(size_t)tc_alloc((size_t)i);
}

BENCH_NOINLINE void tc_loop_entry(long n)
{
	long i;
	for (i = 0; i < n; i++)
		tc_sink += tc_entry((int)i, i);
}

BENCH_NOINLINE void tc_loop_leaf(long n)
{
	long i;
	for (i = 0; i < n; i++)
		tc_sink += tc_leaf(i, i + 1, i + 2, i + 3);
}

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static double timed(void (*loop)(long), long n)
{
	double t0;
	loop(n / 10); /* warm up caches, predictors and the clock */
	t0 = now_ns();
	loop(n);
	return (now_ns() - t0) / (double)n;
}

int main(int argc, char **argv)
{
	long n;
	if (argc != 3 || (strcmp(argv[1], "cg") != 0 && strcmp(argv[1], "time") != 0) ||
	    (n = atol(argv[2])) <= 0) {
		fprintf(stderr, "usage: %s cg|time N\n", argv[0]);
		return 2;
	}
	if (strcmp(argv[1], "cg") == 0) {
		tc_loop_alloc(n);
		tc_loop_entry(n);
		tc_loop_leaf(n);
	} else {
		double a = timed(tc_loop_alloc, n), e = timed(tc_loop_entry, n);
		printf("%.4f %.4f %.4f\n", a, e, timed(tc_loop_leaf, n));
	}
	return tc_sink == 42; /* keep the work observable */
}
