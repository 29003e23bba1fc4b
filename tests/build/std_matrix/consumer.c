/*
 * Representative consumer, valid as C99..C17 and as C++11..C++20: three
 * subsystems (net compiled in by -DCONFIG_SM_NET, mem unconverted hence in,
 * disk compiled out), DEFINE_TRACE, firing, typed and untyped registration,
 * iteration.  Prints one line per check; the test compares the output.
 */
#include <stdio.h>
#include <string.h>
#include <errno.h>

#include "ev_net.h"
DEFINE_TRACE(sm_net_rx);
DEFINE_TRACE(sm_net_tick);
#include "ev_mem.h"
DEFINE_TRACE(sm_mem_alloc);
#include "ev_disk.h"
DEFINE_TRACE(sm_disk_io);

struct counts {
	int rx, tick, alloc;
	unsigned int last_len;
	size_t last_size;
};

static void on_rx(const char *dev, unsigned int len, void *data)
{
	struct counts *c = (struct counts *)data;
	if (strcmp(dev, "eth0") == 0)
		c->rx++;
	c->last_len = len;
}

static void on_tick(void *data)
{
	((struct counts *)data)->tick++;
}

static void on_alloc(const void *ptr, size_t size, int flags, void *data)
{
	struct counts *c = (struct counts *)data;
	if (ptr && flags == 7)
		c->alloc++;
	c->last_size = size;
}

static void on_disk(long sector, int write, void *data)
{
	(void)data;
	(void)sector;
	(void)write;
}

struct seen {
	int net_rx, net_tick, mem_alloc, disk_io, total;
};

static int visit(struct tracepoint *tp, void *priv)
{
	struct seen *s = (struct seen *)priv;
	s->total++;
	if (strcmp(tp->name, "sm_net_rx") == 0)
		s->net_rx++;
	else if (strcmp(tp->name, "sm_net_tick") == 0)
		s->net_tick++;
	else if (strcmp(tp->name, "sm_mem_alloc") == 0)
		s->mem_alloc++;
	else if (strcmp(tp->name, "sm_disk_io") == 0)
		s->disk_io++;
	return 0;
}

int main(void)
{
	struct counts c;
	struct seen s;
	int buf[4] = { 0, 0, 0, 0 };
	int r;

	memset(&c, 0, sizeof(c));
	memset(&s, 0, sizeof(s));

	/* disabled: firing does nothing */
	trace_sm_net_rx("eth0", 10u);
	printf("disabled: rx=%d enabled=%d\n", c.rx, (int)trace_sm_net_rx_enabled());

	r = register_trace_sm_net_rx(on_rx, &c);
	printf("register net_rx: %d\n", r);
	r = register_trace_sm_net_tick(on_tick, &c);
	printf("register net_tick: %d\n", r);
	r = register_trace_sm_mem_alloc(on_alloc, &c);
	printf("register mem_alloc: %d\n", r);
	r = register_trace_sm_disk_io(on_disk, &c);
	printf("register disk_io (compiled out): %s\n", r == -ENOSYS ? "-ENOSYS" : "unexpected");
	r = register_trace_sm_net_rx(on_rx, &c);
	printf("register net_rx again: %s\n", r == -EEXIST ? "-EEXIST" : "unexpected");

	trace_sm_net_rx("eth0", 1500u);
	trace_sm_net_tick();
	trace_sm_net_tick();
	trace_sm_mem_alloc(buf, sizeof(buf), 7);
	trace_lazy(sm_mem_alloc, buf, (size_t)3, 7);
	trace_sm_disk_io(42L, 1);
	if (trace_sm_net_rx_enabled())
		trace_sm_net_rx("eth0", 9000u);
	printf("fired: rx=%d last_len=%u tick=%d alloc=%d last_size=%lu\n", c.rx, c.last_len,
	       c.tick, c.alloc, (unsigned long)c.last_size);

	r = tracepoint_for_each(visit, &s);
	printf("walk: ret=%d net_rx=%d net_tick=%d mem_alloc=%d disk_io=%d total=%d\n", r, s.net_rx,
	       s.net_tick, s.mem_alloc, s.disk_io, s.total);
	printf("find: net_rx=%d disk_io=%d\n",
	       tracepoint_find("sm_net_rx") == &__tracepoint_sm_net_rx,
	       tracepoint_find("sm_disk_io") == NULL);

	r = unregister_trace_sm_net_rx(on_rx, &c);
	printf("unregister net_rx: %d\n", r);
	r = tracepoint_probe_register_name("sm_net_rx", TRACEPOINT_FUNC(on_rx), &c, 5);
	printf("register_name net_rx: %d\n", r);
	trace_sm_net_rx("eth0", 64u);
	printf("fired by name: rx=%d last_len=%u\n", c.rx, c.last_len);
	r = tracepoint_probe_unregister_name("sm_net_rx", TRACEPOINT_FUNC(on_rx), &c);
	printf("unregister_name net_rx: %d\n", r);
	r = unregister_trace_sm_net_tick(on_tick, &c);
	printf("unregister net_tick: %d\n", r);
	r = unregister_trace_sm_mem_alloc(on_alloc, &c);
	printf("unregister mem_alloc: %d\n", r);
	r = unregister_trace_sm_mem_alloc(on_alloc, &c);
	printf("unregister mem_alloc again: %s\n", r == -ENOENT ? "-ENOENT" : "unexpected");
	tracepoint_synchronize_unregister();
	trace_sm_net_rx("eth0", 1u);
	trace_sm_net_tick();
	printf("after unregister: rx=%d tick=%d enabled=%d\n", c.rx, c.tick,
	       (int)trace_sm_net_rx_enabled());
	return 0;
}
