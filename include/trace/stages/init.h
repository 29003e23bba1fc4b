/* SPDX-License-Identifier: MIT */
/*
 * trace/stages/init.h - what every pass over an event header shares: the
 * selection of a pass's output by TP__ON, the closing of each expansion,
 * the save of every macro the passes redefine, the event forms
 * (TRACE_EVENT, _CONDITION, _FN, DEFINE_EVENT_PRINT) in terms of
 * DECLARE_EVENT_CLASS and DEFINE_EVENT, and the prototype helpers.
 *
 * Why a file: the passes (the other files of trace/stages/) are written
 * with these words; the driver, define_trace.h, reads this once before
 * them and restores the saved macros after them.
 *
 * Internal: included by trace/define_trace.h only (no include guard: once
 * per event header created); depends on tracepoint.h (TP__ARGS_EMPTY,
 * TP__STR, PARAMS) and trace/event_kinds.h (TP__EV_DEFINE_KIND).
 */
#ifndef TP__EV_INCLUDE_FILE
#error "trace/stages/init.h is internal: an event header's #include <trace/define_trace.h> reads it"
#endif

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
/* TP__EV_HP(code): the class's hist probe (struct trace_event.hist_probe,
 * declared in pass 2, defined in pass 3), or nothing with
 * -DTRACEPOINT_NO_HIST_PROBE; TP__EV_HP_FN(c): its address, or NULL. */
#undef TP__EV_HP
#undef TP__EV_HP_FN
#ifdef TRACEPOINT_NO_HIST_PROBE
#define TP__EV_HP(...)
#define TP__EV_HP_FN(c) ((tracepoint_func_t)0)
#else
#define TP__EV_HP(...) __VA_ARGS__
#define TP__EV_HP_FN(c) ((tracepoint_func_t)tp__ev_hprobe_##c)
#endif

/* Every macro the passes redefine, saved here and restored at the end,
 * defined or not (pop_macro restores "undefined" too): the event macros
 * tracepoint.h defines, the field helpers (normally undefined), and TP__ON,
 * which each re-read of the header recomputes. */
#define TP__EV_SAVED(op)                                                      \
	op("TRACE_EVENT") op("DECLARE_EVENT_CLASS") op("DEFINE_EVENT")        \
	op("TRACE_DEFINE_ENUM") op("TRACE_DEFINE_SIZEOF") op("__print_hex_str") \
	op("__print_hex_dump") op("__print_array") op("__print_symbolic_u64")  \
	op("__print_flags_u64") op("__print_ns_to_secs")                      \
	op("__print_ns_without_secs")                                         \
	op("DECLARE_TRACE") op("DECLARE_TRACE_NOARGS") op("TP_STRUCT__entry") \
	op("TP_fast_assign") op("TP_printk") op("__field") op("__array")      \
	op("__string") op("__assign_str") op("__get_str") op("TP__ON")         \
	op("TP__EV_DEFINE_KIND") op("TP__SLICE_SCOPE")                        \
	op("TRACE_EVENT_CONDITION") op("DEFINE_EVENT_CONDITION")              \
	op("TRACE_EVENT_FN") op("DEFINE_EVENT_PRINT") op("__dynamic_array")  \
	op("__get_dynamic_array") op("__get_dynamic_array_len")              \
	op("__print_symbolic") op("__print_flags") op("__print_hex")      \
	op("errno") TP__EV_SAVED_KFORMS(op)
/* The kernel's other field forms and event forms (below, and per pass):
 * saved too, and undefined again after the passes. */
#define TP__EV_SAVED_KFORMS(op)                                               \
	op("DEFINE_EVENT_FN") op("TRACE_EVENT_FN_COND")                       \
	op("TRACE_EVENT_NOP") op("DEFINE_EVENT_NOP")                          \
	op("__field_struct") op("__field_ext") op("__field_struct_ext")      \
	op("__string_len") op("__vstring") op("__bitmask") op("__cpumask")   \
	op("__sockaddr") op("__rel_string") op("__rel_string_len")           \
	op("__rel_dynamic_array") op("__rel_bitmask") op("__rel_cpumask")    \
	op("__rel_sockaddr") op("__assign_str_len") op("__assign_vstr")      \
	op("__assign_bitmask") op("__assign_cpumask") op("__assign_sockaddr") \
	op("__assign_rel_str") op("__assign_rel_str_len")                    \
	op("__assign_rel_bitmask") op("__assign_rel_cpumask")                \
	op("__assign_rel_sockaddr") op("__get_bitmask") op("__get_cpumask")  \
	op("__get_sockaddr") op("__get_sockaddr_len") op("__get_rel_str")   \
	op("__get_rel_dynamic_array") op("__get_rel_dynamic_array_len")      \
	op("__get_rel_bitmask") op("__get_rel_cpumask") op("__get_rel_sockaddr")
#define TP__EV_PRAGMA(x) _Pragma(#x)
#define TP__EV_PUSH(m) TP__EV_PRAGMA(push_macro(m))
#define TP__EV_POP(m) TP__EV_PRAGMA(pop_macro(m))
TP__EV_SAVED(TP__EV_PUSH)
/* The C library's errno is a macro ((*__errno_location ()) in glibc), and
 * the kernel's headers name fields errno (signal.h): in the passes it is
 * a plain name, and TP_fast_assign reads the value from a local errno
 * (trace/stages/recorder.h). */
#undef errno
#undef TRACE_EVENT
#undef TP_STRUCT__entry
#undef TP_fast_assign
/* <trace/event_kinds.h>: a kind matters in pass 2 only; the scoped-slice
 * helpers belong to the plain reading of the header. */
#undef TP__EV_DEFINE_KIND
#undef TP__SLICE_SCOPE
#define TP__SLICE_SCOPE(name, proto, args)
#undef TRACE_EVENT_CONDITION
#undef DEFINE_EVENT_CONDITION
#undef TRACE_EVENT_FN
#undef DEFINE_EVENT_PRINT
#undef DEFINE_EVENT_FN
#undef TRACE_EVENT_FN_COND
#undef TRACE_EVENT_NOP
#undef DEFINE_EVENT_NOP

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
/* The kernel's: an event of a class with reg/unreg; a TRACE_EVENT_FN
 * with a condition (in the dispatch, as TRACE_EVENT_CONDITION's); the
 * NOP forms declare nothing at all (no trace_<name>()). */
#define DEFINE_EVENT_FN(c, name, proto, args, reg, unreg)                    \
	TP__EV_DEFINE(c, c, name, PARAMS(proto), PARAMS(args), reg, unreg)
#define TRACE_EVENT_FN_COND(name, proto, args, cond, tstruct, assign, print, reg, unreg) \
	TRACE_EVENT_FN(name, PARAMS(proto), PARAMS(args), PARAMS(tstruct),    \
		       PARAMS(assign), PARAMS(print), reg, unreg)
#define TRACE_EVENT_NOP(name, proto, args, tstruct, assign, print) TP__EV_SEMI
#define DEFINE_EVENT_NOP(c, name, proto, args) TP__EV_SEMI
/* The kernel's field forms that are others in another shape: the
 * filter type of the _ext forms has no meaning here; a bitmask is an
 * array of unsigned longs, a sockaddr one of bytes; the __rel_ forms
 * differ from the others only in the kernel's record layout. */
#define __field_ext(type, name, filter) __field(type, name)
#define __field_struct_ext(type, name, filter) __field_struct(type, name)
#define __bitmask(name, nr_bits)                                              \
	__dynamic_array(unsigned long, name, TP__EV_BITS_TO_LONGS(nr_bits))
#define __cpumask(name) __bitmask(name, TRACEPOINT_CPUMASK_BITS)
#define __sockaddr(name, len) __dynamic_array(unsigned char, name, len)
#define __rel_string(name, src) __string(name, src)
#define __rel_string_len(name, src, len) __string_len(name, src, len)
#define __rel_dynamic_array(type, name, len) __dynamic_array(type, name, len)
#define __rel_bitmask(name, nr_bits) __bitmask(name, nr_bits)
#define __rel_cpumask(name) __cpumask(name)
#define __rel_sockaddr(name, len) __sockaddr(name, len)
#define __assign_cpumask(name, src) __assign_bitmask(name, src, TRACEPOINT_CPUMASK_BITS)
#define __assign_rel_str(...) __assign_str(__VA_ARGS__)
#define __assign_rel_str_len(...) __assign_str_len(__VA_ARGS__)
#define __assign_rel_bitmask(name, src, nr_bits) __assign_bitmask(name, src, nr_bits)
#define __assign_rel_cpumask(name, src) __assign_cpumask(name, src)
#define __assign_rel_sockaddr(name, src, len) __assign_sockaddr(name, src, len)
#define __get_cpumask(name) __get_bitmask(name)
#define __get_sockaddr_len(name) __get_dynamic_array_len(name)
#define __get_rel_str(name) __get_str(name)
#define __get_rel_dynamic_array(name) __get_dynamic_array(name)
#define __get_rel_dynamic_array_len(name) __get_dynamic_array_len(name)
#define __get_rel_bitmask(name) __get_bitmask(name)
#define __get_rel_cpumask(name) __get_bitmask(name)
#define __get_rel_sockaddr(name) __get_sockaddr(name)
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
template <class tp__a, class tp__b> struct tp__ev_same {
	enum { value = 0 };
};
template <class tp__a> struct tp__ev_same<tp__a, tp__a> {
	enum { value = 1 };
};
}
#endif
#define TP__EV_SAME_TYPE(a, b) (tp__ev_same<a, b>::value)
#else
#define TP__EV_SAME_TYPE(a, b) __builtin_types_compatible_p(a, b)
#endif
/* The TP_printk arguments with "%s", "" appended: never a zero-length format. */
#define TP__EV_FMT(...) TP__EV_FMT_(__VA_ARGS__, "")
#define TP__EV_FMT_(f, ...) f "%s", __VA_ARGS__
/* TP__EV_EACH(op, seq): op_A(...) for each (kind, ...) of seq, the form
 * the recorder pass gives a TP_STRUCT__entry's variable parts
 * (trace/stages/recorder.h): (tp__ev_kind_str, name, src) for a __string,
 * (tp__ev_kind_dyn, name, type, len) for a __dynamic_array, nothing for
 * the fixed fields.  op_A and op_B call op_<kind> on one element and name
 * each other for the next; the last one is pasted onto _END (nothing). */
#define TP__EV_EACH(op, seq) TP__EV_EACH_(op##_A seq)
#define TP__EV_EACH_(...) TP__EV_EACH__(__VA_ARGS__)
#define TP__EV_EACH__(...) __VA_ARGS__##_END
