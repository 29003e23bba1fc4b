/* SPDX-License-Identifier: MIT */
/*
 * trace/event_kinds.h - events that are more than instants: slices
 * (durations), counters and flows, declared in an event header like any
 * TRACE_EVENT and compiled out with their subsystem like any event.
 * Include it after <tracepoint.h> in the event header:
 *
 *     #include <tracepoint.h>
 *     #include <trace/event_kinds.h>
 *
 *     TRACE_SLICE(gc,                   // gc_begin() and gc_end() events
 *                 TP_PROTO(int generation),
 *                 TP_ARGS(generation),
 *                 TP_STRUCT__entry(__field(int, generation)),
 *                 TP_fast_assign(__entry->generation = generation;),
 *                 TP_printk("generation=%d", __entry->generation));
 *     TRACE_COUNTER(heap_bytes, ...);   // each numeric field: a counter track
 *     TRACE_FLOW(request_step, ...);    // an instant; the first field is a flow id
 *     TRACE_FLOW_GLOBAL(handoff, ...);  // the same, its ids shared by every process
 *
 * and fire them with trace_gc_begin(gen) ... trace_gc_end(gen), or
 * TRACE_SLICE_SCOPED(gc, gen); (ends when the enclosing block is left: C
 * through __attribute__((cleanup)), C++ through a destructor).
 *
 * The kind is metadata of the event (struct trace_event.kind); the
 * recorder writes it into the trace's metadata, and tracepoint-dump shows
 * slices as B/E, counters as C and flows as bound flow events in --json,
 * and as TrackEvent slices, counter tracks and flow_ids in --perfetto.
 * Text output and probes of your own see ordinary events.
 */
#ifndef TRACE_EVENT_KINDS_H_INCLUDED
#define TRACE_EVENT_KINDS_H_INCLUDED

/* What an event stands for (struct trace_event.kind).  The low bits are
 * the base kind; TRACE_KIND_FLOW may be added to any of them. */
enum trace_event_kind {
	TRACE_KIND_INSTANT = 0,	    /* a point in time (every TRACE_EVENT) */
	TRACE_KIND_SLICE_BEGIN = 1, /* opens a slice on its thread's track */
	TRACE_KIND_SLICE_END = 2,   /* closes the thread's innermost open slice */
	TRACE_KIND_COUNTER = 3,	    /* each numeric field: the new value of a counter */
	TRACE_KIND_BASE_MASK = 15,
	/* the first field (an integer) is a flow id: the events of one id in
	 * one process are linked in time order */
	TRACE_KIND_FLOW = 16,
	/* with TRACE_KIND_FLOW: the id is shared by every process of the
	 * trace (a flow that crosses processes on purpose) */
	TRACE_KIND_FLOW_GLOBAL = 32
};

/*
 * DEFINE_EVENT_KIND(class, name, kind, proto, args): DEFINE_EVENT with a
 * kind (enum trace_event_kind).  <trace/define_trace.h> gives it its meaning
 * in the pass that makes struct trace_event; everywhere else it is
 * DEFINE_EVENT.
 */
#define DEFINE_EVENT_KIND(c, name, kind, proto, args)                         \
	TP__EV_DEFINE_KIND(c, name, kind, PARAMS(proto), PARAMS(args))
#define TP__EV_DEFINE_KIND(c, name, kind, proto, args)                        \
	DEFINE_EVENT(c, name, PARAMS(proto), PARAMS(args))

/*
 * TRACE_SLICE(name, proto, args, tstruct, assign, print): two events of one
 * class, name_begin and name_end, with the same arguments and fields:
 * trace_name_begin(args) opens a slice on the thread's track and
 * trace_name_end(args) closes it.  Also declares what
 * TRACE_SLICE_SCOPED(name, args) needs (prototypes of at most 8 plain
 * `type name` parameters: no arrays or function pointers).
 */
#define TRACE_SLICE(name, proto, args, tstruct, assign, print)                      \
	TP__EV_SLICE(name, TRACE_KIND_SLICE_BEGIN, PARAMS(proto), PARAMS(args),     \
		     PARAMS(tstruct), PARAMS(assign), PARAMS(print))

/* TRACE_SLICE_FLOW: a TRACE_SLICE whose begin is also a step of the flow
 * whose id is its first field (e.g. a request picked up by a worker). */
#define TRACE_SLICE_FLOW(name, proto, args, tstruct, assign, print)                 \
	TP__EV_SLICE(name, TRACE_KIND_SLICE_BEGIN | TRACE_KIND_FLOW, PARAMS(proto), \
		     PARAMS(args), PARAMS(tstruct), PARAMS(assign), PARAMS(print))

/* TRACE_SLICE_FLOW_GLOBAL: a TRACE_SLICE_FLOW whose flow ids are shared
 * by every process (TRACE_KIND_FLOW_GLOBAL). */
#define TRACE_SLICE_FLOW_GLOBAL(name, proto, args, tstruct, assign, print)          \
	TP__EV_SLICE(name, TRACE_KIND_SLICE_BEGIN | TRACE_KIND_FLOW | TRACE_KIND_FLOW_GLOBAL, \
		     PARAMS(proto), PARAMS(args), PARAMS(tstruct), PARAMS(assign),  \
		     PARAMS(print))

/* The two: a slice whose begin event is of kind `begin`. */
#define TP__EV_SLICE(name, begin, proto, args, tstruct, assign, print)              \
	DECLARE_EVENT_CLASS(name, PARAMS(proto), PARAMS(args), PARAMS(tstruct),     \
			    PARAMS(assign), PARAMS(print));                         \
	TP__EV_DEFINE_KIND(name, name##_begin, begin, PARAMS(proto), PARAMS(args)); \
	TP__EV_DEFINE_KIND(name, name##_end, TRACE_KIND_SLICE_END, PARAMS(proto),  \
			   PARAMS(args))                                            \
	TP__SLICE_SCOPE(name, PARAMS(proto), PARAMS(args))

/* TRACE_COUNTER: one event, trace_name(args); every integer or floating
 * field is the new value of a counter track named after the event (after
 * event.field when it has several). */
#define TRACE_COUNTER(name, proto, args, tstruct, assign, print)              \
	DECLARE_EVENT_CLASS(name, PARAMS(proto), PARAMS(args), PARAMS(tstruct), \
			    PARAMS(assign), PARAMS(print));                  \
	TP__EV_DEFINE_KIND(name, name, TRACE_KIND_COUNTER, PARAMS(proto), PARAMS(args))

/* TRACE_FLOW: an instant whose first field (an integer) is a flow id: the
 * events with one id, on any threads of one process, are linked in time
 * order (two processes that use the same ids are not linked: flows are
 * scoped per process, as Perfetto's ProcessScoped flows). */
#define TRACE_FLOW(name, proto, args, tstruct, assign, print)                 \
	DECLARE_EVENT_CLASS(name, PARAMS(proto), PARAMS(args), PARAMS(tstruct), \
			    PARAMS(assign), PARAMS(print));                  \
	TP__EV_DEFINE_KIND(name, name, TRACE_KIND_INSTANT | TRACE_KIND_FLOW,  \
			   PARAMS(proto), PARAMS(args))

/* TRACE_FLOW_GLOBAL: a TRACE_FLOW whose ids are shared by every process
 * of the trace: the events with one id, in any process, are linked (e.g.
 * a request id sent from a client to a server). */
#define TRACE_FLOW_GLOBAL(name, proto, args, tstruct, assign, print)          \
	DECLARE_EVENT_CLASS(name, PARAMS(proto), PARAMS(args), PARAMS(tstruct), \
			    PARAMS(assign), PARAMS(print));                  \
	TP__EV_DEFINE_KIND(name, name,                                        \
			   TRACE_KIND_INSTANT | TRACE_KIND_FLOW | TRACE_KIND_FLOW_GLOBAL, \
			   PARAMS(proto), PARAMS(args))

/* ---- the scoped form ---- */

/* TP__SL_MAP(m, sep, a, b, ...): m(a) sep() m(b) ... for 1 to 8 items. */
#define TP__SL_CAT(a, b) TP__SL_CAT_(a, b)
#define TP__SL_CAT_(a, b) a##b
#define TP__SL_N(...) TP__SL_N_(__VA_ARGS__, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define TP__SL_N_(a, b, c, d, e, f, g, h, n, ...) n
#define TP__SL_MAP(m, sep, ...) TP__SL_CAT(TP__SL_MAP_, TP__SL_N(__VA_ARGS__))(m, sep, __VA_ARGS__)
#define TP__SL_MAP_1(m, sep, x) m(x)
#define TP__SL_MAP_2(m, sep, x, ...) m(x) sep() TP__SL_MAP_1(m, sep, __VA_ARGS__)
#define TP__SL_MAP_3(m, sep, x, ...) m(x) sep() TP__SL_MAP_2(m, sep, __VA_ARGS__)
#define TP__SL_MAP_4(m, sep, x, ...) m(x) sep() TP__SL_MAP_3(m, sep, __VA_ARGS__)
#define TP__SL_MAP_5(m, sep, x, ...) m(x) sep() TP__SL_MAP_4(m, sep, __VA_ARGS__)
#define TP__SL_MAP_6(m, sep, x, ...) m(x) sep() TP__SL_MAP_5(m, sep, __VA_ARGS__)
#define TP__SL_MAP_7(m, sep, x, ...) m(x) sep() TP__SL_MAP_6(m, sep, __VA_ARGS__)
#define TP__SL_MAP_8(m, sep, x, ...) m(x) sep() TP__SL_MAP_7(m, sep, __VA_ARGS__)
#define TP__SL_NONE()
#define TP__SL_COMMA() ,
#define TP__SL_MEMBER(decl) decl;
#define TP__SL_FROM(arg) tp__s->arg
#define TP__SL_INIT(arg) arg(arg)
#define TP__SL_VAR TP__SL_CAT(tp__slice_scope_, __LINE__)

/* TP__SLICE_SCOPE(name, proto, args): what TRACE_SLICE_SCOPED needs, after
 * the slice's events, in the plain reading of the header; it starts with
 * the ';' of the last event and leaves one for the header's.
 * <trace/define_trace.h> makes it nothing in its passes. */
#ifdef __cplusplus
/* A scope object: its constructor fires name_begin, its destructor
 * name_end with the same arguments (kept as members named like them). */
#define TP__SLICE_SCOPE(name, proto, args)                                    \
	;                                                                     \
	_Pragma("GCC diagnostic push")                                        \
	_Pragma("GCC diagnostic ignored \"-Wshadow\"")                        \
	struct tp__slice_##name {                                             \
		TP__SL_MAP(TP__SL_MEMBER, TP__SL_NONE, proto)                  \
		explicit tp__slice_##name(proto) : TP__SL_MAP(TP__SL_INIT, TP__SL_COMMA, args) \
		{                                                             \
			trace_##name##_begin(args);                           \
		}                                                             \
		~tp__slice_##name() { trace_##name##_end(args); }             \
		tp__slice_##name(const tp__slice_##name &) = delete;          \
		tp__slice_##name &operator=(const tp__slice_##name &) = delete; \
	};                                                                    \
	_Pragma("GCC diagnostic pop")                                         \
	enum { tp__slice_declared_##name = 1 }
#define TRACE_SLICE_SCOPED(name, ...)                                         \
	tp__slice_##name TP__SL_VAR(__VA_ARGS__)
#else
/* The arguments in a struct; the cleanup function fires name_end. */
#define TP__SLICE_SCOPE(name, proto, args)                                    \
	;                                                                     \
	struct tp__slice_##name {                                             \
		TP__SL_MAP(TP__SL_MEMBER, TP__SL_NONE, proto)                  \
	};                                                                    \
	static inline struct tp__slice_##name tp__slice_begin_##name(proto)   \
	{                                                                     \
		struct tp__slice_##name tp__s = { args };                     \
		trace_##name##_begin(args);                                   \
		return tp__s;                                                 \
	}                                                                     \
	static inline void tp__slice_end_##name(struct tp__slice_##name *tp__s) \
	{                                                                     \
		trace_##name##_end(TP__SL_MAP(TP__SL_FROM, TP__SL_COMMA, args)); \
	}                                                                     \
	enum { tp__slice_declared_##name = 1 }
#define TRACE_SLICE_SCOPED(name, ...)                                         \
	struct tp__slice_##name TP__SL_VAR                                    \
		__attribute__((cleanup(tp__slice_end_##name), unused)) =      \
			tp__slice_begin_##name(__VA_ARGS__)
#endif

#endif /* TRACE_EVENT_KINDS_H_INCLUDED */
