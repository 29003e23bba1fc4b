/* lock: spinlocks (examples/lock.c).  Compiled in by -DCONFIG_LOCK_TRACER. */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM lock
#define TRACE_CONFIG CONFIG_LOCK_TRACER
#if !defined(_TRACE_LOCK_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_LOCK_H
#include <tracepoint.h>

DECLARE_TRACE(lock_acquire, TP_PROTO(const void *lock, const char *name, int trylock),
	      TP_ARGS(lock, name, trylock));

DECLARE_TRACE(lock_release, TP_PROTO(const void *lock, const char *name), TP_ARGS(lock, name));

#endif /* _TRACE_LOCK_H */
