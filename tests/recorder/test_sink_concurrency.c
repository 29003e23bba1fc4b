/* Several threads record at once, with windows small enough that each
 * thread switches windows hundreds of times: every record arrives exactly
 * once, in its own thread's stream, in that thread's order, nothing is
 * dropped, and tracepoint_flush() from another thread meanwhile is
 * harmless.  Threads that exit give their buffer back: 200 short-lived
 * threads leave no mapping behind. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "test_common.h"

#define CONFIG_EVF 1
#define CREATE_TRACE_POINTS
#include "events/ev_fields.h"
#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>
#include "recorder_fixture.h"

#define THREADS 4
#define EVENTS 50000

static char trace_dir[] = "/tmp/tp_conc_XXXXXX";
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
	struct timespec ts = { 0, 200000 };
	(void)arg;
	while (!__atomic_load_n(&stop_flusher, __ATOMIC_ACQUIRE)) {
		assert_int_equal(tracepoint_flush(), 0);
		nanosleep(&ts, NULL);
	}
	return NULL;
}

struct check {
	unsigned long next[THREADS];
	long total, bad;
	uint64_t last_ts[THREADS];
};

static void check_rec(const struct tr_rec *r, void *priv)
{
	struct check *c = (struct check *)priv;
	int a;
	unsigned long b;
	long long cc;
	memcpy(&a, tr_field(r, "a"), sizeof(a));
	memcpy(&b, tr_field(r, "b"), sizeof(b));
	memcpy(&cc, tr_field(r, "c"), sizeof(cc));
	c->total++;
	if (a < 0 || a >= THREADS || (int)r->tid != tids[a] || cc != tids[a] || b != c->next[a] ||
	    r->ts < c->last_ts[a]) {
		if (c->bad++ < 5)
			print_error("record %ld: a=%d b=%lu c=%lld tid=%u\n", c->total, a, b, cc,
				    r->tid);
		return;
	}
	c->last_ts[a] = r->ts;
	c->next[a]++;
}

static void threads_record_concurrently(void **state)
{
	pthread_t th[THREADS], fl;
	static struct check c;
	int i;
	(void)state;
	assert_int_equal(tracepoint_enable("evf:evf_three"), 1);
	pthread_create(&fl, NULL, flusher, NULL);
	for (i = 0; i < THREADS; i++)
		pthread_create(&th[i], NULL, worker, (void *)(intptr_t)i);
	for (i = 0; i < THREADS; i++)
		pthread_join(th[i], NULL);
	__atomic_store_n(&stop_flusher, 1, __ATOMIC_RELEASE);
	pthread_join(fl, NULL);
	assert_int_equal(tracepoint_dropped(), 0);
	memset(&c, 0, sizeof(c));
	assert_int_equal(tr_read(trace_dir, check_rec, &c), (long)THREADS * EVENTS);
	assert_int_equal(c.bad, 0);
	for (i = 0; i < THREADS; i++)
		assert_int_equal(c.next[i], EVENTS);
}

static void *short_lived(void *arg)
{
	trace_evf_three(-1, 0, (long long)(intptr_t)arg);
	return NULL;
}

/* Mappings of this process whose path contains the trace directory. */
static int trace_mappings(void)
{
	char line[8192];
	int n = 0;
	FILE *f = fopen("/proc/self/maps", "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		n += strstr(line, trace_dir) != NULL;
	fclose(f);
	return n;
}

static void exited_threads_release_their_windows(void **state)
{
	int i;
	(void)state;
	assert_int_equal(tracepoint_enable("evf:evf_three"), 1);
	for (i = 0; i < 200; i++) {
		pthread_t t;
		pthread_create(&t, NULL, short_lived, (void *)(intptr_t)i);
		pthread_join(t, NULL);
	}
	/* only the main thread's window may still be mapped */
	assert_true(trace_mappings() <= 1);
	assert_int_equal(tracepoint_dropped(), 0);
}

static int setup(void **state)
{
	return tp_fixture_record(state, trace_dir, 16384, NULL,
				 0); /* 16 KiB windows: many switches */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(threads_record_concurrently),
		cmocka_unit_test(exited_threads_release_their_windows),
	};
	tp_test_watchdog(120);
	return cmocka_run_group_tests(tests, setup, tp_fixture_remove);
}
