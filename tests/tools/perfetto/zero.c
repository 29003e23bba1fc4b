/* Defines and fires events of every kind; tests/tools/t_perfetto.sh builds it
 * with the work subsystem compiled out and compares it with a twin made by
 * deleting every line that ends in the TRACE-ONLY marker. */
/* clang-format off */ /* the test deletes the lines marked TRACE-ONLY: keep each whole */
#define CREATE_TRACE_POINTS /* TRACE-ONLY */
#include "kinds_events.h" /* TRACE-ONLY */

int work(int n);
int work(int n)
{
	int i, s = 0;
	TRACE_SLICE_SCOPED(batch, n, "zero"); /* TRACE-ONLY */
	for (i = 0; i < n; i++) {
		trace_handle_begin((unsigned long)i); /* TRACE-ONLY */
		s += i * 3;
		trace_submit((unsigned long)s, i); /* TRACE-ONLY */
		trace_queued(s); /* TRACE-ONLY */
		trace_heap((unsigned long)s, 0.25); /* TRACE-ONLY */
		trace_handle_end((unsigned long)i); /* TRACE-ONLY */
	}
	return s;
}
