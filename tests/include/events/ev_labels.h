/* Test-only events whose integer fields TP_printk shows by name ("evl"
 * subsystem), compiled in by CONFIG_EVL: a __print_symbolic field, a
 * __print_flags field (one label of two bits), a signed field with a
 * negative label, and a field shown through an expression (no labels for
 * filters).  For the labels of filters (tests/recorder/test_filters.c). */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM evl
#define TRACE_CONFIG CONFIG_EVL
#if !defined(_TRACE_EV_LABELS_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_EV_LABELS_H
#include <tracepoint.h>

#ifndef EVL_TYPES_DEFINED
#define EVL_TYPES_DEFINED
enum evl_method { EVL_GET = 1, EVL_PUT = 2, EVL_DELETE = 3 };
enum evl_flag { EVL_READ = 1, EVL_WRITE = 2, EVL_SYNC = 4, EVL_RW = 3 };
#endif

TRACE_EVENT(evl_req, TP_PROTO(int method, unsigned flags, int err, unsigned mode, long long serial),
	    TP_ARGS(method, flags, err, mode, serial),
	    TP_STRUCT__entry(__field(unsigned char, method) __field(unsigned, flags)
				     __field(int, err) __field(unsigned, mode)
					     __field(long long, serial)),
	    TP_fast_assign(__entry->method = (unsigned char)method; __entry->flags = flags;
			   __entry->err = err; __entry->mode = mode; __entry->serial = serial;),
	    TP_printk("method=%s flags=%s err=%s mode=%s serial=%lld",
		      __print_symbolic(__entry->method, { EVL_GET, "GET" }, { EVL_PUT, "PUT" },
				       { EVL_DELETE, "DELETE" }),
		      __print_flags(__entry->flags, "|", { EVL_RW, "RW" }, { EVL_READ, "READ" },
				    { EVL_WRITE, "WRITE" }, { EVL_SYNC, "SYNC" }),
		      __print_symbolic(__entry->err, { -2, "ENOENT" }, { 0, "OK" }),
		      __print_symbolic(__entry->mode & 1, { 0, "even" }, { 1, "odd" }),
		      __entry->serial));

#endif /* _TRACE_EV_LABELS_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH events
#define TRACE_INCLUDE_FILE ev_labels
#include <trace/define_trace.h>
