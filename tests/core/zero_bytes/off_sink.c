/* The recorder file (TRACEPOINT_SINK_MAIN), calling every function of
 * <trace/sink.h> and <trace/control.h>, new names and old: with
 * -DCONFIG_TRACEPOINTS_OFF the object holds s() and nothing else
 * (t_zero_bytes). */
#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>
static int cb(const struct tracepoint_info *i, void *p)
{
	(void)i;
	(void)p;
	return 0;
}
int s(void);
int s(void)
{
	char err[64];
	int r = trace_recorder_enable("a:*") + trace_recorder_disable("a:*") +
		trace_recorder_filter("a:*", "x > 1", err, sizeof err) +
		trace_recorder_output(NULL, NULL) + (trace_recorder_trace_dir() != NULL) +
		(int)trace_recorder_flush() + trace_recorder_snapshot() +
		(int)trace_recorder_dropped() + trace_recorder_list(cb, NULL) +
		tracepoint_enable("x") + trace_recorder_control_start() +
		trace_recorder_control_stop() + (trace_recorder_control_path() != NULL) +
		tracepoint_control_stop();
	trace_recorder_list_print(NULL);
	trace_recorder_format_print(stderr);
	trace_recorder_buffer_size(1);
	trace_recorder_flight_size(1);
	tracepoint_list_print(NULL);
	return r;
}
