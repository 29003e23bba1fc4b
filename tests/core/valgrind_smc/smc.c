/* For tests/core/t_valgrind_smc.sh: a call site fired while idle (so valgrind
 * translates it), then with a probe attached, then detached again.  Prints
 * "enabled=N disabled=M": the probe's runs in each phase of 100 firings. */
#include <stdio.h>
#include "events/tp_test.h"
DEFINE_TRACE(tp_test_int);

static long smc_hits;

static void smc_probe(int v, void *data)
{
	(void)data;
	(void)v;
	smc_hits++;
}

static void smc_fire(void)
{
	int i;
	for (i = 0; i < 100; i++)
		trace_tp_test_int(i);
}

int main(void)
{
	long enabled;
	smc_fire();
	if (register_trace_tp_test_int(smc_probe, NULL) != 0)
		return 1;
	smc_fire();
	enabled = smc_hits;
	if (unregister_trace_tp_test_int(smc_probe, NULL) != 0)
		return 1;
	tracepoint_synchronize_unregister();
	smc_fire();
	printf("enabled=%ld disabled=%ld\n", enabled, smc_hits - enabled);
	return 0;
}
