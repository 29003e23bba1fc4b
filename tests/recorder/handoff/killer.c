/* tests/recorder/t_handoff.sh's preload: ends the process by SIGKILL
 * right after the recorder's Nth write of one kind, so that a trace is
 * left in one exact state of a hand-off (trace/recorder/stream.h's
 * tp__sink_hand_over: one pwritev() of the ring's packets with the first
 * header hidden, then one 96-byte pwrite() that shows it).
 *   TP_KILL_AFTER=run:N     after the Nth pwritev() (the bytes are in the
 *                           stream file, still hidden)
 *   TP_KILL_AFTER=header:N  after the Nth 96-byte pwrite() (shown; the
 *                           ring's copy not yet covered) */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

static int runs, headers;

static void maybe_die(const char *kind, int count)
{
	const char *s = getenv("TP_KILL_AFTER");
	size_t k = strlen(kind);
	if (s && !strncmp(s, kind, k) && s[k] == ':' && atoi(s + k + 1) == count)
		raise(SIGKILL);
}

ssize_t pwritev(int fd, const struct iovec *v, int n, off_t off)
{
	static ssize_t (*real)(int, const struct iovec *, int, off_t);
	ssize_t r;
	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "pwritev");
	r = real(fd, v, n, off);
	maybe_die("run", ++runs);
	return r;
}

ssize_t pwrite(int fd, const void *b, size_t n, off_t off)
{
	static ssize_t (*real)(int, const void *, size_t, off_t);
	ssize_t r;
	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "pwrite");
	r = real(fd, b, n, off);
	if (n == 96)
		maybe_die("header", ++headers);
	return r;
}
