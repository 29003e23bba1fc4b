/* A full per-thread buffer drops new records and counts them: the count is
 * returned by tracepoint_dropped(), written into the output, and summed up
 * on stderr at exit; after a flush the buffer takes records again. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "test_common.h"
#include "sink_capture.h"

#define CONFIG_EVF 1
#define CREATE_TRACE_POINTS
#include "events/ev_fields.h"
#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>

static void full_buffer_counts_drops(void **state)
{
	char path[] = "/tmp/tp_drops_XXXXXX";
	const char *out;
	int i, fd = mkstemp(path);
	long n;
	(void)state;
	close(fd);
	tracepoint_buffer_size(4096); /* 4 KiB: about a hundred 40-byte records */
	assert_int_equal(tracepoint_output("text", path), 0);
	assert_int_equal(tracepoint_enable("evf:evf_three"), 1);
	for (i = 0; i < 1000; i++)
		trace_evf_three(i, 0, 0);
	assert_true(tracepoint_dropped() > 800);
	assert_true(tracepoint_dropped() < 1000);
	n = tracepoint_flush();
	assert_int_equal(n + (long)tracepoint_dropped(), 1000);
	/* after the flush the ring has room again (and wraps) */
	for (i = 0; i < 60; i++)
		trace_evf_three(5000 + i, 0, 0);
	assert_int_equal(tracepoint_flush(), 60);
	assert_int_equal(tracepoint_output("text", NULL), 0);
	out = sc_slurp(path);
	unlink(path);
	assert_non_null(strstr(out, " evf:evf_three a=0 b=0 c=0\n"));
	assert_non_null(strstr(out, " evf:evf_three a=5059 b=0 c=0\n"));
	assert_non_null(strstr(out, " event(s) of thread "));
	assert_non_null(strstr(out, " dropped: its buffer (4 KiB) was full\n"));
	assert_int_equal(sc_count(out, "evf:evf_three"), n + 60);
}

static int child(void);
static int exit_summary(const char *self);
int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(full_buffer_counts_drops),
	};
	int r;
	tp_test_watchdog(60);
	(void)argc;
	r = cmocka_run_group_tests(tests, NULL, NULL);
	if (r)
		return r;
	return exit_summary(argv[0]);
}

/* In a forked child: drops without a flush in between, then exit: the
 * summary on stderr says how many. */
static int child(void)
{
	int i;
	tracepoint_buffer_size(4096);
	tracepoint_output("text", "/dev/null");
	tracepoint_enable("evf:evf_three");
	for (i = 0; i < 1000; i++)
		trace_evf_three(i, 0, 0);
	return 0;
}

static int exit_summary(const char *self)
{
	const char *err;
	int status = 0, fd;
	pid_t pid;
	(void)self;
	fflush(NULL);
	pid = fork(); /* not exec: the test may run under qemu-user */
	if (pid == 0) {
		fd = open("/tmp/tp_drops_child.err", O_WRONLY | O_CREAT | O_TRUNC, 0600);
		dup2(fd, 2);
		close(fd);
		exit(child());
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		return 1;
	err = sc_slurp("/tmp/tp_drops_child.err");
	unlink("/tmp/tp_drops_child.err");
	printf("child's stderr: %s", err);
	if (!strstr(err, "tracepoints: ") || !strstr(err, " event(s) dropped because a thread's buffer was full")) {
		printf("FAIL: no drop summary at exit\n");
		return 1;
	}
	printf("ok: drop summary at exit\n");
	return 0;
}
