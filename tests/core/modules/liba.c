#define CREATE_TRACE_POINTS
#include "ev_a.h"
void a_start(const char *who);
void a_start(const char *who)
{
	trace_init(who);
}
