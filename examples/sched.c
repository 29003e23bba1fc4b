/* sched.c - a round-robin scheduler over three tasks.
 * Fires sched:sched_wakeup and sched:sched_switch (never compiled out). */
#include "toy.h"
#include <events/sched.h>

static struct task {
	const char *comm;
	int pid;
	int runnable;
} tasks[] = { { "swapper", 0, 1 }, { "init", 1, 0 }, { "kworker", 2, 0 } };
#define NR_TASKS (int)(sizeof(tasks) / sizeof(tasks[0]))

static int current_task;

void wake_up_process(int pid)
{
	if (pid < 0 || pid >= NR_TASKS || tasks[pid].runnable)
		return;
	tasks[pid].runnable = 1;
	trace_sched_wakeup(tasks[pid].comm, pid);
}

void schedule(void)
{
	int prev = current_task, next = prev, i;

	for (i = 1; i <= NR_TASKS; i++) {
		next = (prev + i) % NR_TASKS;
		if (tasks[next].runnable)
			break;
	}
	if (next == prev)
		return;
	trace_sched_switch(tasks[prev].comm, tasks[prev].pid, tasks[next].comm, tasks[next].pid);
	current_task = next;
}
