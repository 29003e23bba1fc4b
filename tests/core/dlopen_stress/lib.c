/* The library that is loaded and unloaded over and over: defines two
 * tracepoints and fires them from an exported function. */
#include "dls_events.h"

DEFINE_TRACE(dls_work);
DEFINE_TRACE(dls_other);

__attribute__((visibility("default"))) int dls_call(int n);
__attribute__((visibility("default"))) int dls_call(int n)
{
	trace_dls_work(n);
	trace_dls_other(n, "other");
	return n + 1;
}
