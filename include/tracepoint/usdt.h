/* SPDX-License-Identifier: MIT */
/*
 * tracepoint/usdt.h - each tracepoint as a USDT probe (-DTRACEPOINT_USDT),
 * so that perf, bpftrace and gdb see it.
 *
 * A USDT probe is an ELF note in the format of <sys/sdt.h>, written here
 * with libc only, plus a semaphore that external tracers increment.  In this
 * mode the tracepoint's key (struct tracepoint's enabled) is that semaphore,
 * which is why code patching is off then (static_key.h).  Without
 * -DTRACEPOINT_USDT this file defines __TP_USDT_PROBE as nothing.
 *
 * Internal: included by tracepoint.h; macros only, expanded by the dispatch
 * function of declare.h; depends on compiler.h and defs.h.
 */
#ifndef TRACEPOINT_H_INCLUDED
#error "tracepoint/usdt.h is internal: #include <tracepoint.h> instead"
#elif !defined(__TP_USDT_H)
#define __TP_USDT_H

/* --- USDT probes (-DTRACEPOINT_USDT).  The tracepoint's key is
 * also its USDT semaphore: external tracers announce themselves by
 * incrementing it, so call sites must read it (the portable check; code
 * patching is off in this mode), and the dispatch hosts one USDT probe per
 * tracepoint, with its arguments described, before the in-process probes.
 * The note is written here, in the format of <sys/sdt.h>; it sits next to
 * the dispatch function, which the tracepoint struct keeps alive, so
 * --gc-sections never leaves it dangling. --- */
#if defined(TRACEPOINT_USDT) && (defined(__x86_64__) || defined(__aarch64__))
#define __TP_NARG(...) __TP_NARG_(__VA_ARGS__, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define __TP_NARG_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, n, ...) n
#define __TP_UA(i) "%c[__tp_s" #i "]@%[__tp_a" #i "]"
#define __TP_UO(i, x) [__tp_s##i] "n"(sizeof(x)), [__tp_a##i] "nor"(x)
#define __TP_USDT_NOTE(prov, sym, name, fmt)                                       \
	"990: nop\n\t"                                                        \
	".pushsection .note.stapsdt,\"?\",\"note\"\n\t"                      \
	".balign 4\n\t"                                                       \
	".4byte 992f-991f, 994f-993f, 3\n\t"                                  \
	"991: .asciz \"stapsdt\"\n\t"                                         \
	"992: .balign 4\n\t"                                                  \
	"993: .8byte 990b\n\t"                                                \
	".8byte _.stapsdt.base\n\t"                                           \
	".8byte " __TP_SYM("__tracepoint_", sym, name) " + %c[__tp_sem]\n\t"       \
	".asciz \"" __TP_STR(prov) "\"\n\t"                                   \
	".asciz \"" #name "\"\n\t"                                            \
	".asciz \"" fmt "\"\n\t"                                              \
	"994: .balign 4\n\t"                                                  \
	".popsection\n\t"                                                     \
	".ifndef _.stapsdt.base\n\t"                                          \
	".pushsection .stapsdt.base,\"aG\",\"progbits\",.stapsdt.base,comdat\n\t" \
	".weak _.stapsdt.base\n\t"                                            \
	".hidden _.stapsdt.base\n\t"                                          \
	"_.stapsdt.base: .space 1\n\t"                                        \
	".size _.stapsdt.base, 1\n\t"                                         \
	".popsection\n\t"                                                     \
	".endif\n\t"
#define __TP_SEM_OP [__tp_sem] "n"(offsetof(struct tracepoint, enabled))
#define __TP_USDT(prov, sym, name, ...)                                       \
	__TP_USDT_N(__TP_NARG(__VA_ARGS__), prov, sym, name, __VA_ARGS__)
#define __TP_USDT_N(n, prov, sym, name, ...) __TP_USDT_N_(n, prov, sym, name, __VA_ARGS__)
#define __TP_USDT_N_(n, prov, sym, name, ...) __TP_USDT_##n(prov, sym, name, __VA_ARGS__)
#define __TP_USDT_ASM(prov, sym, name, fmt, ...)                                   \
	__asm__ __volatile__(__TP_USDT_NOTE(prov, sym, name, fmt) : : __TP_SEM_OP, __VA_ARGS__)
#define __TP_USDT_1(p, s, n, z)                                                  \
	__asm__ __volatile__(__TP_USDT_NOTE(p, s, n, "") : : __TP_SEM_OP)
#define __TP_USDT_2(p, s, n, z, a) __TP_USDT_ASM(p, s, n, __TP_UA(0), __TP_UO(0, a))
#define __TP_USDT_3(p, s, n, z, a, b)                                            \
	__TP_USDT_ASM(p, s, n, __TP_UA(0) " " __TP_UA(1), __TP_UO(0, a), __TP_UO(1, b))
#define __TP_USDT_4(p, s, n, z, a, b, c)                                         \
	__TP_USDT_ASM(p, s, n, __TP_UA(0) " " __TP_UA(1) " " __TP_UA(2),         \
		      __TP_UO(0, a), __TP_UO(1, b), __TP_UO(2, c))
#define __TP_USDT_5(p, s, n, z, a, b, c, d)                                      \
	__TP_USDT_ASM(p, s, n, __TP_UA(0) " " __TP_UA(1) " " __TP_UA(2) " " __TP_UA(3), \
		      __TP_UO(0, a), __TP_UO(1, b), __TP_UO(2, c), __TP_UO(3, d))
#define __TP_USDT_6(p, s, n, z, a, b, c, d, e)                                   \
	__TP_USDT_ASM(p, s, n, __TP_UA(0) " " __TP_UA(1) " " __TP_UA(2) " " __TP_UA(3) \
		      " " __TP_UA(4), __TP_UO(0, a), __TP_UO(1, b), __TP_UO(2, c), \
		      __TP_UO(3, d), __TP_UO(4, e))
#define __TP_USDT_7(p, s, n, z, a, b, c, d, e, f)                                \
	__TP_USDT_ASM(p, s, n, __TP_UA(0) " " __TP_UA(1) " " __TP_UA(2) " " __TP_UA(3) \
		      " " __TP_UA(4) " " __TP_UA(5), __TP_UO(0, a), __TP_UO(1, b), \
		      __TP_UO(2, c), __TP_UO(3, d), __TP_UO(4, e), __TP_UO(5, f))
#define __TP_USDT_8(p, s, n, z, a, b, c, d, e, f, g)                             \
	__TP_USDT_ASM(p, s, n, __TP_UA(0) " " __TP_UA(1) " " __TP_UA(2) " " __TP_UA(3) \
		      " " __TP_UA(4) " " __TP_UA(5) " " __TP_UA(6), __TP_UO(0, a), \
		      __TP_UO(1, b), __TP_UO(2, c), __TP_UO(3, d), __TP_UO(4, e), \
		      __TP_UO(5, f), __TP_UO(6, g))
/* More than seven arguments: the probe is still there, arguments are not
 * described (USDT tools handle at most 12 anyway). */
#define __TP_USDT_9(p, s, n, ...) __TP_USDT_1(p, s, n, 0)
#define __TP_USDT_10(p, s, n, ...) __TP_USDT_1(p, s, n, 0)
#define __TP_USDT_11(p, s, n, ...) __TP_USDT_1(p, s, n, 0)
#define __TP_USDT_12(p, s, n, ...) __TP_USDT_1(p, s, n, 0)
#define __TP_USDT_PROBE(sym, name, uargs) __TP_USDT(__TP_PROVIDER_NOW, sym, name, uargs)
#else
#define __TP_USDT_PROBE(sym, name, uargs) do { } while (0)
#endif

#endif /* __TP_USDT_H */
