/* A newcomer's event header, "kv", switched by CONFIG_CF_KV; with
 * -DKV_GUARD=<name> its include guard is that name (ev_kv2.h copies it),
 * with -DKV_PATH=<dir> it is re-read as "<dir>/ev_kv.h"; with
 * -DKV_ENUM_UNGUARDED its enum has no guard of its own (redeclared when
 * define_trace.h reads the header again). */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM kv
#define TRACE_CONFIG CONFIG_CF_KV
#if !defined(_TRACE_KV_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_KV_H
#include <tracepoint.h>
#ifdef KV_ENUM_UNGUARDED
enum kv_kind { KV_SMALL = 1, KV_BIG = 2 };
#elif !defined(KV_KIND_DEFINED)
#define KV_KIND_DEFINED
enum kv_kind { KV_SMALL = 1, KV_BIG = 2 };
#endif
TRACE_EVENT(kv_put, TP_PROTO(int key, const char *val), TP_ARGS(key, val),
	    TP_STRUCT__entry(__field(int, key) __string(val, val)),
	    TP_fast_assign(__entry->key = key;),
	    TP_printk("key=%d val=%s", __entry->key, __get_str(val)));
#endif
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE ev_kv
#undef TRACE_INCLUDE_PATH
#ifdef KV_PATH
#define TRACE_INCLUDE_PATH KV_PATH
#else
#define TRACE_INCLUDE_PATH .
#endif
#include <trace/define_trace.h>
