/* Test-only events of a system whose name is no C identifier, "kf-dash",
 * with TRACE_SYSTEM_VAR naming it in symbols, as the kernel's headers do;
 * no TRACE_CONFIG: compiled in unless built with -DCONFIG_TRACE_kf_dash=0
 * (the switch of a header taken as it is). */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM kf-dash
#undef TRACE_SYSTEM_VAR
#define TRACE_SYSTEM_VAR kf_dash

#if !defined(_TRACE_KFDASH_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_KFDASH_H

#include <tracepoint.h>

TRACE_EVENT(kf_dash_hit,

	TP_PROTO(int n),

	TP_ARGS(n),

	TP_STRUCT__entry(
		__field(	int,	n	)
	),

	TP_fast_assign(
		__entry->n = n;
	),

	TP_printk("n=%d", __entry->n)
);

#endif /* _TRACE_KFDASH_H */

#undef TRACE_INCLUDE_PATH
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE kfdash
#include <trace/define_trace.h>
