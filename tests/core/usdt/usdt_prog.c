/* The USDT test program (tests/core/t_usdt.sh).  net_xmit fires with a negative
 * ifindex (-1, -2, ...) and len 1000, 1001, ...; no in-process probe is
 * attached unless said so: an external tracer attached through the USDT
 * semaphore must still see every fire.
 *   usdt_prog            fires net_xmit 3 times
 *   usdt_prog N          fires it N times
 *   usdt_prog N wait     waits (up to 20 s) for an external tracer to raise
 *                        the semaphore (and up to 1 s more for it to attach
 *                        to net_poll), then fires N times (for -p attaches)
 *   usdt_prog N both     an in-process probe and an external tracer together:
 *                        in-process attaches, the tracer attaches (awaited),
 *                        N fires; in-process detaches, N fires; in-process
 *                        attaches again, N fires; the tracer detaches (it
 *                        exits on net_poll; awaited), N fires; in-process
 *                        detaches.  The tracer must count 3N, the in-process
 *                        probe 3N, and the key must be 0 at the end.
 * Every run ends with net_kinds (-5, 250, -6, 7, USDT_IN, "x"), net_wide
 * (-1, -2, -3, 4, 1.5, -2.25, -7, -8, 9, -10, 0x1234, -12), net_many
 * (1 ... 13), net_poll
 * (a tracer may exit on it), then disk_io (compiled out), and prints the
 * key's state.  Built with -Dmain=... into a
 * shared library by t_usdt.sh (usdt_libmain.c calls it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "usdt_events.h"

DEFINE_TRACE(disk_io);
#undef TRACE_CONFIG
#define TRACE_CONFIG CONFIG_NET_TRACER
#include <tracepoint.h>
DEFINE_TRACE(net_xmit);
DEFINE_TRACE(net_poll);
DEFINE_TRACE(net_kinds);
DEFINE_TRACE(net_wide);
DEFINE_TRACE(net_many);

static char packet[64];
static int fired, inproc;

static void fire(int n)
{
	int i;
	for (i = 0; i < n; i++, fired++)
		trace_net_xmit(-1 - fired, 1000ul + (unsigned long)fired, packet);
}

static void on_xmit(int ifindex, unsigned long len, const void *skb, void *data)
{
	(void)data;
	(void)ifindex;
	(void)len;
	(void)skb;
	inproc++;
}

/* External tracers attached to tp (the semaphore's count, without the
 * in-process bit; test-only knowledge of the key's layout). */
static int external(const struct tracepoint *tp)
{
	return __atomic_load_n(&tp->enabled, __ATOMIC_RELAXED) & (TP__KEY_PROBES - 1);
}

/* Waits up to tenths/10 s for external() on tp to become (non-zero) or
 * (zero). */
static int await_external(const struct tracepoint *tp, int present, int tenths)
{
	struct timespec ms10 = { 0, 10000000 };
	int i;
	for (i = 0; i < tenths * 10; i++) {
		if ((external(tp) != 0) == present)
			return 1;
		nanosleep(&ms10, NULL);
	}
	return 0;
}

/* Waits for a tracer on net_xmit; then, since a tracer attaches its
 * probes one after the other, up to 1 s for one on net_poll too (where
 * the tracer exits): firing before it is done would be missed. */
static int await_tracer(void)
{
	if (!await_external(&__tracepoint_net_xmit, 1, 200)) {
		fprintf(stderr, "usdt_prog: no external tracer attached after 20 s\n");
		return 0;
	}
	await_external(&__tracepoint_net_poll, 1, 10);
	return 1;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 3;
	const char *mode = argc > 2 ? argv[2] : "";
	int ok = 1;
	setvbuf(stdout, NULL, _IOLBF, 0); /* t_usdt.sh watches the output */
	if (n < 0) {
		fprintf(stderr, "usage: usdt_prog [N [wait|both]]\n");
		return 2;
	}
	if (!strcmp(mode, "wait")) {
		ok = await_tracer();
		fire(n);
	} else if (!strcmp(mode, "both")) {
		ok = register_trace_net_xmit(on_xmit, NULL) == 0 && await_tracer();
		fire(n);
		ok = ok && unregister_trace_net_xmit(on_xmit, NULL) == 0;
		printf("in-process detached, tracer still attached: enabled %d\n",
		       trace_net_xmit_enabled() ? 1 : 0);
		fire(n);
		ok = ok && register_trace_net_xmit(on_xmit, NULL) == 0;
		fire(n);
		trace_net_poll();
		printf("stage 3 done, waiting for the tracer to detach\n");
		if (!await_external(&__tracepoint_net_xmit, 0, 200)) {
			fprintf(stderr, "usdt_prog: the tracer still attached after 20 s\n");
			ok = 0;
		}
		printf("tracer detached, in-process still attached: enabled %d\n",
		       trace_net_xmit_enabled() ? 1 : 0);
		fire(n);
		ok = ok && unregister_trace_net_xmit(on_xmit, NULL) == 0;
		printf("in-process probe saw %d\n", inproc);
	} else {
		fire(n);
	}
	trace_net_kinds(-5, 250, -6, 7u, USDT_IN, "x");
	trace_net_wide(-1, -2, -3, 4u, 1.5, -2.25f, -7, -8, 9ul, -10, (const void *)0x1234, -12);
	trace_net_many(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13);
	trace_net_poll();
	trace_disk_io(7);
	printf("net_xmit enabled at exit: %d\n", trace_net_xmit_enabled() ? 1 : 0);
	return ok ? 0 : 1;
}
