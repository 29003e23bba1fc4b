/* SPDX-License-Identifier: MIT */
/*
 * tracepoint.h - header-only tracepoints whose subsystems compile in or out
 *                one by one, in the style of the Linux kernel.
 *
 * Usage
 * -----
 *   An event header (one per subsystem), kmem.h:
 *
 *     #undef TRACE_SYSTEM
 *     #undef TRACE_CONFIG
 *     #define TRACE_SYSTEM kmem
 *     #define TRACE_CONFIG CONFIG_KMEMTRACE     // this subsystem's switch
 *     #if !defined(_TRACE_KMEM_H) || defined(TRACE_HEADER_MULTI_READ)
 *     #define _TRACE_KMEM_H
 *     #include <tracepoint.h>
 *     DECLARE_TRACE(kmalloc, TP_PROTO(const void *ptr, size_t len),
 *                   TP_ARGS(ptr, len));
 *     #endif
 *
 *   Exactly one .c file defines it:   DEFINE_TRACE(kmalloc);
 *   Code fires it:                     trace_kmalloc(p, n);
 *   A tool attaches to it:             register_trace_kmalloc(my_probe, ctx);
 *   where                              void my_probe(void *ctx, const void *ptr, size_t len);
 *
 *   Build with -DCONFIG_KMEMTRACE to compile the subsystem in.  Without it the
 *   tracepoints of kmem.h become empty inlines and leave no byte behind.
 *   Compiled in but idle, a call site is one instruction that is patched into
 *   a jump while a probe is attached (static keys, Layer 4; -DTRACEPOINT_PORTABLE
 *   for a load and a branch instead, -DTRACEPOINT_USDT to be a USDT probe too).
 *
 * Selection rule (re-made at every #include of this file, outside its guard):
 *   TRACE_CONFIG undefined                    -> compiled in (unconverted header)
 *   TRACE_CONFIG names a macro defined as 1   -> compiled in
 *   ... undefined, 0, empty, any other token  -> compiled out
 *   -DCONFIG_TRACEPOINTS_ALL                  -> every tracepoint compiled in
 *   -DCONFIG_TRACEPOINTS_OFF                  -> every tracepoint compiled out
 *   Each #include of this file consumes (#undefs) TRACE_CONFIG, so a header
 *   that never sets it gets its own "compiled in" decision.
 *
 * Runtime state without a runtime library
 * ---------------------------------------
 *   There is no process-wide singleton to agree on.  Every piece of mutable
 *   state belongs to one tracepoint and lives inside its struct tracepoint,
 *   which DEFINE_TRACE emits exactly once per program, so the symbol itself is
 *   the meeting point for the executable and every shared library (as in the
 *   kernel).  The list of all tracepoints is the dynamic loader's own list of
 *   loaded modules: DEFINE_TRACE adds the tracepoint's address to the module's
 *   "__tracepoints_ptrs" section and leaves an ELF note (one per translation
 *   unit) holding link-time offsets to that section's bounds; iteration walks
 *   dl_iterate_phdr() -> PT_NOTE -> our note.  A dlopen'ed library is thus seen
 *   from the moment it is mapped and is gone again after dlclose, with no
 *   registration and no global lock (the only constructor is the one that
 *   idles a module's call sites, Layer 14).  Code patching is serialized by
 *   the loader's own lock.  The registry functions are static inline: a
 *   translation unit pays only for those it calls.
 *
 * Grace periods (what tracepoint_synchronize_unregister() waits for)
 * ------------------------------------------------------------------
 *   A probe list is never modified in place: registration builds a new array
 *   and publishes it with one atomic store.  Each tracepoint keeps two reader
 *   counters and a sequence number.  The enabled path (never the disabled one)
 *   increments the counter of the current parity (through a pointer that the
 *   writer moves) before loading the list and decrements it after the last
 *   probe returns.  A writer may advance the sequence only while the counter
 *   of the other parity is zero; an old array retired at sequence s is freed
 *   once the sequence reaches s + 2, when every reader that could have loaded
 *   it has left.  Writers only poll (never wait), so probes may register
 *   probes.  No lock, no allocation and no system call on the fire path, so
 *   firing from a signal handler is safe.
 */

/* ------------------------------------------------------------------------ */
/* Guarded part: public API and machinery, processed once per translation   */
/* unit.  The per-inclusion TRACE_CONFIG decision is at the end of the file. */
/* ------------------------------------------------------------------------ */
#ifndef TRACEPOINT_H_INCLUDED
#define TRACEPOINT_H_INCLUDED

#include "tracepoint/compiler.h"

/* gcc >= 11 takes a const pointer parameter to mean "reads the pointee" and
 * flags freshly malloc'ed memory passed to trace_kmalloc(p, ...) once the
 * call reaches the dispatch.  The dispatch never dereferences arguments; the
 * warning is off for code written in this file (diagnostics are placed at
 * the macro definitions here, not in the user's code). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ======================================================================== */
/* Public API                                                               */
/* ======================================================================== */

#include "tracepoint/defs.h"

#define TRACEPOINT_DEFAULT_PRIO 10


#define TP_PROTO(...) __VA_ARGS__
#define TP_ARGS(...) __VA_ARGS__
#ifndef PARAMS
#define PARAMS(...) __VA_ARGS__
#endif

/*
 * DECLARE_TRACE(name, TP_PROTO(...), TP_ARGS(...));  in an event header
 * DECLARE_TRACE_NOARGS(name);                         a tracepoint without arguments
 * DEFINE_TRACE(name);                                 in exactly one .c file
 * DEFINE_TRACE_FN(name, reg, unreg);                  same, with int reg(void), void unreg(void)
 * EXPORT_TRACEPOINT_SYMBOL(name);  EXPORT_TRACEPOINT_SYMBOL_GPL(name);
 */
#define DECLARE_TRACE(name, proto, args) __TP_DECLARE(name, "", PARAMS(proto), PARAMS(args))
#define __TP_DECLARE(name, sym, proto, args)                                  \
	__TP_DECLARE_SEL(__TP_ON, sym, name, PARAMS(proto), PARAMS(args),     \
			 PARAMS(void *__tp_data, proto),                      \
			 PARAMS(__tp_it->data, args), PARAMS(0, args),        \
			 PARAMS(const struct tracepoint_probe *__tp_it, proto), \
			 PARAMS(__tp_it, args))
#define DECLARE_TRACE_NOARGS(name)                                            \
	__TP_DECLARE_SEL(__TP_ON, "", name, void, , void *__tp_data,          \
			 __tp_it->data, 0,                                    \
			 const struct tracepoint_probe *__tp_it, __tp_it)
#define DEFINE_TRACE_FN(name, reg, unreg) __TP_DEFINE_SEL(__TP_ON, name, reg, unreg, 0, "")
#define DEFINE_TRACE(name) DEFINE_TRACE_FN(name, NULL, NULL)
#define EXPORT_TRACEPOINT_SYMBOL(name) __TP_EXPORT_SEL(__TP_ON, name)
#define EXPORT_TRACEPOINT_SYMBOL_GPL(name) __TP_EXPORT_SEL(__TP_ON, name)

/*
 * trace_lazy(name, args...): fire with arguments evaluated only while a probe
 * is attached (trace_<name>(args) is a function: its arguments always are).
 */
#define trace_lazy(name, ...)                                                 \
	do {                                                                  \
		if (trace_##name##_enabled())                                 \
			__tp_iter_##name(__VA_ARGS__);                        \
	} while (0)

/* Generated per tracepoint (see README for the full contract):
 *   void trace_<name>(proto);
 *   bool trace_<name>_enabled(void);
 *   int  register_trace_<name>(void (*probe)(void *data, proto), void *data);
 *   int  register_trace_prio_<name>(probe, data, int prio);
 *   int  unregister_trace_<name>(probe, data);
 */

/* Untyped registry API (cast probes with TRACEPOINT_FUNC). */
#define TRACEPOINT_FUNC(f) ((tracepoint_func_t)(f))
static inline int tracepoint_probe_register_prio(struct tracepoint *tp,
						 tracepoint_func_t probe,
						 void *data, int prio);
static inline int tracepoint_probe_register(struct tracepoint *tp,
					    tracepoint_func_t probe, void *data);
static inline int tracepoint_probe_unregister(struct tracepoint *tp,
					      tracepoint_func_t probe, void *data);
static inline bool tracepoint_enabled(const struct tracepoint *tp);
/* 1 if (probe, data) is attached to tp, 0 if not, -EINVAL for NULL tp or
 * probe, -EPROTO for a tracepoint of another tracepoint.h layout. */
static inline int tracepoint_probe_attached(const struct tracepoint *tp,
					    tracepoint_func_t probe, void *data);
static inline void tracepoint_synchronize_unregister(void);
/* How many patchable call sites of tp the loaded modules have (0: no code
 * that was compiled with its subsystem switched on fires it), or -ENOSYS
 * where call sites are not recorded (-DTRACEPOINT_PORTABLE, -DTRACEPOINT_USDT,
 * architectures without static keys). */
static inline int tracepoint_sites(const struct tracepoint *tp);

/* Every tracepoint of the running program, executable and loaded libraries.
 * fn runs with the dynamic loader's lock held: it must not dlopen/dlclose.
 * A non-zero return from fn stops the walk and is returned. */
static inline int tracepoint_for_each(int (*fn)(struct tracepoint *tp, void *priv),
				      void *priv);
static inline struct tracepoint *tracepoint_find(const char *name);
static inline int tracepoint_probe_register_name(const char *name,
						 tracepoint_func_t probe,
						 void *data, int prio);
static inline int tracepoint_probe_unregister_name(const char *name,
						   tracepoint_func_t probe,
						   void *data);

/* ======================================================================== */
/* Machinery                                                                */
/* ======================================================================== */

#include "tracepoint/declare.h"

/* --- Layer 4: the fast-path check. ---
 * Static keys (x86-64, aarch64; gcc, clang >= 9): each call site is one
 * 5-byte x86 instruction or one aarch64 instruction, listed in the module's
 * "__tp_jump" table.  As compiled it jumps to the out-of-line slow path (the
 * dispatch function checks the key again), so an unpatched site is always
 * correct; the module's constructor turns the sites
 * of disabled tracepoints into a no-op, and enabling turns them back.  On
 * x86-64 only the opcode byte changes, e9 (jmp rel32) <-> a9 (test $rel32,
 * %eax), so no thread can ever fetch a torn instruction; on aarch64 a single
 * aligned word flips between b and nop.  Where patching is impossible the
 * sites stay jumps and the dispatch's load-and-branch decides (portable
 * fallback).  -DTRACEPOINT_PORTABLE compiles every site as that load and
 * branch instead. */
#if !defined(TRACEPOINT_PORTABLE) && !defined(TRACEPOINT_USDT) && \
	(defined(__x86_64__) || defined(__aarch64__)) && \
	(!defined(__clang__) || __clang_major__ >= 9)
#define TRACEPOINT_STATIC_KEYS 1
#else
#define TRACEPOINT_STATIC_KEYS 0
#endif

__TP_ALWAYS_INLINE bool __tp_key_enabled(const struct tracepoint *tp)
{
	return __builtin_expect(__atomic_load_n(&tp->enabled, __ATOMIC_RELAXED), 0) != 0;
}

#if TRACEPOINT_STATIC_KEYS
#if defined(__x86_64__)
#define __TP_SITE_INSN "1: .byte 0xe9\n\t.long %l[__tp_slow] - (1b + 5)\n\t"
#else
#define __TP_SITE_INSN "1: b %l[__tp_slow]\n\t"
#endif
static inline void __tp_jump_init(void);
#define __TP_KEY_CHECK(sym, name, slow_result)                                \
	__asm__ goto(__TP_SITE_INSN                                           \
		     ".pushsection __tp_jump,\"aw\",@progbits\n\t"           \
		     ".balign 8\n\t"                                          \
		     ".long 1b - ., %l[__tp_slow] - .\n\t"                    \
		     ".quad " __TP_SYM("__tracepoint_", sym, name) "\n\t"     \
		     ".popsection\n\t"                                        \
		     __TP_MODULE_NOTE_ASM                                     \
		     ".ifndef __tp_jump_init_emitted\n\t"                     \
		     ".set __tp_jump_init_emitted, 1\n\t"                     \
		     ".pushsection .init_array,\"aw\",@init_array\n\t"        \
		     ".balign 8\n\t"                                          \
		     ".quad %c0\n\t"                                          \
		     ".popsection\n\t"                                        \
		     ".pushsection .bss.__tp_jump_done,\"awG\",@nobits,"     \
		     "__tp_jump_done,comdat\n\t"                              \
		     ".weak __tp_jump_done\n\t"                               \
		     ".hidden __tp_jump_done\n\t"                             \
		     ".balign 4\n\t"                                          \
		     "__tp_jump_done: .zero 4\n\t"                            \
		     ".popsection\n\t"                                        \
		     ".endif\n\t"                                             \
		     : : __TP_FN_CONSTRAINT(__tp_jump_init) : : __tp_slow);   \
	return false;                                                         \
__tp_slow:                                                                    \
	return slow_result
#elif defined(__x86_64__) && (!defined(__clang__) || __clang_major__ >= 9)
/* Portable check on x86-64: compilers will not fold an atomic load into a
 * compare, so spell it: one cmpw against memory and one branch. */
#define __TP_KEY_CHECK(sym, name, slow_result)                                \
	__asm__ goto("cmpw $0, %0\n\tjne %l[__tp_slow]"                      \
		     : : "m"(__tracepoint_##name.enabled) : "cc" : __tp_slow);  \
	return false;                                                         \
__tp_slow:                                                                    \
	return true
#else
#define __TP_KEY_CHECK(sym, name, slow_result) return __tp_key_enabled(&__tracepoint_##name)
#endif

/* --- Layer 5: the read side of the grace period, inlined into each typed
 * dispatch function (external-linkage inline: referenced from C99 inline
 * definitions, so it must not be static). --- */
__TP_ALWAYS_INLINE const struct tracepoint_probe *
__tp_read_begin(struct tracepoint *tp, long **counter)
{
	long *c = __atomic_load_n(&tp->__tp.cur, __ATOMIC_RELAXED);
	*counter = c;
	__atomic_fetch_add(c, 1, __ATOMIC_SEQ_CST);
	return __atomic_load_n(&tp->funcs, __ATOMIC_SEQ_CST);
}

__TP_ALWAYS_INLINE void __tp_read_end(long *counter)
{
	__atomic_fetch_sub(counter, 1, __ATOMIC_RELEASE);
}

#include "tracepoint/usdt.h"

/* --- Layer 9: the module note.  One per translation unit (the assembler's
 * .ifndef sees earlier ones), holding link-time offsets to this module's
 * __tracepoints_ptrs and __tp_jump bounds, so iteration and patching find
 * them from the program headers alone.  Offsets, not addresses: no
 * relocation in read-only data.  It opens with TRACEPOINT_ABI: a module
 * built with another layout is reported and skipped by every walk. */
#define __TP_NOTE_TYPE 0x7470
#define __TP_MODULE_NOTE_ASM                                                  \
	".ifndef __tp_module_note_emitted\n\t"                                \
	".set __tp_module_note_emitted, 1\n\t"                                \
	".pushsection .note.tracepoint,\"a\",@note\n\t"                       \
	".balign 4\n\t"                                                       \
	".long 11, 40, " __TP_STR(__TP_NOTE_TYPE) "\n\t"                      \
	".asciz \"tracepoint\"\n\t"                                           \
	".balign 4\n\t"                                                       \
	".long " __TP_STR(TRACEPOINT_ABI) ", 0\n\t"                           \
	".weak __start___tracepoints_ptrs, __stop___tracepoints_ptrs\n\t"     \
	".weak __start___tp_jump, __stop___tp_jump\n\t"                       \
	".hidden __start___tracepoints_ptrs, __stop___tracepoints_ptrs\n\t"   \
	".hidden __start___tp_jump, __stop___tp_jump\n\t"                     \
	".quad __start___tracepoints_ptrs - .\n\t"                            \
	".quad __stop___tracepoints_ptrs - .\n\t"                             \
	".quad __start___tp_jump - .\n\t"                                     \
	".quad __stop___tp_jump - .\n\t"                                      \
	".popsection\n\t"                                                     \
	".endif\n\t"
#define __TP_MODULE_NOTE __asm__(__TP_MODULE_NOTE_ASM)

/* --- Layer 11: POSIX calls that strict ISO C modes (-std=c99) hide.  The
 * prototypes are glibc's; redeclaring them is harmless where they are
 * already visible.  C++ compilers always expose them. --- */
#if !defined(__cplusplus) && !defined(__USE_GNU)
struct dl_phdr_info;
extern int dl_iterate_phdr(int (*)(struct dl_phdr_info *, size_t, void *), void *);
#endif
#if !defined(__cplusplus) && !defined(__USE_POSIX199309)
extern int nanosleep(const struct timespec *, struct timespec *);
#endif

/* The part of glibc's struct dl_phdr_info we read (hidden in strict C). */
struct __tp_phdr_info {
	ElfW(Addr) addr;
	const char *name;
	const ElfW(Phdr) *phdr;
	ElfW(Half) phnum;
};

/* --- Layer 12: the registration lock.  A spin-then-sleep lock holding the
 * owner's pid: a child forked while another thread held it sees a foreign
 * pid and takes the lock over, so fork never inherits a dead owner. --- */
static inline void __tp_pause(unsigned round)
{
	if (round < 64) {
		sched_yield();
	} else {
		struct timespec ts = { 0, 50000 };
		nanosleep(&ts, NULL);
	}
}

static inline void __tp_adopt_counters(struct tracepoint *tp, int me);

static inline void __tp_lock(struct tracepoint *tp)
{
	int me = (int)getpid();
	unsigned round = 0;
	for (;;) {
		int owner = 0;
		if (__atomic_compare_exchange_n(&tp->__tp.lock, &owner, me, false,
						__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			break;
		if (owner != me && __atomic_compare_exchange_n(&tp->__tp.lock, &owner, me,
							       false, __ATOMIC_ACQUIRE,
							       __ATOMIC_RELAXED))
			break; /* inherited across fork from a parent's thread */
		__tp_pause(round++);
	}
	if (tp->__tp.pid != me)
		__tp_adopt_counters(tp, me);
}

static inline void __tp_unlock(struct tracepoint *tp)
{
	__atomic_store_n(&tp->__tp.lock, 0, __ATOMIC_RELEASE);
}

/* --- Layer 12b: fork.  Two things do not survive fork() on their own.
 * (1) glibc's fork() leaves the loader's dl_iterate_phdr() lock held in the
 * child if another thread was inside dl_iterate_phdr(): every walk of ours
 * (listing, patching) therefore runs inside one process-wide guard, which
 * our pthread_atfork() prepare handler takes, so that no walk of ours is in
 * progress when the process forks.  The guard is an exported weak object,
 * one for the executable and its libraries (a module whose symbols are not
 * shared gets its own, with its own handlers).  The handlers are installed
 * once, before the first walk, the first registration, and by every
 * module constructor, so that they run after (prepare) the handlers that
 * libraries install later: those may take locks under which they walk.
 * (2) Reader counters count threads that do not exist in the child: the
 * child handler moves every tracepoint to fresh counters (below). --- */
struct __tp_fork_guard {
	unsigned long owner;      /* pthread_self() of the holder, 0 if free */
	unsigned depth;           /* nesting of the holder */
	unsigned next, serving;   /* tickets: first come, first served, so that
				   * a fork is not starved by a walking loop */
	int handlers;             /* the pthread_atfork() handlers are installed */
	int exiting;              /* exit() has begun (set by the main program) */
	int said_no_sink;         /* "TRACEPOINTS is set but ..." was printed */
};

/* The process-wide guard: one weak, exported object per layout version. */
#define __TP_GUARD_SYM "__tp_fork_guard_" __TP_STR(TRACEPOINT_ABI)
extern struct __tp_fork_guard __tp_fork_guard_obj __asm__(__TP_GUARD_SYM)
	__attribute__((weak));
__TP_STATIC_ASSERT(sizeof(struct __tp_fork_guard) <= 32, "the fork guard outgrew its 32 bytes",
		   __tp_fork_guard_outgrew_its_32_bytes);

static inline struct __tp_fork_guard *__tp_guard(void)
{
	__asm__(".ifndef __tp_fork_guard_emitted\n\t"
		".set __tp_fork_guard_emitted, 1\n\t"
		".pushsection .bss." __TP_GUARD_SYM ",\"awG\",@nobits,"
		__TP_GUARD_SYM ",comdat\n\t"
		".weak " __TP_GUARD_SYM "\n\t"
		".type " __TP_GUARD_SYM ", @object\n\t"
		".size " __TP_GUARD_SYM ", 32\n\t"
		".balign 8\n"
		__TP_GUARD_SYM ":\n\t"
		".zero 32\n\t"
		".popsection\n\t"
		".endif");
	return &__tp_fork_guard_obj;
}

static inline unsigned long __tp_self(void)
{
	return (unsigned long)pthread_self();
}

static inline void __tp_guard_lock(void)
{
	struct __tp_fork_guard *g = __tp_guard();
	unsigned long me = __tp_self();
	unsigned round = 0, ticket;
	if (__atomic_load_n(&g->owner, __ATOMIC_RELAXED) == me) {
		g->depth++;
		return;
	}
	ticket = __atomic_fetch_add(&g->next, 1u, __ATOMIC_RELAXED);
	while (__atomic_load_n(&g->serving, __ATOMIC_ACQUIRE) != ticket)
		__tp_pause(round++);
	__atomic_store_n(&g->owner, me, __ATOMIC_RELAXED);
	g->depth = 1;
}

static inline void __tp_guard_unlock(void)
{
	struct __tp_fork_guard *g = __tp_guard();
	if (--g->depth == 0) {
		__atomic_store_n(&g->owner, 0UL, __ATOMIC_RELAXED);
		__atomic_store_n(&g->serving, g->serving + 1, __ATOMIC_RELEASE);
	}
}

/* Every dl_iterate_phdr() of ours goes through here. */
static inline int __tp_iterate_phdr(int (*cb)(struct dl_phdr_info *, size_t, void *),
				    void *arg)
{
	int r;
	__tp_guard_lock();
	r = dl_iterate_phdr(cb, arg);
	__tp_guard_unlock();
	return r;
}

/* A child moves a tracepoint to the other generation of counters, zeroed.
 * Only the forking thread survived, and it may be inside a probe (fork()
 * called by a probe): its pending decrement lands on the old generation,
 * and lists retired before the fork are left allocated, since that probe's
 * caller may still hold one.  Called by the child handler, and by the
 * first writer of a process that never installed it (then no probe was
 * ever attached in this process's lineage, so there is nothing to keep). */
static inline void __tp_adopt_counters(struct tracepoint *tp, int me)
{
	unsigned g = tp->__tp.gen ^ 1u;
	__atomic_store_n(&tp->__tp.readers[g][0], 0L, __ATOMIC_RELAXED);
	__atomic_store_n(&tp->__tp.readers[g][1], 0L, __ATOMIC_RELAXED);
	tp->__tp.gen = g;
	__atomic_store_n(&tp->__tp.cur, &tp->__tp.readers[g][tp->__tp.seq & 1],
			 __ATOMIC_SEQ_CST);
	tp->__tp.retired = NULL;
	tp->__tp.wait_seq = tp->__tp.seq;
	tp->__tp.pid = me;
}

static inline void __tp_fork_prepare(void)
{
	__tp_guard_lock();
}

static inline void __tp_fork_parent(void)
{
	__tp_guard_unlock();
}

static inline int __tp_patch_key(struct tracepoint *tp);

static inline int __tp_fork_adopt_cb(struct tracepoint *tp, void *priv)
{
	int me = *(const int *)priv;
	if (tp->__tp.pid != me)
		__tp_adopt_counters(tp, me);
	/* A thread that died with the fork may have been between publishing
	 * a list and setting the key: make the key say what the list says. */
	if (tp->funcs)
		tp->enabled = (unsigned short)(tp->enabled | __TP_KEY_PROBES);
	else
		tp->enabled = (unsigned short)(tp->enabled & ~__TP_KEY_PROBES);
	return 0;
}

static inline void __tp_fork_child(void)
{
	struct __tp_fork_guard *g = __tp_guard();
	int me = (int)getpid();
	/* Tickets taken by threads that did not survive are void. */
	g->next = g->serving + 1;
	__tp_guard_unlock();
	/* fork() from inside one of our walks (a tracepoint_for_each callback,
	 * a signal handler) leaves the loader's lock held for good: do not
	 * walk then.  Otherwise no walk of ours was in progress. */
	if (g->depth != 0)
		return;
	tracepoint_for_each(__tp_fork_adopt_cb, &me);
	/* A thread that changed a key may not have patched its sites yet, and
	 * that thread is gone: bring every site in line with its key. */
	__tp_patch_key(NULL);
}

static inline void __tp_fork_handlers_once(void)
{
	struct __tp_fork_guard *g = __tp_guard();
	if (__atomic_load_n(&g->handlers, __ATOMIC_ACQUIRE))
		return;
	/* Never while holding the guard: a fork in progress holds glibc's
	 * handler lock and waits for the guard. */
	if (__atomic_load_n(&g->owner, __ATOMIC_RELAXED) == __tp_self())
		return;
	if (__atomic_exchange_n(&g->handlers, 1, __ATOMIC_ACQ_REL))
		return;
	if (pthread_atfork(__tp_fork_prepare, __tp_fork_parent, __tp_fork_child) != 0)
		__atomic_store_n(&g->handlers, 0, __ATOMIC_RELEASE);
}

static inline void __tp_exit_mark_once(void);

/* What every entry point runs first: fork handlers, exit marker. */
static inline void __tp_process_hooks(void)
{
	__tp_fork_handlers_once();
	__tp_exit_mark_once();
}

/* --- Layer 13: module discovery, dl_iterate_phdr -> PT_NOTE -> our note.  The
 * callback runs under the loader's lock, which also serializes every code
 * patch in the process (see __tp_patch_*). --- */
struct __tp_module {
	struct tracepoint *const *tp_start, *const *tp_stop;
	const struct __tp_jump_entry *jump_start, *jump_stop;
};

/* One line on stderr, written without stdio (async-signal-safe). */
static inline void __tp_say(const char *const *parts)
{
	for (; *parts; parts++) {
		ssize_t r = write(2, *parts, strlen(*parts));
		(void)r;
	}
}

static inline void __tp_report_module(const char *module, uint32_t abi)
{
	/* Once per module and translation unit; more than 8 are all reported. */
	static const char *seen[8];
	static unsigned nseen;
	char v[12], *q = v + sizeof(v);
	const char *line[8];
	unsigned i;
	if (!module || !*module)
		module = "the executable";
	for (i = 0; i < nseen && i < 8; i++)
		if (seen[i] == module)
			return;
	if (nseen < 8)
		seen[nseen++] = module;
	*--q = 0;
	do
		*--q = (char)('0' + abi % 10);
	while ((abi /= 10) != 0);
	line[0] = "tracepoint: ";
	line[1] = module;
	line[2] = " was built with tracepoint.h layout ";
	line[3] = q;
	line[4] = ", this code reads layout " __TP_STR(TRACEPOINT_ABI)
		  "; its tracepoints are skipped (rebuild it with this tracepoint.h)\n";
	line[5] = NULL;
	__tp_say(line);
}

/* Whether a tracepoint (of any module, any version) has our layout: only
 * the fixed prefix is read to tell. */
static inline bool __tp_abi_ok(const struct tracepoint *tp)
{
	/* Atomic loads: never merged into one wider load that spans the key,
	 * which other threads change. */
	return __atomic_load_n(&tp->abi, __ATOMIC_RELAXED) == TRACEPOINT_ABI &&
	       __atomic_load_n(&tp->size, __ATOMIC_RELAXED) == sizeof(struct tracepoint);
}

/* Calls fn once per module that carries our note; stops on non-zero. */
static inline int __tp_for_each_module(const struct dl_phdr_info *dlinfo,
				       int (*fn)(const struct __tp_module *m, void *arg),
				       void *arg)
{
	const struct __tp_phdr_info *info = (const struct __tp_phdr_info *)(const void *)dlinfo;
	const char *seen = NULL;
	ElfW(Half) i;

	for (i = 0; i < info->phnum; i++) {
		const char *p, *end;
		if (info->phdr[i].p_type != PT_NOTE)
			continue;
		p = (const char *)(info->addr + info->phdr[i].p_vaddr);
		end = p + info->phdr[i].p_memsz;
		while (p + 12 <= end) {
			uint32_t nsz, dsz, type, abi = 0;
			const char *name, *desc;
			int64_t off[4];
			struct __tp_module m;
			memcpy(&nsz, p, 4);
			memcpy(&dsz, p + 4, 4);
			memcpy(&type, p + 8, 4);
			name = p + 12;
			desc = name + ((nsz + 3u) & ~3u);
			p = desc + ((dsz + 3u) & ~3u);
			if (p > end)
				break;
			if (type != __TP_NOTE_TYPE || nsz != 11 ||
			    memcmp(name, "tracepoint", 11) != 0)
				continue;
			if (dsz >= 4)
				memcpy(&abi, desc, 4);
			if (dsz != 40 || abi != TRACEPOINT_ABI) {
				/* Built with another tracepoint.h: never read it. */
				__tp_report_module(info->name, dsz == 40 ? abi : 1);
				continue;
			}
			desc += 8;
			memcpy(off, desc, sizeof(off));
			if (desc + off[0] == seen)
				continue; /* another translation unit's copy */
			seen = desc + off[0];
			m.tp_start = (struct tracepoint *const *)(const void *)(desc + off[0]);
			m.tp_stop = (struct tracepoint *const *)(const void *)(desc + 8 + off[1]);
			m.jump_start = (const struct __tp_jump_entry *)(const void *)(desc + 16 + off[2]);
			m.jump_stop = (const struct __tp_jump_entry *)(const void *)(desc + 24 + off[3]);
			if (fn(&m, arg))
				return 1;
		}
	}
	return 0;
}

/* --- Layer 14: code patching.  Every patch runs inside a dl_iterate_phdr
 * callback: the loader's lock serializes all patchers of the process (no
 * singleton needed), and no module can be unmapped under our feet.  Pages
 * are made writable one at a time, in address order, and always given back
 * read+exec; they stay executable throughout, since other threads may be
 * running the very code being patched. --- */
#ifndef TRACEPOINT_MPROTECT
#define TRACEPOINT_MPROTECT mprotect
#endif

struct __tp_patch {
	uintptr_t page;     /* page currently writable, 0 if none */
	uintptr_t pagesz;
	int err;            /* first failure, as -errno */
	struct tracepoint *key; /* only this key's sites, or NULL for all */
};

static inline void __tp_patch_begin(struct __tp_patch *pt, struct tracepoint *key)
{
	memset(pt, 0, sizeof(*pt));
	pt->pagesz = (uintptr_t)sysconf(_SC_PAGESIZE);
	pt->key = key;
}

static inline void __tp_patch_close(struct __tp_patch *pt)
{
	if (pt->page) {
		TRACEPOINT_MPROTECT((void *)pt->page, (size_t)pt->pagesz, PROT_READ | PROT_EXEC);
		pt->page = 0;
	}
}

/* Sets one site to "jump to the slow path" (on) or "fall through" (off). */
static inline int __tp_patch_site(struct __tp_patch *pt, const struct __tp_jump_entry *e,
				  bool on)
{
	unsigned char *site = (unsigned char *)(uintptr_t)&e->site + e->site;
	uintptr_t page = (uintptr_t)site & ~(pt->pagesz - 1);
#if defined(__x86_64__)
	unsigned char want = on ? 0xe9 : 0xa9; /* jmp rel32 : test $imm32,%eax */
	unsigned char cur = 0; /* written by the asm below */
	__asm__ __volatile__("movb %1, %0" : "=q"(cur) : "m"(*site));
	if (cur == want)
		return 0;
	if (cur != 0xe9 && cur != 0xa9)
		return -EILSEQ; /* not ours any more (a debugger's breakpoint?) */
#elif defined(__aarch64__)
	const char *target = (const char *)&e->target + e->target;
	uint32_t want = 0xd503201fu; /* nop */
	uint32_t cur = 0; /* written by the asm below */
	__asm__ __volatile__("ldr %w0, [%1]" : "=r"(cur) : "r"(site) : "memory");
	if (on)
		want = 0x14000000u | ((uint32_t)((target - (const char *)site) >> 2) & 0x03ffffffu);
	if (cur == want)
		return 0;
	if (cur != 0xd503201fu && (cur & 0xfc000000u) != 0x14000000u)
		return -EILSEQ;
#else
	(void)on; (void)page; (void)site;
	return -ENOSYS;
#endif
#if defined(__x86_64__) || defined(__aarch64__)
	if (page != pt->page) {
		__tp_patch_close(pt);
		if (TRACEPOINT_MPROTECT((void *)page, (size_t)pt->pagesz,
					PROT_READ | PROT_WRITE | PROT_EXEC) != 0) {
			if (!pt->err)
				pt->err = errno ? -errno : -EPERM;
			return pt->err;
		}
		pt->page = page;
	}
	/* Single-copy atomic stores, written in asm: code is not data to the
	 * compiler or to ThreadSanitizer (whose shadow has no room for it). */
#if defined(__x86_64__)
	__asm__ __volatile__("movb %1, %0" : "=m"(*site) : "q"(want) : "memory");
#else
	__asm__ __volatile__("str %w1, [%0]" : : "r"(site), "r"(want) : "memory");
	__builtin___clear_cache((char *)site, (char *)site + 4);
#endif
	return 0;
#endif
}

static inline void __tp_patch_range(struct __tp_patch *pt, const struct __tp_jump_entry *e,
				    const struct __tp_jump_entry *stop)
{
	for (; e < stop; e++) {
		if (!e->key || (pt->key && e->key != pt->key))
			continue;
		__tp_patch_site(pt, e, __tp_key_enabled(e->key));
	}
	__tp_patch_close(pt);
}

static inline int __tp_patch_module(const struct __tp_module *m, void *arg)
{
	__tp_patch_range((struct __tp_patch *)arg, m->jump_start, m->jump_stop);
	return 0;
}

static inline int __tp_patch_key_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	return __tp_for_each_module(info, __tp_patch_module, arg);
}

/* Points every site of one tracepoint (NULL: of every tracepoint), in every
 * loaded module, at the tracepoint's state as read under the loader's lock:
 * whoever patches last applies the latest state.  Called without the registration lock, so the
 * only lock order is loader lock -> registration lock. */
static inline int __tp_patch_key(struct tracepoint *tp)
{
#if TRACEPOINT_STATIC_KEYS
	struct __tp_patch pt;
	__tp_patch_begin(&pt, tp);
	__tp_iterate_phdr(__tp_patch_key_cb, &pt);
	return pt.err;
#else
	(void)tp;
	return 0;
#endif
}

#if TRACEPOINT_STATIC_KEYS
extern const struct __tp_jump_entry __start___tp_jump[] __attribute__((weak, visibility("hidden")));
extern const struct __tp_jump_entry __stop___tp_jump[] __attribute__((weak, visibility("hidden")));

/* The module constructor (an .init_array entry left by the first call site
 * of each translation unit) hands the module's sites to the patcher of the
 * first site's tracepoint, which idles those of disabled tracepoints.  If
 * that fails, they stay jumps and the dispatch's check keeps them right. */
extern int __tp_jump_done __attribute__((visibility("hidden")));

/* TRACEPOINTS in the environment of a program that has no recorder would
 * silently record nothing: say so once (from the first module constructor).
 * The recorder is the file that defines TRACEPOINT_SINK_MAIN before
 * <trace/sink.h>; its tracepoint_enable() is looked up as a weak symbol. */
extern int __tp_sink_enable(const char *) __asm__("tracepoint_enable") __attribute__((weak));

static inline void __tp_no_sink_check(void)
{
	const char *v = getenv("TRACEPOINTS");
	const char *line[2];
	if (!v || !*v || __tp_sink_enable ||
	    __atomic_exchange_n(&__tp_guard()->said_no_sink, 1, __ATOMIC_RELAXED))
		return;
	line[0] = "tracepoint: TRACEPOINTS is set, but this program has no recorder: nothing "
		  "is recorded (one file must #define TRACEPOINT_SINK_MAIN before including "
		  "<trace/sink.h>; from a static library, make sure the linker keeps that "
		  "object)\n";
	line[1] = NULL;
	__tp_say(line);
}

static inline void __tp_jump_init(void)
{
	const struct __tp_jump_entry *e = __start___tp_jump;
	/* Every translation unit with sites has this constructor; a word the
	 * linker keeps once per module (a COMDAT group) lets only the first run. */
	if (__atomic_exchange_n(&__tp_jump_done, 1, __ATOMIC_RELAXED))
		return;
	__tp_process_hooks();
	__tp_no_sink_check();
	if (e < __stop___tp_jump && e->key && __tp_abi_ok(e->key) && e->key->patch_sites)
		e->key->patch_sites(__start___tp_jump, __stop___tp_jump);
}
#endif

struct __tp_site_range {
	struct __tp_patch pt;
	const struct __tp_jump_entry *start, *stop;
};

static inline int __tp_patch_sites_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct __tp_site_range *r = (struct __tp_site_range *)arg;
	(void)info; (void)size;
	__tp_patch_range(&r->pt, r->start, r->stop);
	return 1; /* ran once, under the loader's lock */
}

/* Brings every site of one module in line with its tracepoint's state. */
static inline void __tp_patch_sites(const struct __tp_jump_entry *start,
				    const struct __tp_jump_entry *stop)
{
	struct __tp_site_range r;
	__tp_patch_begin(&r.pt, NULL);
	r.start = start;
	r.stop = stop;
	__tp_iterate_phdr(__tp_patch_sites_cb, &r);
}

/* A module that registers probes gets __tp_owner_fini (Layer 16) as a
 * destructor: an .fini_array entry, one per translation unit. */
static inline void __tp_owner_fini(void);
#if defined(__x86_64__) || defined(__aarch64__)
#define __TP_OWNER_FINI()                                                     \
	__asm__(".ifndef __tp_owner_fini_emitted\n\t"                          \
		".set __tp_owner_fini_emitted, 1\n\t"                          \
		".pushsection .fini_array,\"aw\",@fini_array\n\t"             \
		".balign 8\n\t"                                                \
		".quad %c0\n\t"                                                \
		".popsection\n\t"                                              \
		".endif" : : __TP_FN_CONSTRAINT(__tp_owner_fini))
#else
#define __TP_OWNER_FINI() do { } while (0)
#endif

/* Probe lists come from here; tests define these to inject failures. */
#ifndef TRACEPOINT_MALLOC
#define TRACEPOINT_MALLOC(size) malloc(size)
#endif
#ifndef TRACEPOINT_FREE
#define TRACEPOINT_FREE(ptr) free(ptr)
#endif

/* --- Layer 15: the write side of the grace period.  Called with the lock
 * held; never waits, so it is safe from inside a probe. --- */
static inline void __tp_gp_poll(struct tracepoint *tp)
{
	struct __tp_probes **pp, *p;
	unsigned long seq = __atomic_load_n(&tp->__tp.seq, __ATOMIC_SEQ_CST);
	int round;

	for (round = 0; round < 2 && seq < tp->__tp.wait_seq; round++) {
		long *r = tp->__tp.readers[tp->__tp.gen];
		if (__atomic_load_n(&r[(seq + 1) & 1], __ATOMIC_SEQ_CST))
			break;
		seq++;
		__atomic_store_n(&tp->__tp.seq, seq, __ATOMIC_SEQ_CST);
		__atomic_store_n(&tp->__tp.cur, &r[seq & 1], __ATOMIC_SEQ_CST);
	}
	pp = &tp->__tp.retired;
	while ((p = *pp) != NULL) {
		if (seq >= p->seq + 2) {
			__atomic_store_n(pp, p->next, __ATOMIC_RELAXED);
			TRACEPOINT_FREE(p);
		} else {
			pp = &p->next;
		}
	}
}

/* Records that readers may still use what was just unpublished. */
static inline unsigned long __tp_gp_mark(struct tracepoint *tp)
{
	unsigned long seq = __atomic_load_n(&tp->__tp.seq, __ATOMIC_SEQ_CST);
	__atomic_store_n(&tp->__tp.wait_seq, seq + 2, __ATOMIC_SEQ_CST);
	return seq;
}

static inline void __tp_retire(struct tracepoint *tp, struct tracepoint_probe *old)
{
	struct __tp_probes *h;
	if (!old)
		return;
	h = (struct __tp_probes *)(void *)((char *)old - offsetof(struct __tp_probes, probes));
	h->seq = __tp_gp_mark(tp);
	h->next = tp->__tp.retired;
	__atomic_store_n(&tp->__tp.retired, h, __ATOMIC_SEQ_CST);
}

static inline struct tracepoint_probe *__tp_alloc_probes(size_t n)
{
	struct __tp_probes *h = (struct __tp_probes *)TRACEPOINT_MALLOC(
		offsetof(struct __tp_probes, probes) + (n + 1) * sizeof(struct tracepoint_probe));
	if (!h)
		return NULL;
	h->next = NULL;
	h->seq = 0;
	memset(h->probes, 0, (n + 1) * sizeof(struct tracepoint_probe));
	return h->probes;
}

static inline void __tp_free_unpublished(struct tracepoint_probe *p)
{
	if (p)
		TRACEPOINT_FREE((char *)p - offsetof(struct __tp_probes, probes));
}

static inline void __tp_publish(struct tracepoint *tp, struct tracepoint_probe *p)
{
	struct tracepoint_probe *prev = tp->funcs;
	__atomic_store_n(&tp->funcs, p, __ATOMIC_SEQ_CST);
	if (!prev && p)
		__atomic_fetch_or(&tp->enabled, (unsigned short)__TP_KEY_PROBES, __ATOMIC_SEQ_CST);
	else if (prev && !p)
		__atomic_fetch_and(&tp->enabled, (unsigned short)~__TP_KEY_PROBES, __ATOMIC_SEQ_CST);
}

/* A tracepoint defined with another tracepoint.h layout: said, not touched. */
static inline int __tp_abi_mismatch(const struct tracepoint *tp)
{
	const char *line[4];
	line[0] = "tracepoint: ";
	line[1] = tp->name ? tp->name : "?";
	line[2] = " is defined by a module built with another tracepoint.h layout; "
		  "not attached (rebuild that module with this tracepoint.h)\n";
	line[3] = NULL;
	__tp_say(line);
	return -EPROTO;
}

/* Stands in for a probe removed while memory was short (see unregister). */
static inline void __tp_stub_probe(void)
{
}

/* ======================================================================== */
/* Registry functions                                                       */
/* ======================================================================== */

static inline int tracepoint_probe_register_prio(struct tracepoint *tp,
						 tracepoint_func_t probe,
						 void *data, int prio)
{
	struct tracepoint_probe *old, *neu;
	size_t n = 0, live = 0, i, j;
	int ret = 0, inserted = 0;

	if (!tp || !probe)
		return -EINVAL;
	if (!__tp_abi_ok(tp))
		return __tp_abi_mismatch(tp);
	__tp_process_hooks();
	__TP_OWNER_FINI();
	__tp_lock(tp);
	old = tp->funcs;
	for (; old && old[n].func; n++) {
		if (old[n].__dead)
			continue;
		live++;
		if (old[n].func == probe && old[n].data == data) {
			ret = -EEXIST;
			goto out;
		}
	}
	neu = __tp_alloc_probes(live + 1);
	if (!neu) {
		ret = -ENOMEM;
		goto out;
	}
	if (live == 0 && tp->regfunc) {
		ret = tp->regfunc();
		if (ret) {
			__tp_free_unpublished(neu);
			goto out;
		}
	}
	/* Higher priority first; a newcomer goes after its equals. */
	for (i = 0, j = 0; i < n; i++) {
		if (old[i].__dead)
			continue;
		if (!inserted && prio > old[i].prio) {
			neu[j].func = probe;
			neu[j].data = data;
			neu[j].prio = prio;
			j++;
			inserted = 1;
		}
		neu[j++] = old[i];
	}
	if (!inserted) {
		neu[j].func = probe;
		neu[j].data = data;
		neu[j].prio = prio;
		j++;
	}
	neu[j].func = NULL;
	__tp_publish(tp, neu);
	__tp_retire(tp, old);
	__tp_gp_poll(tp);
	__tp_unlock(tp);
	if (live == 0) {
		int err = __tp_patch_key(tp);
		if (err && err != -EILSEQ) {
			/* Some site could not be made to jump: undo, report. */
			tracepoint_probe_unregister(tp, probe, data);
			return err;
		}
	}
	return 0;
out:
	__tp_unlock(tp);
	return ret;
}

static inline int tracepoint_probe_register(struct tracepoint *tp,
					    tracepoint_func_t probe, void *data)
{
	return tracepoint_probe_register_prio(tp, probe, data, TRACEPOINT_DEFAULT_PRIO);
}

/*
 * Removing never fails for lack of memory: if the shorter copy cannot be
 * allocated, the entry's function is swapped in place for a stub (readers
 * see either the probe or the stub) and the stub is dropped by the next
 * change that can allocate.
 */
static inline int tracepoint_probe_unregister(struct tracepoint *tp,
					      tracepoint_func_t probe, void *data)
{
	struct tracepoint_probe *old, *neu = NULL;
	size_t n = 0, live = 0, i, j, found = (size_t)-1;

	if (!tp || !probe)
		return -EINVAL;
	if (!__tp_abi_ok(tp))
		return __tp_abi_mismatch(tp);
	__tp_process_hooks();
	__tp_lock(tp);
	old = tp->funcs;
	for (; old && old[n].func; n++) {
		if (old[n].__dead)
			continue;
		live++;
		if (old[n].func == probe && old[n].data == data)
			found = n;
	}
	if (found == (size_t)-1) {
		__tp_unlock(tp);
		return -ENOENT;
	}
	if (live > 1) {
		neu = __tp_alloc_probes(live - 1);
		if (!neu) {
			old[found].__dead = 1;
			__atomic_store_n(&old[found].func, (tracepoint_func_t)__tp_stub_probe,
					 __ATOMIC_RELEASE);
			__tp_gp_mark(tp);
			__tp_gp_poll(tp);
			__tp_unlock(tp);
			return 0;
		}
		for (i = 0, j = 0; i < n; i++)
			if (i != found && !old[i].__dead)
				neu[j++] = old[i];
	}
	__tp_publish(tp, neu);
	__tp_retire(tp, old);
	if (!neu && tp->unregfunc)
		tp->unregfunc();
	__tp_gp_poll(tp);
	__tp_unlock(tp);
	if (!neu)
		__tp_patch_key(tp); /* a site left jumping is still correct */
	return 0;
}

static inline bool tracepoint_enabled(const struct tracepoint *tp)
{
	return __atomic_load_n(&tp->enabled, __ATOMIC_RELAXED) != 0;
}

struct __tp_walk {
	int (*fn)(struct tracepoint *tp, void *priv);
	void *priv;
	int ret;
};

static inline int __tp_walk_tracepoints(const struct __tp_module *m, void *arg)
{
	struct __tp_walk *w = (struct __tp_walk *)arg;
	struct tracepoint *const *it;
	for (it = m->tp_start; it < m->tp_stop; it++) {
		if (*it && __tp_abi_ok(*it) && (w->ret = w->fn(*it, w->priv)) != 0)
			return 1;
	}
	return 0;
}

static inline int __tp_walk_module(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	return __tp_for_each_module(info, __tp_walk_tracepoints, arg);
}

static inline int tracepoint_for_each(int (*fn)(struct tracepoint *tp, void *priv),
				      void *priv)
{
	struct __tp_walk w;
	w.fn = fn;
	w.priv = priv;
	w.ret = 0;
	if (!fn)
		return -EINVAL;
	__tp_process_hooks();
	__tp_iterate_phdr(__tp_walk_module, &w);
	return w.ret;
}

struct __tp_by_name {
	const char *name;
	struct tracepoint *tp;
	tracepoint_func_t probe;
	void *data;
	int prio;
	int op; /* 0 find, 1 register, 2 unregister */
	int ret;
};

static inline int __tp_by_name_cb(struct tracepoint *tp, void *priv)
{
	struct __tp_by_name *q = (struct __tp_by_name *)priv;
	if (strcmp(tp->name, q->name) != 0)
		return 0;
	q->tp = tp;
	/* Registration happens while the module cannot be unloaded. */
	if (q->op == 1)
		q->ret = tracepoint_probe_register_prio(tp, q->probe, q->data, q->prio);
	else if (q->op == 2)
		q->ret = tracepoint_probe_unregister(tp, q->probe, q->data);
	return 1;
}

static inline int __tp_by_name_do(struct __tp_by_name *q)
{
	if (!q->name)
		return -EINVAL;
	q->tp = NULL;
	q->ret = -ENOENT;
	tracepoint_for_each(__tp_by_name_cb, q);
	return q->tp ? q->ret : -ENOENT;
}

static inline struct tracepoint *tracepoint_find(const char *name)
{
	struct __tp_by_name q;
	memset(&q, 0, sizeof(q));
	q.name = name;
	__tp_by_name_do(&q);
	return q.tp;
}

static inline int tracepoint_probe_register_name(const char *name,
						 tracepoint_func_t probe,
						 void *data, int prio)
{
	struct __tp_by_name q;
	if (!probe)
		return -EINVAL;
	memset(&q, 0, sizeof(q));
	q.name = name;
	q.probe = probe;
	q.data = data;
	q.prio = prio;
	q.op = 1;
	return __tp_by_name_do(&q);
}

static inline int tracepoint_probe_unregister_name(const char *name,
						   tracepoint_func_t probe,
						   void *data)
{
	struct __tp_by_name q;
	if (!probe)
		return -EINVAL;
	memset(&q, 0, sizeof(q));
	q.name = name;
	q.probe = probe;
	q.data = data;
	q.op = 2;
	return __tp_by_name_do(&q);
}

/* One pass over every tracepoint: advance grace periods that can advance and
 * count those still waiting for readers.  Never sleeps under the loader lock. */
static inline int __tp_sync_cb(struct tracepoint *tp, void *priv)
{
	int *pending = (int *)priv;
	if (__atomic_load_n(&tp->__tp.seq, __ATOMIC_SEQ_CST) >=
		    __atomic_load_n(&tp->__tp.wait_seq, __ATOMIC_SEQ_CST) &&
	    !__atomic_load_n(&tp->__tp.retired, __ATOMIC_SEQ_CST))
		return 0;
	__tp_lock(tp);
	__tp_gp_poll(tp);
	if (__atomic_load_n(&tp->__tp.seq, __ATOMIC_SEQ_CST) < tp->__tp.wait_seq)
		(*pending)++;
	__tp_unlock(tp);
	return 0;
}

/*
 * Returns once no probe unregistered before the call is running or can run
 * again.  Must not be called from inside a probe (it would wait for itself).
 */
static inline void tracepoint_synchronize_unregister(void)
{
	unsigned round = 0;
	__tp_process_hooks();
	for (;;) {
		int pending = 0;
		tracepoint_for_each(__tp_sync_cb, &pending);
		if (!pending)
			return;
		__tp_pause(round++);
	}
}

struct __tp_count_sites {
	const struct tracepoint *tp;
	int n;
};

static inline int __tp_count_sites_module(const struct __tp_module *m, void *arg)
{
	struct __tp_count_sites *c = (struct __tp_count_sites *)arg;
	const struct __tp_jump_entry *e;
	for (e = m->jump_start; e < m->jump_stop; e++)
		if (e->key == c->tp)
			c->n++;
	return 0;
}

static inline int __tp_count_sites_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	return __tp_for_each_module(info, __tp_count_sites_module, arg);
}

static inline int tracepoint_sites(const struct tracepoint *tp)
{
#if TRACEPOINT_STATIC_KEYS
	struct __tp_count_sites c;
	if (!tp)
		return -EINVAL;
	c.tp = tp;
	c.n = 0;
	__tp_iterate_phdr(__tp_count_sites_cb, &c);
	return c.n;
#else
	(void)tp;
	return -ENOSYS;
#endif
}

static inline int tracepoint_probe_attached(const struct tracepoint *tp,
					    tracepoint_func_t probe, void *data)
{
	const struct tracepoint_probe *p;
	if (!tp || !probe)
		return -EINVAL;
	if (!__tp_abi_ok(tp))
		return -EPROTO;
	p = __atomic_load_n(&tp->funcs, __ATOMIC_ACQUIRE);
	for (; p && p->func; p++)
		if (!p->__dead && p->func == probe && p->data == data)
			return 1;
	return 0;
}

/* --- Layer 16: dlclose().  A module that goes away takes with it what
 * belongs to it, from its destructors: the probe lists of the tracepoints
 * it defines (detached and freed), and the probes whose code it holds that
 * are attached to tracepoints of other modules (detached), so that nothing
 * is left pointing into unmapped memory.  At process exit nothing is
 * detached (the events of later destructors are still recorded): the main
 * program's atexit() handler, which runs before every destructor, says so.
 * A program whose executable has no tracepoint code has no such handler;
 * its libraries then detach at exit too. --- */
extern struct tracepoint *const __start___tracepoints_ptrs[]
	__attribute__((weak, visibility("hidden")));
extern struct tracepoint *const __stop___tracepoints_ptrs[]
	__attribute__((weak, visibility("hidden")));

static inline void __tp_exit_mark(void)
{
	__atomic_store_n(&__tp_guard()->exiting, 1, __ATOMIC_RELEASE);
}

static inline int __tp_exiting(void)
{
	return __atomic_load_n(&__tp_guard()->exiting, __ATOMIC_ACQUIRE);
}

/* The address ranges of the module that holds `addr`. */
struct __tp_range {
	uintptr_t addr;
	int found, main_program, n;
	uintptr_t lo[8], hi[8];
};

static inline int __tp_range_cb(struct dl_phdr_info *dlinfo, size_t size, void *arg)
{
	const struct __tp_phdr_info *info = (const struct __tp_phdr_info *)(const void *)dlinfo;
	struct __tp_range *r = (struct __tp_range *)arg;
	ElfW(Half) i;
	int mine = 0;
	(void)size;
	for (i = 0; i < info->phnum; i++) {
		const ElfW(Phdr) *ph = &info->phdr[i];
		uintptr_t lo = info->addr + ph->p_vaddr;
		if (ph->p_type == PT_LOAD && r->addr >= lo && r->addr < lo + ph->p_memsz)
			mine = 1;
	}
	if (!mine) {
		r->main_program = 0; /* only the first module walked is the program */
		return 0;
	}
	for (i = 0; i < info->phnum && r->n < 8; i++) {
		const ElfW(Phdr) *ph = &info->phdr[i];
		if (ph->p_type != PT_LOAD)
			continue;
		r->lo[r->n] = info->addr + ph->p_vaddr;
		r->hi[r->n++] = info->addr + ph->p_vaddr + ph->p_memsz;
	}
	r->found = 1;
	return 1;
}

static inline void __tp_module_of(uintptr_t addr, struct __tp_range *r)
{
	memset(r, 0, sizeof(*r));
	r->addr = addr;
	r->main_program = 1;
	__tp_iterate_phdr(__tp_range_cb, r);
	if (!r->found)
		r->main_program = 0;
}

static inline int __tp_in_range(const struct __tp_range *r, uintptr_t p)
{
	int i;
	for (i = 0; i < r->n; i++)
		if (p >= r->lo[i] && p < r->hi[i])
			return 1;
	return 0;
}

/* Installs __tp_exit_mark once, from the main program's code only (a
 * library's atexit() handlers also run at its dlclose()). */
static inline void __tp_exit_mark_once(void)
{
	static int done;
	struct __tp_range r;
	if (__atomic_exchange_n(&done, 1, __ATOMIC_RELAXED))
		return;
	__tp_module_of((uintptr_t)__tp_exit_mark_once, &r);
	if (r.main_program)
		atexit(__tp_exit_mark);
}

/* Waits (a bounded time: a probe that never returns must not hang dlclose)
 * for the readers of tp to leave, so that its retired lists are freed. */
static inline void __tp_drain(struct tracepoint *tp)
{
	unsigned round;
	for (round = 0; round < 200; round++) {
		int done;
		__tp_lock(tp);
		__tp_gp_poll(tp);
		done = !tp->__tp.retired;
		__tp_unlock(tp);
		if (done)
			return;
		__tp_pause(round);
	}
}

/* The destructor of a module that defines tracepoints. */
static inline void __tp_defining_module_fini(void)
{
	static int done; /* every DEFINE_TRACE of this file calls it */
	struct tracepoint *const *it;
	if (__tp_exiting() || __atomic_exchange_n(&done, 1, __ATOMIC_RELAXED))
		return;
	for (it = __start___tracepoints_ptrs; it < __stop___tracepoints_ptrs; it++) {
		struct tracepoint *tp = *it;
		struct tracepoint_probe *old;
		if (!tp || !__tp_abi_ok(tp) || (!tp->funcs && !tp->__tp.retired))
			continue;
		__tp_lock(tp);
		old = tp->funcs;
		__tp_publish(tp, NULL);
		__tp_retire(tp, old);
		if (old && tp->unregfunc)
			tp->unregfunc();
		__tp_unlock(tp);
		__tp_drain(tp);
	}
}

struct __tp_owner_walk {
	struct __tp_range self;
	int detached;
};

static inline int __tp_owner_cb(struct tracepoint *tp, void *priv)
{
	struct __tp_owner_walk *w = (struct __tp_owner_walk *)priv;
	if (__tp_in_range(&w->self, (uintptr_t)tp))
		return 0; /* goes away with this module: its own destructor */
	for (;;) {
		const struct tracepoint_probe *p = __atomic_load_n(&tp->funcs, __ATOMIC_ACQUIRE);
		tracepoint_func_t f = NULL;
		void *data = NULL;
		for (; p && p->func; p++) {
			if (!p->__dead && __tp_in_range(&w->self, (uintptr_t)p->func)) {
				f = p->func;
				data = p->data;
				break;
			}
		}
		if (!f || tracepoint_probe_unregister(tp, f, data) != 0)
			return 0;
		w->detached++;
	}
}

/* The destructor of a module that registers probes: detaches those whose
 * code is in it. */
static inline void __tp_owner_fini(void)
{
	struct __tp_owner_walk w;
	unsigned round;
	if (__tp_exiting())
		return;
	memset(&w, 0, sizeof(w));
	__tp_module_of((uintptr_t)__tp_owner_fini, &w.self);
	if (!w.self.found || w.self.main_program)
		return;
	tracepoint_for_each(__tp_owner_cb, &w);
	/* Then wait, a bounded time, for calls already under way. */
	for (round = 0; w.detached && round < 200; round++) {
		int pending = 0;
		tracepoint_for_each(__tp_sync_cb, &pending);
		if (!pending)
			break;
		__tp_pause(round);
	}
}

#ifdef __cplusplus
} /* extern "C" */
#endif

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#endif /* TRACEPOINT_H_INCLUDED */

/* ------------------------------------------------------------------------ */
/* Per-inclusion part: outside the guard, so that every event header that   */
/* includes this file gets its own decision from its own TRACE_CONFIG.      */
/* ------------------------------------------------------------------------ */
#if __TP_IS_ONE(CONFIG_TRACEPOINTS_OFF) && __TP_IS_ONE(CONFIG_TRACEPOINTS_ALL)
#error "CONFIG_TRACEPOINTS_OFF and CONFIG_TRACEPOINTS_ALL contradict each other"
#endif

#if defined(TRACE_CONFIG) && __TP_IS_YM(TRACE_CONFIG)
#error "this header's TRACE_CONFIG switch is defined as y or m (a Kconfig habit); define it as 1 (-DCONFIG_FOO) to compile the subsystem in"
#endif

#undef __TP_ON
#if __TP_IS_ONE(CONFIG_TRACEPOINTS_OFF)
#define __TP_ON 0
#elif __TP_IS_ONE(CONFIG_TRACEPOINTS_ALL)
#define __TP_ON 1
#elif !defined(TRACE_CONFIG)
#define __TP_ON 1
#elif __TP_IS_ONE(TRACE_CONFIG)
#define __TP_ON 1
#else
#define __TP_ON 0
#endif

/* The USDT provider name of the tracepoints declared next. */
#undef __TP_PROVIDER_NOW
#ifdef TRACE_SYSTEM
#define __TP_PROVIDER_NOW TRACE_SYSTEM
#else
#define __TP_PROVIDER_NOW tracepoint
#endif

/* TRACE_CONFIG is consumed: a later header that never sets it (unconverted)
 * must not inherit the previous subsystem's switch. */
#undef TRACE_CONFIG

/* TRACE_EVENT and friends, as plain tracepoint declarations.  Outside the
 * guard and only when undefined, so that <trace/define_trace.h> may remap
 * them for its extra passes and undo that afterwards (as in the kernel).  A
 * consumer that never includes define_trace.h pays for none of the event
 * machinery. */
#ifndef TRACE_EVENT
#define TRACE_EVENT(name, proto, args, tstruct, assign, print)                \
	__TP_DECLARE(name, __TP_EVENT_SYM, PARAMS(proto), PARAMS(args))
#define DECLARE_EVENT_CLASS(name, proto, args, tstruct, assign, print)        \
	enum { __tp_event_class_##name = 1 }
#define DEFINE_EVENT(template, name, proto, args)                             \
	__TP_DECLARE(name, __TP_EVENT_SYM, PARAMS(proto), PARAMS(args))
#endif
