/* irq: the interrupt dispatcher (examples/irq.c).  Compiled in by -DCONFIG_IRQ_TRACER. */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM irq
#define TRACE_CONFIG CONFIG_IRQ_TRACER
#if !defined(_TRACE_IRQ_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_IRQ_H
#include <tracepoint.h>

DECLARE_TRACE(irq_handler_entry, TP_PROTO(int irq, const char *name), TP_ARGS(irq, name));

DECLARE_TRACE(irq_handler_exit, TP_PROTO(int irq, int ret), TP_ARGS(irq, ret));

#endif /* _TRACE_IRQ_H */
