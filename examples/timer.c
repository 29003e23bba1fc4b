/* timer.c - a timer wheel: timers hash into slots by expiry, and each tick
 * runs the slot of the current jiffy.  Fires timer:timer_start and
 * timer:timer_expire_entry. */
#include <stddef.h>
#include "toy.h"
#include <events/timer.h>

#define WHEEL_SIZE 8

unsigned long jiffies;
static struct timer_list *wheel[WHEEL_SIZE];

void add_timer(struct timer_list *t, unsigned long expires)
{
	struct timer_list **slot = &wheel[expires % WHEEL_SIZE];

	trace_timer_start(t, expires, jiffies);
	t->expires = expires;
	t->next = *slot;
	*slot = t;
}

void run_timers(void)
{
	struct timer_list **pp = &wheel[++jiffies % WHEEL_SIZE];
	struct timer_list *t;

	while ((t = *pp) != NULL) {
		if (t->expires > jiffies) {
			pp = &t->next; /* a later turn of the wheel */
			continue;
		}
		*pp = t->next;
		trace_timer_expire_entry(t, jiffies);
		t->function(t);
	}
}
