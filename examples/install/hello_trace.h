/* Event header of the "hello" subsystem of a program that uses an installed
 * tracepoint.h.  -DCONFIG_HELLO_TRACE compiles its tracepoints in; without
 * it they disappear and leave no byte behind. */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM hello
#define TRACE_CONFIG CONFIG_HELLO_TRACE
#if !defined(_TRACE_HELLO_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_HELLO_H
#include <tracepoint.h>

DECLARE_TRACE(hello_greet, TP_PROTO(const char *who, int n), TP_ARGS(who, n));

#endif /* _TRACE_HELLO_H */
