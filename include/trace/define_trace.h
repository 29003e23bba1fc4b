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
 *   1. struct __tpe_entry_<class>, the packed record layout of the fixed
 *      fields of TP_STRUCT__entry (the __string()s follow it in a record);
 *   2. the field descriptors, struct trace_event_class (system, name,
 *      TP_printk text, layout, formatter) and struct trace_event per event;
 *   3. the recorder (reserve, TP_fast_assign, commit), the TP_printk
 *      formatter, one recorder probe per event, and the tracepoint itself,
 *      defined with __TP_DEFINE_TRACE_EVENT so that its .event points at the
 *      struct trace_event.  Plain DECLARE_TRACE()s of the header get their
 *      DEFINE_TRACE here as well.
 * Every read includes <tracepoint.h> again, which recomputes the header's
 * TRACE_CONFIG decision: a compiled-out header emits nothing in any pass
 * (selection by token pasting on __TP_ON), so it leaves zero bytes.
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
 *                              __assign_str (accepted, does nothing)
 * In TP_fast_assign:  __entry->name = ...;  __assign_str(name, src);
 *                     memcpy(__entry->arr, ..., sizeof(__entry->arr));
 * In TP_printk:       __entry->name, __get_str(name)
 * An entry needs at least one field.
 */
#ifdef CREATE_TRACE_POINTS

#include <trace/trace_events.h>

/* The re-reads below include this file again: keep them from recursing. */
#undef CREATE_TRACE_POINTS

#define __TPE_STR(x) __TPE_STR_(x)
#define __TPE_STR_(x) #x
#ifndef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE TRACE_SYSTEM
#endif
#ifndef TRACE_INCLUDE_PATH
#define __TPE_INCLUDE(file) <trace/events/file.h>
#else
#define __TPE_INCLUDE(file) __TPE_STR(TRACE_INCLUDE_PATH/file.h)
#endif
#define __TPE_INCLUDE_FILE(file) __TPE_INCLUDE(file)

/* __TPE_IF(on)(tokens): the tokens if on is 1, nothing if it is 0. */
#define __TPE_IF(on) __TPE_IF_(on)
#define __TPE_IF_(on) __TPE_IF_##on
#define __TPE_IF_1(...) __VA_ARGS__
#define __TPE_IF_0(...)
#define __TPE_P(...) __VA_ARGS__
/* Closes each expansion with a declaration for the header's ';'. */
#define __TPE_SEMI __TPE_SEMI_(__COUNTER__)
#define __TPE_SEMI_(n) __TPE_SEMI__(n)
#define __TPE_SEMI__(n) enum { __tpe_semicolon_##n }
#define __TPE_PACKED __attribute__((packed))

#pragma push_macro("TRACE_EVENT")
#pragma push_macro("DECLARE_EVENT_CLASS")
#pragma push_macro("DEFINE_EVENT")
#pragma push_macro("DECLARE_TRACE")
#pragma push_macro("DECLARE_TRACE_NOARGS")
#pragma push_macro("__TP_ON")
#undef TRACE_EVENT
#undef DECLARE_EVENT_CLASS
#undef DEFINE_EVENT
#undef DECLARE_TRACE
#undef DECLARE_TRACE_NOARGS
#undef TP_STRUCT__entry
#undef TP_fast_assign
#undef TP_printk
#undef __field
#undef __array
#undef __string
#undef __assign_str
#undef __get_str

#ifndef TRACE_HEADER_MULTI_READ
#define TRACE_HEADER_MULTI_READ
#define __TPE_UNDEF_MULTI_READ
#endif

#define TRACE_EVENT(name, proto, args, tstruct, assign, print)                \
	DECLARE_EVENT_CLASS(name, __TPE_P(proto), __TPE_P(args),              \
			    __TPE_P(tstruct), __TPE_P(assign), __TPE_P(print)); \
	DEFINE_EVENT(name, name, __TPE_P(proto), __TPE_P(args))
#define TP_STRUCT__entry(...) __VA_ARGS__
#define TP_fast_assign(...) __VA_ARGS__

/* ---- Pass 1: the entry struct. ---- */
#define DECLARE_EVENT_CLASS(c, proto, args, tstruct, assign, print)           \
	__TPE_IF(__TP_ON)(struct __TPE_PACKED __tpe_entry_##c { tstruct char __tpe_end; }; \
	__TP_STATIC_ASSERT(offsetof(struct __tpe_entry_##c, __tpe_end) <= 0xffff,   \
			   "event class " #c ": the fixed fields take more than 65535 bytes " \
			   "(offsets and sizes are 16-bit; use __string or smaller arrays)", \
			   __tpe_entry_of_##c##_takes_more_than_65535_bytes);) __TPE_SEMI
#define DEFINE_EVENT(c, name, proto, args) __TPE_SEMI
#define DECLARE_TRACE(name, proto, args) __TPE_SEMI
#define DECLARE_TRACE_NOARGS(name) __TPE_SEMI
#define TP_printk(...)
#define __field(type, name) type name;
#define __array(type, name, len) type name[len];
#define __string(name, src)
#include __TPE_INCLUDE_FILE(TRACE_INCLUDE_FILE)

/* ---- Pass 2: metadata. ---- */
#undef DECLARE_EVENT_CLASS
#undef DEFINE_EVENT
#undef TP_printk
#undef __field
#undef __array
#undef __string
#define DECLARE_EVENT_CLASS(c, proto, args, tstruct, assign, print)           \
	__TPE_IF(__TP_ON)(                                                    \
	static int __tpe_fmt_##c(char *, size_t, void *, size_t);             \
	static const struct trace_event_field *__tpe_fields_##c(unsigned *__tpe_n) \
	{                                                                     \
		typedef struct __tpe_entry_##c __tpe_entry_t __TPE_UNUSED;    \
		static const struct trace_event_field __tpe_f[] = { tstruct }; \
		*__tpe_n = (unsigned)(sizeof(__tpe_f) / sizeof(__tpe_f[0]));  \
		return __tpe_f;                                               \
	}                                                                     \
	static const struct trace_event_class __tpe_class_##c = {             \
		__TPE_STR(TRACE_SYSTEM), #c, print,                           \
		(unsigned)offsetof(struct __tpe_entry_##c, __tpe_end),        \
		__tpe_fields_##c, __tpe_fmt_##c };) __TPE_SEMI
#define DEFINE_EVENT(c, name, proto, args)                                    \
	__TPE_IF(__TP_ON)(                                                    \
	static void __tpe_probe_##name(void *, proto);                        \
	static const struct trace_event __tpe_event_##name = {                \
		&__tpe_class_##c, #name, &__tracepoint_##name,                \
		(tracepoint_func_t)__tpe_probe_##name };) __TPE_SEMI
#define TP_printk(...) #__VA_ARGS__
#define __field(type, name)                                                   \
	{ #type, #name, (unsigned short)offsetof(__tpe_entry_t, name),        \
	  (unsigned short)sizeof(type), (unsigned char)__TPE_KIND(type),      \
	  (unsigned char)__TPE_IS_SIGNED(type), 0 },
#define __array(type, name, len)                                              \
	{ #type, #name, (unsigned short)offsetof(__tpe_entry_t, name),        \
	  (unsigned short)(sizeof(type) * (len)), (unsigned char)__TPE_KIND(type), \
	  (unsigned char)__TPE_IS_SIGNED(type), (unsigned short)(len) },
#define __string(name, src)                                                   \
	{ "string", #name, 0, 0, TRACE_FIELD_STRING, 0, 0 },
#include __TPE_INCLUDE_FILE(TRACE_INCLUDE_FILE)

/* ---- Pass 3: recorder, formatter, probes and the tracepoints. ---- */
#undef DECLARE_EVENT_CLASS
#undef DEFINE_EVENT
#undef DECLARE_TRACE
#undef DECLARE_TRACE_NOARGS
#undef TP_printk
#undef __field
#undef __array
#undef __string
#define DECLARE_EVENT_CLASS(c, proto, args, tstruct, assign, print)           \
	__TPE_IF(__TP_ON)(                                                    \
	static __TPE_ALWAYS_INLINE __TPE_UNUSED int                             \
	__tpe_do_##c(const int __tpe_full, void *__tpe_data, proto)          \
	{                                                                     \
		struct __tpe_res __tpe_r;                                     \
		struct __tpe_entry_##c *__entry;                              \
		const char *const __tpe_srcs[] = { tstruct 0 };               \
		enum { __tpe_nstr = sizeof(__tpe_srcs) / sizeof(__tpe_srcs[0]) - 1 }; \
		uint32_t __tpe_lens[__tpe_nstr + 1];                          \
		size_t __tpe_size = offsetof(struct __tpe_entry_##c, __tpe_end); \
		unsigned __tpe_i;                                             \
		(void)sizeof(__tpe_use_args(0, args));                        \
		for (__tpe_i = 0; __tpe_i != (unsigned)__tpe_nstr; __tpe_i++) { \
			__tpe_lens[__tpe_i] = __tpe_str_size(__tpe_srcs[__tpe_i]); \
			__tpe_size += __tpe_lens[__tpe_i];                    \
		}                                                             \
		__entry = (struct __tpe_entry_##c *)__tpe_reserve(            \
			__tpe_data, __tpe_size, &__tpe_r, __tpe_full);        \
		if (!__entry)                                                 \
			return 0;                                             \
		{ assign }                                                    \
		__tpe_str_copy((char *)__entry +                              \
			       offsetof(struct __tpe_entry_##c, __tpe_end),   \
			       __tpe_srcs, __tpe_lens, (unsigned)__tpe_nstr); \
		__tpe_commit(&__tpe_r);                                       \
		return 1;                                                     \
	}                                                                     \
	/* The recorder's full copy: see __tpe_reserve. */                   \
	static __attribute__((noinline)) __TPE_UNUSED void                    \
	__tpe_full_##c(void *__tpe_data, proto)                               \
	{                                                                     \
		__tpe_do_##c(1, __tpe_data, args);                            \
	}                                                                     \
	static int __tpe_fmt_##c(char *__tpe_buf, size_t __tpe_len, void *__tpe_e, \
				 size_t __tpe_size)                           \
	{                                                                     \
		struct __tpe_entry_##c *__entry = (struct __tpe_entry_##c *)__tpe_e; \
		const size_t __tpe_fixed = offsetof(struct __tpe_entry_##c, __tpe_end); \
		unsigned __tpe_nf = 0;                                        \
		const struct trace_event_field *__tpe_fl = __tpe_fields_##c(&__tpe_nf); \
		(void)__entry;                                                \
		(void)__tpe_size;                                             \
		(void)__tpe_fixed;                                            \
		(void)__tpe_fl;                                               \
		return snprintf(__tpe_buf, __tpe_len, print);                 \
	}) __TPE_SEMI
#define DEFINE_EVENT(c, name, proto, args)                                    \
	__TPE_IF(__TP_ON)(                                                    \
	static void __tpe_probe_##name(void *__tpe_data, proto)               \
	{                                                                     \
		if (!__tpe_do_##c(0, __tpe_data, args))                       \
			__tpe_full_##c(__tpe_data, args);                     \
	})                                                                    \
	__TP_DEFINE_TRACE_EVENT(name, &__tpe_event_##name)
#define DECLARE_TRACE(name, proto, args) DEFINE_TRACE(name)
#define DECLARE_TRACE_NOARGS(name) DEFINE_TRACE(name)
#define TP_printk(...) __VA_ARGS__
#define __field(type, name)
#define __array(type, name, len)
#define __string(name, src) __tpe_str_src(src),
#define __assign_str(...) ((void)0)
#define __get_str(name) __tpe_get_str(__entry, __tpe_fixed, __tpe_size, __tpe_fl, __tpe_nf, #name)
#include __TPE_INCLUDE_FILE(TRACE_INCLUDE_FILE)

/* ---- Back to the plain meaning of everything. ---- */
#undef TRACE_EVENT
#undef DECLARE_EVENT_CLASS
#undef DEFINE_EVENT
#undef DECLARE_TRACE
#undef DECLARE_TRACE_NOARGS
#undef TP_STRUCT__entry
#undef TP_fast_assign
#undef TP_printk
#undef __field
#undef __array
#undef __string
#undef __assign_str
#undef __get_str
#undef __TPE_INCLUDE
#undef __TPE_INCLUDE_FILE
#pragma pop_macro("TRACE_EVENT")
#pragma pop_macro("DECLARE_EVENT_CLASS")
#pragma pop_macro("DEFINE_EVENT")
#pragma pop_macro("DECLARE_TRACE")
#pragma pop_macro("DECLARE_TRACE_NOARGS")
#pragma pop_macro("__TP_ON")
#ifdef __TPE_UNDEF_MULTI_READ
#undef TRACE_HEADER_MULTI_READ
#undef __TPE_UNDEF_MULTI_READ
#endif
#undef TRACE_INCLUDE_FILE
#undef TRACE_INCLUDE_PATH

/* As in the kernel: a header included after this one is created too. */
#define CREATE_TRACE_POINTS

#endif /* CREATE_TRACE_POINTS */
