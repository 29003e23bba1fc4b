/* SPDX-License-Identifier: MIT */
/*
 * tracepoint/compiler.h - what tracepoint.h asks of the compiler and the
 * language, in one place.
 *
 * The rest of the header is written once for C99..C2x and C++11..C++20, for
 * gcc and clang, and it leans on GNU extensions (asm goto, sections,
 * attributes).  This file refuses anything else loudly, includes the few
 * libc headers that even compiled-out code needs, and holds the spellings that differ between C
 * and C++ or between compilers, plus the preprocessor trick that turns "is
 * CONFIG_FOO defined as 1" into a literal 0 or 1 (for the per-inclusion
 * decision at the end of tracepoint.h).  Macros only: no declaration here
 * has linkage, so it is included before tracepoint.h opens extern "C" (libc
 * headers must not be inside it).
 *
 * Internal: included by tracepoint.h, first; depends on nothing.
 */
#ifndef TRACEPOINT_H_INCLUDED
#error "tracepoint/compiler.h is internal: #include <tracepoint.h> instead"
#elif !defined(TP__COMPILER_H)
#define TP__COMPILER_H

/* The design needs ELF sections, GNU asm and C99 inline semantics: refuse
 * anything else loudly instead of building something subtly wrong. */
#if !defined(__GNUC__) || !defined(__ELF__) || !defined(__linux__)
#error "tracepoint.h needs gcc or clang on Linux (ELF sections, GNU asm, dl_iterate_phdr)"
#endif
#if !defined(__cplusplus) && (!defined(__STDC_VERSION__) || __STDC_VERSION__ < 199901L)
#error "tracepoint.h needs C99 or later (or C++11 or later)"
#endif
#if !defined(__cplusplus) && defined(__GNUC_GNU_INLINE__)
#error "tracepoint.h needs C99 inline semantics; do not use -std=gnu89 or -fgnu89-inline"
#endif
#if defined(__cplusplus) && __cplusplus < 201103L
#error "tracepoint.h needs C++11 or later"
#endif

/* The libc headers that even compiled-out code needs: bool, ENOSYS for the
 * stubs, and the types event headers name most (size_t, uint64_t, ...);
 * the machinery's own are in tracepoint/libc.h.  An event header that
 * names other types (pid_t, struct timespec) includes their headers. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif

/* Which form call sites have (public, documented in tracepoint.h): patchable
 * static keys where the architecture, the compiler and the knobs allow. */
#if !defined(TRACEPOINT_PORTABLE) && !defined(TRACEPOINT_USDT) && \
	(defined(__x86_64__) || defined(__aarch64__)) &&          \
	(!defined(__clang__) || __clang_major__ >= 9)
#define TRACEPOINT_STATIC_KEYS 1
#else
#define TRACEPOINT_STATIC_KEYS 0
#endif

/* --- Turn "is CONFIG_FOO defined as 1" into a literal 0 or 1. ---
 * Pasting a prefix onto the value yields a macro only for "1"; that macro
 * adds an argument and shifts a pick-the-second macro onto the 1.  Any other
 * value leaves a dead token in the discarded first slot.  No `defined`, so no
 * -Wundef and no -Wexpansion-to-defined; usable in #if and in C. */
#define TP__PLACEHOLDER_1 0,
#define TP__SECOND(a, b, ...) b
#define TP__IS_ONE(x) TP__IS_ONE_(x)
#define TP__IS_ONE_(val) TP__IS_ONE__(TP__PLACEHOLDER_##val)
#define TP__IS_ONE__(junk_or_zero_comma) TP__SECOND(junk_or_zero_comma 1, 0, ~)
/* The same for "defined as y or m" (a Kconfig habit, -DCONFIG_FOO=y). */
#define TP__KCONFIG_y 0,
#define TP__KCONFIG_m 0,
#define TP__IS_YM(x) TP__IS_YM_(x)
#define TP__IS_YM_(val) TP__IS_ONE__(TP__KCONFIG_##val)
/* The same for "defined as 0"; and a system's switch from outside its
 * header, CONFIG_TRACE_<system> (tracepoint.h). */
#define TP__ZERO_0 0,
#define TP__IS_ZERO(x) TP__IS_ZERO_(x)
#define TP__IS_ZERO_(val) TP__IS_ONE__(TP__ZERO_##val)
#define TP__SYS_SWITCH(sys) TP__SYS_SWITCH_(sys)
#define TP__SYS_SWITCH_(sys) CONFIG_TRACE_##sys

/* --- Small portability helpers. --- */
/* Static assertions carry their message; before C11 (where glibc turns
 * _Static_assert into an anonymous bit-field) the message is the name of
 * an array whose size turns negative (a declaration only: no storage). */
#ifdef __cplusplus
#define TP__EXTERN extern "C"
#define TP__LINKAGE extern "C"
#define TP__STATIC_ASSERT(cond, msg, ident) static_assert(cond, msg)
#else
#define TP__EXTERN extern
#define TP__LINKAGE
#if __STDC_VERSION__ >= 201112L
#define TP__STATIC_ASSERT(cond, msg, ident) _Static_assert(cond, msg)
#else
#define TP__STATIC_ASSERT(cond, msg, ident) extern char ident[(cond) ? 1 : -1]
#endif
#endif
#define TP__ALWAYS_INLINE inline __attribute__((always_inline))
/* An asm operand that names a function (for .quad in a data section). */
#if defined(__aarch64__)
#define TP__FN_CONSTRAINT(f) "S"(f) /* "i" cannot name a symbol in PIC code there */
#else
#define TP__FN_CONSTRAINT(f) "i"(f)
#endif
#define TP__VISIBLE __attribute__((visibility("default")))
/* Generated inlines may be expanded in a .c file, where clang would flag
 * the unused ones. */
#define TP__UNUSED __attribute__((unused))
/* Out-of-line C99 inline functions (the dispatch, the grace period's slow
 * paths) are declared noinline, which gcc's -Wattributes questions. */
#if defined(__clang__)
#define TP__NOWARN_BEGIN
#define TP__NOWARN_END
#else
#define TP__NOWARN_BEGIN                                                     \
	_Pragma("GCC diagnostic push")                                        \
	_Pragma("GCC diagnostic ignored \"-Wattributes\"")
#define TP__NOWARN_END _Pragma("GCC diagnostic pop")
#endif
/* DEFINE_TRACE redeclares such functions extern to get their one external
 * definition (C99 inline), which -Wredundant-decls would flag. */
#define TP__REDECL_BEGIN                                                     \
	_Pragma("GCC diagnostic push")                                        \
	_Pragma("GCC diagnostic ignored \"-Wredundant-decls\"")
#define TP__REDECL_END _Pragma("GCC diagnostic pop")
/* Names that say what went wrong, where the build stops
 * (docs/troubleshooting.md): the mark an event header's body declares
 * (tracepoint.h), checked by its define_trace.h; the symbol that a file
 * with compiled-in events references and that their one
 * CREATE_TRACE_POINTS file defines. */
#define TP__EV_READ_MARK(sys) TP__EV_READ_MARK_(sys)
#define TP__EV_READ_MARK_(sys)                                               \
	tracepoint_header_of_##sys##_not_read_copied_include_guard_or_TRACE_SYSTEM_set_twice
#define TP__EV_NEED_SYM(sys) TP__STR(TP__EV_NEED_SYM_(sys))
#define TP__EV_NEED_SYM_(sys)                                                \
	tracepoint_events_of_##sys##_need_CREATE_TRACE_POINTS_in_one_file_built_with_their_CONFIG_switch
/* What tracepoint.h's declarations are wrapped in: C linkage, and, for
 * gcc >= 11, which takes a const pointer parameter to mean "reads the
 * pointee" and flags freshly malloc'ed memory passed to trace_kmalloc(p,
 * ...) once the call reaches the dispatch, -Wmaybe-uninitialized off (the
 * dispatch never dereferences arguments; diagnostics are placed at the
 * macro definitions in the headers, not in the user's code). */
#if defined(__GNUC__) && !defined(__clang__)
#define TP__DIAG_BEGIN                                                       \
	_Pragma("GCC diagnostic push")                                        \
	_Pragma("GCC diagnostic ignored \"-Wmaybe-uninitialized\"")
#define TP__DIAG_END _Pragma("GCC diagnostic pop")
#else
#define TP__DIAG_BEGIN
#define TP__DIAG_END
#endif
#ifdef __cplusplus
#define TP__DECLS_BEGIN TP__DIAG_BEGIN extern "C" {
#define TP__DECLS_END } TP__DIAG_END
#else
#define TP__DECLS_BEGIN TP__DIAG_BEGIN
#define TP__DECLS_END TP__DIAG_END
#endif
#define TP__STR(x) TP__STR_(x)
#define TP__STR_(x) #x

#endif /* TP__COMPILER_H */
