/*
 * enable.c - time enabling and disabling one tracepoint (sz_0) that has 100
 * call sites (build/bench/gen/sites_one.c): register_trace_sz_0() of the
 * first probe and unregister_trace_sz_0() of the last, in-process, REPS
 * times; prints the median of each in microseconds, and checks where the
 * static-key sites point after each step.
 * usage: enable REPS
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "ours_ev.h"

static void probe(int a, long b, const void *p, void *d)
{
	(void)d;
	(void)a;
	(void)b;
	(void)p;
}

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

/* Sites of sz_0 whose first byte is op; -1 without static keys. */
static int sites_with(unsigned op, int *total)
{
#if TRACEPOINT_STATIC_KEYS
	const struct tp__jump_entry *e;
	int n = 0;
	*total = 0;
	for (e = __start_tp__jump; e < __stop_tp__jump; e++) {
		if (tp__jump_key(e) != &__tracepoint_sz_0)
			continue;
		(*total)++;
		n += *((const unsigned char *)&e->site + e->site) == op;
	}
	return n;
#else
	(void)op;
	*total = 0;
	return -1;
#endif
}

int main(int argc, char **argv)
{
	int reps = argc > 1 ? atoi(argv[1]) : 1000, i, total, bad = 0;
	double *on = calloc((size_t)reps, sizeof(double));
	double *off = calloc((size_t)reps, sizeof(double));
	if (!on || !off || reps < 1)
		return 1;
	for (i = 0; i < reps; i++) {
		double t0, t1, t2;
		t0 = now_ns();
		if (register_trace_sz_0(probe, NULL))
			return 1;
		t1 = now_ns();
		if (TRACEPOINT_STATIC_KEYS && sites_with(0xe9, &total) != total)
			bad++;
		if (unregister_trace_sz_0(probe, NULL))
			return 1;
		t2 = now_ns();
		if (TRACEPOINT_STATIC_KEYS && sites_with(0xa9, &total) != total)
			bad++;
		on[i] = (t1 - t0) / 1e3;
		off[i] = (t2 - t1) / 1e3;
	}
	qsort(on, (size_t)reps, sizeof(double), cmp);
	qsort(off, (size_t)reps, sizeof(double), cmp);
	sites_with(0xa9, &total);
	/* enable_us disable_us patched_sites mismatches */
	printf("%.2f\t%.2f\t%d\t%d\n", on[reps / 2], off[reps / 2], total, bad);
	free(on);
	free(off);
	return bad != 0;
}
