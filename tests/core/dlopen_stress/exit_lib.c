/* lib.c, plus a probe the library attaches to its own dls_work in its
 * constructor, and a loop that fires: for exit_main.c, a program with no
 * tracepoint code of its own (so no exit mark: this library's destructors
 * close its tracepoints at exit) whose threads fire here until it exits. */
#include "lib.c"

static long hits;

static void probe_work(int n, void *data)
{
	(void)n;
	(void)data;
	__atomic_add_fetch(&hits, 1, __ATOMIC_RELAXED);
}

__attribute__((constructor)) static void attach(void)
{
	register_trace_dls_work(probe_work, NULL);
}

__attribute__((visibility("default"))) void dls_fire_forever(void);
__attribute__((visibility("default"))) void dls_fire_forever(void)
{
	int i;
	for (i = 0;; i++)
		dls_call(i);
}
