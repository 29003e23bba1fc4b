/* Sites loaded after their tracepoint was enabled (argv[1]: the path of
 * liblate_fire.so).  The program attaches a probe to late_tp (defined by
 * liblate_def.so, which it links), then dlopen()s liblate_fire.so, whose
 * call sites of late_tp were compiled idle: its constructor must make them
 * jump, or the probe misses the calls.  Then detach (no call reaches the
 * probe) and attach again (the enabler's walk patches the loaded library).
 * With -DOWN_TRACEPOINT the program has a tracepoint of its own, so its
 * module note exists and the library's constructor reads the process-wide
 * "a key was enabled" flag there; without it, the constructor reads the
 * keys themselves.  With -DLINKED the program links liblate_fire.so
 * instead: its sites are loaded (idle) before the probe is attached, and
 * the attach must make them jump.  t_late_sites.sh also builds the program
 * with -DTRACEPOINT_PORTABLE against libraries built with static keys: the
 * program has no patcher then, and the tracepoint's definer patches. */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>

#include "late_events.h"

#ifdef OWN_TRACEPOINT
DECLARE_TRACE(late_own, TP_PROTO(int n), TP_ARGS(n));
DEFINE_TRACE(late_own);
#endif

#ifdef LINKED
void late_fire(int n);
#endif

static int calls, last;

static void on_late(int n, void *data)
{
	(void)data;
	calls++;
	last = n;
}

#define CHECK(c)                                                               \
	do {                                                                   \
		if (!(c)) {                                                    \
			printf("FAILED: %s (line %d)\n", #c, __LINE__);       \
			return 1;                                              \
		}                                                              \
	} while (0)

int main(int argc, char **argv)
{
	void *h;
	void (*fire)(int);
	CHECK(argc == 2);
#ifdef OWN_TRACEPOINT
	trace_late_own(0); /* a site of its own, idle */
#endif
	CHECK(register_trace_late_tp(on_late, NULL) == 0);
#ifdef LINKED
	(void)argv;
	h = NULL;
	fire = late_fire;
#else
	h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		printf("FAILED: dlopen: %s\n", dlerror());
		return 1;
	}
	*(void **)(&fire) = dlsym(h, "late_fire");
	CHECK(fire != NULL);
#endif
	/* the library's site (-ENOSYS: portable mode, no patchable sites) */
	CHECK(tracepoint_sites(&__tracepoint_late_tp) == 1 ||
	      tracepoint_sites(&__tracepoint_late_tp) == -ENOSYS);
	fire(7);
	CHECK(calls == 1 && last == 7);
	CHECK(unregister_trace_late_tp(on_late, NULL) == 0);
	tracepoint_synchronize_unregister();
	fire(8);
	CHECK(calls == 1);
	CHECK(register_trace_late_tp(on_late, NULL) == 0);
	fire(9);
	CHECK(calls == 2 && last == 9);
	CHECK(unregister_trace_late_tp(on_late, NULL) == 0);
	tracepoint_synchronize_unregister();
	if (h)
		dlclose(h);
	printf("late_app: all checks passed\n");
	return 0;
}
