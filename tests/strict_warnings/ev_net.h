/* Events (TRACE_EVENT), subsystem "net", CONFIG_SW_NET: every field kind. */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM net
#define TRACE_CONFIG CONFIG_SW_NET
#undef TRACE_INCLUDE_PATH
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE ev_net
#if !defined(_TRACE_SW_NET_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_SW_NET_H
#include <tracepoint.h>
TRACE_EVENT(net_xmit,
	    TP_PROTO(const char *dev, unsigned int len, double load, const void *skb,
		     signed char prio),
	    TP_ARGS(dev, len, load, skb, prio),
	    TP_STRUCT__entry(__string(dev, dev)
			     __field(unsigned int, len)
			     __field(double, load)
			     __field(const void *, skb)
			     __array(char, tag, 4)
			     __field(signed char, prio)),
	    TP_fast_assign(__assign_str(dev, dev);
			   __entry->len = len;
			   __entry->load = load;
			   __entry->skb = skb;
			   memcpy(__entry->tag, "tx!", 4);
			   __entry->prio = prio;),
	    TP_printk("dev=%s len=%u load=%f skb=%p tag=%s prio=%d", __get_str(dev),
		      __entry->len, __entry->load, __entry->skb, __entry->tag,
		      __entry->prio));
DECLARE_EVENT_CLASS(net_queue,
		    TP_PROTO(unsigned long q),
		    TP_ARGS(q),
		    TP_STRUCT__entry(__field(unsigned long, q)),
		    TP_fast_assign(__entry->q = q;),
		    TP_printk("q=%lu", __entry->q));
DEFINE_EVENT(net_queue, net_queue_start, TP_PROTO(unsigned long q), TP_ARGS(q));
DEFINE_EVENT(net_queue, net_queue_stop, TP_PROTO(unsigned long q), TP_ARGS(q));
/* Event kinds (trace/event_kinds.h): a slice with its scoped form, a
 * counter, a flow. */
#include <trace/event_kinds.h>
TRACE_SLICE(net_poll,
	    TP_PROTO(int budget, const char *dev),
	    TP_ARGS(budget, dev),
	    TP_STRUCT__entry(__field(int, budget)
			     __string(dev, dev)),
	    TP_fast_assign(__entry->budget = budget;),
	    TP_printk("budget=%d dev=%s", __entry->budget, __get_str(dev)));
TRACE_COUNTER(net_backlog,
	      TP_PROTO(long packets),
	      TP_ARGS(packets),
	      TP_STRUCT__entry(__field(long, packets)),
	      TP_fast_assign(__entry->packets = packets;),
	      TP_printk("packets=%ld", __entry->packets));
TRACE_FLOW(net_hop,
	   TP_PROTO(unsigned long id),
	   TP_ARGS(id),
	   TP_STRUCT__entry(__field(unsigned long, id)),
	   TP_fast_assign(__entry->id = id;),
	   TP_printk("id=%lu", __entry->id));
#endif
#include <trace/define_trace.h>
