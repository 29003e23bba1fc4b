/* A client that misbehaves on a control socket, for tests/recorder/t_ctl.sh.  It
 * connects to the socket PATH directly (none of tracepoint-ctl's checks)
 * and prints what it sees, one line per connection:
 *   hostile PATH good         "list\n", the whole reply: "reply HEADER" and
 *                             "lines N"; or "connect: ERROR"
 *   hostile PATH malformed    one connection per malformed request (bad
 *                             bytes, missing or extra arguments, unknown
 *                             commands, CR LF, a NUL, an item of 1500
 *                             bytes, no final newline):
 *                             "NAME -> HEADER" (or "NAME -> closed")
 *   hostile PATH garbage      4000 bytes of pseudo-random garbage with a
 *                             newline in the middle: "garbage -> HEADER"
 *   hostile PATH oversized    1 MiB without a newline: "oversized -> HEADER"
 *   hostile PATH flood N      N pipelined "list\n" requests, never read;
 *                             closes after a second: "flood sent BYTES"
 *   hostile PATH churn N      N connections closed at once: "churn N"
 *   hostile PATH hold N SECS  N connections, half of them with "list"
 *                             and no newline, half silent; prints
 *                             "holding N", waits SECS seconds, then
 *                             "closed K of N" (K: closed by the program)
 * And, for bench/ctl.sh, a well-behaved one:
 *   hostile PATH rtt N        N round trips of each of list, enable
 *                             ctl:ctl_tick, disable ctl:ctl_tick, flush on
 *                             one connection: "COMMAND median_us worst_us" */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static const char *path;

static int dial(void)
{
	struct sockaddr_un a;
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	memset(&a, 0, sizeof(a));
	a.sun_family = AF_UNIX;
	snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a)) != 0) {
		printf("connect: %s\n", strerror(errno));
		exit(0);
	}
	return fd;
}

/* The reply's header line (without its newline), "closed" if there is
 * none, "timeout" after 10 s. */
static const char *header(int fd)
{
	static char h[128];
	size_t n = 0;
	struct pollfd p;
	p.fd = fd;
	p.events = POLLIN;
	while (n < sizeof(h) - 1) {
		char c;
		ssize_t r;
		if (poll(&p, 1, 10000) != 1)
			return "timeout";
		r = recv(fd, &c, 1, 0);
		if (r <= 0)
			return n ? h : "closed";
		if (c == '\n')
			break;
		h[n++] = c;
		h[n] = '\0';
	}
	return h;
}

/* Sends all it can, never blocking for long; bytes sent. */
static size_t push(int fd, const char *buf, size_t len)
{
	size_t off = 0;
	struct pollfd p;
	p.fd = fd;
	p.events = POLLOUT;
	while (off < len) {
		ssize_t n = send(fd, buf + off, len - off, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n > 0) {
			off += (size_t)n;
			continue;
		}
		if (n < 0 && errno == EAGAIN && poll(&p, 1, 1000) == 1)
			continue;
		break;
	}
	return off;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return x < y ? -1 : x > y;
}

static long now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000L + ts.tv_nsec / 1000;
}

/* N round trips of each command on one connection. */
static void rtt(int n)
{
	static const char *const cmds[] = { "list\n", "enable ctl:ctl_tick\n",
					    "disable ctl:ctl_tick\n", "flush\n" };
	long *us = (long *)calloc((size_t)n, sizeof(long));
	int fd = dial(), i, k;
	for (k = 0; k < 4; k++) {
		for (i = 0; i < n; i++) {
			static char buf[1 << 16];
			long t0 = now_us();
			size_t got = 0, want = 0;
			char *nl = NULL;
			push(fd, cmds[k], strlen(cmds[k]));
			while (!nl || got < want) { /* the header, then the text it announces */
				ssize_t r = recv(fd, buf + got, sizeof(buf) - 1 - got, 0);
				if (r <= 0) {
					printf("%.*s -> closed\n", (int)strlen(cmds[k]) - 1,
					       cmds[k]);
					exit(1);
				}
				got += (size_t)r;
				buf[got] = '\0';
				if (!nl && (nl = strchr(buf, '\n')) != NULL) {
					if (strncmp(buf, "ok ", 3) != 0) {
						printf("%.*s -> %.*s\n", (int)strlen(cmds[k]) - 1,
						       cmds[k], (int)(nl - buf), buf);
						exit(1);
					}
					*nl = '\0';
					want = (size_t)(nl - buf) + 1 +
					       (size_t)atol(strrchr(buf, ' ') + 1);
				}
			}
			us[i] = now_us() - t0;
		}
		qsort(us, (size_t)n, sizeof(long), cmp_long);
		printf("%.*s %ld %ld\n", (int)strcspn(cmds[k], " \n"), cmds[k], us[(n - 1) / 2],
		       us[n - 1]);
	}
	free(us);
	close(fd);
}

static void one(const char *name, const char *req, size_t len)
{
	int fd = dial();
	push(fd, req, len);
	if (strcmp(name, "no-newline-eof") == 0)
		shutdown(fd, SHUT_WR);
	printf("%s -> %s\n", name, header(fd));
	close(fd);
}

int main(int argc, char **argv)
{
	const char *what = argc > 2 ? argv[2] : "";
	if (argc < 3) {
		fprintf(stderr, "usage: hostile PATH good|malformed|garbage|oversized|flood "
				"N|churn N|hold N SECS\n");
		return 2;
	}
	path = argv[1];
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (strcmp(what, "good") == 0) {
		int fd = dial(), lines = 0;
		char c;
		push(fd, "list\n", 5);
		shutdown(fd, SHUT_WR);
		printf("reply %s\n", header(fd));
		while (recv(fd, &c, 1, 0) == 1)
			lines += c == '\n';
		printf("lines %d\n", lines);
	} else if (strcmp(what, "malformed") == 0) {
		static const struct {
			const char *name, *req;
		} reqs[] = {
			{ "empty-line", "\n" },
			{ "enable-no-arg", "enable\n" },
			{ "enable-space-only", "enable \n" },
			{ "enable-two-spaces", "enable  ctl:*\n" },
			{ "uppercase", "ENABLE ctl:*\n" },
			{ "list-extra", "list extra\n" },
			{ "snapshot-extra", "snapshot now\n" },
			{ "unknown", "frobnicate\n" },
			{ "bad-pattern", "enable ctl:*,\n" },
			{ "crlf", "list\r\n" },
			{ "control-byte", "enable ctl:\001\n" },
			{ "high-byte", "enable ctl:\377\n" },
			{ "no-newline-eof", "list" },
		};
		char big[1600];
		size_t i;
		for (i = 0; i < sizeof(reqs) / sizeof(reqs[0]); i++)
			one(reqs[i].name, reqs[i].req, strlen(reqs[i].req));
		one("nul-byte", "enable ctl:\0ctl_tick\n", 21);
		memcpy(big, "enable ", 7);
		memset(big + 7, 'a', 1500);
		big[1507] = '\n';
		one("item-1500-bytes", big, 1508);
	} else if (strcmp(what, "garbage") == 0) {
		char buf[4000];
		unsigned x = 12345;
		size_t i;
		for (i = 0; i < sizeof(buf); i++) {
			x = x * 1103515245u + 12345u;
			buf[i] = (char)(x >> 16);
		}
		buf[2000] = '\n';
		one("garbage", buf, sizeof(buf));
	} else if (strcmp(what, "oversized") == 0) {
		size_t n = 1 << 20;
		char *buf = (char *)malloc(n);
		int fd = dial();
		memset(buf, 'a', n);
		push(fd, buf, n);
		printf("oversized -> %s\n", header(fd));
		close(fd);
		free(buf);
	} else if (strcmp(what, "flood") == 0 && argc > 3) {
		int fd = dial(), i, n = atoi(argv[3]);
		size_t sent = 0;
		struct timespec ts = { 1, 0 };
		for (i = 0; i < n; i++)
			sent += push(fd, "list\n", 5);
		printf("flood sent %zu\n", sent);
		nanosleep(&ts, NULL);
		close(fd);
	} else if (strcmp(what, "churn") == 0 && argc > 3) {
		int i, n = atoi(argv[3]);
		for (i = 0; i < n; i++)
			close(dial());
		printf("churn %d\n", n);
	} else if (strcmp(what, "rtt") == 0 && argc > 3) {
		rtt(atoi(argv[3]));
	} else if (strcmp(what, "hold") == 0 && argc > 4) {
		int n = atoi(argv[3]), i, closed = 0;
		int *fds = (int *)calloc((size_t)n, sizeof(int));
		struct timespec ts;
		for (i = 0; i < n; i++) {
			fds[i] = dial();
			if (i % 2)
				push(fds[i], "list", 4);
		}
		printf("holding %d\n", n);
		ts.tv_sec = atoi(argv[4]);
		ts.tv_nsec = 0;
		nanosleep(&ts, NULL);
		for (i = 0; i < n; i++) {
			char c;
			ssize_t r = recv(fds[i], &c, 1, MSG_DONTWAIT);
			/* ECONNRESET: closed with what it had not read yet */
			if (r == 0 || (r < 0 && errno != EAGAIN))
				closed++;
		}
		printf("closed %d of %d\n", closed, n);
	} else {
		fprintf(stderr, "hostile: unknown action %s\n", what);
		return 2;
	}
	return 0;
}
