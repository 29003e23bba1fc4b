/* SPDX-License-Identifier: MIT */
/*
 * tracepoint-ctl - controls the recorder of a running program over its
 * control channel (include/trace/control.h): lists, enables and disables
 * events, takes a flight-recorder snapshot, flushes the trace.
 *
 *   cc -O2 -o tracepoint-ctl tools/tracepoint-ctl.c
 *
 * libc only; the protocol's constants and the version come from
 * ../include/trace/wire.h and ../include/tracepoint/version.h, found
 * relative to this file.  The program must run as the same user with
 * TRACEPOINTS_CONTROL=1 in its environment (or have called
 * tracepoint_control_start()).  Before it sends anything, this tool checks
 * that the socket's directory and the socket are the user's own (not
 * symbolic links, the directory closed to group and others) and, with
 * SO_PEERCRED, that the process at the other end is that pid of that uid.
 */
#define _GNU_SOURCE /* struct ucred */

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "../include/tracepoint/version.h"
#include "../include/trace/wire.h"

enum exit_status { EXIT_DONE = 0, EXIT_REFUSED = 1, EXIT_USAGE = 2 };
/* WAIT_TRIES * WAIT_MS: how long a process that exists but has no socket
 * yet is waited for when it may be starting (starting()). */
enum { REPLY_TIMEOUT_S = 60, MAX_PLACES = 8, WAIT_TRIES = 20, WAIT_MS = 50 };

static const char *prog = "tracepoint-ctl";

static void usage(FILE *f)
{
	fprintf(f,
		"usage: %s PID list\n"
		"       %s PID enable PATTERN...\n"
		"       %s PID disable PATTERN...\n"
		"       %s PID snapshot\n"
		"       %s PID flush\n"
		"       %s PID hist [PATTERN...]\n"
		"Controls the recorder (<trace/sink.h>) of a running program: process PID must\n"
		"run as your user with TRACEPOINTS_CONTROL=1 in its environment.\n"
		"\n"
		"  list          the program's events, as TRACEPOINTS=list prints them; the\n"
		"                recorded ones end in \"enabled\"\n"
		"  enable PATTERN...   record these events: patterns as in TRACEPOINTS, e.g.\n"
		"                'kmem:*', several joined with ','; or groups with a field\n"
		"                filter, 'kmem:kmalloc if bytes_req > 64 && cache == \"dentry\"',\n"
		"                several joined with ';'.  The first enable starts the trace\n"
		"                (TRACEPOINTS_MODE and TRACEPOINTS_DIR as set when the\n"
		"                program started).  All or nothing: a malformed list or filter,\n"
		"                a field or label the event lacks, or a pattern that matches no\n"
		"                event, changes nothing (said as TRACEPOINTS says it).\n"
		"                One argument 'sys:event hist:keys=...' adds a hist trigger\n"
		"  disable PATTERN...  stop recording these events (with one 'sys:event\n"
		"                hist:...' argument: pause that event's triggers)\n"
		"  snapshot      flight mode: copy the rings as they are now into\n"
		"                <trace>/snapshot-<n>/ (prints where)\n"
		"  flush         write what was recorded through to storage (fdatasync)\n"
		"  hist [PATTERN...]   the tables of the hist triggers (TRACEPOINTS='kmem:kmalloc\n"
		"                hist:keys=...') as they are now, of the events the patterns\n"
		"                select (none: all), in the kernel's hist file layout\n"
		"  -h, --help    this help\n"
		"  -V, --version the version\n"
		"\n"
		"The socket is $XDG_RUNTIME_DIR/tracepoints/PID.sock, or\n"
		"/tmp/tracepoints-UID/PID.sock when XDG_RUNTIME_DIR is unset (or\n"
		"/tmp/tracepoints-UID-XXXXXX/PID.sock when another user took that name first);\n"
		"all are looked at.\n"
		"\n"
		"Exit status: 0 done (the program's answer on stdout); 1 the program refused\n"
		"or failed the command (its answer on stderr); 2 usage error, or no channel\n"
		"to that process.\n",
		prog, prog, prog, prog, prog, prog);
}

/* Whether an argument is a group with a filter ("kmem:kmalloc if ...":
 * the word if after a space) or holds several groups (';'). */
static int has_filter(const char *a)
{
	const char *p;
	if (strchr(a, ';'))
		return 1;
	for (p = a; (p = strstr(p, "if")) != NULL; p += 2)
		if (p > a && (p[-1] == ' ' || p[-1] == '\t') &&
		    (p[2] == '\0' || p[2] == ' ' || p[2] == '\t'))
			return 1;
	return 0;
}

static int usage_err(const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", prog);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry '%s --help'.\n", prog);
	return EXIT_USAGE;
}

static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int fail(const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_USAGE;
}

/* A process id: digits only, 1 to INT_MAX; else -1. */
static long parse_pid(const char *s)
{
	long v = 0;
	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > (INT_MAX - (*s - '0')) / 10)
			return -1;
		v = v * 10 + (*s - '0');
	}
	return v > 0 ? v : -1;
}

/* The places the program may have put its socket, in order. */
static int places(char dirs[MAX_PLACES][PATH_MAX])
{
	const char *x = getenv("XDG_RUNTIME_DIR");
	unsigned me = (unsigned)geteuid();
	int n = 0, i, k;
	char cand[MAX_PLACES][PATH_MAX];
	int nc = 0;
	if (x && x[0] == '/' && strlen(x) + sizeof(TRACE_CTL_XDG_SUBDIR) + 1 < PATH_MAX)
		snprintf(cand[nc++], PATH_MAX, "%s/" TRACE_CTL_XDG_SUBDIR, x);
	snprintf(cand[nc++], PATH_MAX, "/run/user/%u/" TRACE_CTL_XDG_SUBDIR, me);
	snprintf(cand[nc++], PATH_MAX, TRACE_CTL_TMP_PREFIX "%u", me);
	{
		/* where a program goes when another user took /tmp/tracepoints-UID
		 * first: /tmp/tracepoints-UID-XXXXXX (control.h), its own */
		char prefix[64];
		size_t pl = (size_t)snprintf(prefix, sizeof(prefix), "tracepoints-%u-", me);
		DIR *d = opendir("/tmp");
		struct dirent *de;
		while (d && nc < MAX_PLACES && (de = readdir(d)) != NULL)
			if (strncmp(de->d_name, prefix, pl) == 0 && strlen(de->d_name) == pl + 6)
				snprintf(cand[nc++], PATH_MAX, "/tmp/%s", de->d_name);
		if (d)
			closedir(d);
	}
	for (i = 0; i < nc; i++) {
		for (k = 0; k < n && strcmp(dirs[k], cand[i]) != 0; k++)
			;
		if (k == n)
			memcpy(dirs[n++], cand[i], PATH_MAX);
	}
	return n;
}

/* Is dir a directory of ours that group and others cannot enter?  NULL if
 * so, else why not. */
static const char *bad_dir(const char *dir, char *why, size_t len)
{
	struct stat st;
	if (lstat(dir, &st) != 0)
		return strerror(errno);
	if (S_ISLNK(st.st_mode))
		return "a symbolic link";
	if (!S_ISDIR(st.st_mode))
		return "not a directory";
	if (st.st_uid != geteuid()) {
		snprintf(why, len, "owned by uid %u, not by you (uid %u)", (unsigned)st.st_uid,
			 (unsigned)geteuid());
		return why;
	}
	if (st.st_mode & 077) {
		snprintf(why, len, "open to group or others (mode %03o)",
			 (unsigned)(st.st_mode & 0777));
		return why;
	}
	return NULL;
}

/* Process pid's name (/proc/PID/comm) into comm[0..len), or "". */
static void comm_of(long pid, char *comm, size_t len)
{
	char path[64];
	FILE *f;
	comm[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	if ((f = fopen(path, "r")) != NULL) {
		if (fgets(comm, (int)len, f))
			comm[strcspn(comm, "\n")] = '\0';
		fclose(f);
	}
}

/* No socket found: why, as precisely as can be said. */
static int no_channel(long pid, char dirs[MAX_PLACES][PATH_MAX], int n, const char *notes)
{
	char proc[64], comm[64] = "", looked[MAX_PLACES * (PATH_MAX + 2)] = "";
	struct stat st;
	int i;
	snprintf(proc, sizeof(proc), "/proc/%ld", pid);
	if (stat(proc, &st) != 0)
		return fail("no process %ld", pid);
	if (st.st_uid != geteuid())
		return fail("process %ld runs as uid %u, you as uid %u: only its own user can "
			    "control it",
			    pid, (unsigned)st.st_uid, (unsigned)geteuid());
	comm_of(pid, comm, sizeof(comm));
	for (i = 0; i < n; i++) {
		size_t l = strlen(looked);
		snprintf(looked + l, sizeof(looked) - l, "%s%s", i ? ", " : "", dirs[i]);
	}
	return fail("process %ld%s%s%s has no control channel: start it with TRACEPOINTS_CONTROL=1 "
		    "in its "
		    "environment (looked for %ld.sock in %s%s); if it has that, its stderr says "
		    "why it could "
		    "not open one",
		    pid, *comm ? " (" : "", comm, *comm ? ")" : "", pid, looked, notes);
}

/* May process pid be about to open its channel?  Its environment asks for
 * one (TRACEPOINTS_CONTROL=1) and the recorder's start-up may not have run
 * yet, or it is still a shell or a launcher that has not exec()ed the
 * program (`TRACEPOINTS_CONTROL=1 prog & tracepoint-ctl $! ...`). */
static int starting(long pid)
{
	static const char *const launchers[] = { "sh",	    "bash",    "dash",	"zsh",
						 "ksh",	    "env",     "nohup", "setsid",
						 "timeout", "taskset", "stdbuf" };
	char path[64], buf[4096];
	size_t n, i;
	FILE *f;
	comm_of(pid, buf, sizeof(buf));
	for (i = 0; i < sizeof(launchers) / sizeof(launchers[0]); i++)
		if (strcmp(buf, launchers[i]) == 0)
			return 1;
	snprintf(path, sizeof(path), "/proc/%ld/environ", pid);
	if ((f = fopen(path, "r")) == NULL)
		return 0;
	while ((n = fread(buf, 1, sizeof(buf) - 1, f)) > 0) {
		/* NUL-separated; a variable cut by the buffer's end is missed */
		buf[n] = '\0';
		for (i = 0; i < n; i += strlen(buf + i) + 1) {
			if (strcmp(buf + i, "TRACEPOINTS_CONTROL=1") == 0) {
				fclose(f);
				return 1;
			}
		}
	}
	fclose(f);
	return 0;
}

/* Connects to process pid's socket: the descriptor, or -EXIT_USAGE after
 * saying why not. */
static int connect_to(long pid)
{
	char dirs[MAX_PLACES][PATH_MAX], why[128], notes[2048] = "";
	struct sockaddr_un a;
	struct ucred cr;
	socklen_t cl = sizeof(cr);
	struct stat st;
	int n = places(dirs), i, k, fd, tries = 0;
	const char *bad;
	char path[PATH_MAX + 32], proc[64];
	snprintf(proc, sizeof(proc), "/proc/%ld", pid);
again:
	notes[0] = '\0';
	for (i = 0; i < n; i++) {
		size_t nl = strlen(notes);
		if (lstat(dirs[i], &st) != 0 && errno == ENOENT)
			continue;
		if ((bad = bad_dir(dirs[i], why, sizeof(why))) != NULL) {
			snprintf(notes + nl, sizeof(notes) - nl, "; %.512s not used: %s", dirs[i],
				 bad);
			continue;
		}
		k = snprintf(path, sizeof(path), TRACE_CTL_SOCKET_FMT, dirs[i], (int)pid);
		if (k < 0 || (size_t)k >= sizeof(path) || lstat(path, &st) != 0)
			continue;
		if (!S_ISSOCK(st.st_mode) || st.st_uid != geteuid()) {
			snprintf(notes + nl, sizeof(notes) - nl,
				 "; %.512s not used: not a socket of yours", path);
			continue;
		}
		break;
	}
	/* A process started a moment ago (`prog & tracepoint-ctl $! ...`) may
	 * not have opened its channel yet, or not even exec()ed its program:
	 * it is given WAIT_TRIES * WAIT_MS ms. */
	if (i == n && tries++ < WAIT_TRIES && stat(proc, &st) == 0 && starting(pid)) {
		struct timespec ts = { 0, WAIT_MS * 1000000L };
		nanosleep(&ts, NULL);
		n = places(dirs);
		goto again;
	}
	if (i == n)
		return -no_channel(pid, dirs, n, notes);
	if (strlen(path) >= sizeof(a.sun_path))
		return -fail("%s: the path is too long for a socket", path);
	memset(&a, 0, sizeof(a));
	a.sun_family = AF_UNIX;
	memcpy(a.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -fail("socket: %s", strerror(errno));
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) != 0) {
		int e = errno;
		close(fd);
		if (e == ECONNREFUSED && stat(proc, &st) != 0)
			return -fail(
				"process %ld is gone; %s is a stale socket it left (remove it)",
				pid, path);
		if (e == ECONNREFUSED)
			return -fail("nobody answers on %s: process %ld stopped its channel or "
				     "exec()ed a program "
				     "that did not open one (the file is stale)",
				     path, pid);
		return -fail("cannot connect to %s: %s", path, strerror(e));
	}
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &cl) != 0 || cl != sizeof(cr)) {
		close(fd);
		return -fail("%s: cannot tell who serves it (SO_PEERCRED): not used", path);
	}
	if (cr.uid != geteuid() || (long)cr.pid != pid) {
		close(fd);
		return -fail("%s is served by process %ld of uid %u, not by process %ld of uid %u: "
			     "not used",
			     path, (long)cr.pid, (unsigned)cr.uid, pid, (unsigned)geteuid());
	}
	return fd;
}

/* Reads exactly len bytes; 0, or -1 with errno (0: end of file). */
static int read_all(int fd, char *buf, size_t len)
{
	while (len) {
		ssize_t n = read(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = 0;
			return -1;
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* A decimal number ending at `end` in s: its value, or -1 (no digits,
 * leading zero, over max). */
static long number(const char **s, char end, long max)
{
	const char *p = *s;
	long v = 0;
	if (*p < '0' || *p > '9' || (p[0] == '0' && p[1] >= '0' && p[1] <= '9'))
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (max - (*p - '0')) / 10)
			return -1;
		v = v * 10 + (*p - '0');
	}
	if (*p != end)
		return -1;
	*s = p + 1;
	return v;
}

int main(int argc, char **argv)
{
	static const char *const cmds[] = {
		"list", "enable", "disable", "snapshot", "flush", "hist"
	};
	char req[TRACE_CTL_REQUEST_MAX + 1], head[TRACE_CTL_HEADER_MAX + 1];
	const char *p;
	char *body;
	size_t rl, i, hl;
	long pid, status, len;
	int fd, c, is_ok, takes_arg;
	const char *sep = ",";
	struct timeval tv;
	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		usage(stdout);
		return EXIT_DONE;
	}
	if (argc > 1 && (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version"))) {
		printf("tracepoint-ctl %s (the control channel of tracepoint.h's recorder)\n",
		       TRACEPOINT_VERSION_STRING);
		return EXIT_DONE;
	}
	if (argc < 3)
		return usage_err("%s",
				 argc < 2 ? "no process id and command given" : "no command given");
	if ((pid = parse_pid(argv[1])) < 0)
		return usage_err("'%s' is not a process id", argv[1]);
	for (c = 0; c < (int)(sizeof(cmds) / sizeof(cmds[0])); c++)
		if (!strcmp(argv[2], cmds[c]))
			break;
	if (c == (int)(sizeof(cmds) / sizeof(cmds[0])))
		return usage_err(
			"unknown command '%s' (list, enable, disable, snapshot, flush, hist)",
			argv[2]);
	takes_arg = !strcmp(cmds[c], "enable") || !strcmp(cmds[c], "disable");
	if (takes_arg && argc < 4)
		return usage_err("%s needs at least one pattern, e.g. 'kmem:*'", cmds[c]);
	if (!takes_arg && argc > 3 && strcmp(cmds[c], "hist") != 0)
		return usage_err("%s takes no argument", cmds[c]);
	/* The request: "command[ pattern,pattern...]\n", printable ASCII; the
	 * arguments joined by "; " (groups) when one has a filter or a ';'. */
	for (i = 3; i < (size_t)argc; i++)
		if (has_filter(argv[i]))
			sep = "; ";
	rl = (size_t)snprintf(req, sizeof(req), "%s", cmds[c]);
	for (i = 3; i < (size_t)argc && rl < sizeof(req); i++)
		rl += (size_t)snprintf(req + rl, sizeof(req) - rl, "%s%s", i == 3 ? " " : sep,
				       argv[i]);
	if (rl + 1 >= sizeof(req))
		return usage_err("the patterns are too long (a request is at most %s bytes)",
				 "4096");
	for (i = 0; i < rl; i++)
		if ((unsigned char)req[i] < 0x20 || (unsigned char)req[i] > 0x7e)
			return usage_err("the patterns hold a byte that no pattern can have (%s)",
					 "a control or "
					 "non-ASCII character");
	req[rl++] = '\n';

	if ((fd = connect_to(pid)) < 0)
		return -fd;
	tv.tv_sec = REPLY_TIMEOUT_S;
	tv.tv_usec = 0;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (send(fd, req, rl, MSG_NOSIGNAL) != (ssize_t)rl)
		return fail("process %ld: cannot send the request: %s", pid, strerror(errno));
	shutdown(fd, SHUT_WR);

	/* The reply: "ok RESULT LEN\n" or "err ERRNO LEN\n", then LEN bytes. */
	for (hl = 0; hl < TRACE_CTL_HEADER_MAX; hl++) {
		if (read_all(fd, head + hl, 1) != 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return fail("process %ld did not answer within %d s", pid,
					    REPLY_TIMEOUT_S);
			return fail("process %ld closed the connection without an answer%s%s", pid,
				    errno ? ": " : "", errno ? strerror(errno) : "");
		}
		if (head[hl] == '\n')
			break;
	}
	head[hl < TRACE_CTL_HEADER_MAX ? hl + 1 : TRACE_CTL_HEADER_MAX] = '\0';
	p = head;
	is_ok = !strncmp(p, "ok ", 3);
	if (!is_ok && strncmp(p, "err ", 4) != 0)
		return fail("process %ld: malformed reply (not ok or err)", pid);
	p += is_ok ? 3 : 4;
	if ((status = number(&p, ' ', INT_MAX)) < 0 || (!is_ok && status == 0) ||
	    (len = number(&p, '\n', TRACE_CTL_REPLY_MAX)) < 0 || *p)
		return fail("process %ld: malformed reply header", pid);
	body = (char *)malloc((size_t)len + 1);
	if (!body)
		return fail("out of memory for a reply of %ld bytes", len);
	if (read_all(fd, body, (size_t)len) != 0) {
		free(body);
		return fail("process %ld: the reply is cut short%s%s", pid, errno ? ": " : "",
			    errno ? strerror(errno) : "");
	}
	body[len] = '\0';
	close(fd);
	if (is_ok) {
		fwrite(body, 1, (size_t)len, stdout);
		free(body);
		return fflush(stdout) == 0 ? EXIT_DONE : EXIT_REFUSED;
	}
	if (len)
		fprintf(stderr, "%s: process %ld: %s", prog, pid, body);
	else
		fprintf(stderr, "%s: process %ld: %s\n", prog, pid, strerror((int)status));
	free(body);
	return EXIT_REFUSED;
}
