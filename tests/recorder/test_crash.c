/* Crash safety: a process killed or dying in any way leaves a trace that
 * holds every record it completed; at most the one record in flight on
 * each thread may be missing.  A child records from two threads and dies
 * by SIGKILL (from its parent, at a random moment), SIGSEGV, abort(),
 * _exit(), exec() or quick_exit(); the parent reads the child's trace and
 * counts, per thread, against counters the child kept in shared memory. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>

#include "test_common.h"

#define CONFIG_EVH 1
#define CREATE_TRACE_POINTS
#include "events/ev_hook.h"
#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>
#include "trace_read.h"

int (*evh_hook)(int v);
static volatile int *bad_pointer;

enum death { BY_SIGKILL, BY_SIGSEGV, BY_ABORT, BY__EXIT, BY_EXEC, BY_QUICK_EXIT };

/* Shared with the child: records completed per thread, and their tids
 * (atomic accesses: the child's two threads and the parent use them). */
struct shared {
	long done[2];
	int tid[2];
	int ready;
};
#define LOAD(x) __atomic_load_n(&(x), __ATOMIC_ACQUIRE)
#define STORE(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELEASE)
static struct shared *sh;

static void *worker(void *arg)
{
	long i;
	(void)arg;
	STORE(sh->tid[1], (int)syscall(__NR_gettid));
	for (i = 0;; i++) {
		trace_evh_step((int)i);
		STORE(sh->done[1], i + 1);
	}
	return NULL;
}

static void child(const char *dir, enum death how)
{
	pthread_t t;
	long i, n = how == BY_SIGKILL ? 1L << 40 : 1000;
	signal(SIGSEGV, SIG_DFL); /* cmocka catches it */
	signal(SIGABRT, SIG_DFL);
	if (tracepoint_output("stream", dir) != 0 || tracepoint_enable("evh:evh_step") != 1)
		_exit(99);
	STORE(sh->tid[0], (int)syscall(__NR_gettid));
	pthread_create(&t, NULL, worker, NULL);
	while (LOAD(sh->done[1]) < 20000) /* the worker is well into its stream */
		sched_yield();
	for (i = 0; i < n; i++) {
		trace_evh_step((int)i);
		STORE(sh->done[0], i + 1);
		if (i == 100)
			STORE(sh->ready, 1);
	}
	switch (how) {
	case BY_SIGSEGV:
		*bad_pointer = 1; /* a PROT_NONE page: a real fault, no undefined behaviour */
		break;
	case BY_ABORT:
		abort();
	case BY__EXIT:
		_exit(0);
	case BY_EXEC:
		execl("/bin/true", "true", (char *)NULL);
		break;
	case BY_QUICK_EXIT:
		quick_exit(0);
	default:
		break;
	}
	_exit(98); /* not reached */
}

struct count {
	long n[2], other;
	int bad_order;
	int last[2];
};

static void count_rec(const struct tr_rec *r, void *priv)
{
	struct count *c = (struct count *)priv;
	int v, k = (int)r->tid == sh->tid[0] ? 0 : (int)r->tid == sh->tid[1] ? 1 : -1;
	if (k < 0) {
		c->other++;
		return;
	}
	memcpy(&v, tr_field(r, "v"), sizeof(v));
	if (v != (int)c->n[k])
		c->bad_order++;
	c->n[k]++;
}

static void die_and_count(enum death how, const char *what)
{
	char dir[] = "/tmp/tp_crash_XXXXXX";
	struct count c;
	int status, k;
	pid_t pid;
	assert_non_null(mkdtemp(dir));
	memset((void *)sh, 0, sizeof(*sh));
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		child(dir, how);
	if (how == BY_SIGKILL) {
		struct timespec ts = { 0, 20 * 1000 * 1000 };
		while (!LOAD(sh->ready))
			sched_yield();
		nanosleep(&ts, NULL);
		kill(pid, SIGKILL);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (WIFEXITED(status))
		assert_true(WEXITSTATUS(status) < 98);
	memset(&c, 0, sizeof(c));
	assert_true(tr_read(dir, count_rec, &c) > 0);
	print_message("%s: main %ld of %ld, worker %ld of %ld\n", what, c.n[0], sh->done[0], c.n[1],
		      sh->done[1]);
	for (k = 0; k < 2; k++) {
		assert_true(c.n[k] >= sh->done[k]);	/* every completed record */
		assert_true(c.n[k] <= sh->done[k] + 1); /* at most the one in flight */
	}
	if (how != BY_SIGKILL)
		assert_int_equal(c.n[0], 1000);
	assert_int_equal(c.bad_order, 0);
	assert_int_equal(c.other, 0);
	tr_remove(dir);
}

static void killed(void **s)
{
	(void)s;
	die_and_count(BY_SIGKILL, "SIGKILL");
}
static void segfault(void **s)
{
	(void)s;
	die_and_count(BY_SIGSEGV, "SIGSEGV");
}
static void aborted(void **s)
{
	(void)s;
	die_and_count(BY_ABORT, "abort()");
}
static void underscore_exit(void **s)
{
	(void)s;
	die_and_count(BY__EXIT, "_exit()");
}
static void exec_d(void **s)
{
	(void)s;
	die_and_count(BY_EXEC, "exec()");
}
static void quick_exited(void **s)
{
	(void)s;
	die_and_count(BY_QUICK_EXIT, "quick_exit()");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(killed),  cmocka_unit_test(segfault),
		cmocka_unit_test(aborted), cmocka_unit_test(underscore_exit),
		cmocka_unit_test(exec_d),  cmocka_unit_test(quick_exited),
	};
	sh = (struct shared *)mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
				   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	bad_pointer =
		(volatile int *)mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED || bad_pointer == MAP_FAILED)
		return 1;
	tp_test_watchdog(120);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
