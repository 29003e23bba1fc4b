/* syscalls: the system call entry (examples/syscall.c).  Compiled in by -DCONFIG_FTRACE_SYSCALLS. */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM syscalls
#define TRACE_CONFIG CONFIG_FTRACE_SYSCALLS
#if !defined(_TRACE_SYSCALLS_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_SYSCALLS_H
#include <tracepoint.h>

DECLARE_TRACE(sys_enter, TP_PROTO(long id, long arg0, long arg1, long arg2),
	      TP_ARGS(id, arg0, arg1, arg2));

DECLARE_TRACE(sys_exit, TP_PROTO(long id, long ret), TP_ARGS(id, ret));

#endif /* _TRACE_SYSCALLS_H */
