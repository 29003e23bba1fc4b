/* lib.c, plus a destructor that runs after the tracepoints' own (a
 * priority destructor: its .fini_array entry runs last) and waits there
 * while closing.c registers on the library's tracepoints: the window in
 * which dlclose() has run the library's destructors but not yet unmapped
 * it, and the loader still lists it. */
#include "lib.c"
#include <time.h>

static volatile int *closing, *tried;

/* The caller's flags: this destructor sets the first, then waits for the
 * second (at most 5 s). */
__attribute__((visibility("default"))) void dls_watch(volatile int *c, volatile int *t);
__attribute__((visibility("default"))) void dls_watch(volatile int *c, volatile int *t)
{
	closing = c;
	tried = t;
}

__attribute__((destructor(101))) static void lingering(void)
{
	struct timespec ms = { 0, 1000000 };
	int i;
	if (!closing)
		return;
	*closing = 1;
	for (i = 0; i < 5000 && !*tried; i++)
		nanosleep(&ms, NULL);
}
