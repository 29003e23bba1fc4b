/* Second translation unit of the shared library: fires a tracepoint that
 * lib_def.c defines. */
#include "shlib_events.h"

__attribute__((visibility("default"))) int shlib_work2(int n);
__attribute__((visibility("default"))) int shlib_work2(int n)
{
	trace_shlib_tp(n, "work2");
	return n - 1;
}
