/* jbd2: the journal under ext4 (examples/jbd2.c).  Compiled in by -DCONFIG_JBD2_TRACER. */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM jbd2
#define TRACE_CONFIG CONFIG_JBD2_TRACER
#if !defined(_TRACE_JBD2_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_JBD2_H
#include <tracepoint.h>

DECLARE_TRACE(jbd2_start_commit, TP_PROTO(const char *dev, unsigned int tid), TP_ARGS(dev, tid));

DECLARE_TRACE(jbd2_end_commit, TP_PROTO(const char *dev, unsigned int tid, unsigned int blocks),
	      TP_ARGS(dev, tid, blocks));

#endif /* _TRACE_JBD2_H */
