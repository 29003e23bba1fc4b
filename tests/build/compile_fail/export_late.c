/* EXPORT_TRACEPOINT_SYMBOL(cf_a) alone after ev_b.h (DEFINE_TRACE in time). */
#include "ev_a.h"
DEFINE_TRACE(cf_a);
#ifdef LATE
#include "ev_b.h"
#endif
EXPORT_TRACEPOINT_SYMBOL(cf_a);
