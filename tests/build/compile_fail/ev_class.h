/* An event class and two events of it; EV_TYPE is the second event's first
 * argument type: int as the class's (compiles) or -DEV_TYPE=short (an
 * error: the events of a class share its recorder probe).  Switched by
 * CONFIG_CF_CLS. */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM cfcls
#define TRACE_CONFIG CONFIG_CF_CLS
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE ev_class
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#ifndef EV_TYPE
#define EV_TYPE int
#endif
#if !defined(CF_CLASS_H) || defined(TRACE_HEADER_MULTI_READ)
#define CF_CLASS_H
#include <tracepoint.h>

DECLARE_EVENT_CLASS(cf_cls, TP_PROTO(int fd, long len), TP_ARGS(fd, len),
		    TP_STRUCT__entry(__field(int, fd) __field(long, len)),
		    TP_fast_assign(__entry->fd = fd; __entry->len = len;),
		    TP_printk("fd=%d len=%ld", __entry->fd, __entry->len));
DEFINE_EVENT(cf_cls, cf_cls_read, TP_PROTO(int fd, long len), TP_ARGS(fd, len));
DEFINE_EVENT(cf_cls, cf_cls_write, TP_PROTO(EV_TYPE fd, long len), TP_ARGS(fd, len));

#endif /* CF_CLASS_H */
#include <trace/define_trace.h>
