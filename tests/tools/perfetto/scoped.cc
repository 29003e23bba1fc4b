// tests/tools/t_perfetto.sh: the scoped slice in C++ (a destructor ends it), on
// every way out of a block: its end, a return, an exception.
#include <stdexcept>
#include <cstdio>

#define CREATE_TRACE_POINTS
#include "kinds_events.h"
#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>

static int leave_early(int n)
{
	TRACE_SLICE_SCOPED(batch, n, "early");
	if (n > 0)
		return n;
	trace_queued(-1);
	return 0;
}

static void thrower(short n)
{
	TRACE_SLICE_SCOPED(batch, n, "thrown"); // a short: converted as in a call
	throw std::runtime_error("out");
}

int main()
{
	{
		TRACE_SLICE_SCOPED(batch, 1, "block");
		trace_queued(1);
	}
	leave_early(2);
	try {
		thrower(3);
	} catch (const std::exception &) {
		trace_queued(3);
	}
	std::puts("scoped: done");
	return 0;
}
