/* One header, one include guard, one define_trace.h: with -DKV3_TWO it
 * also sets a second TRACE_SYSTEM, kv4, inside its body (two subsystems
 * in one header), which the define_trace.h at the end reads as the
 * header's.  Switched by CONFIG_CF_KV. */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM kv3
#define TRACE_CONFIG CONFIG_CF_KV
#if !defined(_TRACE_KV3_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_KV3_H
#include <tracepoint.h>
TRACE_EVENT(kv_get, TP_PROTO(int key), TP_ARGS(key), TP_STRUCT__entry(__field(int, key)),
	    TP_fast_assign(__entry->key = key;), TP_printk("key=%d", __entry->key));
#ifdef KV3_TWO
#undef TRACE_SYSTEM
#define TRACE_SYSTEM kv4
#endif
TRACE_EVENT(kv_del, TP_PROTO(int key), TP_ARGS(key), TP_STRUCT__entry(__field(int, key)),
	    TP_fast_assign(__entry->key = key;), TP_printk("key=%d", __entry->key));
#endif
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE ev_kv3
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#include <trace/define_trace.h>
