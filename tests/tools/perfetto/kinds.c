/* tests/tools/t_perfetto.sh's program: every event kind, on two threads.  The
 * main thread runs batch slices (one nested, scoped), counts queued items
 * and submits requests (flow ids 100, 101); the worker picks each one up
 * in a handle slice that continues its flow, and resumes it (a flow
 * event of handle's class, DEFINE_EVENT_KIND); last, a step of the global
 * flow 7 (TRACE_FLOW_GLOBAL: linked across processes).  With an argument
 * N, it first runs a batch slice whose who is N characters long (a message
 * longer than 127 bytes takes a longer length). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CREATE_TRACE_POINTS
#include "kinds_events.h"
#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static unsigned long queue[2];
static int nq, taken;

static void *worker(void *arg)
{
	(void)arg;
	while (taken < 2) {
		unsigned long id;
		pthread_mutex_lock(&lock);
		while (nq == taken)
			pthread_cond_wait(&cond, &lock);
		id = queue[taken++];
		pthread_mutex_unlock(&lock);
		trace_handle_begin(id);
		trace_resume(id);
		trace_note((int)id, &id);
		trace_handle_end(id);
	}
	return NULL;
}

static void inner(int n)
{
	TRACE_SLICE_SCOPED(batch, n, "inner");
	trace_heap(4096ul * (unsigned long)n, 0.5);
}

int main(int argc, char **argv)
{
	pthread_t t;
	unsigned long id;
	if (argc > 1) {
		size_t n = (size_t)atol(argv[1]);
		char *who = malloc(n + 1);
		if (!who)
			return 1;
		memset(who, 'w', n);
		who[n] = 0;
		trace_batch_begin(3, who);
		trace_batch_end(3, who);
		free(who);
	}
	pthread_create(&t, NULL, worker, NULL);
	trace_batch_begin(1, "outer");
	inner(2);
	for (id = 100; id < 102; id++) {
		trace_submit(id, (int)id - 99);
		pthread_mutex_lock(&lock);
		queue[nq++] = id;
		trace_queued(nq - taken);
		pthread_cond_signal(&cond);
		pthread_mutex_unlock(&lock);
	}
	trace_batch_end(1, "outer");
	pthread_join(t, NULL);
	trace_queued(0);
	trace_hop(7);
	puts("kinds: done");
	return 0;
}
