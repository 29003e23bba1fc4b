#define CREATE_TRACE_POINTS
#include "ev_b.h"
void b_start(long v);
void b_start(long v)
{
	trace_init(v);
}
