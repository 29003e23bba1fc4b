/* Fires net_xmit: the file whose build flags may forget the switch. */
#include "ev_net.h"
void xmit(int len);
void xmit(int len)
{
	trace_net_xmit(len);
}
