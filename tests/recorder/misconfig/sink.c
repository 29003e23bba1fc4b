/* The recorder, alone in its file (put in a static library by the test). */
#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>
