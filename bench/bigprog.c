/*
 * bigprog.c - the driver of bench/bigprog.sh (1,000 tracepoints, 10,000 call
 * sites in big_s*.c, definitions in big_def.c).
 *   big startup RUNS   median microseconds from exec to main over RUNS runs
 *   big startup-cmp RUNS BIN...   the same for each BIN, their spawns
 *                      interleaved (BIN1 BIN2 ... BIN1 BIN2 ...), so that
 *                      load on the machine hits every build alike; one
 *                      line per BIN: median us to main, median CPU us of
 *                      the whole child (user + system, from wait4)
 *   big smaps          KiB of private dirty pages in executable mappings
 *   big enable-one     warm-up cycle, then enable_one() once (callgrind)
 *   big lttng-wait FILE   (built with -DBIG_LTTNG, the LTTng-UST copy of the
 *                      program) prints "ready", waits until FILE exists,
 *                      then fires every call site once
 *   big enable-all [batch]   microseconds to attach a probe to every
 *                      tracepoint, then to detach them all, one by one or
 *                      (batch) each loop inside tracepoint_batch_begin/end
 */
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <tracepoint.h> /* its functions, also when CONFIG_BIG is off */
#include "big_ev.h"

extern char **environ;

/* The program's tracepoints, found at run time (a table of their addresses
 * in the program would add its own bytes and relocations to what is
 * measured). */
static struct tracepoint *big_tps[1001];
static int big_n;

static int collect(struct tracepoint *tp, void *priv)
{
	(void)priv;
	if (strncmp(tp->name, "big_", 4) == 0 && big_n < 1000)
		big_tps[big_n++] = tp;
	return 0;
}

static double now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static void probe(int a, long b, void *d)
{
	(void)d;
	(void)a;
	(void)b;
}

__attribute__((noinline)) int enable_one(void)
{
#if TP_ON_BIG
	return tracepoint_probe_register(big_tps[0], TRACEPOINT_FUNC(probe), NULL);
#else
	return 0;
#endif
}

static int cmpd(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

/* Spawns "BIN t0 NOW" once: microseconds from spawn to its main (what it
 * prints), and in *cpu the child's user + system microseconds. */
static double spawn_once(const char *bin, double *cpu)
{
	char t0[32], buf[64] = "";
	char *args[] = { (char *)bin, (char *)"t0", t0, NULL };
	int fd[2], st;
	pid_t pid;
	posix_spawn_file_actions_t fa;
	struct rusage ru;
	ssize_t n;
	if (pipe(fd) != 0)
		return -1;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
	snprintf(t0, sizeof(t0), "%.1f", now_us());
	if (posix_spawn(&pid, bin, &fa, NULL, args, environ) != 0)
		return -1;
	close(fd[1]);
	n = read(fd[0], buf, sizeof(buf) - 1);
	close(fd[0]);
	memset(&ru, 0, sizeof(ru));
	wait4(pid, &st, 0, &ru);
	posix_spawn_file_actions_destroy(&fa);
	*cpu = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e6 +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
	return n > 0 ? atof(buf) : -1;
}

static int startup_cmp(int runs, int nbin, char **bins)
{
	double *wall = calloc((size_t)(runs * nbin), sizeof(double));
	double *cpu = calloc((size_t)(runs * nbin), sizeof(double));
	int i, b;
	if (!wall || !cpu || runs < 1)
		return 1;
	for (i = 0; i < runs; i++)
		for (b = 0; b < nbin; b++)
			if ((wall[b * runs + i] = spawn_once(bins[b], &cpu[b * runs + i])) < 0)
				return 1;
	for (b = 0; b < nbin; b++) {
		qsort(wall + b * runs, (size_t)runs, sizeof(double), cmpd);
		qsort(cpu + b * runs, (size_t)runs, sizeof(double), cmpd);
		printf("%s\t%.1f\t%.1f\n", bins[b], wall[b * runs + runs / 2],
		       cpu[b * runs + runs / 2]);
	}
	return 0;
}

#ifdef BIG_LTTNG
void big_fire_all(void); /* big_lfire.c: every call site once */
#endif

int main(int argc, char **argv)
{
	double t_main = now_us();
	if (argc == 3 && strcmp(argv[1], "t0") == 0) {
		printf("%.1f\n", t_main - atof(argv[2]));
		return 0;
	}
	if (argc == 3 && strcmp(argv[1], "startup") == 0) {
		int runs = atoi(argv[2]), i;
		double *v = calloc((size_t)runs, sizeof(double));
		for (i = 0; v && i < runs; i++) {
			char t0[32], buf[64] = "";
			char *args[] = { argv[0], (char *)"t0", t0, NULL };
			int fd[2], st;
			pid_t pid;
			posix_spawn_file_actions_t fa;
			ssize_t n;
			if (pipe(fd) != 0)
				return 1;
			posix_spawn_file_actions_init(&fa);
			posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
			snprintf(t0, sizeof(t0), "%.1f", now_us());
			if (posix_spawn(&pid, argv[0], &fa, NULL, args, environ) != 0)
				return 1;
			close(fd[1]);
			n = read(fd[0], buf, sizeof(buf) - 1);
			close(fd[0]);
			waitpid(pid, &st, 0);
			posix_spawn_file_actions_destroy(&fa);
			v[i] = n > 0 ? atof(buf) : -1;
		}
		qsort(v, (size_t)runs, sizeof(double), cmpd);
		printf("%.1f\n", v[runs / 2]);
		return 0;
	}
#ifdef BIG_LTTNG
	if (argc == 3 && strcmp(argv[1], "lttng-wait") == 0) {
		struct timespec ms = { 0, 1000000 };
		puts("ready");
		fflush(stdout);
		while (access(argv[2], F_OK) != 0)
			nanosleep(&ms, NULL);
		big_fire_all();
		return 0;
	}
#endif
	if (argc >= 4 && strcmp(argv[1], "startup-cmp") == 0)
		return startup_cmp(atoi(argv[2]), argc - 3, argv + 3);
	if (argc == 2 && strcmp(argv[1], "smaps") == 0) {
		FILE *f = fopen("/proc/self/smaps", "r");
		char line[512];
		int exec = 0;
		long kb = 0, v;
		while (f && fgets(line, sizeof(line), f)) {
			char perms[8];
			if (sscanf(line, "%*x-%*x %7s", perms) == 1 && strlen(perms) == 4) {
				exec = perms[2] == 'x';
				if (exec && getenv("BIG_DEBUG"))
					fputs(line, stderr);
			} else if (exec && sscanf(line, "Private_Dirty: %ld kB", &v) == 1) {
				kb += v;
			}
		}
		printf("%ld\n", kb);
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "enable-one") == 0) {
#if TP_ON_BIG
		/* warm-up: the first enable sorts each module's jump table */
		big_tps[0] = tracepoint_find("big_500");
		if (!big_tps[0] ||
		    tracepoint_probe_register(big_tps[0], TRACEPOINT_FUNC(probe), NULL) != 0)
			return 1;
		tracepoint_probe_unregister(big_tps[0], TRACEPOINT_FUNC(probe), NULL);
		tracepoint_synchronize_unregister();
#endif
		return enable_one() != 0;
	}
	if ((argc == 2 || (argc == 3 && strcmp(argv[2], "batch") == 0)) &&
	    strcmp(argv[1], "enable-all") == 0) {
		int i, batch = argc == 3;
		double t0, t1, t2;
		tracepoint_for_each(collect, NULL);
		t0 = now_us();
		if (batch && tracepoint_batch_begin() != 0)
			return 1;
		for (i = 0; big_tps[i]; i++)
			if (tracepoint_probe_register(big_tps[i], TRACEPOINT_FUNC(probe), NULL) !=
			    0)
				return 1;
		if (batch && tracepoint_batch_end() != 0)
			return 1;
		t1 = now_us();
		if (batch && tracepoint_batch_begin() != 0)
			return 1;
		for (i = 0; big_tps[i]; i++)
			if (tracepoint_probe_unregister(big_tps[i], TRACEPOINT_FUNC(probe), NULL) !=
			    0)
				return 1;
		if (batch && tracepoint_batch_end() != 0)
			return 1;
		t2 = now_us();
		printf("%.1f\t%.1f\n", t1 - t0, t2 - t1);
		return 0;
	}
	fprintf(stderr,
		"usage: %s startup RUNS | startup-cmp RUNS BIN... | smaps | enable-one | "
		"enable-all [batch]\n",
		argv[0]);
	return 2;
}
