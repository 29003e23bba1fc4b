/* Built against a modified copy of tracepoint.h (another layout). */
#include "ev_old.h"
DEFINE_TRACE(old_tick);
void old_do(int v);
void old_do(int v)
{
	trace_old_tick(v);
}
