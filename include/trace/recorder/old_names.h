/* SPDX-License-Identifier: MIT */
/*
 * trace/recorder/old_names.h - the recorder's functions by their old
 * names, tracepoint_<name>, kept: each calls trace_recorder_<name>.
 *
 * Why a file: the old names stay exported functions, not macros or
 * static inlines, so that a program or library built against them still
 * links against this recorder, and so that the core's check for a
 * recorder (the weak tracepoint_enable of tracepoint/static_key.h) still
 * finds one.  Nothing else is here.
 *
 * Internal: included by trace/sink.h (TRACEPOINT_SINK_MAIN), last;
 * depends on the declarations of trace/sink.h and trace/control.h only.
 */
#ifndef TP__SINK_DEFINED
#error "trace/recorder/old_names.h is internal: #include <trace/sink.h> instead"
#elif !defined(TP__REC_OLD_NAMES_H)
#define TP__REC_OLD_NAMES_H

/* tracepoint_<name> calls trace_recorder_<name>: trace/sink.h's list of
 * (type, name, parameters, arguments), then trace/control.h's three. */
#define TP__SINK_OLD_DEFINE(type, name, params, args) \
	TRACEPOINT_SINK_API type tracepoint_##name params \
	{                                                 \
		return trace_recorder_##name args;        \
	}
#define TP__SINK_OLD_DEFINE_VOID(name, params, args) \
	TRACEPOINT_SINK_API void tracepoint_##name params \
	{                                                \
		trace_recorder_##name args;              \
	}
TP__SINK_OLD_NAMES(TP__SINK_OLD_DEFINE, TP__SINK_OLD_DEFINE_VOID)
TP__SINK_OLD_DEFINE(int, control_start, (void), ())
TP__SINK_OLD_DEFINE(int, control_stop, (void), ())
TP__SINK_OLD_DEFINE(const char *, control_path, (void), ())

#endif /* TP__REC_OLD_NAMES_H */
