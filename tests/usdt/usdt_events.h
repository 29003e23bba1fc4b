/* Two subsystems for the USDT test: "net" is switched by CONFIG_NET_TRACER,
 * "disk" by CONFIG_DISK_TRACER. */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM net
#define TRACE_CONFIG CONFIG_NET_TRACER
#if !defined(_TRACE_USDT_NET_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_USDT_NET_H
#include <tracepoint.h>
DECLARE_TRACE(net_xmit, TP_PROTO(int ifindex, unsigned long len, const void *skb),
	      TP_ARGS(ifindex, len, skb));
DECLARE_TRACE_NOARGS(net_poll);
#endif

#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM disk
#define TRACE_CONFIG CONFIG_DISK_TRACER
#if !defined(_TRACE_USDT_DISK_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_USDT_DISK_H
#include <tracepoint.h>
DECLARE_TRACE(disk_io, TP_PROTO(long sector), TP_ARGS(sector));
#endif
