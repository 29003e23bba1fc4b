/* pthread_key_create() failing when the sink starts (every key taken, as
 * a program that leaks keys may do; docs/recording.md, "Drops and
 * errors"):
 *  - the failure is reported once, and the sink never touches a key it
 *    did not create: the application's keys keep their values and their
 *    destructors get them (before: the sink used key 0, the application's,
 *    so its destructor got the sink's buffer and the sink's thread-exit
 *    handler never ran);
 *  - threads still record, every event is in the trace;
 *  - without a thread-exit handler, an exited thread's stream is closed by
 *    the next thread that starts recording: after 10 threads one after the
 *    other, only the last one's stream may still be open. */
#include <dirent.h>
#include <fcntl.h>
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

#define KEEP 4
#define THREADS 10
#define EVENTS 100

static char trace_dir[] = "/tmp/tp_nokey_XXXXXX";
static pthread_key_t keys[8192];
static int nkeys;
static char marks[KEEP][THREADS];
static int dtor_calls, foreign_values;

/* The application's destructor: it must get the value it set. */
static void app_dtor(void *v)
{
	char *p = (char *)v;
	if (p < &marks[0][0] || p >= &marks[0][0] + sizeof(marks))
		__atomic_add_fetch(&foreign_values, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&dtor_calls, 1, __ATOMIC_RELAXED);
}

static void *worker(void *arg)
{
	int id = (int)(intptr_t)arg, i;
	for (i = 0; i < KEEP; i++)
		pthread_setspecific(keys[i], &marks[i][id]);
	for (i = 0; i < EVENTS; i++)
		trace_evf_three(id, (unsigned long)i, 0);
	for (i = 0; i < KEEP; i++)
		if (pthread_getspecific(keys[i]) != &marks[i][id])
			__atomic_add_fetch(&foreign_values, 1, __ATOMIC_RELAXED);
	return NULL;
}

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
		n += strstr(target, trace_dir) && strstr(target, "/stream-") &&
		     !strstr(target, ".ring");
	}
	closedir(dir);
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

static void sink_without_a_thread_key(void **state)
{
	char err[] = "/tmp/tp_nokey_err_XXXXXX", msg[4096];
	int efd, saved, i;
	ssize_t k;
	long n = 0;
	(void)state;
	if (under_emulator()) {
		print_message("threaded: skipped under an emulator (TP_RUNNER)\n");
		skip();
	}
	tp_test_watchdog(60);
	/* every key taken before the sink starts */
	while (nkeys < (int)(sizeof(keys) / sizeof(keys[0])) &&
	       pthread_key_create(&keys[nkeys], app_dtor) == 0)
		nkeys++;
	assert_true(nkeys >= KEEP);
	efd = mkstemp(err);
	assert_true(efd >= 0);
	saved = dup(2);
	dup2(efd, 2);
	i = tracepoint_output("stream", trace_dir);
	dup2(saved, 2);
	close(saved);
	assert_int_equal(i, 0);
	/* keys the sink could use now: it must not take them later */
	for (i = KEEP; i < nkeys; i++)
		pthread_key_delete(keys[i]);
	assert_int_equal(tracepoint_enable("evf:evf_three"), 1);
	k = pread(efd, msg, sizeof(msg) - 1, 0);
	close(efd);
	unlink(err);
	msg[k > 0 ? k : 0] = '\0';
	print_message("sink said: %s", msg);
	assert_non_null(strstr(msg, "tracepoints: cannot create a thread-specific key"));
	assert_null(strstr(strstr(msg, "thread-specific key") + 1, "thread-specific key"));

	for (i = 0; i < THREADS; i++) {
		pthread_t t;
		pthread_create(&t, NULL, worker, (void *)(intptr_t)i);
		pthread_join(t, NULL);
	}
	assert_int_equal(foreign_values, 0);
	assert_int_equal(dtor_calls, KEEP * THREADS);
	print_message("open stream files: %d\n", open_streams());
	assert_true(open_streams() <= 1); /* the last thread's */
	assert_int_equal(tracepoint_dropped(), 0);
	assert_int_equal(tr_read(trace_dir, count_rec, &n), (long)THREADS * EVENTS);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(trace_dir) ? 0 : -1;
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
		cmocka_unit_test(sink_without_a_thread_key),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
