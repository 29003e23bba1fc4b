/* A shared library the program links: it defines the evf events and fires
 * evf_three from its constructor (before the program's own constructors
 * run) and from lib_work(). */
#define CREATE_TRACE_POINTS
#include "events/ev_fields.h"

__attribute__((constructor)) static void lib_ctor(void)
{
	int i;
	for (i = 0; i < 3; i++)
		trace_evf_three(100 + i, 0, 0);
}

__attribute__((visibility("default"))) int lib_work(int n);
__attribute__((visibility("default"))) int lib_work(int n)
{
	trace_evf_three(n, 1, 1);
	return n + 1;
}
