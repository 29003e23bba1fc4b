/* SPDX-License-Identifier: MIT */
/*
 * tracepoint/select.h - the per-inclusion decision put to work, and what a
 * compiled-out tracepoint becomes.
 *
 * The public macros (tracepoint.h) paste the decision of the current
 * inclusion, TP__ON (0 or 1), onto a name: TP__DECLARE_1 or TP__DECLARE_0,
 * TP__DEFINE_1 or TP__DEFINE_0, TP__EXPORT_1 or TP__EXPORT_0.  The _0 forms
 * are here: empty inlines that type-check their arguments and name no
 * symbol, and static assertions that DEFINE_TRACE and EXPORT saw the same
 * decision.  The _1 forms are in declare.h, which comes with the machinery
 * (the first inclusion that compiles something in brings it), so a file
 * whose subsystems are all compiled out reads only this file, compiler.h
 * and tracepoint.h.
 *
 * Internal: included by tracepoint.h; macros only (and one declaration
 * never defined); depends on compiler.h.
 */
#ifndef TRACEPOINT_H_INCLUDED
#error "tracepoint/select.h is internal: #include <tracepoint.h> instead"
#elif !defined(TP__SELECT_H)
#define TP__SELECT_H

/* --- Dispatch on the decision.  Two levels are needed so that
 * TP__ON is expanded to 0 or 1 before it is pasted onto a name. --- */
#define TP__DECLARE_SEL(on, sym, name, proto, args, dproto, dargs, uargs, iproto, iargs) \
	TP__DECLARE_SELC(on, (1), sym, name, PARAMS(proto), PARAMS(args),    \
			  PARAMS(dproto), PARAMS(dargs), PARAMS(uargs),       \
			  PARAMS(iproto), PARAMS(iargs))
/* The same with a condition (TP_CONDITION, in parentheses), evaluated by
 * the dispatch before any probe runs (TRACE_EVENT_CONDITION). */
#define TP__DECLARE_SELC(on, cond, sym, name, proto, args, dproto, dargs, uargs, iproto, iargs) \
	TP__DECLARE_SEL_(on, cond, sym, name, PARAMS(proto), PARAMS(args),   \
			  PARAMS(dproto), PARAMS(dargs), PARAMS(uargs),       \
			  PARAMS(iproto), PARAMS(iargs))
#define TP__DECLARE_SEL_(on, cond, sym, name, proto, args, dproto, dargs, uargs, iproto, iargs) \
	TP__DECLARE_##on(cond, sym, name, PARAMS(proto), PARAMS(args), PARAMS(dproto), \
			  PARAMS(dargs), PARAMS(uargs), PARAMS(iproto),       \
			  PARAMS(iargs))

/* TP__ARGS_EMPTY(args...): 1 for an empty TP_ARGS(), else 0 (the first
 * argument is an identifier, pasted onto TP__ARGS_NONE_); 2 for
 * TP_ARGS(void), a prototype's habit, which declares the tracepoint
 * without arguments and fails a static assertion saying what to write. */
#define TP__ARGS_EMPTY(...) TP__ARGS_EMPTY_(TP__ARGS_FIRST_(__VA_ARGS__, ~))
#define TP__ARGS_FIRST_(a, ...) a
#define TP__ARGS_EMPTY_(a) TP__ARGS_EMPTY__(a)
#define TP__ARGS_EMPTY__(a) TP__ARGS_SECOND(TP__ARGS_NONE_##a, 0)
#define TP__ARGS_NONE_ ~, 1
#define TP__ARGS_NONE_void ~, 2
#define TP__ARGS_SECOND(...) TP__ARGS_SECOND_(__VA_ARGS__, ~)
#define TP__ARGS_SECOND_(a, b, ...) b
/* A declaration with or without arguments (TP_PROTO(void), TP_ARGS()).
 * Probes take the arguments, then their data (dproto, dargs), so that the
 * dispatch passes the arguments on in the registers they arrived in; the
 * slow dispatch takes its list pointer in the same place (iproto). */
#define TP__DECLARE_COND(name, sym, cond, proto, args)                       \
	TP__DECLARE_PICK(TP__ARGS_EMPTY(args))(name, sym, cond, PARAMS(proto), PARAMS(args))
#define TP__DECLARE_PICK(e) TP__DECLARE_PICK_(e)
#define TP__DECLARE_PICK_(e) TP__DECLARE_ARGS##e
#define TP__DECLARE_ARGS0(name, sym, cond, proto, args)                      \
	TP__DECLARE_SELC(TP__ON, cond, sym, name, PARAMS(proto), PARAMS(args), \
			  PARAMS(proto, void *tp__data),                      \
			  PARAMS(args, tp__it->data), PARAMS(0, args),        \
			  PARAMS(proto, void *tp__list), PARAMS(args, tp__list))
#define TP__DECLARE_ARGS1(name, sym, cond, proto, args)                      \
	TP__DECLARE_SELC(TP__ON, cond, sym, name, void, , void *tp__data,     \
			  tp__it->data, 0, void *tp__list, tp__list)
#define TP__DECLARE_ARGS2(name, sym, cond, proto, args)                      \
	TP__STATIC_ASSERT(0, "TP_ARGS(void) in the declaration of " #name     \
			  ": a tracepoint without arguments has TP_PROTO(void), TP_ARGS()", \
			  TP_ARGS_void_in_the_declaration_of_##name);         \
	TP__DECLARE_ARGS1(name, sym, cond, void, )
#define TP__DEFINE_SEL(on, name, reg, unreg, ev, sys) TP__DEFINE_SEL_(on, name, reg, unreg, ev, sys)
#define TP__DEFINE_SEL_(on, name, reg, unreg, ev, sys) TP__DEFINE_##on(name, reg, unreg, ev, sys)
/* For trace/define_trace.h: a definition that carries event metadata. */
#define TP__DEFINE_TRACE_EVENT(name, ev)                                     \
	TP__DEFINE_SEL(TP__ON, name, 0, 0, ev, TP__STR(TRACE_SYSTEM))
#define TP__EXPORT_SEL(on, name) TP__EXPORT_SEL_(on, name)
#define TP__EXPORT_SEL_(on, name) TP__EXPORT_##on(name)

/* Marks a compiled-out stub's parameters used without evaluating them. */
int tp__use_args(int, ...);
#define TP__USE_ARGS(...) ((void)sizeof(tp__use_args(__VA_ARGS__)))

/* --- The typed registration wrappers, compiled in or out: one set of
 * signatures, and body(registry function, name, arguments) for their
 * bodies: TP__REG_CALL calls the registry, TP__REG_ENOSYS (compiled out)
 * marks the parameters used and returns -ENOSYS.  probe names the probe
 * parameter: compiled in, tp__probe_takes_the_args_then_data, the name
 * that gcc and clang show in their note when a probe in the kernel's
 * order (void *data first) is passed; compiled out, a short one (its
 * header stays small to include). --- */
#define TP__REG_WRAPPERS(body, name, dproto, probe)                          \
	static inline TP__UNUSED int register_trace_prio_##name(void (*probe)(dproto), \
								 void *tp__data_arg,  \
								 int tp__prio)        \
	{                                                                     \
		body(tracepoint_probe_register_prio, name, probe, tp__data_arg, tp__prio) \
	}                                                                     \
	static inline TP__UNUSED int register_trace_##name(void (*probe)(dproto),     \
							    void *tp__data_arg)       \
	{                                                                     \
		body(tracepoint_probe_register, name, probe, tp__data_arg)    \
	}                                                                     \
	static inline TP__UNUSED int unregister_trace_##name(void (*probe)(dproto),   \
							      void *tp__data_arg)     \
	{                                                                     \
		body(tracepoint_probe_unregister, name, probe, tp__data_arg)  \
	}
#define TP__REG_ENOSYS(fn, name, ...)                                        \
	TP__USE_ARGS(0, __VA_ARGS__);                                        \
	return -ENOSYS;

/* --- What DECLARE_TRACE becomes when compiled out: inlines that
 * fold to nothing, type-check their arguments, and name no symbol. --- */
#define TP__DECLARE_0(cond, sym, name, proto, args, dproto, dargs, uargs, iproto, iargs) \
	static inline TP__UNUSED void tp__iter_##name(proto)                 \
	{                                                                     \
		TP__USE_ARGS(uargs);                                          \
		(void)sizeof(cond ? 1 : 0);                                   \
	}                                                                     \
	static inline TP__UNUSED bool trace_##name##_enabled(void) { return false; }     \
	static inline TP__UNUSED void trace_##name(proto) { TP__USE_ARGS(uargs); }      \
	TP__REG_WRAPPERS(TP__REG_ENOSYS, name, PARAMS(dproto), tp__probe)             \
	enum { tp__declared_##name = 0 }

/* DEFINE_TRACE's and EXPORT's check that they see their DECLARE_TRACE's
 * decision. */
#define TP__DECISION_IDENT(name)                                             \
	DEFINE_TRACE_##name##_sees_another_TRACE_CONFIG_decision_than_its_DECLARE_TRACE
#define TP__DECISION_MSG(name)                                               \
	"DEFINE_TRACE(" #name ") sees another TRACE_CONFIG decision than "    \
	"DECLARE_TRACE(" #name "): put it right after its own event header, " \
	"before any other event header is included"
#define TP__DEFINE_0(name, reg, unreg, ev, sys)                              \
	TP__STATIC_ASSERT(tp__declared_##name == 0, TP__DECISION_MSG(name),  \
			   TP__DECISION_IDENT(name))

#define TP__EXPORT_0(name)                                                   \
	TP__STATIC_ASSERT(tp__declared_##name == 0,                         \
			   "EXPORT_TRACEPOINT_SYMBOL(" #name ") sees another TRACE_CONFIG decision", \
			   EXPORT_TRACEPOINT_SYMBOL_##name##_sees_another_TRACE_CONFIG_decision)

/* --- The public functions in a file that has not read them. ---
 * They come with the machinery (tracepoint.h), which a file whose event
 * headers are all compiled out does not read.  There, each name is a macro
 * that stops the build with the remedy instead of an implicit declaration;
 * the machinery #undefs them when it comes. */
struct tracepoint;
#define TP__API_NOT_INCLUDED_MSG                                             \
	"the event headers of this file are all compiled out, so they did not " \
	"bring the tracepoint_*() functions: #include <tracepoint.h> in this " \
	"file to call them"
/* gcc and clang >= 14 stop the build with the message; older clangs warn
 * with it (an error under -Werror) and the link fails. */
#if defined(__has_attribute)
#if __has_attribute(error)
#define TP__API_NOT_INCLUDED_ATTR __attribute__((error(TP__API_NOT_INCLUDED_MSG)))
#endif
#endif
#ifndef TP__API_NOT_INCLUDED_ATTR
#define TP__API_NOT_INCLUDED_ATTR __attribute__((deprecated(TP__API_NOT_INCLUDED_MSG)))
#endif
int tp__api_not_included(int, ...) TP__API_NOT_INCLUDED_ATTR;
#define TP__API_NOT_INCLUDED(...) tp__api_not_included(0, __VA_ARGS__)
#define tracepoint_probe_register_prio(...) TP__API_NOT_INCLUDED(__VA_ARGS__)
#define tracepoint_probe_register(...) TP__API_NOT_INCLUDED(__VA_ARGS__)
#define tracepoint_probe_unregister(...) TP__API_NOT_INCLUDED(__VA_ARGS__)
#define tracepoint_enabled(...) TP__API_NOT_INCLUDED(__VA_ARGS__)
#define tracepoint_probe_attached(...) TP__API_NOT_INCLUDED(__VA_ARGS__)
#define tracepoint_probe_for_each(...) TP__API_NOT_INCLUDED(__VA_ARGS__)
#define tracepoint_synchronize_unregister() TP__API_NOT_INCLUDED(0)
#define tracepoint_sites(...) TP__API_NOT_INCLUDED(__VA_ARGS__)
#define tracepoint_for_each(...) TP__API_NOT_INCLUDED(__VA_ARGS__)
#define tracepoint_find(...) TP__API_NOT_INCLUDED(__VA_ARGS__)
#define tracepoint_probe_register_name(...) TP__API_NOT_INCLUDED(__VA_ARGS__)
#define tracepoint_probe_unregister_name(...) TP__API_NOT_INCLUDED(__VA_ARGS__)
#define tracepoint_batch_begin() TP__API_NOT_INCLUDED(0)
#define tracepoint_batch_end() TP__API_NOT_INCLUDED(0)
/* TRACEPOINT_FUNC casts to tracepoint_func_t, which comes with the
 * machinery too: until then it passes the probe as it is, so that the
 * call it is an argument of stops the build with the message above
 * rather than with "tracepoint_func_t undeclared". */
#undef TRACEPOINT_FUNC
#define TRACEPOINT_FUNC(f) (f)

#endif /* TP__SELECT_H */
