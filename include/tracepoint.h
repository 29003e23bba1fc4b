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

#include "tracepoint/modules.h"
#include "tracepoint/static_key.h"
#include "tracepoint/usdt.h"
#include "tracepoint/grace.h"
#include "tracepoint/registry.h"
#include "tracepoint/unload.h"
#include "tracepoint/declare.h"

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
