/* The file that defines the events, with the recorder. */
#include <string.h>
#define CREATE_TRACE_POINTS
#include "ev_net.h"
#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>
