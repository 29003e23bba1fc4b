/* SPDX-License-Identifier: MIT */
/*
 * tracepoint/declare.h - what DECLARE_TRACE, DEFINE_TRACE and
 * EXPORT_TRACEPOINT_SYMBOL become.
 *
 * The public macros (tracepoint.h) paste the decision of the current
 * inclusion, __TP_ON (0 or 1), onto a name and land here: __TP_DECLARE_1
 * (the tracepoint's extern struct, its out-of-line dispatch and the small
 * inlines of the call sites) or __TP_DECLARE_0 (empty inlines that only
 * type-check their arguments), __TP_DEFINE_1 or __TP_DEFINE_0,
 * __TP_EXPORT_1 or __TP_EXPORT_0.  This is the code that every user's
 * translation unit gets, once per tracepoint; the functions it calls are
 * the other internal headers' (the fast-path key check of static_key.h, the
 * grace period's read side of grace.h, the USDT note of usdt.h, the module
 * note of modules.h, the dlclose destructor of unload.h).
 *
 * Internal: included by tracepoint.h, last; macros only (and one
 * declaration never defined), expanded where the user writes them.
 */
#ifndef TRACEPOINT_H_INCLUDED
#error "tracepoint/declare.h is internal: #include <tracepoint.h> instead"
#elif !defined(__TP_DECLARE_H)
#define __TP_DECLARE_H

/* --- Dispatch on the decision.  Two levels are needed so that
 * __TP_ON is expanded to 0 or 1 before it is pasted onto a name. --- */
#define __TP_DECLARE_SEL(on, sym, name, proto, args, dproto, dargs, uargs, iproto, iargs) \
	__TP_DECLARE_SEL_(on, sym, name, PARAMS(proto), PARAMS(args),         \
			  PARAMS(dproto), PARAMS(dargs), PARAMS(uargs),       \
			  PARAMS(iproto), PARAMS(iargs))
#define __TP_DECLARE_SEL_(on, sym, name, proto, args, dproto, dargs, uargs, iproto, iargs) \
	__TP_DECLARE_##on(sym, name, PARAMS(proto), PARAMS(args), PARAMS(dproto), \
			  PARAMS(dargs), PARAMS(uargs), PARAMS(iproto),       \
			  PARAMS(iargs))
#define __TP_DEFINE_SEL(on, name, reg, unreg, ev, sys) __TP_DEFINE_SEL_(on, name, reg, unreg, ev, sys)
#define __TP_DEFINE_SEL_(on, name, reg, unreg, ev, sys) __TP_DEFINE_##on(name, reg, unreg, ev, sys)
/* For trace/define_trace.h: a definition that carries event metadata. */
#define __TP_DEFINE_TRACE_EVENT(name, ev)                                     \
	__TP_DEFINE_SEL(__TP_ON, name, 0, 0, ev, __TP_STR(TRACE_SYSTEM))
#define __TP_EXPORT_SEL(on, name) __TP_EXPORT_SEL_(on, name)
#define __TP_EXPORT_SEL_(on, name) __TP_EXPORT_##on(name)

/* Marks a compiled-out stub's parameters used without evaluating them. */
int __tp_use_args(int, ...);
#define __TP_USE_ARGS(...) ((void)sizeof(__tp_use_args(__VA_ARGS__)))

/* The typed dispatch is a C99 inline function (C++: inline, vague linkage):
 * never inlined into call sites, so all of them share one out-of-line copy,
 * whose external definition DEFINE_TRACE requests.  It checks the key itself
 * (an unpatched site jumps here whatever the state), calls a lone probe
 * directly and leaves longer lists to a second function, so the common case
 * saves only one register around the call. */
#if defined(__clang__)
#define __TP_DISPATCH_ATTRS __attribute__((noinline, cold))
#define __TP_NOWARN_BEGIN
#define __TP_NOWARN_END
#else
#define __TP_DISPATCH_ATTRS __attribute__((noinline, cold))
#define __TP_NOWARN_BEGIN                                                     \
	_Pragma("GCC diagnostic push")                                        \
	_Pragma("GCC diagnostic ignored \"-Wattributes\"")
#define __TP_NOWARN_END _Pragma("GCC diagnostic pop")
#endif
/* DEFINE_TRACE redeclares the dispatch extern to get its one external
 * definition (C99 inline), which -Wredundant-decls would flag. */
#define __TP_REDECL_BEGIN                                                     \
	_Pragma("GCC diagnostic push")                                        \
	_Pragma("GCC diagnostic ignored \"-Wredundant-decls\"")
#define __TP_REDECL_END _Pragma("GCC diagnostic pop")

/* --- What DECLARE_TRACE becomes when compiled in. ---
 * The declarations end with an enum so that the user's ';' closes a
 * declaration (no -Wextra-semi), and so DEFINE_TRACE can check it saw the
 * same decision. */
#define __TP_DECLARE_1(sym, name, proto, args, dproto, dargs, uargs, iproto, iargs) \
	__TP_EXTERN __TP_VISIBLE struct tracepoint __tracepoint_##name        \
		__asm__(__TP_SYM("__tracepoint_", sym, name));                     \
	__TP_NOWARN_BEGIN                                                     \
	__TP_LINKAGE inline __TP_VISIBLE void __tp_iter_many_##name(iproto)   \
		__asm__(__TP_SYM("__tp_iter_many_", sym, name));              \
	__TP_LINKAGE inline __TP_VISIBLE void __tp_iter_##name(proto)         \
		__asm__(__TP_SYM("__tp_iter_", sym, name));                   \
	__TP_LINKAGE inline __TP_VISIBLE __TP_DISPATCH_ATTRS                  \
	void __tp_iter_many_##name(iproto)                                    \
	{                                                                     \
		do {                                                          \
			((void (*)(dproto))__tp_it->func)(dargs);             \
		} while ((++__tp_it)->func);                                  \
	}                                                                     \
	__TP_LINKAGE inline __TP_VISIBLE __TP_DISPATCH_ATTRS                  \
	void __tp_iter_##name(proto)                                          \
	{                                                                     \
		long *__tp_counter;                                           \
		const struct tracepoint_probe *__tp_it;                       \
		if (!__tp_key_enabled(&__tracepoint_##name))                  \
			return;                                               \
		__TP_USDT_PROBE(sym, name, PARAMS(uargs));                         \
		__tp_it = __tp_read_begin(&__tracepoint_##name, &__tp_counter); \
		if (__builtin_expect(__tp_it && !__tp_it[1].func, 1))         \
			((void (*)(dproto))__tp_it->func)(dargs);             \
		else if (__tp_it)                                             \
			__tp_iter_many_##name(iargs);                         \
		__tp_read_end(__tp_counter);                                  \
	}                                                                     \
	static __TP_ALWAYS_INLINE __TP_UNUSED bool trace_##name##_enabled(void) \
	{                                                                     \
		__TP_KEY_CHECK(sym, name, __tp_key_enabled(&__tracepoint_##name)); \
	}                                                                     \
	static __TP_ALWAYS_INLINE __TP_UNUSED bool __tp_site_##name(void)     \
	{                                                                     \
		__TP_KEY_CHECK(sym, name, true); /* the dispatch checks again */   \
	}                                                                     \
	static inline __TP_UNUSED void trace_##name(proto)                    \
	{                                                                     \
		if (__tp_site_##name())                                       \
			__tp_iter_##name(args);                               \
	}                                                                     \
	__TP_NOWARN_END                                                       \
	static inline __TP_UNUSED int register_trace_prio_##name(void (*__tp_probe)(dproto), \
						     void *__tp_data_arg,     \
						     int __tp_prio)           \
	{                                                                     \
		return tracepoint_probe_register_prio(&__tracepoint_##name,   \
			(tracepoint_func_t)__tp_probe, __tp_data_arg, __tp_prio); \
	}                                                                     \
	static inline __TP_UNUSED int register_trace_##name(void (*__tp_probe)(dproto),   \
						void *__tp_data_arg)          \
	{                                                                     \
		return tracepoint_probe_register(&__tracepoint_##name,        \
			(tracepoint_func_t)__tp_probe, __tp_data_arg);        \
	}                                                                     \
	static inline __TP_UNUSED int unregister_trace_##name(void (*__tp_probe)(dproto), \
						  void *__tp_data_arg)        \
	{                                                                     \
		return tracepoint_probe_unregister(&__tracepoint_##name,      \
			(tracepoint_func_t)__tp_probe, __tp_data_arg);        \
	}                                                                     \
	enum { __tp_declared_##name = 1 }

/* --- What DECLARE_TRACE becomes when compiled out: inlines that
 * fold to nothing, type-check their arguments, and name no symbol. --- */
#define __TP_DECLARE_0(sym, name, proto, args, dproto, dargs, uargs, iproto, iargs) \
	static inline __TP_UNUSED void __tp_iter_##name(proto) { __TP_USE_ARGS(uargs); } \
	static inline __TP_UNUSED bool trace_##name##_enabled(void) { return false; }     \
	static inline __TP_UNUSED void trace_##name(proto) { __TP_USE_ARGS(uargs); }      \
	static inline __TP_UNUSED int register_trace_prio_##name(void (*__tp_probe)(dproto), \
						     void *__tp_data_arg,     \
						     int __tp_prio)           \
	{                                                                     \
		(void)__tp_probe; (void)__tp_data_arg; (void)__tp_prio;       \
		return -ENOSYS;                                               \
	}                                                                     \
	static inline __TP_UNUSED int register_trace_##name(void (*__tp_probe)(dproto),   \
						void *__tp_data_arg)          \
	{                                                                     \
		(void)__tp_probe; (void)__tp_data_arg;                        \
		return -ENOSYS;                                               \
	}                                                                     \
	static inline __TP_UNUSED int unregister_trace_##name(void (*__tp_probe)(dproto), \
						  void *__tp_data_arg)        \
	{                                                                     \
		(void)__tp_probe; (void)__tp_data_arg;                        \
		return -ENOSYS;                                               \
	}                                                                     \
	enum { __tp_declared_##name = 0 }

/* --- What DEFINE_TRACE becomes.  The struct, its name string and a
 * pointer to it go into their own sections; "used" keeps them through -flto
 * and the note's __start_/__stop_ references keep them through
 * --gc-sections.  DECLARE_TRACE gave the struct and its dispatch default
 * visibility, so other modules can attach to them even when the defining
 * library is built with -fvisibility=hidden. --- */
#define __TP_DECISION_IDENT(name)                                             \
	DEFINE_TRACE_##name##_sees_another_TRACE_CONFIG_decision_than_its_DECLARE_TRACE
#define __TP_DECISION_MSG(name)                                               \
	"DEFINE_TRACE(" #name ") sees another TRACE_CONFIG decision than "    \
	"DECLARE_TRACE(" #name "): put it right after its own event header, " \
	"before any other event header is included"
#define __TP_DEFINE_1(name, reg, unreg, ev, sys)                              \
	__TP_REDECL_BEGIN                                                     \
	extern __typeof__(__tp_iter_##name) __tp_iter_##name;                 \
	extern __typeof__(__tp_iter_many_##name) __tp_iter_many_##name;       \
	__TP_REDECL_END                                                       \
	__TP_STATIC_ASSERT(__tp_declared_##name == 1, __TP_DECISION_MSG(name),  \
			   __TP_DECISION_IDENT(name));                        \
	__TP_MODULE_NOTE;                                                     \
	static const char __tp_strtab_##name[]                                \
		__attribute__((section("__tracepoints_strings"), used)) = #name; \
	struct tracepoint __tracepoint_##name                                 \
		__attribute__((section("__tracepoints"), used)) =             \
		__TP_INITIALIZER(__tracepoint_##name, __tp_strtab_##name,     \
				 sys, reg, unreg,                             \
				 (tracepoint_func_t)__tp_iter_##name,         \
				 __TP_PATCHER, ev);                           \
	static struct tracepoint *__tp_ptr_##name                             \
		__attribute__((section("__tracepoints_ptrs"), used)) = &__tracepoint_##name; \
	static __attribute__((destructor)) void __tp_fini_##name(void)        \
	{                                                                     \
		__tp_defining_module_fini();                                  \
	}                                                                     \
	__TP_STATIC_ASSERT(1, "", __tp_fini_end_##name)

#define __TP_DEFINE_0(name, reg, unreg, ev, sys)                              \
	__TP_STATIC_ASSERT(__tp_declared_##name == 0, __TP_DECISION_MSG(name),  \
			   __TP_DECISION_IDENT(name))

/* Definitions are exported already (see above); EXPORT checks that the
 * tracepoint is defined in this translation unit. */
#define __TP_EXPORT_1(name)                                                   \
	__TP_STATIC_ASSERT(__tp_declared_##name == 1,                         \
			   "EXPORT_TRACEPOINT_SYMBOL(" #name ") sees another TRACE_CONFIG decision", \
			   EXPORT_TRACEPOINT_SYMBOL_##name##_sees_another_TRACE_CONFIG_decision); \
	extern struct tracepoint __tracepoint_##name
#define __TP_EXPORT_0(name)                                                   \
	__TP_STATIC_ASSERT(__tp_declared_##name == 0,                         \
			   "EXPORT_TRACEPOINT_SYMBOL(" #name ") sees another TRACE_CONFIG decision", \
			   EXPORT_TRACEPOINT_SYMBOL_##name##_sees_another_TRACE_CONFIG_decision)

#endif /* __TP_DECLARE_H */
