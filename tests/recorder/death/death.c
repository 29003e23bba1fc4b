/* A program that dies while it records, for tests/recorder/t_death.sh.
 *   death HOW US COUNTS   4 threads record evh_step without pause (thread
 *                         k records k * 100000000 + i); after US
 *                         microseconds the main thread ends the process by
 *                         HOW: kill (SIGKILL to itself), segv (a write to a
 *                         PROT_NONE page), abort, _exit, exec (/bin/true),
 *                         quick_exit, or exit (a plain exit(), the others
 *                         still recording).  COUNTS, a file of 4 x 16 bytes
 *                         made by the caller, gets each thread's tid and the
 *                         number of records it completed (MAP_SHARED: they
 *                         outlive the process), and for exit, that number
 *                         when exit() was called (afterwards the library's
 *                         destructors may switch tracepoints off: the calls
 *                         that follow may record nothing).
 *   death check-tail DIR COUNTS   flight mode: per thread, the records
 *                         read follow one another (from wherever the ring
 *                         begins), up to the last one completed (or
 *                         dropped and counted, for exit); exit 1 if not.
 *   death check DIR COUNTS   reads the trace (tests/include/trace_read.h)
 *                         and prints, per thread, "k done read dropped":
 *                         read + dropped (counted in the trace: records
 *                         after exit() began that needed a new packet)
 *                         must be at least done (for exit, the number at
 *                         exit()), read at most done + 1
 *                         (the record in flight), the values in order;
 *                         exit 1 if not. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <fcntl.h>
#include <unistd.h>

#define CONFIG_EVH 1
#define CREATE_TRACE_POINTS
#include "events/ev_hook.h"
#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>
#include "trace_read.h"

int (*evh_hook)(int v);

struct slot {
	long tid;
	long done;
	long at_exit; /* done when the main thread called exit(), or -1 */
};
static struct slot *counts;

static struct slot *map_counts(const char *path)
{
	int fd = open(path, O_RDWR);
	void *m = fd >= 0 ? mmap(NULL, 4 * sizeof(struct slot), PROT_READ | PROT_WRITE, MAP_SHARED,
				 fd, 0)
			  : MAP_FAILED;
	if (fd >= 0)
		close(fd);
	return m == MAP_FAILED ? NULL : (struct slot *)m;
}

static void *worker(void *arg)
{
	long k = (long)arg, i;
	__atomic_store_n(&counts[k].tid, (long)syscall(SYS_gettid), __ATOMIC_RELEASE);
	for (i = 0;; i++) {
		trace_evh_step((int)(k * 100000000 + i % 100000000));
		__atomic_store_n(&counts[k].done, i + 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

struct tally {
	long n[4], other;
	uint64_t dropped[4]; /* the thread's packets' events_discarded */
	int bad;
	int tail;	/* flight mode: the records begin anywhere */
	long first[4];	/* tail: index of the first record read */
	long last[4];	/* tail: index of the last record read */
	uint64_t d0[4]; /* tail: events_discarded at the first record read */
};

static void count(const struct tr_rec *r, void *priv)
{
	struct tally *t = (struct tally *)priv;
	int k, v;
	for (k = 0; k < 4 && counts[k].tid != (long)r->tid; k++)
		;
	if (k == 4) {
		t->other++;
		return;
	}
	memcpy(&v, tr_field(r, "v"), sizeof(v));
	if (t->tail && !t->n[k]) {
		t->first[k] = v - (int)(k * 100000000);
		t->d0[k] = r->discarded;
	}
	if (r->discarded > t->dropped[k])
		t->dropped[k] = r->discarded;
	if (t->tail) { /* one after the other, from the first one read on */
		t->last[k] = v - (int)(k * 100000000);
		if (t->last[k] != t->first[k] + t->n[k] + (long)(t->dropped[k] - t->d0[k]))
			t->bad++;
		t->n[k]++;
		return;
	}
	/* records dropped (counted) once exit() has begun: the values go on */
	if (v != (int)(k * 100000000 + (t->n[k] + (long)t->dropped[k]) % 100000000))
		t->bad++;
	t->n[k]++;
}

int main(int argc, char **argv)
{
	pthread_t th;
	long k;
	if (argc == 4 && (!strcmp(argv[1], "check") || !strcmp(argv[1], "check-tail"))) {
		struct tally t;
		int ok = 1;
		if (!(counts = map_counts(argv[3])))
			return 2;
		memset(&t, 0, sizeof(t));
		t.tail = !strcmp(argv[1], "check-tail");
		if (tr_read(argv[2], count, &t) < 0)
			return 1;
		for (k = 0; k < 4; k++) {
			long want = counts[k].at_exit >= 0 ? counts[k].at_exit : counts[k].done;
			printf("%ld %ld %ld %llu\n", k, want, t.n[k],
			       (unsigned long long)t.dropped[k]);
			if (t.tail) /* the newest records: up to the last one completed */
				ok &= !want ||
				      (t.n[k] > 0 && t.last[k] + 1 + (long)t.dropped[k] >= want &&
				       t.last[k] <= counts[k].done);
			else
				ok &= t.n[k] + (long)t.dropped[k] >= want &&
				      t.n[k] <= counts[k].done + 1;
		}
		printf("out of order %d, others %ld\n", t.bad, t.other);
		return ok && !t.bad && !t.other ? 0 : 1;
	}
	if (argc != 4 || !(counts = map_counts(argv[3])))
		return 2;
	for (k = 0; k < 4; k++)
		counts[k].at_exit = -1;
	for (k = 0; k < 4; k++)
		if (pthread_create(&th, NULL, worker, (void *)k) != 0)
			return 2;
	usleep((useconds_t)atol(argv[2]));
	if (!strcmp(argv[1], "kill")) {
		kill(getpid(), SIGKILL);
	} else if (!strcmp(argv[1], "segv")) {
		volatile int *p = (volatile int *)mmap(NULL, 4096, PROT_NONE,
						       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		signal(SIGSEGV, SIG_DFL);
		*p = 1;
	} else if (!strcmp(argv[1], "abort")) {
		abort();
	} else if (!strcmp(argv[1], "_exit")) {
		_exit(0);
	} else if (!strcmp(argv[1], "exec")) {
		execl("/bin/true", "true", (char *)NULL);
	} else if (!strcmp(argv[1], "quick_exit")) {
		quick_exit(0);
	} else if (!strcmp(argv[1], "exit")) {
		for (k = 0; k < 4; k++)
			counts[k].at_exit = __atomic_load_n(&counts[k].done, __ATOMIC_ACQUIRE);
		exit(0);
	}
	return 3;
}
