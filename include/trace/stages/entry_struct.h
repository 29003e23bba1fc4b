/* SPDX-License-Identifier: MIT */
/*
 * trace/stages/entry_struct.h - pass 1: struct tp__ev_entry_<class>, the
 * packed record layout of the fixed fields of TP_STRUCT__entry (the
 * __string()s and __dynamic_array()s follow it in a record; a dynamic
 * array's 32-bit element count is a fixed field).
 *
 * Why a file: every later pass takes offsets and sizes from this struct.
 *
 * Internal: read by trace/define_trace.h after trace/stages/reset.h;
 * depends on trace/stages/init.h and tracepoint.h (TP__STATIC_ASSERT).
 */
#ifndef TP__EV_INCLUDE_FILE
#error "trace/stages/entry_struct.h is internal: an event header's #include <trace/define_trace.h> reads it"
#endif

#define DECLARE_EVENT_CLASS(c, proto, args, tstruct, assign, print)           \
	TP__EV_IF(TP__ON)(TP__EV_PRAGMA(GCC diagnostic push)                  \
	TP__EV_PRAGMA(GCC diagnostic ignored "-Wpacked") /* no field, or only chars */ \
	struct TP__EV_PACKED tp__ev_entry_##c { tstruct char tp__ev_end; };   \
	TP__EV_PRAGMA(GCC diagnostic pop)                                     \
	TP__STATIC_ASSERT(offsetof(struct tp__ev_entry_##c, tp__ev_end) <= 0xffff,   \
			   "event class " #c ": the fixed fields take more than 65535 bytes " \
			   "(offsets and sizes are 16-bit; use __string or smaller arrays)", \
			   tp__ev_entry_of_##c##_takes_more_than_65535_bytes);) TP__EV_SEMI
#define DEFINE_EVENT(c, name, proto, args) TP__EV_SEMI
#define TP__EV_DEFINE(c, pc, name, proto, args, reg, unreg) TP__EV_SEMI
#define TP__EV_PRINT_CLASS(c, name, print) TP__EV_SEMI
#define DECLARE_TRACE(name, proto, args) TP__EV_SEMI
#define DECLARE_TRACE_NOARGS(name) TP__EV_SEMI
#define TP_printk(...)
#define __field(type, name) type name;
#define __array(type, name, len) type name[len];
#define __string(name, src)
#define __field_struct(type, name) type name;
#define __string_len(name, src, len)
#define __vstring(name, fmt, va)
#define __dynamic_array(type, name, len) uint32_t tp__ev_len_##name;
