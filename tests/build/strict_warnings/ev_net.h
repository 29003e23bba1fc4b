/* Events (TRACE_EVENT), subsystem "net", CONFIG_SW_NET: every field kind
 * and every event form (conditions, reg/unreg, own TP_printk, no field, no
 * argument, dynamic arrays, symbolic and flag printing). */
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
	    TP_STRUCT__entry(__string(dev, dev) __field(unsigned int, len) __field(double, load)
				     __field(const void *, skb) __array(char, tag, 4)
					     __field(signed char, prio)),
	    TP_fast_assign(__assign_str(dev, dev); __entry->len = len; __entry->load = load;
			   __entry->skb = skb; memcpy(__entry->tag, "tx!", 4);
			   __entry->prio = prio;),
	    TP_printk("dev=%s len=%u load=%f skb=%p tag=%s prio=%d", __get_str(dev), __entry->len,
		      __entry->load, __entry->skb, __entry->tag, __entry->prio));
DECLARE_EVENT_CLASS(net_queue, TP_PROTO(unsigned long q), TP_ARGS(q),
		    TP_STRUCT__entry(__field(unsigned long, q)), TP_fast_assign(__entry->q = q;),
		    TP_printk("q=%lu", __entry->q));
DEFINE_EVENT(net_queue, net_queue_start, TP_PROTO(unsigned long q), TP_ARGS(q));
DEFINE_EVENT(net_queue, net_queue_stop, TP_PROTO(unsigned long q), TP_ARGS(q));
/* Event kinds (trace/event_kinds.h): a slice with its scoped form, a
 * counter, a flow. */
#include <trace/event_kinds.h>
TRACE_SLICE(net_poll, TP_PROTO(int budget, const char *dev), TP_ARGS(budget, dev),
	    TP_STRUCT__entry(__field(int, budget) __string(dev, dev)),
	    TP_fast_assign(__entry->budget = budget;),
	    TP_printk("budget=%d dev=%s", __entry->budget, __get_str(dev)));
TRACE_COUNTER(net_backlog, TP_PROTO(long packets), TP_ARGS(packets),
	      TP_STRUCT__entry(__field(long, packets)), TP_fast_assign(__entry->packets = packets;),
	      TP_printk("packets=%ld", __entry->packets));
TRACE_FLOW(net_hop, TP_PROTO(unsigned long id), TP_ARGS(id),
	   TP_STRUCT__entry(__field(unsigned long, id)), TP_fast_assign(__entry->id = id;),
	   TP_printk("id=%lu", __entry->id));
DEFINE_EVENT_CONDITION(net_queue, net_queue_busy, TP_PROTO(unsigned long q), TP_ARGS(q),
		       TP_CONDITION(q > 8ul));
DEFINE_EVENT_PRINT(net_queue, net_queue_hex, TP_PROTO(unsigned long q), TP_ARGS(q),
		   TP_printk("q=%#lx", __entry->q));
#ifndef NET_SW_REG
#define NET_SW_REG
static inline int net_sw_reg(void)
{
	return 0;
}
static inline void net_sw_unreg(void)
{
}
#endif
TRACE_EVENT_FN(net_rx,
	       TP_PROTO(const unsigned char *buf, unsigned int len, int state, unsigned int flags),
	       TP_ARGS(buf, len, state, flags),
	       TP_STRUCT__entry(__dynamic_array(unsigned char, buf, len) __field(int, state)
					__field(unsigned int, flags)),
	       TP_fast_assign(memcpy(__get_dynamic_array(buf), buf, len); __entry->state = state;
			      __entry->flags = flags;),
	       TP_printk("buf=%s state=%s flags=%s len=%u",
			 __print_hex(__get_dynamic_array(buf), __get_dynamic_array_len(buf)),
			 __print_symbolic(__entry->state, { 0, "down" }, { 1, "up" },
					  { -1, "gone" }),
			 __print_flags(__entry->flags, "|", { 1u, "RX" }, { 2u, "TX" }),
			 __get_dynamic_array_len(buf)),
	       net_sw_reg, net_sw_unreg);
TRACE_EVENT_CONDITION(net_idle, TP_PROTO(void), TP_ARGS(), TP_CONDITION(1), TP_STRUCT__entry(),
		      TP_fast_assign(), TP_printk(""));
#endif
#include <trace/define_trace.h>
