/* kmem: the slab allocator (examples/mm.c).  Compiled in by -DCONFIG_KMEMTRACE. */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM kmem
#define TRACE_CONFIG CONFIG_KMEMTRACE
#if !defined(_TRACE_KMEM_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_KMEM_H
#include <tracepoint.h>

DECLARE_TRACE(kmalloc,
	      TP_PROTO(unsigned long call_site, const void *ptr, size_t bytes_req,
		       size_t bytes_alloc),
	      TP_ARGS(call_site, ptr, bytes_req, bytes_alloc));

DECLARE_TRACE(kfree, TP_PROTO(unsigned long call_site, const void *ptr), TP_ARGS(call_site, ptr));

#endif /* _TRACE_KMEM_H */
