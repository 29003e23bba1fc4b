/* A file that only fires events. */
#include <string.h>
#include "ev_net.h"
int plain_run(void);
int main(void)
{
	static const char dev[] = "eth0";
	trace_net_xmit(dev, 1500u, 0.5, dev, (signed char)-1);
	trace_net_queue_start(1ul);
	trace_net_queue_stop(1ul);
	{
		TRACE_SLICE_SCOPED(net_poll, 64, dev);
		trace_net_backlog(3l);
		trace_net_hop(7ul);
	}
	trace_net_queue_busy(9ul);
	trace_net_queue_hex(9ul);
	trace_net_rx((const unsigned char *)dev, 4u, 1, 3u);
	trace_net_idle();
	return plain_run() >= 0 ? 0 : 1;
}
