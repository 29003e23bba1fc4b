/* SPDX-License-Identifier: MIT */
/*
 * trace/stages/string_names.h - pass 1b: the names of the __string()s of
 * each class, as members of struct tp__ev_strs_<class>, so that
 * __get_str() and __assign_str() of a name that is no __string of the
 * class fail to compile, as in the kernel.
 *
 * Why a file: the recorder and formatter pass checks names against it
 * (TP__EV_STRS, TP__EV_IS_STRING, defined here for that pass).
 *
 * Internal: read by trace/define_trace.h after trace/stages/reset.h;
 * depends on trace/stages/init.h.
 */
#ifndef TP__EV_INCLUDE_FILE
#error "trace/stages/string_names.h is internal: an event header's #include <trace/define_trace.h> reads it"
#endif

#define DECLARE_EVENT_CLASS(c, proto, args, tstruct, assign, print)           \
	TP__EV_IF(TP__ON)(struct tp__ev_strs_##c { tstruct char tp__ev_none; };) TP__EV_SEMI
#define DEFINE_EVENT(c, name, proto, args) TP__EV_SEMI
#define TP__EV_DEFINE(c, pc, name, proto, args, reg, unreg) TP__EV_SEMI
#define TP__EV_PRINT_CLASS(c, name, print) TP__EV_SEMI
#define DECLARE_TRACE(name, proto, args) TP__EV_SEMI
#define DECLARE_TRACE_NOARGS(name) TP__EV_SEMI
#define TP_printk(...)
#define __field(type, name)
#define __array(type, name, len)
#define __string(name, src) char tp__ev_s_##name;
#define __dynamic_array(type, name, len)
/* In the functions of pass 3 (tp__ev_strs_t: their class's names). */
#define TP__EV_STRS(c) typedef struct tp__ev_strs_##c tp__ev_strs_t TP__UNUSED
#define TP__EV_IS_STRING(name) ((void)sizeof(((tp__ev_strs_t *)0)->tp__ev_s_##name))
