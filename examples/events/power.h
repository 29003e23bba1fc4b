/* power: CPU idle and frequency states (examples/power.c).  Compiled in by -DCONFIG_POWER_TRACER. */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM power
#define TRACE_CONFIG CONFIG_POWER_TRACER
#if !defined(_TRACE_POWER_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_POWER_H
#include <tracepoint.h>

/* type: POWER_CSTATE (idle) or POWER_PSTATE (frequency), see ../toy.h. */
DECLARE_TRACE(power_start, TP_PROTO(unsigned int type, unsigned int state), TP_ARGS(type, state));

/* Leaving the idle state: nothing to report but the moment. */
DECLARE_TRACE_NOARGS(power_end);

DECLARE_TRACE(power_frequency, TP_PROTO(unsigned int type, unsigned int state),
	      TP_ARGS(type, state));

#endif /* _TRACE_POWER_H */
