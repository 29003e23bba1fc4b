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
	TP__DEFINE_SEL(TP__ON, name, reg, unreg, &tp__ev_event_##name, TP__STR(TRACE_SYSTEM))
#define DECLARE_TRACE(name, proto, args) DEFINE_TRACE(name)
#define DECLARE_TRACE_NOARGS(name) DEFINE_TRACE(name)
