/* sched: the scheduler (examples/sched.c).
 *
 * Not converted: no TRACE_CONFIG, so these tracepoints are always compiled
 * in (only -DCONFIG_TRACEPOINTS_OFF removes them). */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM sched
#if !defined(_TRACE_SCHED_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_SCHED_H
#include <tracepoint.h>

DECLARE_TRACE(sched_wakeup, TP_PROTO(const char *comm, int pid), TP_ARGS(comm, pid));

DECLARE_TRACE(sched_switch,
	      TP_PROTO(const char *prev_comm, int prev_pid, const char *next_comm, int next_pid),
	      TP_ARGS(prev_comm, prev_pid, next_comm, next_pid));

#endif /* _TRACE_SCHED_H */
