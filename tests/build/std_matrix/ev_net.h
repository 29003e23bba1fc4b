/* Subsystem "net": converted, switched by CONFIG_SM_NET (given as -D). */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM net
#define TRACE_CONFIG CONFIG_SM_NET
#if !defined(_TRACE_SM_NET_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_SM_NET_H
#include <tracepoint.h>
DECLARE_TRACE(sm_net_rx, TP_PROTO(const char *dev, unsigned int len), TP_ARGS(dev, len));
DECLARE_TRACE_NOARGS(sm_net_tick);
#endif
