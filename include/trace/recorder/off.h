/* SPDX-License-Identifier: MIT */
/*
 * trace/recorder/off.h - the recorder's functions when every subsystem of
 * the program is compiled out (-DCONFIG_TRACEPOINTS_OFF).
 *
 * There is nothing to record then, so there is no recorder: the
 * TRACEPOINT_SINK_MAIN file holds none of it (no state, no start-up code,
 * no control server), and every function of <trace/sink.h> and
 * <trace/control.h>, by its new name and by its old one, is an empty
 * inline in every file, answering as a recorder with no event would:
 *   trace_recorder_enable(), _disable(), _filter(), _output(), _snapshot(),
 *   _control_start(), _control_stop():   -ENOSYS (the recorder is compiled
 *                                        out, as register_trace_<name>())
 *   trace_recorder_trace_dir(), _control_path():   NULL (no trace, no channel)
 *   trace_recorder_flush(), _dropped(), _list():   0 (nothing recorded, nothing listed)
 *   trace_recorder_list_print(), _format_print(), _buffer_size(),
 *   _flight_size():                      nothing
 * The environment (TRACEPOINTS=...) is not read.
 *
 * Internal: included by trace/sink.h instead of its declarations, with
 * CONFIG_TRACEPOINTS_OFF only; depends on struct tracepoint_info and
 * TP__SINK_OLD_NAMES of trace/sink.h, <stdio.h> and tracepoint.h.
 */
#ifndef TRACE_SINK_H_INCLUDED
#error "trace/recorder/off.h is internal: #include <trace/sink.h> instead"
#elif !defined(TP__REC_OFF_H)
#define TP__REC_OFF_H

#define TP__REC_OFF static inline TP__UNUSED

TP__REC_OFF int trace_recorder_enable(const char *patterns)
{
	(void)patterns;
	return -ENOSYS;
}
TP__REC_OFF int trace_recorder_disable(const char *patterns)
{
	(void)patterns;
	return -ENOSYS;
}
TP__REC_OFF int trace_recorder_filter(const char *patterns, const char *filter, char *err,
				      size_t errlen)
{
	(void)patterns;
	(void)filter;
	(void)err;
	(void)errlen;
	return -ENOSYS;
}
TP__REC_OFF int trace_recorder_output(const char *mode, const char *dir)
{
	(void)mode;
	(void)dir;
	return -ENOSYS;
}
TP__REC_OFF const char *trace_recorder_trace_dir(void)
{
	return NULL;
}
TP__REC_OFF long trace_recorder_flush(void)
{
	return 0;
}
TP__REC_OFF int trace_recorder_snapshot(void)
{
	return -ENOSYS;
}
TP__REC_OFF unsigned long long trace_recorder_dropped(void)
{
	return 0;
}
TP__REC_OFF int trace_recorder_list(int (*fn)(const struct tracepoint_info *info, void *priv),
				    void *priv)
{
	(void)fn;
	(void)priv;
	return 0;
}
TP__REC_OFF void trace_recorder_list_print(FILE *out)
{
	(void)out;
}
TP__REC_OFF void trace_recorder_format_print(FILE *out)
{
	(void)out;
}
TP__REC_OFF void trace_recorder_buffer_size(size_t bytes)
{
	(void)bytes;
}
TP__REC_OFF void trace_recorder_flight_size(size_t bytes)
{
	(void)bytes;
}
TP__REC_OFF int trace_recorder_control_start(void)
{
	return -ENOSYS;
}
TP__REC_OFF int trace_recorder_control_stop(void)
{
	return -ENOSYS;
}
TP__REC_OFF const char *trace_recorder_control_path(void)
{
	return NULL;
}

/* The old names (trace/sink.h's list, then trace/control.h's three). */
#define TP__SINK_OLD_STORAGE TP__REC_OFF
TP__SINK_OLD_WRAPPERS()

#endif /* TP__REC_OFF_H */
