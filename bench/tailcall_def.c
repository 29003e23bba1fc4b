/* The definitions of the tail-call benchmark's tracepoints, in their own
 * object so that the call sites see only declarations (as in a program
 * whose tracepoints are defined elsewhere): ours, or with -DV_LTTNG the
 * LTTng-UST provider object. */
#if defined(V_LTTNG)
#define TRACEPOINT_CREATE_PROBES
#define TRACEPOINT_DEFINE
#include "tailcall_lttng.h"
#else
#include "tailcall_tp.h"
DEFINE_TRACE(tc_alloc);
DEFINE_TRACE(tc_entry);
DEFINE_TRACE(tc_leaf);
#endif
