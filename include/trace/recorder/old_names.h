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

/* tracepoint_<name> calls trace_recorder_<name> (trace/sink.h's list). */
#define TP__SINK_OLD_STORAGE TRACEPOINT_SINK_API
TP__SINK_OLD_WRAPPERS()

#endif /* TP__REC_OLD_NAMES_H */
