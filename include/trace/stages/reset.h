/* SPDX-License-Identifier: MIT */
/*
 * trace/stages/reset.h - forgets what the previous pass (or tracepoint.h)
 * made of the macros that every pass defines anew.
 *
 * Why a file: define_trace.h reads it before each pass, so that each pass
 * file starts from nothing and says all it means.  TRACE_EVENT,
 * TP_STRUCT__entry and TP_fast_assign mean the same in all passes
 * (trace/stages/init.h); TP__EV_DEFINE_KIND (trace/event_kinds.h) is
 * DEFINE_EVENT in every pass but the metadata's.  Everything is restored
 * at the end of define_trace.h (TP__EV_SAVED).
 *
 * Internal: included by trace/define_trace.h only, four times per event
 * header (no include guard); depends on nothing.
 */
#ifndef TP__EV_INCLUDE_FILE
#error "trace/stages/reset.h is internal: an event header's #include <trace/define_trace.h> reads it"
#endif

#undef DECLARE_EVENT_CLASS
#undef DEFINE_EVENT
#undef DECLARE_TRACE
#undef DECLARE_TRACE_NOARGS
#undef TP_printk
#undef __field
#undef __array
#undef __string
#undef __assign_str
#undef __get_str
#undef __dynamic_array
#undef __get_dynamic_array
#undef __get_dynamic_array_len
#undef __print_symbolic
#undef __print_flags
#undef __print_hex
#undef __field_struct
#undef __string_len
#undef __vstring
#undef __assign_str_len
#undef __assign_vstr
#undef __assign_bitmask
#undef __assign_sockaddr
#undef __get_bitmask
#undef __get_sockaddr
#undef __print_hex_str
#undef __print_hex_dump
#undef __print_array
#undef __print_symbolic_u64
#undef __print_flags_u64
#undef __print_ns_to_secs
#undef __print_ns_without_secs
#undef TRACE_DEFINE_ENUM
#undef TRACE_DEFINE_SIZEOF
#define TRACE_DEFINE_ENUM(a) TP__EV_SEMI
#define TRACE_DEFINE_SIZEOF(a) TP__EV_SEMI
#undef TP__EV_DEFINE
#undef TP__EV_PRINT_CLASS
#undef TP__EV_DEFINE_KIND
#define TP__EV_DEFINE_KIND(c, name, kind, proto, args) DEFINE_EVENT(c, name, PARAMS(proto), PARAMS(args))
