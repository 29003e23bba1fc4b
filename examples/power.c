/* power.c - CPU idle and frequency states.
 * Fires power:power_start, power:power_end and power:power_frequency. */
#include <sched.h>
#include "toy.h"
#include <events/power.h>

static unsigned int cur_khz = 800000;

void cpu_idle(unsigned int cstate)
{
	trace_power_start(POWER_CSTATE, cstate);
	sched_yield(); /* stands in for mwait */
	trace_power_end();
}

void cpufreq_set(unsigned int khz)
{
	if (khz == cur_khz)
		return;
	cur_khz = khz;
	trace_power_frequency(POWER_PSTATE, khz);
}
