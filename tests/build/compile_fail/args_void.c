/* Defines and fires the tracepoints of ev_args_void.h: TP_ARGS(void) must
 * fail with a message that says to write TP_ARGS(). */
#define CREATE_TRACE_POINTS
#include "ev_args_void.h"

void fire(void);
void fire(void)
{
	trace_cf_av_plain();
	trace_cf_av_ev();
}
