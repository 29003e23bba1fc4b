/* SPDX-License-Identifier: MIT */
/*
 * trace/define_trace.h - turns an event header's TRACE_EVENT()s into
 * tracepoint definitions plus event metadata, a recorder and a formatter.
 *
 * An event header ends with this include, OUTSIDE its include guard:
 *
 *     #undef TRACE_SYSTEM
 *     #undef TRACE_CONFIG
 *     #define TRACE_SYSTEM kmem
 *     #define TRACE_CONFIG CONFIG_KMEMTRACE
 *     #if !defined(_TRACE_KMEM_EVENTS_H) || defined(TRACE_HEADER_MULTI_READ)
 *     #define _TRACE_KMEM_EVENTS_H
 *     #include <tracepoint.h>
 *     TRACE_EVENT(kmalloc, TP_PROTO(...), TP_ARGS(...),
 *                 TP_STRUCT__entry(__field(size_t, bytes) ...),
 *                 TP_fast_assign(__entry->bytes = bytes; ...),
 *                 TP_printk("bytes=%zu", __entry->bytes));
 *     #endif
 *     #undef TRACE_INCLUDE_PATH
 *     #define TRACE_INCLUDE_PATH events       // optional, see below
 *     #define TRACE_INCLUDE_FILE kmem_events  // optional, default TRACE_SYSTEM
 *     #include <trace/define_trace.h>
 *
 * Everywhere but in one .c file this include does nothing, and TRACE_EVENT
 * is tracepoint.h's plain DECLARE_TRACE: a file that only fires events pays
 * for nothing more than for a DECLARE_TRACE.  The one .c file that does
 *
 *     #define CREATE_TRACE_POINTS
 *     #include "events/kmem_events.h"
 *
 * gets three more reads of the header (TRACE_HEADER_MULTI_READ lets them
 * through its guard), each with TRACE_EVENT & co. meaning something else:
 *   1. struct tp__ev_entry_<class>, the packed record layout of the fixed
 *      fields of TP_STRUCT__entry (the __string()s follow it in a record);
 *   2. the field descriptors, struct trace_event_class (system, name,
 *      TP_printk text, layout, formatter) and struct trace_event per event;
 *   3. the recorder (reserve, TP_fast_assign, commit), the TP_printk
 *      formatter, one recorder probe per class (its events are attached
 *      with it, so they must have its prototype), and the tracepoint itself,
 *      defined with TP__DEFINE_TRACE_EVENT so that its .event points at the
 *      struct trace_event.  Plain DECLARE_TRACE()s of the header get their
 *      DEFINE_TRACE here as well.
 * Every read includes <tracepoint.h> again, which recomputes the header's
 * TRACE_CONFIG decision: a compiled-out header emits nothing in any pass
 * (selection by token pasting on TP__ON), so it leaves zero bytes.
 *
 * The header is re-read as <trace/events/TRACE_INCLUDE_FILE.h> when
 * TRACE_INCLUDE_PATH is undefined, else as "TRACE_INCLUDE_PATH/
 * TRACE_INCLUDE_FILE.h" (searched from this directory, then the -I paths),
 * as in the kernel.  Path components must not be macros (e.g. `linux`).
 *
 * Field helpers (TP_STRUCT__entry):
 *   __field(type, name)        a scalar: integer, enum, bool, float, pointer
 *   __array(type, name, len)   a fixed array (char arrays print as strings)
 *   __string(name, src)        a NUL-terminated copy of src (NULL: "(null)"),
 *                              at most TRACEPOINT_STRING_MAX bytes; copied
 *                              after TP_fast_assign, whether or not it calls
 *                              __assign_str (accepted, does nothing; the
 *                              name must be a __string of the class)
 *   __dynamic_array(type, name, len)
 *                              len elements, after the fixed part with the
 *                              strings (declaration order); the entry holds
 *                              their count (32 bits)
 * In TP_fast_assign:  __entry->name = ...;  __assign_str(name, src);
 *                     memcpy(__entry->arr, ..., sizeof(__entry->arr));
 *                     memcpy(__get_dynamic_array(name), src, bytes);
 * In TP_printk:       __entry->name, __get_str(name), __get_dynamic_array(name),
 *                     __get_dynamic_array_len(name) (bytes), and for %s:
 *                     __print_symbolic(value, { v, "name" }...),
 *                     __print_flags(value, "|", { mask, "name" }...),
 *                     __print_hex(buf, len)
 * Event forms besides TRACE_EVENT, DECLARE_EVENT_CLASS and DEFINE_EVENT:
 *   TRACE_EVENT_CONDITION / DEFINE_EVENT_CONDITION (TP_CONDITION, checked
 *   by the tracepoint's dispatch before any probe), TRACE_EVENT_FN (reg,
 *   unreg), DEFINE_EVENT_PRINT (own TP_printk).  TP_STRUCT__entry() may be
 *   empty; TP_PROTO(void), TP_ARGS() is an event without arguments.
 */
#if defined(TP__EV_FORGET)

/* Included by itself, below, before each pass (TP__EV_FORGET defined):
 * forgets what the previous pass (or tracepoint.h) made of the macros that
 * every pass defines anew.  TRACE_EVENT, TP_STRUCT__entry and
 * TP_fast_assign mean the same in all passes; everything is restored at
 * the end (TP__EV_SAVED). */
#undef TP__EV_FORGET
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
#undef TP__EV_DEFINE
#undef TP__EV_PRINT_CLASS

#elif defined(CREATE_TRACE_POINTS)

#include <trace/trace_events.h>

/* The re-reads below include this file again: keep them from recursing. */
#undef CREATE_TRACE_POINTS

#ifndef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE TRACE_SYSTEM
#endif
#ifndef TRACE_INCLUDE_PATH
#define TP__EV_INCLUDE(file) <trace/events/file.h>
#else
#define TP__EV_INCLUDE(file) TP__STR(TRACE_INCLUDE_PATH/file.h)
#endif
#define TP__EV_INCLUDE_FILE(file) TP__EV_INCLUDE(file)

/* TP__EV_IF(on)(tokens): the tokens if on is 1, nothing if it is 0. */
#define TP__EV_IF(on) TP__EV_IF_(on)
#define TP__EV_IF_(on) TP__EV_IF_##on
#define TP__EV_IF_1(...) __VA_ARGS__
#define TP__EV_IF_0(...)
/* Closes each expansion with a declaration for the header's ';'. */
#define TP__EV_SEMI TP__EV_SEMI_(__COUNTER__)
#define TP__EV_SEMI_(n) TP__EV_SEMI__(n)
#define TP__EV_SEMI__(n) enum { tp__ev_semicolon_##n }
#define TP__EV_PACKED __attribute__((packed))

/* Every macro the passes redefine, saved here and restored at the end,
 * defined or not (pop_macro restores "undefined" too): the event macros
 * tracepoint.h defines, the field helpers (normally undefined), and TP__ON,
 * which each re-read of the header recomputes. */
#define TP__EV_SAVED(op)                                                      \
	op("TRACE_EVENT") op("DECLARE_EVENT_CLASS") op("DEFINE_EVENT")        \
	op("DECLARE_TRACE") op("DECLARE_TRACE_NOARGS") op("TP_STRUCT__entry") \
	op("TP_fast_assign") op("TP_printk") op("__field") op("__array")      \
	op("__string") op("__assign_str") op("__get_str") op("TP__ON")         \
	op("TP__EV_DEFINE_KIND") op("TP__SLICE_SCOPE")                        \
	op("TRACE_EVENT_CONDITION") op("DEFINE_EVENT_CONDITION")              \
	op("TRACE_EVENT_FN") op("DEFINE_EVENT_PRINT") op("__dynamic_array")  \
	op("__get_dynamic_array") op("__get_dynamic_array_len")              \
	op("__print_symbolic") op("__print_flags") op("__print_hex")
#define TP__EV_PRAGMA(x) _Pragma(#x)
#define TP__EV_PUSH(m) TP__EV_PRAGMA(push_macro(m))
#define TP__EV_POP(m) TP__EV_PRAGMA(pop_macro(m))
TP__EV_SAVED(TP__EV_PUSH)
#undef TRACE_EVENT
#undef TP_STRUCT__entry
#undef TP_fast_assign
/* <trace/event_kinds.h>: a kind matters in pass 2 only; the scoped-slice
 * helpers belong to the plain reading of the header. */
#undef TP__EV_DEFINE_KIND
#undef TP__SLICE_SCOPE
#define TP__EV_DEFINE_KIND(c, name, kind, proto, args) DEFINE_EVENT(c, name, PARAMS(proto), PARAMS(args))
#define TP__SLICE_SCOPE(name, proto, args)
#undef TRACE_EVENT_CONDITION
#undef DEFINE_EVENT_CONDITION
#undef TRACE_EVENT_FN
#undef DEFINE_EVENT_PRINT

#ifndef TRACE_HEADER_MULTI_READ
#define TRACE_HEADER_MULTI_READ
#define TP__EV_UNDEF_MULTI_READ
#endif

#define TRACE_EVENT(name, proto, args, tstruct, assign, print)                \
	DECLARE_EVENT_CLASS(name, PARAMS(proto), PARAMS(args),                \
			    PARAMS(tstruct), PARAMS(assign), PARAMS(print));  \
	DEFINE_EVENT(name, name, PARAMS(proto), PARAMS(args))
#define TP_STRUCT__entry(...) __VA_ARGS__
#define TP_fast_assign(...) __VA_ARGS__
/* The variants: the condition lives in the tracepoint's dispatch (the
 * header's plain read), reg/unreg and the own TP_printk in TP__EV_DEFINE,
 * which each pass defines. */
#define TRACE_EVENT_CONDITION(name, proto, args, cond, tstruct, assign, print) \
	TRACE_EVENT(name, PARAMS(proto), PARAMS(args), PARAMS(tstruct),       \
		    PARAMS(assign), PARAMS(print))
#define DEFINE_EVENT_CONDITION(c, name, proto, args, cond)                   \
	DEFINE_EVENT(c, name, PARAMS(proto), PARAMS(args))
#define TRACE_EVENT_FN(name, proto, args, tstruct, assign, print, reg, unreg) \
	DECLARE_EVENT_CLASS(name, PARAMS(proto), PARAMS(args),                \
			    PARAMS(tstruct), PARAMS(assign), PARAMS(print));  \
	TP__EV_DEFINE(name, name, name, PARAMS(proto), PARAMS(args), reg, unreg)
#define DEFINE_EVENT_PRINT(c, name, proto, args, print)                       \
	TP__EV_PRINT_CLASS(c, name, PARAMS(print));                           \
	TP__EV_DEFINE(c, name, name, PARAMS(proto), PARAMS(args), 0, 0)
/* ", proto" (", args"), or nothing for an event without arguments. */
#define TP__EV_WITH(e, ...) TP__EV_WITH_(e, __VA_ARGS__)
#define TP__EV_WITH_(e, ...) TP__EV_WITH_##e(__VA_ARGS__)
#define TP__EV_WITH_0(...) , __VA_ARGS__
#define TP__EV_WITH_1(...)
#define TP__EV_WITH_2(...) /* TP_ARGS(void): as TP_ARGS(), and an error (select.h) */
#define TP__EV_PROTO(proto, args) TP__EV_WITH(TP__ARGS_EMPTY(args), proto)
/* "proto, " or nothing: what a probe's parameters start with (its
 * void *data comes last). */
#define TP__EV_LEAD(e, ...) TP__EV_LEAD_(e, __VA_ARGS__)
#define TP__EV_LEAD_(e, ...) TP__EV_LEAD_##e(__VA_ARGS__)
#define TP__EV_LEAD_0(...) __VA_ARGS__,
#define TP__EV_LEAD_1(...)
#define TP__EV_LEAD_2(...)
#define TP__EV_PROBE_PROTO(proto, args) TP__EV_LEAD(TP__ARGS_EMPTY(args), proto)
#define TP__EV_ARGS(args) TP__EV_WITH(TP__ARGS_EMPTY(args), args)
/* Whether two types are the same: an event's probe type and its class's. */
#ifdef __cplusplus
#ifndef TP__EV_SAME_TYPE_DEFINED
#define TP__EV_SAME_TYPE_DEFINED
extern "C++" {
template <class tp__a, class tp__b> struct tp__ev_same { enum { value = 0 }; };
template <class tp__a> struct tp__ev_same<tp__a, tp__a> { enum { value = 1 }; };
}
#endif
#define TP__EV_SAME_TYPE(a, b) (tp__ev_same<a, b>::value)
#else
#define TP__EV_SAME_TYPE(a, b) __builtin_types_compatible_p(a, b)
#endif
/* The TP_printk arguments with "%s", "" appended: never a zero-length format. */
#define TP__EV_FMT(...) TP__EV_FMT_(__VA_ARGS__, "")
#define TP__EV_FMT_(f, ...) f "%s", __VA_ARGS__

/* ---- Pass 1: the entry struct. ---- */
#define TP__EV_FORGET
#include <trace/define_trace.h>
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
#define __dynamic_array(type, name, len) uint32_t tp__ev_len_##name;
#include TP__EV_INCLUDE_FILE(TRACE_INCLUDE_FILE)

/* ---- Pass 1b: the names of the __string()s of each class, as members of
 * struct tp__ev_strs_<class>, so that __get_str() and __assign_str() of a
 * name that is no __string of the class fail to compile, as in the
 * kernel. ---- */
#define TP__EV_FORGET
#include <trace/define_trace.h>
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
#include TP__EV_INCLUDE_FILE(TRACE_INCLUDE_FILE)
/* In the functions of pass 3 (tp__ev_strs_t: their class's names). */
#define TP__EV_STRS(c) typedef struct tp__ev_strs_##c tp__ev_strs_t TP__UNUSED
#define TP__EV_IS_STRING(name) ((void)sizeof(((tp__ev_strs_t *)0)->tp__ev_s_##name))

/* ---- Pass 2: metadata. ---- */
#define TP__EV_FORGET
#include <trace/define_trace.h>
#define DECLARE_TRACE(name, proto, args) TP__EV_SEMI
#define DECLARE_TRACE_NOARGS(name) TP__EV_SEMI
#define DECLARE_EVENT_CLASS(c, proto, args, tstruct, assign, print)           \
	TP__EV_IF(TP__ON)(                                                    \
	static const struct trace_event_field *tp__ev_fields_##c(unsigned *tp__ev_n) \
	{                                                                     \
		typedef struct tp__ev_entry_##c tp__ev_entry_t TP__UNUSED;    \
		static const struct trace_event_field tp__ev_f[] = {           \
			tstruct { NULL, NULL, 0, 0, 0, 0, 0 } };                \
		*tp__ev_n = (unsigned)(sizeof(tp__ev_f) / sizeof(tp__ev_f[0])) - 1u; \
		return tp__ev_f;                                               \
	}                                                                     \
	/* The recorder probe of the class: every event of the class is \
	 * attached with it (its data says which event). */               \
	static void tp__ev_probe_##c(TP__EV_PROBE_PROTO(PARAMS(proto), PARAMS(args)) void *); \
	TP__EV_CLASS(c, c, print)) TP__EV_SEMI
/* The class struct of a class (pc == c) or of a DEFINE_EVENT_PRINT (pc:
 * the event, with its own text and formatter on c's layout). */
#define TP__EV_CLASS(c, pc, print)                                            \
	static int tp__ev_fmt_##pc(char *, size_t, void *, size_t);            \
	static void tp__ev_syms_##pc(trace_print_symbols_fn, void *);          \
	static const struct trace_event_class tp__ev_class_##pc = {            \
		TP__STR(TRACE_SYSTEM), #c, print,                             \
		(unsigned)offsetof(struct tp__ev_entry_##c, tp__ev_end),        \
		tp__ev_fields_##c, tp__ev_fmt_##pc, tp__ev_syms_##pc };
#define TP__EV_PRINT_CLASS(c, name, print)                                    \
	TP__EV_IF(TP__ON)(TP__EV_CLASS(c, name, print)) TP__EV_SEMI
#define DEFINE_EVENT(c, name, proto, args)                                    \
	TP__EV_DEFINE(c, c, name, PARAMS(proto), PARAMS(args), 0, 0)
/* struct trace_event of an event of class c, with pc's class struct (c's,
 * or a DEFINE_EVENT_PRINT's own) and the class's recorder probe. */
#define TP__EV_EVENT(c, pc, name, kind)                                       \
	TP__EV_IF(TP__ON)(                                                    \
	static const struct trace_event tp__ev_event_##name = {                \
		&tp__ev_class_##pc, #name, &__tracepoint_##name,               \
		(tracepoint_func_t)tp__ev_probe_##c, (kind) };) TP__EV_SEMI
#define TP__EV_DEFINE(c, pc, name, proto, args, reg, unreg)                   \
	TP__EV_EVENT(c, pc, name, TRACE_KIND_INSTANT)
#undef TP__EV_DEFINE_KIND
#define TP__EV_DEFINE_KIND(c, name, kind, proto, args) TP__EV_EVENT(c, c, name, kind)
#define TP_printk(...) #__VA_ARGS__
#define __field(type, name)                                                   \
	{ #type, #name, (unsigned short)offsetof(tp__ev_entry_t, name),        \
	  (unsigned short)sizeof(type), (unsigned char)TP__EV_KIND(type),      \
	  (unsigned char)TP__EV_IS_SIGNED(type), 0 },
#define __array(type, name, len)                                              \
	{ #type, #name, (unsigned short)offsetof(tp__ev_entry_t, name),        \
	  (unsigned short)(sizeof(type) * (len)), (unsigned char)TP__EV_KIND(type), \
	  (unsigned char)TP__EV_IS_SIGNED(type), (unsigned short)(len) },
#define __string(name, src)                                                   \
	{ "string", #name, 0, 0, TRACE_FIELD_STRING, 0, 0 },
#define __dynamic_array(type, name, len)                                      \
	{ #type, #name, (unsigned short)offsetof(tp__ev_entry_t, tp__ev_len_##name), \
	  (unsigned short)sizeof(type), TRACE_FIELD_DYNAMIC,                   \
	  (unsigned char)TP__EV_IS_SIGNED(type), (unsigned short)TP__EV_KIND(type) },
#include TP__EV_INCLUDE_FILE(TRACE_INCLUDE_FILE)
#undef TP__EV_DEFINE_KIND
#define TP__EV_DEFINE_KIND(c, name, kind, proto, args) DEFINE_EVENT(c, name, PARAMS(proto), PARAMS(args))

/* ---- Pass 3: recorder, formatter, probes and the tracepoints. ---- */
#define TP__EV_FORGET
#include <trace/define_trace.h>
#define DECLARE_EVENT_CLASS(c, proto, args, tstruct, assign, print)           \
	TP__EV_IF(TP__ON)(                                                    \
	static __attribute__((noinline)) TP__UNUSED void                      \
	tp__ev_full_##c(void *tp__ev_data TP__EV_PROTO(PARAMS(proto), PARAMS(args))); \
	/* The recorder: inline in the probes (tp__ev_full 0: the fast       \
	 * reservation, no call but jumps in tail position), and in its slow \
	 * copy tp__ev_full_<c> (1: the full reservation, out of line). */   \
	/* A record of fixed fields only: TP_fast_assign writes it on the     \
	 * stack, tp__ev_record (out of line, shared) reserves, copies and    \
	 * commits it: a few instructions of code per class. */                \
	static TP__ALWAYS_INLINE TP__UNUSED void                              \
	tp__ev_fixed_##c(void *tp__ev_data TP__EV_PROTO(PARAMS(proto), PARAMS(args))) \
	{                                                                     \
		struct tp__ev_entry_##c tp__ev_local, *__entry = &tp__ev_local; \
		TP__EV_STRS(c);                                               \
		struct tp__ev_ctx tp__ev_ctx; /* for the (dead) copy of a class \
					       * with a __dynamic_array */   \
		TP__USE_ARGS(0 TP__EV_ARGS(PARAMS(args)));                     \
		memset(&tp__ev_ctx, 0, sizeof(tp__ev_ctx));                     \
		/* what TP_fast_assign leaves alone is recorded as zeros */   \
		memset(&tp__ev_local, 0, offsetof(struct tp__ev_entry_##c, tp__ev_end)); \
		{ assign }                                                    \
		TP__EV_RECORD(tp__ev_data, __entry,                           \
			      offsetof(struct tp__ev_entry_##c, tp__ev_end));    \
	}                                                                     \
	static TP__ALWAYS_INLINE TP__UNUSED void                              \
	tp__ev_do_##c(const int tp__ev_full, void *tp__ev_data TP__EV_PROTO(PARAMS(proto), PARAMS(args))) \
	{                                                                     \
		struct tp__ev_res tp__ev_r;                                     \
		struct tp__ev_entry_##c *__entry;                              \
		TP__EV_STRS(c);                                               \
		struct tp__ev_var tp__ev_v[] = { tstruct { NULL, 0, NULL } };     \
		enum { tp__ev_nvar = sizeof(tp__ev_v) / sizeof(tp__ev_v[0]) - 1 }; \
		struct tp__ev_ctx tp__ev_ctx;                                   \
		size_t tp__ev_size = offsetof(struct tp__ev_entry_##c, tp__ev_end); \
		unsigned tp__ev_i;                                             \
		TP__USE_ARGS(0 TP__EV_ARGS(PARAMS(args)));                     \
		if (!tp__ev_full && tp__ev_nvar == 0) {                        \
			tp__ev_fixed_##c(tp__ev_data TP__EV_ARGS(PARAMS(args)));  \
			return;                                               \
		}                                                             \
		for (tp__ev_i = 0; tp__ev_i != (unsigned)tp__ev_nvar; tp__ev_i++) { \
			if (tp__ev_v[tp__ev_i].src)                             \
				tp__ev_v[tp__ev_i].size = tp__ev_str_size(tp__ev_v[tp__ev_i].src); \
			tp__ev_size += tp__ev_v[tp__ev_i].size;                  \
		}                                                             \
		__entry = (struct tp__ev_entry_##c *)(tp__ev_full ?             \
			tp__ev_reserve_full(tp__ev_data, tp__ev_size, &tp__ev_r) : \
			tp__ev_reserve(tp__ev_data, tp__ev_size, &tp__ev_r, 0));  \
		if (!__entry) {                                               \
			if (!tp__ev_full) /* starts over in the slow copy */    \
				tp__ev_full_##c(tp__ev_data TP__EV_ARGS(PARAMS(args))); \
			return;                                               \
		}                                                             \
		if (tp__ev_nvar != 0) {                                          \
			tp__ev_ctx_init(&tp__ev_ctx, __entry,                     \
				       offsetof(struct tp__ev_entry_##c, tp__ev_end), \
				       tp__ev_size, tp__ev_fields_##c);           \
			tp__ev_ctx.vars = tp__ev_v;                             \
			tp__ev_var_counts(&tp__ev_ctx);                          \
		}                                                             \
		{ assign }                                                    \
		if (tp__ev_nvar != 0)                                         \
			tp__ev_var_copy(&tp__ev_ctx);                            \
		tp__ev_finish(tp__ev_data, &tp__ev_r, __entry, tp__ev_size);    \
	}                                                                     \
	static __attribute__((noinline)) TP__UNUSED void                      \
	tp__ev_full_##c(void *tp__ev_data TP__EV_PROTO(PARAMS(proto), PARAMS(args))) \
	{                                                                     \
		tp__ev_do_##c(1, tp__ev_data TP__EV_ARGS(PARAMS(args)));        \
	}                                                                     \
	/* What the probes run: with fixed fields only, tp__ev_fixed_<c> (the \
	 * constant test leaves tp__ev_do_<c> and its slow copy unreferenced: \
	 * gcc does not compile them at all). */                          \
	static TP__ALWAYS_INLINE TP__UNUSED void                              \
	tp__ev_run_##c(void *tp__ev_data TP__EV_PROTO(PARAMS(proto), PARAMS(args))) \
	{                                                                     \
		/* 1 + the number of __string and __dynamic_array fields, as   \
		 * a size (sizeof: their source expressions are not evaluated) */ \
		if (sizeof(*__extension__({                                   \
			struct tp__ev_var tp__ev_v[] = { tstruct { NULL, 0, NULL } }; \
			(char(*)[sizeof(tp__ev_v) / sizeof(tp__ev_v[0])])0; })) == 1) \
			tp__ev_fixed_##c(tp__ev_data TP__EV_ARGS(PARAMS(args)));  \
		else                                                          \
			tp__ev_do_##c(0, tp__ev_data TP__EV_ARGS(PARAMS(args)));  \
	}                                                                     \
	static TP__UNUSED void                                                \
	tp__ev_probe_##c(TP__EV_PROBE_PROTO(PARAMS(proto), PARAMS(args)) void *tp__ev_data) \
	{                                                                     \
		tp__ev_run_##c(tp__ev_data TP__EV_ARGS(PARAMS(args)));          \
	}                                                                     \
	TP__EV_FORMATTER(c, c, PARAMS(print))) TP__EV_SEMI
/* The TP_printk formatter of pc on c's layout, and the function that
 * hands the __print_symbolic/__print_flags tables to a sink. */
#define TP__EV_FORMATTER(c, pc, print)                                        \
	static int tp__ev_fmt_##pc(char *tp__ev_buf, size_t tp__ev_len, void *tp__ev_e, \
				  size_t tp__ev_size)                          \
	{                                                                     \
		struct tp__ev_entry_##c *__entry = (struct tp__ev_entry_##c *)tp__ev_e; \
		TP__EV_STRS(c);                                               \
		const size_t tp__ev_fixed = offsetof(struct tp__ev_entry_##c, tp__ev_end); \
		unsigned tp__ev_nf = 0;                                        \
		const struct trace_event_field *tp__ev_fl = tp__ev_fields_##c(&tp__ev_nf); \
		char tp__ev_scratch[TP__EV_SCRATCH];                          \
		struct tp__ev_ctx tp__ev_ctx;                                   \
		tp__ev_ctx_init(&tp__ev_ctx, __entry, tp__ev_fixed, tp__ev_size,  \
			       tp__ev_fields_##c);                              \
		tp__ev_ctx.scratch = tp__ev_scratch;                            \
		(void)__entry;                                                \
		(void)tp__ev_fl;                                               \
		return snprintf(tp__ev_buf, tp__ev_len, TP__EV_FMT(print));     \
	}                                                                     \
	static void tp__ev_syms_##pc(trace_print_symbols_fn tp__ev_fn, void *tp__ev_priv) \
	{                                                                     \
		struct tp__ev_entry_##c tp__ev_zero, *__entry = &tp__ev_zero;   \
		TP__EV_STRS(c);                                               \
		const size_t tp__ev_fixed = offsetof(struct tp__ev_entry_##c, tp__ev_end); \
		const size_t tp__ev_size = tp__ev_fixed;                        \
		unsigned tp__ev_nf = 0;                                        \
		const struct trace_event_field *tp__ev_fl = tp__ev_fields_##c(&tp__ev_nf); \
		char tp__ev_scratch[16];                                       \
		struct tp__ev_ctx tp__ev_ctx;                                   \
		memset(&tp__ev_zero, 0, sizeof(tp__ev_zero));                   \
		tp__ev_ctx_init(&tp__ev_ctx, __entry, tp__ev_fixed, tp__ev_size,  \
			       tp__ev_fields_##c);                              \
		tp__ev_ctx.scratch = tp__ev_scratch;                            \
		tp__ev_ctx.collect = tp__ev_fn;                                 \
		tp__ev_ctx.priv = tp__ev_priv;                                  \
		(void)tp__ev_fl;                                               \
		tp__ev_args_used(0, print);                                    \
	}
#define TP__EV_PRINT_CLASS(c, name, print)                                    \
	TP__EV_IF(TP__ON)(TP__EV_FORMATTER(c, name, PARAMS(print))) TP__EV_SEMI
#define DEFINE_EVENT(c, name, proto, args)                                    \
	TP__EV_DEFINE(c, c, name, PARAMS(proto), PARAMS(args), 0, 0)
#define TP__EV_DEFINE(c, pc, name, proto, args, reg, unreg)                   \
	TP__EV_IF(TP__ON)(                                                    \
	TP__STATIC_ASSERT(TP__EV_SAME_TYPE(__typeof__(&tp__ev_probe_##c),      \
		void (*)(TP__EV_PROBE_PROTO(PARAMS(proto), PARAMS(args)) void *)), \
		"event " #name " of class " #c ": its TP_PROTO differs from its class's " \
		"(the events of a class share the class's recorder)",          \
		tp__ev_proto_of_##name##_differs_from_its_class);)              \
	TP__DEFINE_SEL(TP__ON, name, reg, unreg, &tp__ev_event_##name, TP__STR(TRACE_SYSTEM))
#define DECLARE_TRACE(name, proto, args) DEFINE_TRACE(name)
#define DECLARE_TRACE_NOARGS(name) DEFINE_TRACE(name)
#define TP_printk(...) __VA_ARGS__
#define __field(type, name)
#define __array(type, name, len)
#define __string(name, src) { tp__ev_str_src(src), 0, NULL },
#define __dynamic_array(type, name, len) { NULL, (size_t)(len) * sizeof(type), NULL },
#define __assign_str(...) TP__EV_ASSIGN_STR(__VA_ARGS__, 0)
#define TP__EV_ASSIGN_STR(name, ...) TP__EV_IS_STRING(name)
#define __get_str(name)                                                       \
	(TP__EV_IS_STRING(name),                                              \
	 tp__ev_get_str(__entry, tp__ev_fixed, tp__ev_size, tp__ev_fl, tp__ev_nf, #name))
/* Where __entry's dynamic array `name` is: its length field's offset. */
#define TP__EV_DYN_OFF(name) ((size_t)((char *)&__entry->tp__ev_len_##name - (char *)__entry))
#define __get_dynamic_array(name) tp__ev_dyn(&tp__ev_ctx, TP__EV_DYN_OFF(name))
#define __get_dynamic_array_len(name) tp__ev_dyn_len(&tp__ev_ctx, TP__EV_DYN_OFF(name))
#define __print_symbolic(value, ...)                                          \
	tp__ev_print_sym(&tp__ev_ctx, (long long)(value), #value,             \
			 TP__EV_SYMTAB(__VA_ARGS__), NULL)
#define __print_flags(value, delim, ...)                                      \
	tp__ev_print_sym(&tp__ev_ctx, (long long)(value), #value,             \
			 TP__EV_SYMTAB(__VA_ARGS__), delim)
#define __print_hex(buf, len) tp__ev_print_hex(&tp__ev_ctx, buf, (size_t)(len))
#define TP__EV_SYMTAB(...)                                                    \
	__extension__({                                                       \
		static const struct trace_print_flags tp__ev_tab[] = {          \
			__VA_ARGS__, { 0, NULL } };                             \
		tp__ev_tab;                                                     \
	})
#include TP__EV_INCLUDE_FILE(TRACE_INCLUDE_FILE)

/* ---- Back to the plain meaning of everything. ---- */
TP__EV_SAVED(TP__EV_POP)
#undef TP__EV_INCLUDE
#undef TP__EV_INCLUDE_FILE
#ifdef TP__EV_UNDEF_MULTI_READ
#undef TRACE_HEADER_MULTI_READ
#undef TP__EV_UNDEF_MULTI_READ
#endif
#undef TRACE_INCLUDE_FILE
#undef TRACE_INCLUDE_PATH

/* As in the kernel: a header included after this one is created too. */
#define CREATE_TRACE_POINTS

#endif /* TP__EV_FORGET, CREATE_TRACE_POINTS */
