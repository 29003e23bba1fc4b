/* recorder.c - the demo's recorder file: the one file of a program that
 * holds the built-in recorder (scripts/demo.sh links it into the demo).
 *
 *   TRACEPOINTS=list build/demo-all/demo      # the tracepoints, then exit
 *
 * The demo's tracepoints are plain DECLARE_TRACEs, without fields: the
 * recorder lists them, and says it cannot record one that is asked for
 * (TRACEPOINTS=kmalloc); kmem_trace.c next to this file records events
 * with fields.  Built with -DCONFIG_TRACEPOINTS_OFF, this file compiles
 * to nothing at all (make demo shows it). */
#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>
