/* bench/lttng_ev.c EVENT N - fires bench_evc:EVENT (three, str or dyn: the
 * LTTng-UST peers of bench/event-cost.sh's events, same arguments) N times
 * from a noinline function; bench/lttng-event-cost.sh runs it under
 * callgrind in a session for two counts and divides the difference. */
#define TRACEPOINT_CREATE_PROBES
#define TRACEPOINT_DEFINE
#include "lttng_ev.h"
#include <stdlib.h>
#include <string.h>

static const char *volatile str = "short string";
static const unsigned char bytes[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
static volatile unsigned nbytes = sizeof(bytes);

__attribute__((noinline)) static void fire_three(int i)
{
	lttng_ust_tracepoint(bench_evc, three, i, (unsigned long)i * 2, (long long)i * 3);
}
__attribute__((noinline)) static void fire_str(int i)
{
	lttng_ust_tracepoint(bench_evc, str, i, str);
}
__attribute__((noinline)) static void fire_dyn(int i)
{
	lttng_ust_tracepoint(bench_evc, dyn, i, bytes, nbytes);
}

int main(int argc, char **argv)
{
	int i, n = argc > 2 ? atoi(argv[2]) : 1000;
	if (argc > 1 && strcmp(argv[1], "str") == 0)
		for (i = 0; i < n; i++)
			fire_str(i);
	else if (argc > 1 && strcmp(argv[1], "dyn") == 0)
		for (i = 0; i < n; i++)
			fire_dyn(i);
	else
		for (i = 0; i < n; i++)
			fire_three(i);
	return 0;
}
