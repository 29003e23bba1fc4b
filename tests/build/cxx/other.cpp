// C++ TU whose first inclusion of tracepoint.h happens inside extern "C".
extern "C" {
#include "ev_c.h"
#include "ev_cpp.h"
}
#include "c_side.h"

int other_run(void);

int other_run(void)
{
	static int ticks;
	int bad = 0;
	auto tick = +[](void *data) { ++*static_cast<int *>(data); };

	if (register_trace_cx_cpp_tick(tick, &ticks) != 0)
		bad++;
	trace_cx_cpp_tick();   // fired from C++
	c_fire_cpp(3.0, 11);   // and from C
	if (ticks != 2)
		bad++;
	if (unregister_trace_cx_cpp_tick(tick, &ticks) != 0)
		bad++;
	trace_cx_c_ev(42, "other"); // the C-defined tracepoint, from this TU
	if (tracepoint_find("cx_cpp_tick") != &__tracepoint_cx_cpp_tick)
		bad++;
	return bad;
}
