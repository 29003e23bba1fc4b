/* Fires the evp events (tests/include/events/ev_parity.h) once each, with values
 * tests/events/t_event_parity.sh looks for in tracepoint-dump's and babeltrace2's
 * output; what is recorded is decided by TRACEPOINTS. */
#include <string.h>

#define CREATE_TRACE_POINTS
#include "events/ev_parity.h"
#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>

int evp_reg(void)
{
	return 0;
}

void evp_unreg(void)
{
}

int main(void)
{
	static const unsigned char bytes[3] = { 0xca, 0xfe, 0x07 };
	int i;
	trace_evp_gc(EVP_SWEEP, EVP_READ | EVP_EXEC, bytes, 3, "gc");
	trace_evp_gc(9, 16, bytes, 0, "odd");
	for (i = 1; i <= 4; i++)
		trace_evp_odd(i);
	trace_evp_big(20);
	trace_evp_hexv(31);
	trace_evp_fn(1);
	trace_evp_tick();
	trace_evp_nofield(2);
	trace_evp_small(7);
	return 0;
}
