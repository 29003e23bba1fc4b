/* Subsystem "net", switched by CONFIG_MC_NET. */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM net
#define TRACE_CONFIG CONFIG_MC_NET
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE ev_net
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#if !defined(_TRACE_MC_NET_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_MC_NET_H
#include <tracepoint.h>
TRACE_EVENT(net_xmit, TP_PROTO(int len), TP_ARGS(len), TP_STRUCT__entry(__field(int, len)),
	    TP_fast_assign(__entry->len = len;), TP_printk("len=%d", __entry->len));
#endif
#include <trace/define_trace.h>
