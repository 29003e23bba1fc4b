/* DEFINE_TRACE(cf_a) (and its EXPORT) right after ev_a.h, or with -DLATE
 * after ev_b.h, which may carry another TRACE_CONFIG decision. */
#include "ev_a.h"
#ifdef LATE
#include "ev_b.h"
#endif
DEFINE_TRACE(cf_a);
EXPORT_TRACEPOINT_SYMBOL(cf_a);
#ifndef LATE
#include "ev_b.h"
#endif
DEFINE_TRACE(cf_b);

void fire(void);
void fire(void)
{
	trace_cf_a(1, "a");
	trace_cf_b(2L);
}
