/* Shared library, built with -fvisibility=hidden: defines and exports the
 * tracepoints of shlib_events.h and fires them from an exported function. */
#include "shlib_events.h"
DEFINE_TRACE(shlib_tp);
EXPORT_TRACEPOINT_SYMBOL(shlib_tp);
DEFINE_TRACE(shlib_gpl_tp);
EXPORT_TRACEPOINT_SYMBOL_GPL(shlib_gpl_tp);

#define SHLIB_API __attribute__((visibility("default")))

/* Hidden (no attribute): nm -D must not list it, which proves the library
 * really was built with -fvisibility=hidden. */
int shlib_internal_helper(int n);
int shlib_internal_helper(int n)
{
	return n * 2;
}

SHLIB_API int shlib_work(int n);
SHLIB_API int shlib_work(int n)
{
	trace_shlib_tp(n, "work");
	trace_shlib_gpl_tp((long)shlib_internal_helper(n));
	return n + 1;
}
