/* Fires the evf events from the main thread and two more threads; whatever
 * is recorded is decided by the TRACEPOINTS* environment (tests/recorder/t_event_env.sh).
 *   env_prog enable PATTERNS       calls tracepoint_enable(PATTERNS) itself first
 *   env_prog output MODE DIR PATTERNS   tracepoint_output(MODE, DIR) ("-": NULL), then
 *                                  tracepoint_enable(PATTERNS) */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define CREATE_TRACE_POINTS
#include "events/ev_fields.h"
#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>

static void *worker(void *arg)
{
	int id = (int)(intptr_t)arg, i;
	unsigned char bytes[4] = { 1, 2, 3, 4 };
	char name[16];
	snprintf(name, sizeof(name), "worker%d", id);
	prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0);
	for (i = 0; i < 3; i++) {
		trace_evf_three(id, (unsigned long)i, -1);
		trace_evf_mixed(name, &id, 0.5 * i, bytes, "w", (signed char)id);
	}
	return NULL;
}

static int big_lock;

static const char *arg_or_null(const char *a)
{
	return strcmp(a, "-") == 0 ? NULL : a;
}

int main(int argc, char **argv)
{
	pthread_t t[2];
	int i;
	if (argc == 5 && strcmp(argv[1], "output") == 0)
		printf("output %d\n",
		       tracepoint_output(arg_or_null(argv[2]), arg_or_null(argv[3])));
	if ((argc == 3 && strcmp(argv[1], "enable") == 0) || argc == 5)
		printf("enable %d\n", tracepoint_enable(argv[argc - 1]));
	trace_evf_lock_acquire(&big_lock, 1);
	for (i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, (void *)(intptr_t)(i + 1));
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	trace_evf_lock_release(&big_lock, 1);
	trace_evf_plain(7);
	printf("done\n");
	return 0;
}
