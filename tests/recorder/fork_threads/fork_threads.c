/* A recording process forks children whose threads all record their first
 * events at the same moment, for tests/recorder/t_fork_threads.sh.  Usage:
 *   fork_threads KIDS THREADS
 * Each child starts THREADS threads; they and its main thread wait at a
 * barrier, then each records 10 evh_step events (v = 1000 * (thread + 1) + i,
 * the main thread's thread number being 0), and the child exits.  Every one
 * of these KIDS * (THREADS + 1) * 10 records must be in the session. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define CREATE_TRACE_POINTS
#include "events/ev_hook.h"
#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>

int (*evh_hook)(int v);

enum { FT_MAX_THREADS = 16, FT_EVENTS = 10 };

static pthread_barrier_t ft_go;

static void ft_record(int thread)
{
	int i;
	for (i = 0; i < FT_EVENTS; i++)
		trace_evh_step(1000 * (thread + 1) + i);
}

static void *ft_thread(void *arg)
{
	pthread_barrier_wait(&ft_go);
	ft_record((int)(long)arg);
	return NULL;
}

static int ft_child(int nthreads)
{
	pthread_t t[FT_MAX_THREADS];
	long i;
	if (pthread_barrier_init(&ft_go, NULL, (unsigned)nthreads + 1) != 0)
		return 1;
	for (i = 0; i < nthreads; i++)
		if (pthread_create(&t[i], NULL, ft_thread, (void *)(i + 1)) != 0)
			return 1;
	pthread_barrier_wait(&ft_go);
	ft_record(0);
	for (i = 0; i < nthreads; i++)
		pthread_join(t[i], NULL);
	return 0;
}

int main(int argc, char **argv)
{
	int kids = argc > 1 ? atoi(argv[1]) : 10, nthreads = argc > 2 ? atoi(argv[2]) : 4, k,
	    bad = 0;
	if (nthreads < 0 || nthreads > FT_MAX_THREADS)
		return 2;
	for (k = 0; k < kids; k++) {
		int st;
		pid_t p = fork();
		if (p < 0)
			return 1;
		if (p == 0)
			exit(ft_child(nthreads));
		if (waitpid(p, &st, 0) != p || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
			bad++;
	}
	return bad != 0;
}
