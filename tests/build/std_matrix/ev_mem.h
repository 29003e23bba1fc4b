/* Subsystem "mem": unconverted header (no TRACE_CONFIG) -> always compiled in. */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM mem
#if !defined(_TRACE_SM_MEM_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_SM_MEM_H
#include <tracepoint.h>
DECLARE_TRACE(sm_mem_alloc, TP_PROTO(const void *ptr, size_t size, int flags),
	      TP_ARGS(ptr, size, flags));
#endif
