/* A program a user would copy: a toy slab allocator with kmem events, two
 * worker threads, and the built-in recorder.  Nothing is traced unless asked:
 *
 *   cc -Iinclude -Iexamples -DCONFIG_KMEMTRACE examples/sinks/kmem_trace.c \
 *      -o kmem_trace -lpthread -ldl
 *   TRACEPOINTS='kmem:*' TRACEPOINTS_DIR=kt ./kmem_trace     # a trace in kt/
 *   tracepoint-dump kt                  # text; --json for Perfetto, --summary
 *   babeltrace2 kt
 *   TRACEPOINTS=list ./kmem_trace                             # what can be traced
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>

/* This file defines the events (exactly one file does)... */
#define CREATE_TRACE_POINTS
#include "events/kmem_events.h"
/* ...and holds the recorder (exactly one file of the program does). */
#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>

static size_t size_class(size_t n)
{
	size_t c = 16;
	while (c < n)
		c *= 2;
	return c;
}

static void *toy_kmalloc(size_t n, const char *cache)
{
	size_t alloc = size_class(n);
	void *p = malloc(alloc);
	trace_kmalloc((unsigned long)__builtin_return_address(0), p, n, alloc, cache);
	return p;
}

static void toy_kfree(void *p)
{
	trace_kfree((unsigned long)__builtin_return_address(0), p);
	free(p);
}

static void *worker(void *arg)
{
	const char *cache = (const char *)arg;
	void *objs[3];
	char name[16];
	size_t i;
	snprintf(name, sizeof(name), "worker-%s", cache);
	prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0); /* the track's name in Perfetto */
	for (i = 0; i < 3; i++)
		objs[i] = toy_kmalloc(24 + 40 * i, cache);
	for (i = 0; i < 3; i++)
		toy_kfree(objs[i]);
	return NULL;
}

int main(void)
{
	pthread_t t[2];
	pthread_create(&t[0], NULL, worker, (void *)"dentry");
	pthread_create(&t[1], NULL, worker, (void *)"inode");
	pthread_join(t[0], NULL);
	pthread_join(t[1], NULL);
	/* Nothing to flush: every record is in the trace's files already. */
	printf("kmem_trace: done\n");
	return 0;
}
