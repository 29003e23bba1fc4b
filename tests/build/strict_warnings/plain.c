/* Plain tracepoints: define, fire, attach typed and by name, walk. */
#include <stdio.h>
#include <tracepoint.h> /* the tracepoint_*() functions, compiled out too */
#include "ev_disk.h"
DEFINE_TRACE(disk_io);
DEFINE_TRACE(disk_idle);

static void on_io(int dev, unsigned long sector, const char *op, void *data);
static void on_io(int dev, unsigned long sector, const char *op, void *data)
{
	(void)sector;
	(void)op;
	*(int *)data += dev;
}

static int count(struct tracepoint *tp, void *priv);
static int count(struct tracepoint *tp, void *priv)
{
	(void)tp;
	++*(int *)priv;
	return 0;
}

int plain_run(void);
int plain_run(void)
{
	int hits = 0, n = 0;
	if (register_trace_disk_io(on_io, &hits) == 0) {
		trace_disk_io(1, 2, "read");
		trace_lazy(disk_io, 2, 3, "write");
		unregister_trace_disk_io(on_io, &hits);
	}
	trace_disk_idle();
	(void)tracepoint_find("disk_io");
	(void)tracepoint_for_each(count, &n);
	tracepoint_synchronize_unregister();
	return hits;
}
