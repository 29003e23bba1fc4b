/* irq.c - the interrupt dispatcher: one handler per line.
 * Fires irq:irq_handler_entry and irq:irq_handler_exit. */
#include <stddef.h>
#include "toy.h"
#include <events/irq.h>

#define NR_IRQS 32

static struct irqaction {
	irq_handler_t handler;
	const char *name;
	void *dev;
} irq_desc[NR_IRQS];

int request_irq(int irq, irq_handler_t handler, const char *name, void *dev)
{
	if (irq < 0 || irq >= NR_IRQS || irq_desc[irq].handler)
		return -1;
	irq_desc[irq].handler = handler;
	irq_desc[irq].name = name;
	irq_desc[irq].dev = dev;
	return 0;
}

void free_irq(int irq)
{
	if (irq >= 0 && irq < NR_IRQS)
		irq_desc[irq].handler = NULL;
}

void generic_handle_irq(int irq)
{
	struct irqaction *action;
	int ret;

	if (irq < 0 || irq >= NR_IRQS || !irq_desc[irq].handler)
		return; /* spurious */
	action = &irq_desc[irq];
	trace_irq_handler_entry(irq, action->name);
	ret = action->handler(irq, action->dev);
	trace_irq_handler_exit(irq, ret);
}
