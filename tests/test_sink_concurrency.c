/* Several threads record at once while another flushes repeatedly: every
 * record arrives exactly once, with its own thread's tid, in each thread's
 * order, and nothing is dropped when the buffers are big enough. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "test_common.h"
#include "sink_capture.h"

#define CONFIG_EVF 1
#define CREATE_TRACE_POINTS
#include "events/ev_fields.h"
#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>

#define THREADS 4
#define EVENTS 5000

static int tids[THREADS];
static volatile int stop_flusher;

static void *worker(void *arg)
{
	int id = (int)(intptr_t)arg, i;
	tids[id] = (int)syscall(__NR_gettid);
	for (i = 0; i < EVENTS; i++)
		trace_evf_three(id, (unsigned long)i, (long long)tids[id]);
	return NULL;
}

static void *flusher(void *arg)
{
	(void)arg;
	struct timespec ts = { 0, 200000 };
	while (!__atomic_load_n(&stop_flusher, __ATOMIC_ACQUIRE)) {
		tracepoint_flush();
		nanosleep(&ts, NULL);
	}
	return NULL;
}

static void threads_record_concurrently(void **state)
{
	char path[] = "/tmp/tp_conc_XXXXXX";
	pthread_t th[THREADS], fl;
	unsigned long next[THREADS];
	long total = 0;
	int i, fd = mkstemp(path);
	FILE *f;
	char line[512];
	(void)state;
	close(fd);
	tracepoint_buffer_size(1 << 20);
	assert_int_equal(tracepoint_output("text", path), 0);
	assert_int_equal(tracepoint_enable("evf:evf_three"), 1);
	pthread_create(&fl, NULL, flusher, NULL);
	for (i = 0; i < THREADS; i++)
		pthread_create(&th[i], NULL, worker, (void *)(intptr_t)i);
	for (i = 0; i < THREADS; i++)
		pthread_join(th[i], NULL);
	__atomic_store_n(&stop_flusher, 1, __ATOMIC_RELEASE);
	pthread_join(fl, NULL);
	tracepoint_flush();
	assert_int_equal(tracepoint_output("text", NULL), 0);
	assert_int_equal(tracepoint_dropped(), 0);

	memset(next, 0, sizeof(next));
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long s, ns, b;
		long long c;
		unsigned cpu;
		int tid, a;
		if (sscanf(line, "%llu.%llu %u %d evf:evf_three a=%d b=%llu c=%lld", &s, &ns, &cpu,
			   &tid, &a, &b, &c) != 7)
			fail_msg("unexpected line: %s", line);
		assert_true(a >= 0 && a < THREADS);
		assert_int_equal(tid, tids[a]);
		assert_int_equal(c, tids[a]);
		assert_int_equal(b, next[a]); /* each thread's records in order, none twice */
		next[a]++;
		total++;
	}
	fclose(f);
	unlink(path);
	for (i = 0; i < THREADS; i++)
		assert_int_equal(next[i], EVENTS);
	assert_int_equal(total, THREADS * EVENTS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(threads_record_concurrently),
	};
	tp_test_watchdog(120);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
