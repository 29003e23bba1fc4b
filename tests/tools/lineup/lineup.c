/* tests/tools/t_lineup.sh's program: `lineup N` fires lineup:step with
 * the even numbers 0, 2, ... 2N-2 and, between them, calls other(odd) with
 * the odd numbers: with lttng.c linked in, an LTTng-UST tracef event
 * "step N" (another tracer's trace of the same run); without it, nothing.
 * Each step is 200 us after the previous one, so two traces of the run
 * interleave by time only if their clocks agree to better than that.
 * `lineup N spin` also prints, on stdout, CLOCK_MONOTONIC ns just before
 * and after each even step (for a comparison with perf's clock). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CREATE_TRACE_POINTS
#include "lineup_events.h"
#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>

void other(int n);

static void pause_us(long us)
{
	struct timespec ts;
	ts.tv_sec = 0;
	ts.tv_nsec = us * 1000;
	nanosleep(&ts, NULL);
}

static unsigned long long mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000u + (unsigned long long)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	int i, n = argc > 1 ? atoi(argv[1]) : 5, show = argc > 2 && !strcmp(argv[2], "spin");
	for (i = 0; i < n; i++) {
		unsigned long long a = mono_ns(), b;
		trace_step(2 * i);
		b = mono_ns();
		if (show)
			printf("step %d %llu %llu\n", 2 * i, a, b);
		pause_us(200);
		other(2 * i + 1);
		pause_us(200);
	}
	return 0;
}
