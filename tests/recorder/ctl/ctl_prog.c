/* A program to control, for tests/recorder/t_ctl.sh.  It fires ctl:ctl_tick(n) with
 * n = 1, 2, 3... about every 200 us (and ctl:ctl_note every 100 ticks)
 * until SIGTERM or SIGINT (built with -DCTL_NO_HANDLER: no handler, their
 * default action ends it), or CTL_SECONDS (default 30) as a safety net,
 * then prints "ticks N" and exits normally.  First it prints
 * "ready PID PATH" (PATH: tracepoint_control_path(), or "none").
 * argv[1]:
 *   run    the above
 *   fork   forks first; the child prints "child PID PATH" and runs too
 *          (with CTL_CHILD_START=1 it calls tracepoint_control_start()
 *          first); the parent stops the child when it stops
 *   exec   exec()s itself as "run" at once (same pid, same environment)
 *   start  calls tracepoint_control_start() itself (twice: 0 both times),
 *          then runs; with CTL_STOP=1 it calls tracepoint_control_stop()
 *          and prints "stopped PATH" before running */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CREATE_TRACE_POINTS
#include "ctl_events.h"
#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>

static volatile sig_atomic_t stop;

static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

static int ticks(void)
{
	const char *s = getenv("CTL_SECONDS");
	long limit = (s ? atol(s) : 30) * 5000; /* 200 us each */
	struct timespec ts = { 0, 200000 };
	int n = 0;
	while (!stop && n < limit) {
		n++;
		trace_ctl_tick(n);
		if (n % 100 == 0)
			trace_ctl_note("hundred");
		nanosleep(&ts, NULL);
	}
	printf("ticks %d\n", n);
	return 0;
}

static void ready(const char *what)
{
	const char *p = tracepoint_control_path();
	printf("%s %d %s\n", what, (int)getpid(), p ? p : "none");
	fflush(stdout);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "run";
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
#ifndef CTL_NO_HANDLER
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
#endif
	if (strcmp(mode, "exec") == 0) {
		char *args[] = { argv[0], (char *)"run", NULL };
		execv("/proc/self/exe", args);
		perror("execv");
		return 1;
	}
	if (strcmp(mode, "start") == 0) {
		int a = tracepoint_control_start(), b = tracepoint_control_start();
		printf("start %d %d\n", a, b);
		if (getenv("CTL_STOP")) {
			const char *p = tracepoint_control_path();
			char path[200];
			snprintf(path, sizeof(path), "%s", p ? p : "none");
			printf("stop %d %d\n", tracepoint_control_stop(),
			       tracepoint_control_stop());
			printf("stopped %s %s\n", path,
			       tracepoint_control_path() ? "still-open" : "closed");
		}
	}
	ready("ready");
	if (strcmp(mode, "fork") == 0) {
		pid_t child = fork();
		if (child < 0) {
			perror("fork");
			return 1;
		}
		if (child == 0) {
			if (getenv("CTL_CHILD_START") && tracepoint_control_start() != 0)
				return 1;
			ready("child");
			return ticks();
		}
		ticks();
		kill(child, SIGTERM);
		waitpid(child, NULL, 0);
		return 0;
	}
	return ticks();
}
