/* tests/recorder/t_handoff.sh's library: defines evh's tracepoints;
 * late_run(n) records evh_step 0..n-1, and its destructor the next
 * $TP_LATE values, after the program's exit() began: the recorder then
 * writes into windows at the end of the stream file, each written whole
 * before it is mapped (docs/trace-format.md). */
#include <stdlib.h>

#define CONFIG_EVH 1
#define CREATE_TRACE_POINTS
#include "events/ev_hook.h"

int (*evh_hook)(int v);
static int late_from;

void late_run(int n);
void late_run(int n)
{
	int i;
	for (i = 0; i < n; i++)
		trace_evh_step(i);
	late_from = n;
}

__attribute__((destructor)) static void late(void)
{
	const char *s = getenv("TP_LATE");
	int i, n = s ? atoi(s) : 0;
	for (i = 0; i < n; i++)
		trace_evh_step(late_from + i);
}
