/* SPDX-License-Identifier: MIT */
/*
 * tracepoint/usdt.h - each tracepoint as a USDT probe (-DTRACEPOINT_USDT),
 * so that perf, bpftrace and gdb see it.
 *
 * A USDT probe is an ELF note in the format of <sys/sdt.h>, written here
 * with libc only, plus a semaphore that external tracers increment.  In this
 * mode the tracepoint's key (struct tracepoint's enabled) is that semaphore,
 * which is why code patching is off then (static_key.h).  Without
 * -DTRACEPOINT_USDT this file defines TP__USDT_PROBE as nothing.
 *
 * Internal: included by tracepoint.h; macros only, expanded by the dispatch
 * function of declare.h; depends on compiler.h and defs.h.
 */
#ifndef TRACEPOINT_H_INCLUDED
#error "tracepoint/usdt.h is internal: #include <tracepoint.h> instead"
#elif !defined(TP__USDT_H)
#define TP__USDT_H

/* --- USDT probes (-DTRACEPOINT_USDT).  The tracepoint's key is
 * also its USDT semaphore: external tracers announce themselves by
 * incrementing it, so call sites must read it (the portable check; code
 * patching is off in this mode), and the dispatch hosts one USDT probe per
 * tracepoint, with its arguments described, before the in-process probes.
 * The note is written here, in the format of <sys/sdt.h>; it sits next to
 * the dispatch function, which the tracepoint struct keeps alive, so
 * --gc-sections never leaves it dangling. --- */
#if defined(TRACEPOINT_USDT) && (defined(__x86_64__) || defined(__aarch64__))
#define TP__NARG(...) TP__NARG_(__VA_ARGS__, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define TP__NARG_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, n, ...) n
#define TP__UA(i) "%c[tp__s" #i "]@%[tp__a" #i "]"
#define TP__UO(i, x) [tp__s##i] "n"(TP__USDT_SIZE(x)), [tp__a##i] "nor"(x)
/* An argument's size as <sys/sdt.h> writes it: negative for a signed type
 * (signed integers, plain char where it is signed, floating types), so that
 * tools sign-extend it; positive for unsigned types, bool, pointers and
 * everything else.  The type is the tracepoint's parameter type, before any
 * promotion (an unsigned short stays 2 unsigned bytes). */
#define TP__USDT_SIZE(x) (TP__USDT_SIGNED(x) ? -(int)sizeof(x) : (int)sizeof(x))
#ifdef __cplusplus
extern "C++" {
template <typename T> struct tp__usdt_sign { enum { value = 0 }; };
template <typename T> struct tp__usdt_sign<const T> : tp__usdt_sign<T> {};
template <typename T> struct tp__usdt_sign<volatile T> : tp__usdt_sign<T> {};
template <typename T> struct tp__usdt_sign<const volatile T> : tp__usdt_sign<T> {};
template <typename T> struct tp__usdt_sign<T &> : tp__usdt_sign<T> {};
#define TP__USDT_SIGNED_TYPE(t, v) template <> struct tp__usdt_sign<t> { enum { value = v }; };
TP__USDT_SIGNED_TYPE(char, (char)-1 < (char)0)
TP__USDT_SIGNED_TYPE(signed char, 1)
TP__USDT_SIGNED_TYPE(short, 1)
TP__USDT_SIGNED_TYPE(int, 1)
TP__USDT_SIGNED_TYPE(long, 1)
TP__USDT_SIGNED_TYPE(long long, 1)
TP__USDT_SIGNED_TYPE(float, 1)
TP__USDT_SIGNED_TYPE(double, 1)
TP__USDT_SIGNED_TYPE(long double, 1)
#undef TP__USDT_SIGNED_TYPE
/* An enum is as signed as its underlying type. */
template <typename T, bool = __is_enum(T)> struct tp__usdt_arg : tp__usdt_sign<T> {};
template <typename T> struct tp__usdt_arg<T, true> : tp__usdt_sign<__underlying_type(T)> {};
}
#define TP__USDT_SIGNED(x) (tp__usdt_arg<__typeof__(x)>::value != 0)
#else
/* C: an enum matches its compatible integer type; __extension__ lets
 * _Generic pass in C99 under -Wpedantic. */
#define TP__USDT_SIGNED(x)                                                  \
	(__extension__ _Generic((x), char: (char)-1 < (char)0, signed char: 1, \
				 short: 1, int: 1, long: 1, long long: 1,       \
				 float: 1, double: 1, long double: 1, default: 0))
#endif
#define TP__USDT_NOTE(prov, sym, name, fmt)                                       \
	"990: nop\n\t"                                                        \
	".pushsection .note.stapsdt,\"?\",\"note\"\n\t"                      \
	".balign 4\n\t"                                                       \
	".4byte 992f-991f, 994f-993f, 3\n\t"                                  \
	"991: .asciz \"stapsdt\"\n\t"                                         \
	"992: .balign 4\n\t"                                                  \
	"993: .8byte 990b\n\t"                                                \
	".8byte _.stapsdt.base\n\t"                                           \
	".8byte " TP__SYM("__tracepoint_", sym, name) " + %c[tp__sem]\n\t"       \
	".asciz \"" TP__STR(prov) "\"\n\t"                                   \
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
#define TP__SEM_OP [tp__sem] "n"(offsetof(struct tracepoint, enabled))
#define TP__USDT(prov, sym, name, ...)                                       \
	TP__USDT_N(TP__NARG(__VA_ARGS__), prov, sym, name, __VA_ARGS__)
#define TP__USDT_N(n, prov, sym, name, ...) TP__USDT_N_(n, prov, sym, name, __VA_ARGS__)
#define TP__USDT_N_(n, prov, sym, name, ...) TP__USDT_##n(prov, sym, name, __VA_ARGS__)
#define TP__USDT_ASM(prov, sym, name, fmt, ...)                                   \
	__asm__ __volatile__(TP__USDT_NOTE(prov, sym, name, fmt) : : TP__SEM_OP, __VA_ARGS__)
#define TP__USDT_1(p, s, n, z)                                                  \
	__asm__ __volatile__(TP__USDT_NOTE(p, s, n, "") : : TP__SEM_OP)
#define TP__USDT_2(p, s, n, z, a) TP__USDT_ASM(p, s, n, TP__UA(0), TP__UO(0, a))
#define TP__USDT_3(p, s, n, z, a, b)                                            \
	TP__USDT_ASM(p, s, n, TP__UA(0) " " TP__UA(1), TP__UO(0, a), TP__UO(1, b))
#define TP__USDT_4(p, s, n, z, a, b, c)                                         \
	TP__USDT_ASM(p, s, n, TP__UA(0) " " TP__UA(1) " " TP__UA(2),         \
		      TP__UO(0, a), TP__UO(1, b), TP__UO(2, c))
#define TP__USDT_5(p, s, n, z, a, b, c, d)                                      \
	TP__USDT_ASM(p, s, n, TP__UA(0) " " TP__UA(1) " " TP__UA(2) " " TP__UA(3), \
		      TP__UO(0, a), TP__UO(1, b), TP__UO(2, c), TP__UO(3, d))
#define TP__USDT_6(p, s, n, z, a, b, c, d, e)                                   \
	TP__USDT_ASM(p, s, n, TP__UA(0) " " TP__UA(1) " " TP__UA(2) " " TP__UA(3) \
		      " " TP__UA(4), TP__UO(0, a), TP__UO(1, b), TP__UO(2, c), \
		      TP__UO(3, d), TP__UO(4, e))
#define TP__USDT_7(p, s, n, z, a, b, c, d, e, f)                                \
	TP__USDT_ASM(p, s, n, TP__UA(0) " " TP__UA(1) " " TP__UA(2) " " TP__UA(3) \
		      " " TP__UA(4) " " TP__UA(5), TP__UO(0, a), TP__UO(1, b), \
		      TP__UO(2, c), TP__UO(3, d), TP__UO(4, e), TP__UO(5, f))
#define TP__USDT_8(p, s, n, z, a, b, c, d, e, f, g)                             \
	TP__USDT_ASM(p, s, n, TP__UA(0) " " TP__UA(1) " " TP__UA(2) " " TP__UA(3) \
		      " " TP__UA(4) " " TP__UA(5) " " TP__UA(6), TP__UO(0, a), \
		      TP__UO(1, b), TP__UO(2, c), TP__UO(3, d), TP__UO(4, e), \
		      TP__UO(5, f), TP__UO(6, g))
/* More than seven arguments: the probe is still there, arguments are not
 * described (USDT tools handle at most 12 anyway). */
#define TP__USDT_9(p, s, n, ...) TP__USDT_1(p, s, n, 0)
#define TP__USDT_10(p, s, n, ...) TP__USDT_1(p, s, n, 0)
#define TP__USDT_11(p, s, n, ...) TP__USDT_1(p, s, n, 0)
#define TP__USDT_12(p, s, n, ...) TP__USDT_1(p, s, n, 0)
#define TP__USDT_PROBE(sym, name, uargs) TP__USDT(TP__PROVIDER_NOW, sym, name, uargs)
/* Where DEFINE_TRACE puts the struct, whose key is the semaphore.  Tools
 * turn a semaphore's address into the file offset the kernel wants
 * (perf_event_open's ref_ctr_offset, uprobe_events' "(offset)") through the
 * section named .probes, as <sys/sdt.h> lays it out: bcc (bpftrace) and perf
 * compute address - .probes address + .probes file offset, and without a
 * .probes section bpftrace passes 0 (no semaphore: it attaches and sees
 * nothing) and perf the bare address (the wrong page).  So the struct
 * itself goes into .probes, a writable, file-backed section as the kernel
 * requires. */
#define TP__TRACEPOINT_SECTION ".probes"
#else
#define TP__USDT_PROBE(sym, name, uargs) do { } while (0)
#define TP__TRACEPOINT_SECTION "tp__tracepoints"
#endif

#endif /* TP__USDT_H */
