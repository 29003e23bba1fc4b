/* A second event header, "kv2", switched by CONFIG_CF_KV; with
 * -DKV2_COPIED_GUARD its include guard is ev_kv.h's (a copy that kept it). */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM kv2
#define TRACE_CONFIG CONFIG_CF_KV
#ifdef KV2_COPIED_GUARD
#if !defined(_TRACE_KV_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_KV_H
#else
#define KV2_SKIP
#endif
#else
#if !defined(_TRACE_KV2_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_KV2_H
#else
#define KV2_SKIP
#endif
#endif
#ifndef KV2_SKIP
#include <tracepoint.h>
TRACE_EVENT(kv_resize, TP_PROTO(unsigned n), TP_ARGS(n), TP_STRUCT__entry(__field(unsigned, n)),
	    TP_fast_assign(__entry->n = n;), TP_printk("n=%u", __entry->n));
#endif
#undef KV2_SKIP
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE ev_kv2
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#include <trace/define_trace.h>
