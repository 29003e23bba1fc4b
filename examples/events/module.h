/* module: the module loader (examples/module.c).  Compiled in by -DCONFIG_MODULE_TRACER. */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM module
#define TRACE_CONFIG CONFIG_MODULE_TRACER
#if !defined(_TRACE_MODULE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_MODULE_H
#include <tracepoint.h>

DECLARE_TRACE(module_load, TP_PROTO(const char *name, unsigned int taints), TP_ARGS(name, taints));

DECLARE_TRACE(module_free, TP_PROTO(const char *name), TP_ARGS(name));

#endif /* _TRACE_MODULE_H */
