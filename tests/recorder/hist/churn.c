/* Threads that come and go while a hist trigger aggregates
 * (tests/recorder/t_hist.sh): WAVES (argv[1]) times, THREADS threads
 * (argv[2]) each fire ROUNDS hst_op events (argv[3]) and end; then main
 * prints the trigger's table.  Each exiting thread is held for 2 ms just
 * after it gave its table back (the recorder's test hook), so that a
 * thread starting then claims that very table: every event must still
 * count, Hits = WAVES * THREADS * ROUNDS and Dropped 0.  (A table given
 * back still marked busy dropped the next owner's events, once in CI.) */
#include <time.h>
static void churn_hold(void)
{
	struct timespec ms2 = { 0, 2000000 };
	nanosleep(&ms2, NULL);
}
#define TP__HIST_TEST_FREED() churn_hold()
#define CREATE_TRACE_POINTS
#include "hst_events.h"
#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static int rounds;

static void *worker(void *arg)
{
	int i;
	(void)arg;
	for (i = 0; i < rounds; i++)
		trace_hst_op(i % 5, 1, 2, 3, "churn");
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th[16];
	int waves, threads, w, t;
	char *text;
	if (argc != 4)
		return 2;
	waves = atoi(argv[1]);
	threads = atoi(argv[2]);
	rounds = atoi(argv[3]);
	if (threads < 1 || threads > 16)
		return 2;
	for (w = 0; w < waves; w++) {
		for (t = 0; t < threads; t++)
			pthread_create(&th[t], NULL, worker, NULL);
		for (t = 0; t < threads; t++)
			pthread_join(th[t], NULL);
	}
	text = trace_recorder_hist_text("hst:hst_op");
	if (!text)
		return 1;
	printf("expected %d\n%s", waves * threads * rounds, text);
	free(text);
	return 0;
}
