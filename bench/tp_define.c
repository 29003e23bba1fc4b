/* The one definition of the benchmark tracepoint (its own object). */
#include "bench_tp.h"
DEFINE_TRACE(bench_ev);
