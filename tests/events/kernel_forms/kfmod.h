/* Test-only events of a header that, as the kernel's module.h, defines
 * TRACE_SYSTEM ("kfmod") only when its events are created: the files that
 * only fire them read it without a system, after another header's. */
#ifdef CREATE_TRACE_POINTS
#undef TRACE_SYSTEM
#define TRACE_SYSTEM kfmod
#endif

#if !defined(_TRACE_KFMOD_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_KFMOD_H

#include <tracepoint.h>

TRACE_EVENT(kf_mod_load,

	TP_PROTO(const char *name),

	TP_ARGS(name),

	TP_STRUCT__entry(
		__string(	name,	name	)
	),

	TP_fast_assign(
		__assign_str(name);
	),

	TP_printk("%s", __get_str(name))
);

#endif /* _TRACE_KFMOD_H */

#undef TRACE_INCLUDE_PATH
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE kfmod
#include <trace/define_trace.h>
