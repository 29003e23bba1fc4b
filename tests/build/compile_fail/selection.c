/* Prints "sel_x=in|out sel_unconv=in|out", as seen at run time. */
#include <stdio.h>
#include "ev_sel.h"
DEFINE_TRACE(sel_x);
#include "ev_unconv.h"
DEFINE_TRACE(sel_unconv);

static void probe(int v, void *data)
{
	*(int *)data += v;
}

int main(void)
{
	int hits_x = 0, hits_u = 0;
	int rx = register_trace_sel_x(probe, &hits_x);
	int ru = register_trace_sel_unconv(probe, &hits_u);
	trace_sel_x(1);
	trace_sel_unconv(1);
	/* compiled in: registration works and the probe runs;
	 * compiled out: -ENOSYS and nothing runs */
	if ((rx == 0) != (hits_x == 1) || (rx != 0 && rx != -ENOSYS))
		return 2;
	if ((ru == 0) != (hits_u == 1) || (ru != 0 && ru != -ENOSYS))
		return 2;
	printf("sel_x=%s sel_unconv=%s\n", rx == 0 ? "in" : "out", ru == 0 ? "in" : "out");
	return 0;
}
