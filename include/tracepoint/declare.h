/* SPDX-License-Identifier: MIT */
/*
 * tracepoint/declare.h - what DECLARE_TRACE, DEFINE_TRACE and
 * EXPORT_TRACEPOINT_SYMBOL become when compiled in.
 *
 * select.h pastes the decision of the current inclusion onto a name; a 1
 * lands here: TP__DECLARE_1 (the tracepoint's extern struct, its
 * out-of-line dispatch and the small inlines of the call sites),
 * TP__DEFINE_1 and TP__EXPORT_1.  This is the code that every user's
 * translation unit gets, once per tracepoint; the functions it calls are
 * the other internal headers' (the fast-path key check of static_key.h, the
 * grace period's read side of grace.h, the USDT note of usdt.h, the module
 * note of modules.h, the dlclose destructor of unload.h).
 *
 * Internal: included by tracepoint.h, last of the machinery; macros only,
 * expanded where the user writes them; uses select.h's wrappers.
 */
#ifndef TRACEPOINT_H_INCLUDED
#error "tracepoint/declare.h is internal: #include <tracepoint.h> instead"
#elif !defined(TP__DECLARE_H)
#define TP__DECLARE_H

/* The typed dispatch is a C99 inline function (C++: inline, vague linkage):
 * never inlined into call sites, so all of them share one out-of-line copy,
 * whose external definition DEFINE_TRACE requests.  It checks the key itself
 * (an unpatched site jumps here whatever the state), calls a lone probe
 * directly and leaves the rest to a second function, the slow dispatch: a
 * list of several probes, or a thread that reads without a slot of its own,
 * so the common case saves only one register around the call.  Aligned to
 * a cache line, which holds it whole (about 55 bytes with static keys): a
 * copy that straddles two lines was measured 0.2-0.3 ns slower per fire. */
#define TP__DISPATCH_ATTRS __attribute__((noinline, aligned(64)))
/* The slow dispatch names no tracepoint (it is given one), so that those of
 * tracepoints with the same prototype are the same code, which gcc's
 * identical code folding (-fipa-icf, on at -O2) compiles once and turns the
 * others into jumps: the biggest share of what CREATE_TRACE_POINTS costs to
 * compile.  gcc makes no such jump for a noinline function; cold keeps it
 * from splitting the function first, and places the dispatch's call of it
 * out of the way. */
#define TP__SLOW_ATTRS __attribute__((cold))
/* The slow dispatch's probe call for a reader without a slot, once its read
 * side began: the published list's first entry (a lone probe, or the head
 * of several), if any.  The typed dispatch calls tp->call instead. */
#define TP__CALL_PROBES(tp, dproto, dargs)                                   \
	tp__it = __atomic_load_n(&(tp)->funcs, __ATOMIC_ACQUIRE);           \
	if (__builtin_expect(tp__it != 0, 1))                                \
		((void (*)(dproto))tp__it->func)(dargs)
/* An entry's function as the slow dispatch reads it: unregister may swap
 * it for a stub meanwhile (registry.h), so an atomic load, which is the
 * plain load it was (and ThreadSanitizer sees it as one). */
#define TP__ENTRY_FUNC(it) __atomic_load_n(&(it)->func, __ATOMIC_RELAXED)
/* In C the dispatch exists only in the defining module, which binds the
 * thread's slot and the tracepoint's grace domain alike.  A C++ copy (vague
 * linkage) may run in another module whose symbols resolve elsewhere (two
 * RTLD_LOCAL groups): it counts on the tracepoint's own domain then. */
#ifdef __cplusplus
#define TP__FOREIGN_DOMAIN(name) (__tracepoint_##name.tp__priv.gp != &tp__domain_obj)
#else
#define TP__FOREIGN_DOMAIN(name) 0
#endif
/* An empty probe list is the dispatch's "off"; with USDT the key also
 * counts external tracers, who get their probe before the list is read. */
#if defined(TRACEPOINT_USDT)
#define TP__DISPATCH_KEY_CHECK(name)                                         \
	if (!tp__key_enabled(&__tracepoint_##name))                          \
		return
#else
#define TP__DISPATCH_KEY_CHECK(name) ((void)0)
#endif
/* With static keys the typed dispatch calls the tracepoint's `call` entry
 * untested: a site reaches it only once the first probe's attach set
 * `call` for good and then patched the site (mprotect, the code write, the
 * cache flush: whoever runs the new jump sees `call`).  A portable site
 * reads the key with a plain load, which a weakly ordered CPU (aarch64)
 * may take after the dispatch's load of `call`; with USDT an external
 * tracer sets the key before any probe attached.  Both keep the test. */
#if defined(TRACEPOINT_USDT) || !TRACEPOINT_STATIC_KEYS
#define TP__CALL_CHECK(it) if (__builtin_expect((it) != 0, 1))
#else
#define TP__CALL_CHECK(it)
#endif

/* The body of the typed registration wrappers (select.h) when compiled
 * in: calls the registry. */
#define TP__REG_CALL(fn, name, probe, ...)                                   \
	return fn(&__tracepoint_##name, (tracepoint_func_t)probe, __VA_ARGS__);

/* --- What DECLARE_TRACE becomes when compiled in. ---
 * The declarations end with an enum so that the user's ';' closes a
 * declaration (no -Wextra-semi), and so DEFINE_TRACE can check it saw the
 * same decision. */
#define TP__DECLARE_1(cond, sym, name, proto, args, dproto, dargs, uargs, iproto, iargs) \
	TP__EXTERN TP__VISIBLE struct tracepoint __tracepoint_##name        \
		__asm__(TP__SYM("__tracepoint_", sym, name));                     \
	TP__NOWARN_BEGIN                                                     \
	TP__LINKAGE inline TP__VISIBLE void tp__iter_slow_##name(iproto)   \
		__asm__(TP__SYM("tp__iter_slow_", sym, name));              \
	TP__LINKAGE inline TP__VISIBLE void tp__iter_##name(proto)         \
		__asm__(TP__SYM("tp__iter_", sym, name));                   \
	/* tp__list: the probes after a head entry, or the tracepoint with  \
	 * its low bit set for a reader without a slot (which reads the list \
	 * here). */                                                         \
	TP__LINKAGE inline TP__VISIBLE TP__SLOW_ATTRS                      \
	void tp__iter_slow_##name(iproto)                                    \
	{                                                                     \
		const struct tracepoint_probe *tp__it =                      \
			(const struct tracepoint_probe *)tp__list;           \
		struct tracepoint *tp__tp;                                   \
		long *tp__token;                                             \
		if (!((uintptr_t)tp__list & 1u)) {                           \
			/* unregister makes entries stubs in place: atomic \
			 * loads (plain ones in the code) */                  \
			tracepoint_func_t tp__f = TP__ENTRY_FUNC(tp__it);    \
			do {                                                  \
				((void (*)(dproto))tp__f)(dargs);            \
			} while ((tp__f = TP__ENTRY_FUNC(++tp__it)) != 0);   \
			return;                                               \
		}                                                             \
		tp__tp = (struct tracepoint *)(void *)((char *)tp__list - 1); \
		tp__token = tp__tp->read_slow();                             \
		TP__CALL_PROBES(tp__tp, PARAMS(dproto), PARAMS(dargs));      \
		tp__read_end_token(tp__token);                              \
	}                                                                     \
	TP__LINKAGE inline TP__VISIBLE TP__DISPATCH_ATTRS                  \
	void tp__iter_##name(proto)                                          \
	{                                                                     \
		const struct tracepoint_probe *tp__it;                       \
		struct tp__slot *tp__own;                                    \
		long *tp__counter;                                           \
		TP__DISPATCH_KEY_CHECK(name);                                \
		if (!cond)                                                   \
			return;                                               \
		TP__USDT_PROBE(sym, name, PARAMS(uargs));                         \
		tp__own = tp__me.slot;                                       \
		if (__builtin_expect(!tp__own || TP__FOREIGN_DOMAIN(name), 0)) { \
			void *tp__list = (char *)&__tracepoint_##name + 1;    \
			tp__iter_slow_##name(iargs);                         \
			return;                                               \
		}                                                             \
		tp__counter = tp__read_begin(tp__own);                       \
		tp__it = __atomic_load_n(&__tracepoint_##name.call, __ATOMIC_ACQUIRE); \
		TP__CALL_CHECK(tp__it)                                       \
			((void (*)(dproto))tp__it->func)(dargs);            \
		tp__read_end(tp__counter);                                  \
	}                                                                     \
	static TP__ALWAYS_INLINE TP__UNUSED bool trace_##name##_enabled(void) \
	{                                                                     \
		TP__KEY_CHECK(sym, name, tp__key_enabled(&__tracepoint_##name)); \
	}                                                                     \
	static TP__ALWAYS_INLINE TP__UNUSED bool tp__site_##name(void)     \
	{                                                                     \
		TP__KEY_CHECK(sym, name, true); /* the dispatch checks again */   \
	}                                                                     \
	static TP__ALWAYS_INLINE TP__UNUSED void trace_##name(proto)         \
	{                                                                     \
		if (__builtin_expect(tp__site_##name(), 0))                \
			tp__iter_##name(args);                               \
	}                                                                     \
	TP__NOWARN_END                                                       \
	TP__REG_WRAPPERS(TP__REG_CALL, name, PARAMS(dproto),                \
			 tp__probe_takes_the_args_then_data)                 \
	enum { tp__declared_##name = 1 }

/* --- What DEFINE_TRACE becomes.  The struct, its name string and a
 * pointer to it go into their own sections; "used" keeps them through
 * -flto, the note's __start_/__stop_ references keep them through
 * --gc-sections, and "aligned" keeps gcc from padding the struct to 32
 * bytes as it does for large objects.  DECLARE_TRACE gave the struct and
 * its dispatch default visibility, so other modules can attach to them even
 * when the defining library is built with -fvisibility=hidden. --- */
#define TP__DEFINE_1(name, reg, unreg, ev, sys)                              \
	TP__REDECL_BEGIN                                                     \
	extern __typeof__(tp__iter_##name) tp__iter_##name;                 \
	extern __typeof__(tp__iter_slow_##name) tp__iter_slow_##name;       \
	TP__REDECL_END                                                       \
	TP__KEEP_DISPATCH(name)                                              \
	TP__STATIC_ASSERT(tp__declared_##name == 1, TP__DECISION_MSG(name),  \
			   TP__DECISION_IDENT(name));                        \
	TP__MODULE_NOTE;                                                     \
	static const char tp__strtab_##name[]                                \
		__attribute__((section("tp__strings"), used)) = #name; \
	struct tracepoint __tracepoint_##name                                 \
		__attribute__((section(TP__TRACEPOINT_SECTION), used,           \
			       aligned(__alignof__(struct tracepoint)))) =     \
		TP__INITIALIZER(__tracepoint_##name, tp__strtab_##name,     \
				 sys, reg, unreg,                             \
				 (tracepoint_func_t)tp__iter_slow_##name,    \
				 TP__PATCHER, ev);                           \
	static struct tracepoint *tp__ptr_##name                             \
		__attribute__((section("tp__ptrs"), used)) = &__tracepoint_##name

/* C emits the typed dispatch where DEFINE_TRACE redeclares it extern (C99
 * inline); C++ emits an inline function only where it is used, so that a
 * C++ file defining tracepoints that only C files fire would leave them
 * unresolved: a used pointer to it makes it used. */
#ifdef __cplusplus
#define TP__KEEP_DISPATCH(name)                                              \
	static __typeof__(&tp__iter_##name) const tp__keep_##name            \
		__attribute__((used)) = &tp__iter_##name;
#else
#define TP__KEEP_DISPATCH(name)
#endif

/* Definitions are exported already (see above); EXPORT checks that the
 * tracepoint is defined in this translation unit. */
#define TP__EXPORT_1(name)                                                   \
	TP__STATIC_ASSERT(tp__declared_##name == 1,                         \
			   "EXPORT_TRACEPOINT_SYMBOL(" #name ") sees another TRACE_CONFIG decision", \
			   EXPORT_TRACEPOINT_SYMBOL_##name##_sees_another_TRACE_CONFIG_decision); \
	extern struct tracepoint __tracepoint_##name
#endif /* TP__DECLARE_H */
