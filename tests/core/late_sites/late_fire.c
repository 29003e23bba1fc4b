/* liblate_fire.so: call sites of late_tp, a tracepoint of another module. */
#include "late_events.h"

void late_fire(int n);
void late_fire(int n)
{
	trace_late_tp(n);
}
