/* Events after the sink's thread-exit handler (docs/recording.md,
 * "Sessions, processes and threads"): another library's thread-specific
 * data destructors - one of a key made before the sink's, one after it, so
 * that one runs before and one after the sink's handler in each round -
 * fire an event in every destructor round (PTHREAD_DESTRUCTOR_ITERATIONS),
 * in 8 threads, while another thread calls tracepoint_flush() all along.
 *  - every event fired is in the trace (recorded again after the handler,
 *    closed by the next round's handler), none is dropped, and the trace
 *    reads back whole;
 *  - nothing of a closed window is touched (run under AddressSanitizer by
 *    t_sanitizers.sh and t_sink_hostile.sh);
 *  - once another thread starts recording, no stream of the exited threads
 *    is still open or mapped: the last round's late stream, which no
 *    handler closes any more, is closed by whoever finds its thread gone
 *    (before: it stayed open and mapped for good, and its buffer was never
 *    reused).
 * ThreadSanitizer ends a thread in its own destructor's last round, after
 * which an intercepted call crashes: under it the destructors fire in the
 * first two rounds only (the sink closes everything in the third). */
#include <dirent.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_common.h"

#define CONFIG_EVF 1
#define CREATE_TRACE_POINTS
#include "events/ev_fields.h"
#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>
#include "trace_read.h"

#define THREADS 8
#define EVENTS 1000
#ifndef PTHREAD_DESTRUCTOR_ITERATIONS
#define PTHREAD_DESTRUCTOR_ITERATIONS 4
#endif
/* rounds in which the destructors fire (more than there are, but under TSan) */
#define ROUNDS (TP_UNDER_TSAN ? 2 : PTHREAD_DESTRUCTOR_ITERATIONS + 4)

static char trace_dir[] = "/tmp/tp_texit_XXXXXX";
static pthread_key_t key_before, key_after;
static pthread_barrier_t all_recording;
static long fired;
static volatile int stop_flusher;

/* Another library's destructor: an event, and its value set again so that
 * it runs in every round. */
static void late(pthread_key_t key, void *v)
{
	long round = (long)(intptr_t)v;
	trace_evf_three(-2, (unsigned long)round, (long long)syscall(__NR_gettid));
	__atomic_add_fetch(&fired, 1, __ATOMIC_RELAXED);
	if (round < ROUNDS)
		pthread_setspecific(key, (void *)(intptr_t)(round + 1));
}

static void late_before(void *v)
{
	late(key_before, v);
}

static void late_after(void *v)
{
	late(key_after, v);
}

static void *worker(void *arg)
{
	int i;
	pthread_setspecific(key_before, (void *)1);
	pthread_setspecific(key_after, (void *)1);
	trace_evf_three((int)(intptr_t)arg, 0, 0);
	/* every thread has its buffer before any exits */
	pthread_barrier_wait(&all_recording);
	for (i = 1; i < EVENTS; i++)
		trace_evf_three((int)(intptr_t)arg, (unsigned long)i, 0);
	__atomic_add_fetch(&fired, EVENTS, __ATOMIC_RELAXED);
	return NULL;
}

static void *flusher(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&stop_flusher, __ATOMIC_ACQUIRE)) {
		long e = tracepoint_flush();
		assert_int_equal(e, 0);
	}
	return NULL;
}

static void *one_event(void *arg)
{
	(void)arg;
	trace_evf_three(-3, 0, 0);
	return NULL;
}

/* Open descriptors and mappings of stream files of the trace. */
static int open_streams(void)
{
	char path[300], target[PATH_MAX];
	struct dirent *d;
	int n = 0;
	DIR *dir = opendir("/proc/self/fd");
	assert_non_null(dir);
	while ((d = readdir(dir)) != NULL) {
		ssize_t k;
		snprintf(path, sizeof(path), "/proc/self/fd/%s", d->d_name);
		k = readlink(path, target, sizeof(target) - 1);
		if (k <= 0)
			continue;
		target[k] = '\0';
		n += strstr(target, trace_dir) && strstr(target, "/stream-");
	}
	closedir(dir);
	return n;
}

static int mapped_streams(void)
{
	char line[8192];
	int n = 0;
	FILE *f = fopen("/proc/self/maps", "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		n += strstr(line, trace_dir) && strstr(line, "/stream-");
	fclose(f);
	return n;
}

static void count_rec(const struct tr_rec *r, void *priv)
{
	(void)r;
	++*(long *)priv;
}

/* Threads hang under this machine's qemu-user: scripts/check-aarch64.sh
 * runs the unit tests through TP_RUNNER="... qemu-aarch64 ...". */
static int under_emulator(void)
{
	const char *r = getenv("TP_RUNNER");
	return r && strstr(r, "qemu") != NULL;
}

static void late_events_are_recorded_and_closed(void **state)
{
	pthread_t th[THREADS], fl, t;
	long n = 0;
	int i;
	(void)state;
	if (under_emulator()) {
		print_message("threaded: skipped under an emulator (TP_RUNNER)\n");
		skip();
	}
	tp_test_watchdog(120);
	assert_int_equal(tracepoint_enable("evf:evf_three"), 1);
	pthread_barrier_init(&all_recording, NULL, THREADS);
	pthread_create(&fl, NULL, flusher, NULL);
	for (i = 0; i < THREADS; i++)
		pthread_create(&th[i], NULL, worker, (void *)(intptr_t)i);
	for (i = 0; i < THREADS; i++)
		pthread_join(th[i], NULL);
	__atomic_store_n(&stop_flusher, 1, __ATOMIC_RELEASE);
	pthread_join(fl, NULL);
	/* each thread: its events + both keys' destructors in every round */
	assert_true(fired >=
		    (long)THREADS * (EVENTS + 2 * (ROUNDS < PTHREAD_DESTRUCTOR_ITERATIONS
							   ? ROUNDS
							   : PTHREAD_DESTRUCTOR_ITERATIONS)));
	assert_int_equal(tracepoint_dropped(), 0);
	assert_int_equal(tr_read(trace_dir, count_rec, &n), fired);

	/* a new thread's first record finds the late streams' threads gone */
	pthread_create(&t, NULL, one_event, NULL);
	pthread_join(t, NULL);
	print_message("open stream files: %d, mapped: %d\n", open_streams(), mapped_streams());
	assert_int_equal(open_streams(), 0);
	assert_int_equal(mapped_streams(), 0);
	n = 0;
	assert_int_equal(tr_read(trace_dir, count_rec, &n), fired + 1);
	assert_int_equal(tracepoint_dropped(), 0);
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(trace_dir))
		return -1;
	/* one key made before the sink's, one after it */
	if (pthread_key_create(&key_before, late_before) != 0)
		return -1;
	tracepoint_buffer_size(16384);
	if (tracepoint_output("stream", trace_dir) != 0)
		return -1;
	return pthread_key_create(&key_after, late_after) != 0 ? -1 : 0;
}

static int teardown(void **state)
{
	(void)state;
	tracepoint_disable("evf:*");
	tracepoint_synchronize_unregister();
	tr_remove(trace_dir);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(late_events_are_recorded_and_closed),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
