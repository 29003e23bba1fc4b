/* Fires net_xmit three times with no in-process probe attached: an external
 * tracer attached through the USDT semaphore must still see every fire. */
#include <stdio.h>
#include "usdt_events.h"

DEFINE_TRACE(disk_io);
#undef TRACE_CONFIG
#define TRACE_CONFIG CONFIG_NET_TRACER
#include <tracepoint.h>
DEFINE_TRACE(net_xmit);
DEFINE_TRACE(net_poll);

static char packet[64];

int main(void)
{
	int i;
	for (i = 0; i < 3; i++)
		trace_net_xmit(2, 1000ul + (unsigned long)i, packet);
	trace_net_poll();
	trace_disk_io(7);
	printf("net_xmit enabled at exit: %d\n", trace_net_xmit_enabled() ? 1 : 0);
	return 0;
}
