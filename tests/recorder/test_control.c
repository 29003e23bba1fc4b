/* The control channel from inside (tests/recorder/t_ctl.sh drives it from outside,
 * with tracepoint-ctl): tracepoint_control_start/stop/path, requests
 * pipelined on one connection while the program fires, several clients at
 * once from threads (run under ThreadSanitizer by t_sanitizers.sh), a
 * forked child without a channel, a restart after stop, and the functions
 * by their names trace_recorder_control_* and their old ones. */
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>

#include "test_common.h"

#define CONFIG_EVH 1
#define CREATE_TRACE_POINTS
#include "events/ev_hook.h"
#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>
#include "trace_read.h"

int (*evh_hook)(int v);
static char root[] = "/tmp/tp_control_XXXXXX";
static char want_path[100]; /* fits a sun_path */

/* Threads of this process named "tp-control". */
static int control_threads(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int n = 0;
	if (!d)
		return -1;
	while ((e = readdir(d)) != NULL) {
		char path[300], comm[32] = "";
		FILE *f;
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", e->d_name);
		if ((f = fopen(path, "r")) != NULL) {
			if (fgets(comm, sizeof(comm), f) && strcmp(comm, "tp-control\n") == 0)
				n++;
			fclose(f);
		}
	}
	closedir(d);
	return n;
}

static int dial(void)
{
	struct sockaddr_un a;
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	assert_true(fd >= 0);
	memset(&a, 0, sizeof(a));
	a.sun_family = AF_UNIX;
	snprintf(a.sun_path, sizeof(a.sun_path), "%s", want_path);
	assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	return fd;
}

/* Reads one reply: its header into head (without the newline), its text
 * into text (NUL-terminated, cut at len); the text's length, or -1. */
static long reply(int fd, char *head, size_t hlen, char *text, size_t len)
{
	size_t n = 0;
	long want, got = 0;
	const char *sp;
	while (n + 1 < hlen && recv(fd, head + n, 1, 0) == 1 && head[n] != '\n')
		n++;
	head[n] = '\0';
	sp = strrchr(head, ' ');
	if (!sp)
		return -1;
	want = atol(sp + 1);
	while (got < want) {
		char c;
		if (recv(fd, &c, 1, 0) != 1)
			return -1;
		if ((size_t)got + 1 < len)
			text[got] = c;
		got++;
	}
	text[(size_t)got < len ? (size_t)got : len - 1] = '\0';
	return got;
}

static void count_rec(const struct tr_rec *r, void *priv)
{
	(void)r;
	(void)priv;
}

static int setup(void **state)
{
	char run[64], dir[64];
	(void)state;
	if (!mkdtemp(root))
		return -1;
	snprintf(run, sizeof(run), "%s/run", root);
	snprintf(dir, sizeof(dir), "%s/trace", root);
	if (mkdir(run, 0700) != 0 || setenv("XDG_RUNTIME_DIR", run, 1) != 0)
		return -1;
	snprintf(want_path, sizeof(want_path), "%s/tracepoints/%d.sock", run, (int)getpid());
	return tracepoint_output("stream", dir);
}

static int teardown(void **state)
{
	(void)state;
	tracepoint_control_stop();
	tr_remove(root);
	return 0;
}

static void start_opens_one_thread_and_socket(void **state)
{
	struct stat st;
	(void)state;
	assert_int_equal(control_threads(), 0);
	assert_null(tracepoint_control_path());
	assert_int_equal(tracepoint_control_start(), 0);
	assert_int_equal(tracepoint_control_start(), 0); /* open already */
	assert_non_null(tracepoint_control_path());
	assert_string_equal(tracepoint_control_path(), want_path);
	assert_int_equal(control_threads(), 1);
	assert_int_equal(lstat(want_path, &st), 0);
	assert_true(S_ISSOCK(st.st_mode));
	assert_int_equal(st.st_mode & 0777, 0600);
}

static void pipelined_requests_while_firing(void **state)
{
	static const char req[] = "list\nenable evh:evh_step\nlist\nbogus\n";
	char head[64], text[4096];
	int fd = dial(), i;
	(void)state;
	assert_int_equal(send(fd, req, sizeof(req) - 1, 0), (ssize_t)(sizeof(req) - 1));
	for (i = 0; i < 20000; i++) /* the enable lands somewhere in here */
		trace_evh_step(i);
	assert_true(reply(fd, head, sizeof(head), text, sizeof(text)) > 0);
	assert_int_equal(strncmp(head, "ok 2 ", 5), 0); /* two events */
	assert_true(reply(fd, head, sizeof(head), text, sizeof(text)) > 0);
	assert_int_equal(strncmp(head, "ok 1 ", 5), 0);
	{
		static const char want[] = "enabled 1 event matching \"evh:evh_step\"; trace in ";
		assert_int_equal(strncmp(text, want, sizeof(want) - 1), 0);
	}
	assert_true(reply(fd, head, sizeof(head), text, sizeof(text)) > 0);
	assert_non_null(strstr(text, "evh:evh_step (int v) enabled\n"));
	assert_true(reply(fd, head, sizeof(head), text, sizeof(text)) > 0);
	assert_int_equal(strncmp(head, "err 22 ", 7), 0);
	assert_non_null(strstr(text, "unknown command \"bogus\""));
	close(fd);
	for (i = 0; i < 1000; i++)
		trace_evh_step(100000 + i);
	assert_true(tr_read(tracepoint_trace_dir(), count_rec, NULL) >= 1000);
}

static void *client(void *arg)
{
	char head[64], text[256];
	int i, *ok = (int *)arg;
	for (i = 0; i < 25; i++) {
		int fd = dial();
		assert_int_equal(send(fd, "flush\n", 6, 0), 6);
		shutdown(fd, SHUT_WR);
		if (reply(fd, head, sizeof(head), text, sizeof(text)) >= 0 &&
		    strncmp(head, "ok 0 ", 5) == 0)
			(*ok)++;
		close(fd);
	}
	return NULL;
}

static void clients_from_threads(void **state)
{
	pthread_t t[4];
	int ok[4] = { 0, 0, 0, 0 }, i, k;
	(void)state;
	for (i = 0; i < 4; i++)
		assert_int_equal(pthread_create(&t[i], NULL, client, &ok[i]), 0);
	for (k = 0; k < 20000; k++)
		trace_evh_step(k);
	for (i = 0; i < 4; i++) {
		pthread_join(t[i], NULL);
		assert_int_equal(ok[i], 25);
	}
}

static void forked_child_has_no_channel(void **state)
{
	int status;
	pid_t p;
	(void)state;
	p = fork();
	assert_true(p >= 0);
	if (p == 0) {
		/* no channel, no thread; tracepoint_control_stop() leaves the
		 * parent's socket alone */
		int bad = tracepoint_control_path() != NULL || control_threads() != 0 ||
			  tracepoint_control_stop() != 0 || access(want_path, F_OK) != 0;
		_exit(bad);
	}
	assert_int_equal(waitpid(p, &status, 0), p);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(control_threads(), 1);
	assert_int_equal(access(want_path, F_OK), 0); /* still the parent's */
}

static void stop_removes_everything_and_restarts(void **state)
{
	int fd;
	char head[64], text[256];
	(void)state;
	assert_int_equal(tracepoint_control_stop(), 0);
	assert_null(tracepoint_control_path());
	assert_int_equal(control_threads(), 0);
	assert_int_equal(access(want_path, F_OK), -1);
	assert_int_equal(tracepoint_control_stop(), 0);
	assert_int_equal(tracepoint_control_start(), 0);
	assert_int_equal(control_threads(), 1);
	fd = dial();
	assert_int_equal(send(fd, "disable evh:*\n", 14, 0), 14);
	assert_true(reply(fd, head, sizeof(head), text, sizeof(text)) > 0);
	assert_int_equal(strncmp(head, "ok 2 ", 5), 0);
	close(fd);
}

/* The channel's functions by their names, trace_recorder_control_*, and
 * by their old ones, tracepoint_control_* (kept): the same functions. */
static void new_and_old_names_are_one_channel(void **state)
{
	(void)state;
	assert_int_equal(trace_recorder_control_stop(), 0);
	assert_null(trace_recorder_control_path());
	assert_int_equal(trace_recorder_control_start(), 0);
	assert_int_equal(tracepoint_control_start(), 0); /* open already */
	assert_int_equal(control_threads(), 1);
	assert_ptr_equal(tracepoint_control_path(), trace_recorder_control_path());
	assert_string_equal(trace_recorder_control_path(), want_path);
	assert_int_equal(tracepoint_control_stop(), 0);
	assert_null(trace_recorder_control_path());
	assert_int_equal(control_threads(), 0);
	assert_int_equal(tracepoint_control_start(), 0);
	assert_string_equal(trace_recorder_control_path(), want_path);
	assert_int_equal(trace_recorder_control_stop(), 0);
	assert_null(tracepoint_control_path());
	assert_int_equal(access(want_path, F_OK), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(start_opens_one_thread_and_socket),
		cmocka_unit_test(pipelined_requests_while_firing),
		cmocka_unit_test(clients_from_threads),
		cmocka_unit_test(forked_child_has_no_channel),
		cmocka_unit_test(stop_removes_everything_and_restarts),
		cmocka_unit_test(new_and_old_names_are_one_channel),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
