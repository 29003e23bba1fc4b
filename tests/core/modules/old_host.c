/* Linked with libold.so, whose tracepoint.h had another layout: nothing of
 * it may be read as ours.  Prints what it saw; exits 0 if all held. */
#include <stdio.h>
#include "ev_old.h"
void old_do(int v);

static int calls;
static void probe(int v, void *data)
{
	(void)data;
	(void)v;
	calls++;
}

static int count_old(struct tracepoint *tp, void *priv)
{
	if (tp == &__tracepoint_old_tick)
		++*(int *)priv;
	return 0;
}

int main(void)
{
	int bad = 0, seen = 0, r;
	r = register_trace_old_tick(probe, NULL);
	printf("register_trace_old_tick: %d\n", r);
	bad |= r != -EPROTO;
	r = tracepoint_probe_register_name("old_tick", (tracepoint_func_t)probe, NULL, 10);
	printf("tracepoint_probe_register_name: %d\n", r);
	bad |= r != -ENOENT;
	bad |= tracepoint_find("old_tick") != NULL;
	tracepoint_for_each(count_old, &seen);
	printf("seen by the walk: %d\n", seen);
	bad |= seen != 0;
	trace_old_tick(1);
	old_do(2);
	bad |= calls != 0;
	printf("old_host: %s\n", bad ? "FAILED" : "ok");
	return bad;
}
