/* SPDX-License-Identifier: MIT */
/*
 * trace/stages/tracepoints.h - pass 3, the tracepoints: each event's
 * struct tracepoint, defined with TP__DEFINE_SEL so that its .event points
 * at the struct trace_event of pass 2, after a check that the event's
 * TP_PROTO is its class's (its events share the class's recorder probe);
 * plain DECLARE_TRACE()s of the header get their DEFINE_TRACE here.
 *
 * Why a file: the definitions are what the rest of the program links to.
 *
 * Internal: read by trace/define_trace.h after trace/stages/reset.h, in
 * the pass of trace/stages/recorder.h; depends on trace/stages/init.h,
 * trace/stages/metadata.h (tp__ev_event_<event>), tracepoint.h
 * (TP__DEFINE_SEL, DEFINE_TRACE).
 */
#ifndef TP__EV_INCLUDE_FILE
#error "trace/stages/tracepoints.h is internal: an event header's #include <trace/define_trace.h> reads it"
#endif

#define DEFINE_EVENT(c, name, proto, args)                                    \
	TP__EV_DEFINE(c, c, name, PARAMS(proto), PARAMS(args), 0, 0)
#define TP__EV_DEFINE(c, pc, name, proto, args, reg, unreg)                   \
	TP__EV_IF(TP__ON)(                                                    \
	TP__STATIC_ASSERT(TP__EV_SAME_TYPE(__typeof__(&tp__ev_probe_##c),      \
		void (*)(TP__EV_PROBE_PROTO(PARAMS(proto), PARAMS(args)) void *)), \
		"event " #name " of class " #c ": its TP_PROTO differs from its class's " \
		"(the events of a class share the class's recorder)",          \
		tp__ev_proto_of_##name##_differs_from_its_class);)              \
	TP__EV_IF(TP__ON)(TP__EV_SYSLESS(name))                               \
	TP__DEFINE_SEL(TP__ON, name, reg, unreg, &tp__ev_event_##name, TP__STR(TRACE_SYSTEM))
/* A header that defines TRACE_SYSTEM only for CREATE_TRACE_POINTS (as the
 * kernel's module.h): the other files that include it declare its events
 * without a system (__tracepoint_TRACE_SYSTEM__<name>, ...: TP__EVENT_SYM
 * with TRACE_SYSTEM undefined), so each definition answers to those names
 * too, as weak aliases (two systems' events of one name in one program:
 * the first one's). */
#if defined(TRACE_SYSTEM) || defined(TRACE_SYSTEM_VAR)
#define TP__EV_SYSLESS(name)                                                  \
	TP__EV_ALIAS(__tracepoint_##name, tp__ev_sl_tp_##name, "__tracepoint_", name) \
	TP__EV_ALIAS(tp__iter_##name, tp__ev_sl_it_##name, "tp__iter_", name)  \
	TP__EV_ALIAS(tp__iter_slow_##name, tp__ev_sl_is_##name, "tp__iter_slow_", name)
#define TP__EV_ALIAS(of, as, prefix, name)                                    \
	TP__EV_ALIAS_BEGIN                                                    \
	extern __typeof__(of) as __asm__(TP__SYM(prefix, "TRACE_SYSTEM__", name)) \
		__attribute__((weak, alias(TP__SYM(prefix, TP__EVENT_SYM, name)))); \
	TP__EV_ALIAS_END
/* gcc wants an alias to have its target's attributes (cold, noinline):
 * an alias is only another name. */
#if defined(__GNUC__) && !defined(__clang__)
#define TP__EV_ALIAS_BEGIN                                                    \
	_Pragma("GCC diagnostic push")                                        \
	_Pragma("GCC diagnostic ignored \"-Wmissing-attributes\"")
#define TP__EV_ALIAS_END _Pragma("GCC diagnostic pop")
#else
#define TP__EV_ALIAS_BEGIN
#define TP__EV_ALIAS_END
#endif
#else
#define TP__EV_SYSLESS(name)
#endif
#define DECLARE_TRACE(name, proto, args) DEFINE_TRACE(name)
#define DECLARE_TRACE_NOARGS(name) DEFINE_TRACE(name)
