/*
 * Source for t_zero_bytes.sh.  The test derives a second source from this
 * one with sed: every line mentioning the event header, DEFINE_TRACE or a
 * trace_* call is deleted, and so is the block guarded by
 * trace_zb_event_alpha_enabled() (between the ZB-BLOCK markers).  Keep every
 * trace_* call on its own line, with arguments free of side effects.
 */
#include <stdio.h>
#include <string.h>
#include "ev_zb.h"
DEFINE_TRACE(zb_event_alpha);
DEFINE_TRACE(zb_event_beta);
DEFINE_TRACE(zb_event_gamma);

int zb_sum(const int *v, int n);
int zb_sum(const int *v, int n)
{
	int i, s = 0;

	trace_zb_event_gamma();
	for (i = 0; i < n; i++) {
		s += v[i] * (i + 1);
		trace_zb_event_alpha(i, "loop");
	}
	trace_lazy(zb_event_beta, (long)s * 3, v);
	if (trace_zb_event_alpha_enabled()) { /* ZB-BLOCK-BEGIN */
		char buf[64];
		snprintf(buf, sizeof(buf), "sum=%d over %d", s, n);
		trace_zb_event_alpha(s, buf);
	} /* ZB-BLOCK-END */
	return s;
}

size_t zb_name_len(const char *name);
size_t zb_name_len(const char *name)
{
	size_t len = strlen(name);
	trace_zb_event_alpha((int)len, name);
	trace_zb_event_beta((long)len, NULL);
	return len * 2 + 1;
}
