/* tests/recorder/t_cpu.sh's program: `cpu N` moves itself to each CPU it
 * may run on, up to N of them (sched_setaffinity), and there fires
 * cpu:on(c) and cpu:named(c, "main"), c being the CPU it asked for;
 * then a thread does the same on the first CPU (its own stream).  Prints
 * the CPUs it ran on, one per line. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#define CREATE_TRACE_POINTS
#include "cpu_events.h"
#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>

static int first = -1;

static int move_to(int c)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(c, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static void *worker(void *arg)
{
	(void)arg;
	if (move_to(first) == 0) {
		trace_on(first);
		trace_named(first, "worker");
	}
	return NULL;
}

int main(int argc, char **argv)
{
	cpu_set_t may;
	int c, n = argc > 1 ? atoi(argv[1]) : 2, done = 0;
	pthread_t t;
	if (sched_getaffinity(0, sizeof(may), &may) != 0)
		return 1;
	for (c = 0; c < CPU_SETSIZE && done < n; c++) {
		if (!CPU_ISSET(c, &may) || move_to(c) != 0)
			continue;
		if (first < 0)
			first = c;
		trace_on(c);
		trace_named(c, "main");
		printf("%d\n", c);
		done++;
	}
	pthread_create(&t, NULL, worker, NULL);
	pthread_join(t, NULL);
	return 0;
}
