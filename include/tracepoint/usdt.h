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
/* TP__NARG(0, args...): 1 + the number of args (TP__USDT_PROBE's uargs
 * start with a 0), up to 19 args; <sys/sdt.h> describes at most 12. */
#define TP__NARG(...) TP__NARG_(__VA_ARGS__, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define TP__NARG_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, _17, _18, _19, _20, n, ...) n
/* Argument i's description, "-4@%edi" or "8@16(%rsp)", as a directive of
 * the note; with TRACEPOINT_USDT_FLOAT_SUFFIX a floating-point argument's
 * is "8f@%rax" (TP__USDT_SIZE below), its text picked by the assembler. */
#ifdef TRACEPOINT_USDT_FLOAT_SUFFIX
#define TP__UA(i)                                                            \
	".if %c[tp__s" #i "] > 100\n\t"                                     \
	".if %c[tp__s" #i "] == 104\n\t.ascii \"4f\"\n\t"                     \
	".elseif %c[tp__s" #i "] == 108\n\t.ascii \"8f\"\n\t"                 \
	".elseif %c[tp__s" #i "] == 116\n\t.ascii \"16f\"\n\t"                \
	".else\n\t.ascii \"2f\"\n\t.endif\n\t"                                \
	".else\n\t.ascii \"%c[tp__s" #i "]\"\n\t.endif\n\t"                   \
	".ascii \"@%[tp__a" #i "]\"\n\t"
#define TP__USDT_FSIZE(x) (100 + (int)sizeof(x))
#else
#define TP__UA(i) ".ascii \"%c[tp__s" #i "]@%[tp__a" #i "]\"\n\t"
#define TP__USDT_FSIZE(x) ((int)sizeof(x))
#endif
#define TP__UO(i, x) [tp__s##i] "n"(TP__USDT_SIZE(x)), [tp__a##i] "nor"(x)
/* The descriptions of the first k arguments, space-separated, and their
 * operands. */
#define TP__UF1 TP__UA(0)
#define TP__UF2 TP__UF1 ".ascii \" \"\n\t" TP__UA(1)
#define TP__UF3 TP__UF2 ".ascii \" \"\n\t" TP__UA(2)
#define TP__UF4 TP__UF3 ".ascii \" \"\n\t" TP__UA(3)
#define TP__UF5 TP__UF4 ".ascii \" \"\n\t" TP__UA(4)
#define TP__UF6 TP__UF5 ".ascii \" \"\n\t" TP__UA(5)
#define TP__UF7 TP__UF6 ".ascii \" \"\n\t" TP__UA(6)
#define TP__UF8 TP__UF7 ".ascii \" \"\n\t" TP__UA(7)
#define TP__UF9 TP__UF8 ".ascii \" \"\n\t" TP__UA(8)
#define TP__UF10 TP__UF9 ".ascii \" \"\n\t" TP__UA(9)
#define TP__UF11 TP__UF10 ".ascii \" \"\n\t" TP__UA(10)
#define TP__UF12 TP__UF11 ".ascii \" \"\n\t" TP__UA(11)
#define TP__UO1(a) TP__UO(0, a)
#define TP__UO2(a, b) TP__UO1(a), TP__UO(1, b)
#define TP__UO3(a, b, c) TP__UO2(a, b), TP__UO(2, c)
#define TP__UO4(a, b, c, d) TP__UO3(a, b, c), TP__UO(3, d)
#define TP__UO5(a, b, c, d, e) TP__UO4(a, b, c, d), TP__UO(4, e)
#define TP__UO6(a, b, c, d, e, f) TP__UO5(a, b, c, d, e), TP__UO(5, f)
#define TP__UO7(a, b, c, d, e, f, g) TP__UO6(a, b, c, d, e, f), TP__UO(6, g)
#define TP__UO8(a, b, c, d, e, f, g, h) TP__UO7(a, b, c, d, e, f, g), TP__UO(7, h)
#define TP__UO9(a, b, c, d, e, f, g, h, i) TP__UO8(a, b, c, d, e, f, g, h), TP__UO(8, i)
#define TP__UO10(a, b, c, d, e, f, g, h, i, j) TP__UO9(a, b, c, d, e, f, g, h, i), TP__UO(9, j)
#define TP__UO11(a, b, c, d, e, f, g, h, i, j, k) TP__UO10(a, b, c, d, e, f, g, h, i, j), TP__UO(10, k)
#define TP__UO12(a, b, c, d, e, f, g, h, i, j, k, l) TP__UO11(a, b, c, d, e, f, g, h, i, j, k), TP__UO(11, l)
/* An argument's size as <sys/sdt.h> writes it: negative for a signed
 * integer type (signed integers, plain char where it is signed, a signed
 * enum), so that tools sign-extend it; positive for unsigned types, bool,
 * pointers and everything else.  A floating type (float, double, long
 * double: __builtin_classify_type's real_type_class, 8, as <sys/sdt.h>
 * tests it) is its bits, unsigned ("8@%rax"): what bpftrace 0.17, gdb 13
 * and perf 6.1 read; <sys/sdt.h> since systemtap 4.6 writes "8f@%rax",
 * which tells a tool to read a floating-point number, and which bpftrace
 * and gdb 13 cannot parse (the probe's later arguments are lost), so that
 * form is asked for with -DTRACEPOINT_USDT_FLOAT_SUFFIX (TP__USDT_FSIZE:
 * 100 + the size, which TP__UA turns into its text).  One number per
 * argument: an asm statement takes at most 30 operands, 12 arguments 24.
 * The type is the tracepoint's parameter type, before any promotion (an
 * unsigned short stays 2 unsigned bytes). */
#define TP__USDT_FLOAT(x) (__builtin_classify_type(x) == 8)
#define TP__USDT_SIZE(x)                                                     \
	(TP__USDT_FLOAT(x) ? TP__USDT_FSIZE(x)                               \
	 : TP__USDT_SIGNED(x) ? -(int)sizeof(x) : (int)sizeof(x))
#ifdef __cplusplus
extern "C++" {
template <typename T> struct tp__usdt_sign {
	enum { value = 0 };
};
template <typename T> struct tp__usdt_sign<const T> : tp__usdt_sign<T> {
};
template <typename T> struct tp__usdt_sign<volatile T> : tp__usdt_sign<T> {
};
template <typename T> struct tp__usdt_sign<const volatile T> : tp__usdt_sign<T> {
};
template <typename T> struct tp__usdt_sign<T &> : tp__usdt_sign<T> {
};
#define TP__USDT_SIGNED_TYPE(t, v) template <> struct tp__usdt_sign<t> { enum { value = v }; };
TP__USDT_SIGNED_TYPE(char, (char)-1 < (char)0)
TP__USDT_SIGNED_TYPE(signed char, 1)
TP__USDT_SIGNED_TYPE(short, 1)
TP__USDT_SIGNED_TYPE(int, 1)
TP__USDT_SIGNED_TYPE(long, 1)
TP__USDT_SIGNED_TYPE(long long, 1)
#undef TP__USDT_SIGNED_TYPE
/* An enum is as signed as its underlying type. */
template <typename T, bool = __is_enum(T)> struct tp__usdt_arg : tp__usdt_sign<T> {
};
template <typename T> struct tp__usdt_arg<T, true> : tp__usdt_sign<__underlying_type(T)> {
};
}
#define TP__USDT_SIGNED(x) (tp__usdt_arg<__typeof__(x)>::value != 0)
#else
/* C: an enum matches its compatible integer type; __extension__ lets
 * _Generic pass in C99 under -Wpedantic. */
#define TP__USDT_SIGNED(x)                                                  \
	(__extension__ _Generic((x), char: (char)-1 < (char)0, signed char: 1, \
				 short: 1, int: 1, long: 1, long long: 1,       \
				 default: 0))
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
	fmt ".byte 0\n\t"                                                    \
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
#define TP__USDT_2(p, s, n, z, a) TP__USDT_ASM(p, s, n, TP__UF1, TP__UO1(a))
#define TP__USDT_3(p, s, n, z, a, b) TP__USDT_ASM(p, s, n, TP__UF2, TP__UO2(a, b))
#define TP__USDT_4(p, s, n, z, a, b, c) TP__USDT_ASM(p, s, n, TP__UF3, TP__UO3(a, b, c))
#define TP__USDT_5(p, s, n, z, a, b, c, d) TP__USDT_ASM(p, s, n, TP__UF4, TP__UO4(a, b, c, d))
#define TP__USDT_6(p, s, n, z, a, b, c, d, e) TP__USDT_ASM(p, s, n, TP__UF5, TP__UO5(a, b, c, d, e))
#define TP__USDT_7(p, s, n, z, a, b, c, d, e, f) TP__USDT_ASM(p, s, n, TP__UF6, TP__UO6(a, b, c, d, e, f))
#define TP__USDT_8(p, s, n, z, a, b, c, d, e, f, g) TP__USDT_ASM(p, s, n, TP__UF7, TP__UO7(a, b, c, d, e, f, g))
#define TP__USDT_9(p, s, n, z, a, b, c, d, e, f, g, h) TP__USDT_ASM(p, s, n, TP__UF8, TP__UO8(a, b, c, d, e, f, g, h))
#define TP__USDT_10(p, s, n, z, a, b, c, d, e, f, g, h, i) TP__USDT_ASM(p, s, n, TP__UF9, TP__UO9(a, b, c, d, e, f, g, h, i))
#define TP__USDT_11(p, s, n, z, a, b, c, d, e, f, g, h, i, j) TP__USDT_ASM(p, s, n, TP__UF10, TP__UO10(a, b, c, d, e, f, g, h, i, j))
#define TP__USDT_12(p, s, n, z, a, b, c, d, e, f, g, h, i, j, k) TP__USDT_ASM(p, s, n, TP__UF11, TP__UO11(a, b, c, d, e, f, g, h, i, j, k))
#define TP__USDT_13(p, s, n, z, a, b, c, d, e, f, g, h, i, j, k, l) TP__USDT_ASM(p, s, n, TP__UF12, TP__UO12(a, b, c, d, e, f, g, h, i, j, k, l))
/* More than twelve arguments, beyond <sys/sdt.h>'s limit: the probe is
 * still there, its arguments are not described. */
#define TP__USDT_14(p, s, n, ...) TP__USDT_1(p, s, n, 0)
#define TP__USDT_15(p, s, n, ...) TP__USDT_1(p, s, n, 0)
#define TP__USDT_16(p, s, n, ...) TP__USDT_1(p, s, n, 0)
#define TP__USDT_17(p, s, n, ...) TP__USDT_1(p, s, n, 0)
#define TP__USDT_18(p, s, n, ...) TP__USDT_1(p, s, n, 0)
#define TP__USDT_19(p, s, n, ...) TP__USDT_1(p, s, n, 0)
#define TP__USDT_20(p, s, n, ...) TP__USDT_1(p, s, n, 0)
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
