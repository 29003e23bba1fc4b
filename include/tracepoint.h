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
 *   a jump while a probe is attached (static keys; -DTRACEPOINT_PORTABLE for
 *   a load and a branch instead, -DTRACEPOINT_USDT to be a USDT probe too).
 *
 * Selection rule (re-made at every #include of this file, outside its guard):
 *   TRACE_CONFIG undefined                    -> compiled in (unconverted header)
 *   TRACE_CONFIG names a macro defined as 1   -> compiled in
 *   ... undefined, 0, empty, any other token  -> compiled out
 *   -DCONFIG_TRACEPOINTS_ALL                  -> every tracepoint compiled in
 *   -DCONFIG_TRACEPOINTS_OFF                  -> every tracepoint compiled out
 *   Each #include of this file consumes (#undefs) TRACE_CONFIG, so a header
 *   that never sets it gets its own "compiled in" decision, unless its
 *   system's CONFIG_TRACE_<TRACE_SYSTEM_VAR or TRACE_SYSTEM> is defined as
 *   0 (a kernel header taken as it is, switched from the command line).
 *
 * Runtime state without a runtime library
 * ---------------------------------------
 *   There is no runtime library to agree on.  The state of a tracepoint
 *   lives inside its struct tracepoint, which DEFINE_TRACE emits exactly once
 *   per program, so the symbol itself is the meeting point for the executable
 *   and every shared library (as in the kernel); the few process-wide objects
 *   (the fork guard, the grace domain) are weak exported objects that the
 *   dynamic linker makes one.  The list of all tracepoints is the dynamic loader's own list of
 *   loaded modules: DEFINE_TRACE adds the tracepoint's address to the module's
 *   "tp__ptrs" section and leaves an ELF note (one per translation
 *   unit) holding link-time offsets to that section's bounds; iteration walks
 *   dl_iterate_phdr() -> PT_NOTE -> our note.  A dlopen'ed library is thus seen
 *   from the moment it is mapped and is gone again after dlclose, with no
 *   registration and no global lock (the only constructor is the one that
 *   brings a new module's call sites in line with tracepoints already
 *   enabled).  Code patching is serialized by
 *   the loader's own lock.  The registry functions are static inline: a
 *   translation unit pays only for those it calls.
 *
 * Grace periods (what tracepoint_synchronize_unregister() waits for)
 * ------------------------------------------------------------------
 *   A probe list is never reordered or extended in place: registration
 *   builds a new array and publishes it with one atomic store; removal
 *   does too, except for the list's first live probe (and when memory is
 *   short), whose entry becomes a stub in place, so that probes that
 *   unregister themselves in order cost O(1) each (tracepoint/registry.h).
 *   The enabled path (never the disabled one) counts "entered" on its thread's own counter of the current
 *   phase before loading the list and "left" after the last probe returns,
 *   with plain increments on a cache line no other thread writes.  A writer
 *   may advance the process's sequence only when, after a membarrier(), no
 *   thread has more "entered" than "left" in the other phase; an old array
 *   retired at sequence s is freed once the sequence reaches s + 2, when
 *   every reader that could have loaded it has left (tracepoint/grace.h).
 *   Writers only poll (never wait), so probes may register probes.  No lock
 *   and no allocation on the fire path, so firing from a signal handler is
 *   safe.
 *
 * Build-time knobs (use the same for every file of a program)
 * -----------------------------------------------------------
 *   -DTRACEPOINT_PORTABLE   every call site a load and a branch: no code patching
 *   -DTRACEPOINT_USDT       every compiled-in tracepoint also a USDT probe that
 *                           perf, bpftrace and gdb see (call sites as portable)
 *   TRACEPOINT_MALLOC(size), TRACEPOINT_FREE(ptr)
 *                           allocator of the probe lists (default malloc, free)
 *   TRACEPOINT_MPROTECT(addr, len, prot)
 *                           makes text writable while patching (default mprotect)
 *   TRACEPOINT_STATIC_KEYS  defined by this header: 1 where call sites are
 *                           patchable (x86-64 or aarch64, gcc or clang >= 9,
 *                           neither of the first two knobs), else 0
 *
 * Files
 * -----
 *   This file is the public API and the per-inclusion decision.  The
 *   machinery is in tracepoint/, one mechanism per file, each using only the
 *   ones included before it.  version.h, compiler.h and select.h come with
 *   every inclusion; the rest (libc.h onwards, with the public functions)
 *   only with the first inclusion that compiles a subsystem in or that is a
 *   direct #include <tracepoint.h>, so a file whose event headers are all
 *   compiled out preprocesses a few kilobytes instead of 170:
 *     version.h      TRACEPOINT_VERSION_MAJOR/_MINOR/_PATCH, TRACEPOINT_VERSION
 *                    and TRACEPOINT_VERSION_STRING (the one place the
 *                    version is written; public, includable on its own)
 *     compiler.h     what is required of the compiler; C/C++ spellings
 *     select.h       the decision pasted onto names; compiled-out forms
 *     libc.h         the libc headers of the machinery (most of its cost)
 *     defs.h         the layout all modules share (struct tracepoint, ABI)
 *     modules.h      the module note and walk, the fork guard
 *     static_key.h   call sites and the code patching that flips them
 *     usdt.h         the USDT note of each tracepoint (-DTRACEPOINT_USDT)
 *     grace.h        grace periods: the read side and the write side
 *     registry.h     the functions declared below (tracepoint_probe_for_each aside)
 *     probes.h       tracepoint_probe_for_each: reads a probe list as a firing does
 *     unload.h       what a module's destructors undo at dlclose()
 *     process.h      fork() and exit(): the handlers and the entry points' hooks
 *     declare.h      what DECLARE_TRACE, DEFINE_TRACE and EXPORT_... become
 *     off.h          with -DCONFIG_TRACEPOINTS_OFF, instead of libc.h onwards
 *                    (defs.h aside): the public functions as empty inlines
 *                    (-ENOSYS, false, 0, NULL), so that nothing is left
 */

/* ------------------------------------------------------------------------ */
/* Guarded part: public API and machinery, processed once per translation   */
/* unit.  The per-inclusion TRACE_CONFIG decision is at the end of the file. */
/* ------------------------------------------------------------------------ */
#ifndef TRACEPOINT_H_INCLUDED
#define TRACEPOINT_H_INCLUDED

/* The release: TRACEPOINT_VERSION_MAJOR, _MINOR, _PATCH, TRACEPOINT_VERSION
 * (MAJOR * 10000 + MINOR * 100 + PATCH) and TRACEPOINT_VERSION_STRING. */
#include "tracepoint/version.h"

/* Refuses unsupported compilers and language versions, decides
 * TRACEPOINT_STATIC_KEYS, and includes <errno.h>, <stdbool.h>, <stddef.h>
 * and <stdint.h>: first, and outside extern "C". */
#include "tracepoint/compiler.h"

/* Declarations with C linkage, and gcc's -Wmaybe-uninitialized off for the
 * code written here (TP__DECLS_BEGIN, compiler.h). */
/* A probe whose prototype is not the tracepoint's (the kernel's order,
 * void *data first, is the usual one) passed to register_trace_<name>() is
 * an error in C, as it is in C++ and by default from gcc 14 and clang 16,
 * not a warning followed by a crash: for the rest of the file. */
#if !defined(__cplusplus) && defined(__GNUC__)
#pragma GCC diagnostic error "-Wincompatible-pointer-types"
#endif

TP__DECLS_BEGIN

/* ======================================================================== */
/* Public API                                                               */
/* ======================================================================== */

/* The priority of register_trace_<name>(); higher runs first. */
#define TRACEPOINT_DEFAULT_PRIO 10

#define TP_PROTO(...) __VA_ARGS__
#define TP_ARGS(...) __VA_ARGS__
#define TP_CONDITION(...) __VA_ARGS__
#ifndef PARAMS
#define PARAMS(...) __VA_ARGS__
#endif

/*
 * DECLARE_TRACE(name, TP_PROTO(...), TP_ARGS(...));  in an event header
 * DECLARE_TRACE_NOARGS(name);                         a tracepoint without arguments
 * DEFINE_TRACE(name);                                 in exactly one .c file
 * DEFINE_TRACE_FN(name, reg, unreg);                  same, with int reg(void), void unreg(void)
 * EXPORT_TRACEPOINT_SYMBOL(name);  EXPORT_TRACEPOINT_SYMBOL_GPL(name);
 *
 * Declarations, no value.  reg (or NULL) runs when the first probe
 * attaches: a non-zero return aborts that registration and is what
 * register_trace_<name>() returns (unreg is then not called); unreg (or
 * NULL) runs when the last probe detaches.  A DEFINE_TRACE or EXPORT_...
 * that sees another TRACE_CONFIG decision than its DECLARE_TRACE is a
 * compile error (static assertion).
 */
#define DECLARE_TRACE(name, proto, args) TP__DECLARE(name, "", PARAMS(proto), PARAMS(args))
#define TP__DECLARE(name, sym, proto, args)                                  \
	TP__DECLARE_COND(name, sym, (1), PARAMS(proto), PARAMS(args))
#define DECLARE_TRACE_NOARGS(name)                                            \
	TP__DECLARE_SEL(TP__ON, "", name, void, , void *tp__data,          \
			 tp__it->data, 0, void *tp__list, tp__list)
#define DEFINE_TRACE_FN(name, reg, unreg) TP__DEFINE_SEL(TP__ON, name, reg, unreg, 0, "")
#define DEFINE_TRACE(name) DEFINE_TRACE_FN(name, NULL, NULL)
#define EXPORT_TRACEPOINT_SYMBOL(name) TP__EXPORT_SEL(TP__ON, name)
#define EXPORT_TRACEPOINT_SYMBOL_GPL(name) TP__EXPORT_SEL(TP__ON, name)

/*
 * trace_lazy(name, args...): fire with arguments evaluated only while a probe
 * is attached (trace_<name>(args) is a function: its arguments always are).
 * A statement, no value; compiled out, the arguments are not evaluated.
 */
#define trace_lazy(name, ...)                                                 \
	do {                                                                  \
		if (trace_##name##_enabled())                                 \
			tp__iter_##name(__VA_ARGS__);                        \
	} while (0)

/* Generated per tracepoint (docs/reference.md has the full contract); compiled
 * out, they are empty inlines that still type-check their arguments:
 *   void trace_<name>(proto);
 *          calls every attached probe, highest priority first, equal
 *          priorities in registration order, each with its own data;
 *          compiled out: nothing
 *   bool trace_<name>_enabled(void);
 *          true while a probe is attached (the call sites' key); compiled
 *          out: false, so that if (trace_x_enabled()) { ... } folds away
 *   int  register_trace_<name>(void (*probe)(proto, void *data), void *data);
 *   int  register_trace_prio_<name>(probe, data, int prio);
 *          as tracepoint_probe_register[_prio]() below; compiled out: -ENOSYS
 *   int  unregister_trace_<name>(probe, data);
 *          as tracepoint_probe_unregister() below; compiled out: -ENOSYS
 */

/* Untyped registry API (cast probes with TRACEPOINT_FUNC); the functions,
 * and TRACEPOINT_FUNC itself, are defined below, with the machinery. */

/* The decision pasted onto names, and the compiled-out forms. */
#include "tracepoint/select.h"

TP__DECLS_END

#endif /* TRACEPOINT_H_INCLUDED */
/* ------------------------------------------------------------------------ */
/* Per-inclusion part: outside the guard, so that every event header that   */
/* includes this file gets its own decision from its own TRACE_CONFIG.      */
/* ------------------------------------------------------------------------ */
#if TP__IS_ONE(CONFIG_TRACEPOINTS_OFF) && TP__IS_ONE(CONFIG_TRACEPOINTS_ALL)
#error "CONFIG_TRACEPOINTS_OFF and CONFIG_TRACEPOINTS_ALL contradict each other"
#endif

#if defined(TRACE_CONFIG) && TP__IS_YM(TRACE_CONFIG)
#error "this header's TRACE_CONFIG switch is defined as y or m (a Kconfig habit); define it as 1 (-DCONFIG_FOO) to compile the subsystem in"
#endif

/* The system in identifiers and symbols: TRACE_SYSTEM_VAR if the header
 * defines it (as in the kernel: for a TRACE_SYSTEM that is no C
 * identifier, such as foo-bar), else TRACE_SYSTEM (where the events are
 * declared: a header may define it after this inclusion).  Event symbols
 * carry it (TP__EVENT_SYM, tracepoint/defs.h): "TRACE_SYSTEM__" where
 * there is none (a header that defines TRACE_SYSTEM only for
 * CREATE_TRACE_POINTS, trace/stages/tracepoints.h). */
#undef TP__SYSVAR
#ifdef TRACE_SYSTEM_VAR
#define TP__SYSVAR TRACE_SYSTEM_VAR
#else
#define TP__SYSVAR TRACE_SYSTEM
#endif
#undef TP__HAVE_SYS
#if defined(TRACE_SYSTEM_VAR) || defined(TRACE_SYSTEM)
#define TP__HAVE_SYS 1
#endif

/* A header without TRACE_CONFIG is compiled in, unless its system's
 * switch, CONFIG_TRACE_<system> (TRACE_SYSTEM_VAR, else TRACE_SYSTEM), is
 * defined as 0: a header taken as it is (the kernel's) is switched from
 * the command line.  As 1 it is compiled in. */
#undef TP__SYS_SWITCH_OFF
#if defined(TP__HAVE_SYS) && !defined(TRACE_CONFIG)
#if TP__IS_ZERO(TP__SYS_SWITCH(TP__SYSVAR))
#define TP__SYS_SWITCH_OFF 1
#endif
#endif

#undef TP__ON
#if TP__IS_ONE(CONFIG_TRACEPOINTS_OFF)
#define TP__ON 0
#elif TP__IS_ONE(CONFIG_TRACEPOINTS_ALL)
#define TP__ON 1
#elif !defined(TRACE_CONFIG) && defined(TP__SYS_SWITCH_OFF)
#define TP__ON 0
#elif !defined(TRACE_CONFIG)
#define TP__ON 1
#elif TP__IS_ONE(TRACE_CONFIG)
#define TP__ON 1
#else
#define TP__ON 0
#endif

/* For trace/define_trace.h's checks (docs/troubleshooting.md): this
 * event header's body was read (its include guard let it through), so
 * TRACE_SYSTEM's mark is declared (a declaration: no byte, no symbol), and
 * whether its events are compiled in, so that the header's define_trace.h
 * makes the file's link need the one file that defines them.  Only for a
 * header with a TRACE_CONFIG: TRACE_SYSTEM and TRACE_CONFIG are then this
 * header's, not left over from another before a direct #include. */
#ifdef TP__HAVE_SYS
TP__REDECL_BEGIN
extern int TP__EV_READ_MARK(TP__SYSVAR);
TP__REDECL_END
#endif
#undef TP__EV_MARK_LATE
#ifdef TP__HAVE_SYS
#define TP__EV_MARK_LATE
#else
#define TP__EV_MARK_LATE                                                      \
	TP__REDECL_BEGIN extern int TP__EV_READ_MARK(TP__SYSVAR);             \
	TP__REDECL_END
#endif
#undef TP__EV_NEED_DEFINITION
#if TP__ON && defined(TP__HAVE_SYS) && defined(TRACE_CONFIG)
#define TP__EV_NEED_DEFINITION 1
#endif

/* The USDT provider name of the tracepoints declared next. */
#undef TP__PROVIDER_NOW
#ifdef TP__HAVE_SYS
#define TP__PROVIDER_NOW TP__SYSVAR
#else
#define TP__PROVIDER_NOW tracepoint
#endif

/* ------------------------------------------------------------------------ */
/* Public functions and machinery: at the first inclusion that compiles     */
/* something in, or that is a direct #include <tracepoint.h> (no            */
/* TRACE_CONFIG; a file that calls these functions includes this file).     */
/* ------------------------------------------------------------------------ */
#if (TP__IS_ONE(CONFIG_TRACEPOINTS_OFF) || TP__ON || !defined(TRACE_CONFIG)) && \
	!defined(TRACEPOINT_API_INCLUDED)
/* select.h stood in for the public functions until now; the
 * functions come next, as empty inlines (off.h) or the machinery's. */
#undef tracepoint_probe_register_prio
#undef tracepoint_probe_register
#undef tracepoint_probe_unregister
#undef tracepoint_enabled
#undef tracepoint_probe_attached
#undef tracepoint_probe_for_each
#undef tracepoint_synchronize_unregister
#undef tracepoint_sites
#undef tracepoint_for_each
#undef tracepoint_find
#undef tracepoint_probe_register_name
#undef tracepoint_probe_unregister_name
#undef tracepoint_batch_begin
#undef tracepoint_batch_end
#undef TRACEPOINT_FUNC
#define TRACEPOINT_FUNC(f) ((tracepoint_func_t)(f))
#endif

#if TP__IS_ONE(CONFIG_TRACEPOINTS_OFF) && !defined(TRACEPOINT_API_INCLUDED)
/* Every subsystem compiled out: the public functions as empty inlines,
 * at the first inclusion, and none of the machinery. */
#define TRACEPOINT_API_INCLUDED
TP__DECLS_BEGIN
#include "tracepoint/defs.h"
#include "tracepoint/off.h"
TP__DECLS_END
#endif

#if (TP__ON || !defined(TRACE_CONFIG)) && !defined(TRACEPOINT_API_INCLUDED)
#define TRACEPOINT_API_INCLUDED

#include "tracepoint/libc.h"

TP__DECLS_BEGIN

/* The types, defined in tracepoint/defs.h with the layout every module
 * shares.  What a user may use of them:
 *
 *   typedef void (*tracepoint_func_t)(void);   an untyped probe (TRACEPOINT_FUNC)
 *   struct tracepoint {
 *           const char *name;                  first member, as in the kernel
 *           unsigned short enabled;            the key: non-zero while listened to
 *           ...
 *           struct tracepoint_probe *funcs;    the published probe list, or NULL
 *           ...
 *   };
 *   struct tracepoint_probe {                  a list ends with func == NULL
 *           tracepoint_func_t func;
 *           void *data;
 *           int prio;
 *           ...
 *   };
 *
 * enabled and funcs are read-only to users; the other members are not theirs
 * (walk the probes with tracepoint_probe_for_each(): a list of several
 * opens with an entry that is not a probe).
 * DECLARE_TRACE(name, ...) declares struct tracepoint __tracepoint_<name>. */
#include "tracepoint/defs.h"

/* Attaches probe (called as probe(args..., data)) with a priority (higher
 * runs first; equals in registration order).  0, or -EEXIST if this
 * (probe, data) is attached already, -EINVAL for NULL tp or probe, -ENOMEM,
 * the error of the tracepoint's reg callback (DEFINE_TRACE_FN), -EPERM or
 * -EACCES if a call site could not be patched (then nothing is attached),
 * -EPROTO (and a line on stderr) for a tracepoint of another tracepoint.h
 * layout. */
static inline int tracepoint_probe_register_prio(struct tracepoint *tp, tracepoint_func_t probe,
						 void *data, int prio);
/* The same with TRACEPOINT_DEFAULT_PRIO; the same return values. */
static inline int tracepoint_probe_register(struct tracepoint *tp, tracepoint_func_t probe,
					    void *data);
/* Detaches (probe, data).  0, or -ENOENT if it is not attached, -EINVAL for
 * NULL tp or probe, -EPROTO for a tracepoint of another layout; never fails
 * for lack of memory.  Its data may be freed after
 * tracepoint_synchronize_unregister().  A fire under way in this thread
 * still calls a probe it has not reached yet; a fire of another thread at
 * the same time may or may not. */
static inline int tracepoint_probe_unregister(struct tracepoint *tp, tracepoint_func_t probe,
					      void *data);
/* True while a probe is attached (or, with -DTRACEPOINT_USDT, an external
 * tracer listens), else false.  No error value: tp must not be NULL. */
static inline bool tracepoint_enabled(const struct tracepoint *tp);
/* 1 if (probe, data) is attached to tp, 0 if not, -EINVAL for NULL tp or
 * probe, -EPROTO for a tracepoint of another tracepoint.h layout. */
static inline int tracepoint_probe_attached(const struct tracepoint *tp, tracepoint_func_t probe,
					    void *data);
/* Calls fn(probe, data, prio, priv) for each probe attached to tp, in the
 * order trace_<name>() calls them (higher priority first).  A non-zero
 * return from fn stops the walk and is returned; 0 otherwise, -EINVAL for
 * NULL tp or fn, -EPROTO for a tracepoint of another tracepoint.h layout.
 * The walk reads the list as published when it starts, as a firing does:
 * fn may attach and detach probes (the walk does not see the change) and,
 * like a probe, must not call tracepoint_synchronize_unregister(). */
static inline int tracepoint_probe_for_each(struct tracepoint *tp,
					    int (*fn)(tracepoint_func_t probe, void *data, int prio,
						      void *priv),
					    void *priv);
/* Returns (no value; it cannot fail) once no probe unregistered before the
 * call is running or will run again, so that its data may be freed.  Must
 * not be called from inside a probe (it would wait for itself). */
static inline void tracepoint_synchronize_unregister(void);
/* How many patchable call sites of tp the loaded modules have (0: no code
 * that was compiled with its subsystem switched on fires it), -EINVAL for
 * NULL, or -ENOSYS where call sites are not recorded (-DTRACEPOINT_PORTABLE,
 * -DTRACEPOINT_USDT, architectures without static keys). */
static inline int tracepoint_sites(const struct tracepoint *tp);

/* Every tracepoint of the running program, executable and loaded libraries.
 * fn runs with the dynamic loader's lock held: it must not dlopen/dlclose.
 * A non-zero return from fn stops the walk and is returned; 0 otherwise,
 * -EINVAL for NULL fn. */
static inline int tracepoint_for_each(int (*fn)(struct tracepoint *tp, void *priv), void *priv);
/* The first tracepoint with that name (executable first, then libraries in
 * load order), or NULL if there is none or name is NULL. */
static inline struct tracepoint *tracepoint_find(const char *name);
/* Attaches an untyped probe (the tracepoint's prototype, then void *data)
 * to the first tracepoint with that name: -ENOENT if there is none,
 * -EINVAL for NULL name or probe, otherwise as
 * tracepoint_probe_register_prio(). */
static inline int tracepoint_probe_register_name(const char *name, tracepoint_func_t probe,
						 void *data, int prio);
/* 0, -ENOENT (no such tracepoint, or the probe is not attached), -EINVAL
 * for NULL name or probe. */
static inline int tracepoint_probe_unregister_name(const char *name, tracepoint_func_t probe,
						   void *data);

/* Many enables or disables at once (a pattern, TRACEPOINTS=*): between
 * tracepoint_batch_begin() and tracepoint_batch_end(), registrations and
 * unregistrations work and fail as always (each patches its call sites
 * before it returns), but each module's code is made writable once, at its
 * first patch, and made read+exec again once, by the end of the last open
 * batch of the process: the code of a module patched in a batch stays
 * writable until then.  Batches nest and may overlap across threads.
 * begin: 0.  end: 0, -EINVAL if no batch is open, or -errno of a refused
 * protection change (the code then stays writable).  Without static keys
 * (nothing to patch) both only count, and return the same. */
static inline int tracepoint_batch_begin(void);
static inline int tracepoint_batch_end(void);

#include "tracepoint/modules.h"
#include "tracepoint/static_key.h"
#include "tracepoint/usdt.h"
#include "tracepoint/grace.h"
#include "tracepoint/registry.h"
#include "tracepoint/probes.h"
#include "tracepoint/unload.h"
#include "tracepoint/process.h"
#include "tracepoint/declare.h"

TP__DECLS_END

#endif /* TRACEPOINT_API_INCLUDED */

/* TRACE_CONFIG is consumed: a later header that never sets it (unconverted)
 * must not inherit the previous subsystem's switch. */
#undef TRACE_CONFIG

/* TRACE_EVENT and friends, as plain tracepoint declarations.  Outside the
 * guard and only when undefined, so that <trace/define_trace.h> may remap
 * them for its extra passes and undo that afterwards (as in the kernel).  A
 * consumer that never includes define_trace.h pays for none of the event
 * machinery. */
#ifndef TRACE_EVENT
/* The header's mark (above) again where its events are declared, if it
 * had no system when it included this file: it may define TRACE_SYSTEM
 * after (the kernel's older irq.h does).  TP__EV_MARK_LATE is decided at
 * each inclusion (above). */
#define TP__EV_MARK TP__EV_MARK_LATE
#define TRACE_EVENT(name, proto, args, tstruct, assign, print)                \
	TP__EV_MARK TP__DECLARE(name, TP__EVENT_SYM, PARAMS(proto), PARAMS(args))
#define DECLARE_EVENT_CLASS(name, proto, args, tstruct, assign, print)        \
	TP__EV_MARK enum { tp__event_class_##name = 1 }
#define DEFINE_EVENT(template, name, proto, args)                             \
	TP__DECLARE(name, TP__EVENT_SYM, PARAMS(proto), PARAMS(args))
#define TRACE_EVENT_CONDITION(name, proto, args, cond, tstruct, assign, print) \
	TP__EV_MARK TP__DECLARE_COND(name, TP__EVENT_SYM, (cond), PARAMS(proto), PARAMS(args))
#define DEFINE_EVENT_CONDITION(template, name, proto, args, cond)             \
	TP__DECLARE_COND(name, TP__EVENT_SYM, (cond), PARAMS(proto), PARAMS(args))
#define TRACE_EVENT_FN(name, proto, args, tstruct, assign, print, reg, unreg) \
	TP__EV_MARK TP__DECLARE(name, TP__EVENT_SYM, PARAMS(proto), PARAMS(args))
#define DEFINE_EVENT_PRINT(template, name, proto, args, print)                \
	TP__DECLARE(name, TP__EVENT_SYM, PARAMS(proto), PARAMS(args))
#define DEFINE_EVENT_FN(template, name, proto, args, reg, unreg)              \
	TP__DECLARE(name, TP__EVENT_SYM, PARAMS(proto), PARAMS(args))
#define TRACE_EVENT_FN_COND(name, proto, args, cond, tstruct, assign, print, reg, unreg) \
	TP__EV_MARK TP__DECLARE_COND(name, TP__EVENT_SYM, (cond), PARAMS(proto), PARAMS(args))
/* The kernel's NOP forms: the event is not declared (no trace_<name>()). */
#define TRACE_EVENT_NOP(name, proto, args, tstruct, assign, print)            \
	enum { tp__event_nop_##name = 1 }
#define DEFINE_EVENT_NOP(template, name, proto, args) enum { tp__event_nop_##name = 1 }
#endif

/* The kernel's TRACE_EVENT_FLAGS and TRACE_EVENT_PERF_PERM (perf's
 * permissions of an event, written without a ';') mean nothing here;
 * __perf_count() and __perf_task() in TP_ARGS are their argument. */
#ifndef TRACE_EVENT_FLAGS
#define TRACE_EVENT_FLAGS(event, flag)
#define TRACE_EVENT_PERF_PERM(event, ...)
#define __perf_count(c) c
#define __perf_task(t) t
#define __perf_addr(a) a
#endif

/* TRACE_DEFINE_ENUM(name), TRACE_DEFINE_SIZEOF(type): nothing outside the
 * file that creates the events (there, trace/eval_map.h: the value goes
 * into the print format the readers get). */
#ifndef TRACE_DEFINE_ENUM
#define TRACE_DEFINE_ENUM(a) extern int tp__no_eval_map
#define TRACE_DEFINE_SIZEOF(a) extern int tp__no_eval_map
#endif
