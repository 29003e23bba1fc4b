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
 *   3. the variable parts of each class (struct tp__ev_vars_<class>: the
 *      __string()s and __dynamic_array()s, by name), the recorder (their
 *      sizes, reserve, TP_fast_assign, their copies, commit), the TP_printk
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
 *   and the kernel's others (trace/stages/init.h maps most onto these):
 *   __field_struct, __field_ext, __string_len, __vstring (va_list *),
 *   __bitmask, __cpumask, __sockaddr, the __rel_ forms
 * In TP_fast_assign:  __entry->name = ...;  __assign_str(name, src);
 *                     memcpy(__entry->arr, ..., sizeof(__entry->arr));
 *                     memcpy(__get_dynamic_array(name), src, bytes);
 *                     __assign_bitmask, __assign_cpumask, __assign_sockaddr
 * In TP_printk:       __entry->name, __get_str(name), __get_dynamic_array(name),
 *                     __get_dynamic_array_len(name) (bytes, unsigned int),
 *                     __get_bitmask/__get_cpumask (%s), __get_sockaddr (%pISpc),
 *                     and for %s:
 *                     __print_symbolic(value, { v, "name" }...),
 *                     __print_flags(value, "|", { mask, "name" }...),
 *                     __print_hex(buf, len)
 * Event forms besides TRACE_EVENT, DECLARE_EVENT_CLASS and DEFINE_EVENT:
 *   TRACE_EVENT_CONDITION / DEFINE_EVENT_CONDITION (TP_CONDITION, checked
 *   by the tracepoint's dispatch before any probe), TRACE_EVENT_FN (reg,
 *   unreg), DEFINE_EVENT_PRINT (own TP_printk), DEFINE_EVENT_FN,
 *   TRACE_EVENT_FN_COND, TRACE_EVENT_NOP and DEFINE_EVENT_NOP (nothing).
 *   TP_STRUCT__entry() may be empty; TP_PROTO(void), TP_ARGS() is an event
 *   without arguments.  TRACE_SYSTEM_VAR names the system in symbols.
 *
 * The passes are the files of trace/stages/, each named for what it makes
 * (as the kernel's include/trace/stages/): init.h (what they share, read
 * once), reset.h (read before each pass), entry_struct.h (1),
 * metadata.h (2), formatter.h, tracepoints.h and recorder.h (3).  This file only runs them: it includes each pass, then
 * re-reads the event header, from here (the "TRACE_INCLUDE_PATH/..." form
 * is searched from this directory).
 */

/* The header's body was read at this inclusion or an earlier one: else its
 * include guard is another header's (copied with it), and TRACE_SYSTEM's
 * events would be missing, to be reported far from the cause.  The
 * identifier, undeclared then, says it. */
#undef TP__EV_MARK_SYS
#ifdef TRACE_SYSTEM_VAR
#define TP__EV_MARK_SYS TRACE_SYSTEM_VAR
#elif defined(TRACE_SYSTEM)
#define TP__EV_MARK_SYS TRACE_SYSTEM
#endif
#if defined(TP__EV_MARK_SYS) && defined(TRACEPOINT_H_INCLUDED)
TP__REDECL_BEGIN
extern __typeof__(TP__EV_READ_MARK(TP__EV_MARK_SYS)) TP__EV_READ_MARK(TP__EV_MARK_SYS);
TP__REDECL_END
#endif

/* A file whose events are compiled in references a symbol that only the
 * one CREATE_TRACE_POINTS file of the events defines, and whose name says
 * so: missing, it is the first undefined reference of the file (offset 0
 * of .text, no byte: a relocation of type NONE); defined twice (the
 * define in two files), the first multiple definition. */
#if defined(__x86_64__) || defined(__i386__) || (defined(__aarch64__) && !defined(__clang__))
#define TP__EV_NEED_ASM 1
#endif
#define TP__EV_NEED_REF(sys)                                                  \
	".pushsection .text\n\t.globl " TP__EV_NEED_SYM(sys)                  \
	"\n\t.reloc 0, BFD_RELOC_NONE, " TP__EV_NEED_SYM(sys) "\n\t.popsection"
#define TP__EV_NEED_DEF(sys)                                                  \
	".pushsection .data\n\t.globl " TP__EV_NEED_SYM(sys) "\n"             \
	TP__EV_NEED_SYM(sys) ":\n\t.popsection"
#if defined(TP__EV_NEED_DEFINITION) && !defined(CREATE_TRACE_POINTS) && \
	!defined(TP__EV_INCLUDE_FILE)
#ifdef TP__EV_NEED_ASM
__asm__(TP__EV_NEED_REF(TP__EV_MARK_SYS));
#endif
#undef TP__EV_NEED_DEFINITION
#endif

#ifdef CREATE_TRACE_POINTS

/* The one definition of the symbol that the files firing these events
 * reference (above), when they are compiled in: a label of no size in
 * .data, first in the file, so that a second definition is the first
 * one the linker reports. */
#undef TP__EV_NEED_DONE
#if defined(TP__EV_NEED_DEFINITION) && defined(TP__EV_NEED_ASM)
__asm__(TP__EV_NEED_DEF(TP__EV_MARK_SYS));
#define TP__EV_NEED_DONE
#endif
#undef TP__EV_NEED_DEFINITION

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

/* The header is read again from here: say why that fails, and how to
 * fix it, before the compiler's "No such file" gives the path tried. */
#if defined(__has_include)
#if !__has_include(TP__EV_INCLUDE_FILE(TRACE_INCLUDE_FILE))
#ifndef TRACE_INCLUDE_PATH
#define TP__EV_PATH_TRIED TP__STR(trace/events/TRACE_INCLUDE_FILE.h)
#else
#define TP__EV_PATH_TRIED TP__STR(TRACE_INCLUDE_PATH/TRACE_INCLUDE_FILE.h)
#endif
#pragma message(TP__EV_PATH_TRIED)
#error "trace/define_trace.h re-reads this event header as \"TRACE_INCLUDE_PATH/TRACE_INCLUDE_FILE.h\" (TRACE_INCLUDE_FILE: default TRACE_SYSTEM; no TRACE_INCLUDE_PATH: <trace/events/TRACE_INCLUDE_FILE.h>) from the -I paths, and that path (the message before) is not found: add -I for the folder that holds it, or set TRACE_INCLUDE_PATH and TRACE_INCLUDE_FILE before the #include <trace/define_trace.h>"
#endif
#endif

#include <trace/stages/init.h>

/* ---- Pass 1: the entry struct. ---- */
#include <trace/stages/reset.h>
#include <trace/stages/entry_struct.h>
#include TP__EV_INCLUDE_FILE(TRACE_INCLUDE_FILE)

/* ---- Pass 2: metadata. ---- */
#include <trace/stages/reset.h>
#include <trace/stages/metadata.h>
#include TP__EV_INCLUDE_FILE(TRACE_INCLUDE_FILE)

/* ---- Pass 3: formatters, tracepoints, recorders and probes. ---- */
#include <trace/stages/reset.h>
#include <trace/stages/formatter.h>
#include <trace/stages/tracepoints.h>
#include <trace/stages/recorder.h>
#include TP__EV_INCLUDE_FILE(TRACE_INCLUDE_FILE)

/* A header read before CREATE_TRACE_POINTS in this file too (as the
 * kernel's files do, through other headers): its guard kept tracepoint.h
 * from saying above whether the events are compiled in; the re-reads said
 * it.  The definition then comes after the events' own symbols. */
#if defined(TP__EV_NEED_DEFINITION) && defined(TP__EV_NEED_ASM) && !defined(TP__EV_NEED_DONE)
__asm__(TP__EV_NEED_DEF(TP__EV_MARK_SYS));
#endif
#undef TP__EV_NEED_DONE
#undef TP__EV_NEED_DEFINITION

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

#endif /* CREATE_TRACE_POINTS */

/* The header's system ends here, in every file (not between the passes,
 * which re-read the header and so this file): a header read after it
 * that sets no TRACE_SYSTEM of its own outside CREATE_TRACE_POINTS (as
 * the kernel's module.h) must not take this one's for its symbols. */
#ifndef TP__EV_INCLUDE_FILE
#undef TP__EV_MARK_SYS
#undef TRACE_SYSTEM_VAR
#undef TRACE_SYSTEM
#endif
