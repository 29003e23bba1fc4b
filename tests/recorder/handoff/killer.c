/* tests/recorder/t_handoff.sh's preload: ends the process by SIGKILL at
 * one exact step of the recorder's Nth hand-off (trace/recorder/stream.h,
 * "The warm ring": one pwrite() of the ring's packets as they are, then
 * the ring's lead packet covers them, then the next packet's header is
 * written in the first slot), so that a trace is left in that state.
 *   TP_KILL_AFTER=run:N    right after the Nth pwrite() of more than one
 *                          packet header (the packets in both files)
 *   TP_KILL_AFTER=cover:N  in the header of the packet that opens after
 *                          the Nth hand-off (at its prctl(PR_GET_NAME)):
 *                          the lead covers the ring, that header is half
 *                          written
 *   TP_KILL_AFTER=fill:N   at the Nth packet header's prctl(PR_GET_NAME),
 *                          whatever packet (after exit(): a window at the
 *                          end of the stream file, before it is written) */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <unistd.h>

static int runs, covered, fills;

static int wanted(const char *kind, int count)
{
	const char *s = getenv("TP_KILL_AFTER");
	size_t k = strlen(kind);
	return s && !strncmp(s, kind, k) && s[k] == ':' && atoi(s + k + 1) == count;
}

ssize_t pwrite(int fd, const void *b, size_t n, off_t off)
{
	static ssize_t (*real)(int, const void *, size_t, off_t);
	ssize_t r;
	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "pwrite");
	r = real(fd, b, n, off);
	if (n > 96) {
		runs++;
		if (wanted("run", runs))
			raise(SIGKILL);
	}
	return r;
}

int prctl(int op, ...)
{
	static int (*real)(int, unsigned long, unsigned long, unsigned long, unsigned long);
	unsigned long a[4];
	va_list ap;
	int i;
	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "prctl");
	va_start(ap, op);
	for (i = 0; i < 4; i++)
		a[i] = va_arg(ap, unsigned long);
	va_end(ap);
	if (op == PR_GET_NAME && wanted("fill", ++fills))
		raise(SIGKILL);
	if (op == PR_GET_NAME && runs > covered) {
		covered = runs;
		if (wanted("cover", runs))
			raise(SIGKILL);
	}
	return real(op, a[0], a[1], a[2], a[3]);
}
