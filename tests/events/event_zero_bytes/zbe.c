/* Defines and fires the evf and evp events; tests/events/t_event_zero_bytes.sh builds it
 * with the subsystem compiled out and compares it with a twin made by
 * deleting every line that ends in the TRACE-ONLY marker. */
/* clang-format off */ /* the test deletes the lines marked TRACE-ONLY: keep each whole */
#include <stdio.h>
#include <string.h>

#define CREATE_TRACE_POINTS /* TRACE-ONLY */
#include "events/ev_fields.h" /* TRACE-ONLY */
#include "events/ev_parity.h" /* TRACE-ONLY */

int work(int n);
int work(int n)
{
	int i, s = 0;
	for (i = 0; i < n; i++) {
		s += i * 3;
		trace_evf_three(i, (unsigned long)s, -1); /* TRACE-ONLY */
		trace_evf_mixed("x", NULL, 1.0, (const unsigned char *)"abcd", "t", 1); /* TRACE-ONLY */
		trace_evf_lock_acquire(NULL, i); /* TRACE-ONLY */
		trace_evp_gc(i, 3u, (const unsigned char *)"ab", 2u, "t"); /* TRACE-ONLY */
		trace_evp_odd(i); /* TRACE-ONLY */
		trace_evp_big(i); /* TRACE-ONLY */
		trace_evp_hexv(i); /* TRACE-ONLY */
		trace_evp_fn(i); /* TRACE-ONLY */
		trace_evp_tick(); /* TRACE-ONLY */
		trace_evp_nofield(i); /* TRACE-ONLY */
	}
	return s;
}
