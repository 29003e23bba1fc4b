/* A program that writes a lot, for tests/recorder/t_disk_bound.sh:
 *   disk THREADS N   THREADS threads fire N dsk:dsk_rec each (a string of
 *                    0-12 bytes and 0-4 array bytes, by the event's number),
 *                    then the program exits; N < 0: until killed.
 * What is recorded is decided by TRACEPOINTS* (a bounded disk: the free
 * space floor, rotation). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CREATE_TRACE_POINTS
#include "disk_events.h"
#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>

static long per_thread;

static void *work(void *arg)
{
	static const char text[] = "abcdefghijkl";
	static const unsigned char bytes[4] = { 1, 2, 3, 4 };
	long i;
	(void)arg;
	for (i = 0; per_thread < 0 || i < per_thread; i++)
		trace_dsk_rec((int)i, text + 12 - i % 13, bytes, (unsigned)(i % 5));
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[64];
	int n, i;
	if (argc < 3 || (n = atoi(argv[1])) < 1 || n > 64) {
		fprintf(stderr, "usage: disk THREADS N\n");
		return 2;
	}
	per_thread = atol(argv[2]);
	for (i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, work, NULL) != 0)
			return 1;
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	printf("fired %ld\n", per_thread * n);
	return 0;
}
