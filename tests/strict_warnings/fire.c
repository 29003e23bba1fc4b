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
	return plain_run() >= 0 ? 0 : 1;
}
