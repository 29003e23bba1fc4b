/* tests/tools/t_dump.sh: empty strings after non-empty ones, in the same
 * event and in the next one (evf:evf_mixed has two __string fields),
 * which the comparison with babeltrace2 must see as empty. */
#include "events/ev_fields.h"

#define CREATE_TRACE_POINTS
#include "events/ev_fields.h"
#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>

int main(void)
{
	unsigned char b[4] = { 1, 2, 3, 4 };
	trace_evf_mixed("first", b, 0.5, b, "tag", 1);
	trace_evf_mixed("", b, 0.5, b, "", 2);
	trace_evf_mixed("x", b, 0.5, b, "", 3);
	trace_evf_mixed("", b, 0.5, b, "long_enough_to_be_past_a_word", 4);
	trace_evf_mixed("", b, 0.5, b, "", 5);
	return 0;
}
