/* recorder.c - the demo's recorder file: the one file of a program that
 * holds the built-in recorder (scripts/demo.sh links it into the demo).
 * Nothing is recorded unless asked:
 *
 *   TRACEPOINTS='kmem:*' TRACEPOINTS_DIR=dt build/demo-all/demo
 *   build/tracepoint-dump dt
 *
 * The demo's tracepoints are plain DECLARE_TRACEs (no fields), so the
 * recorder lists them (TRACEPOINTS=list) but records none; kmem_trace.c
 * next to this file records events with fields.  Built with
 * -DCONFIG_TRACEPOINTS_OFF, this file compiles to nothing at all. */
#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>
