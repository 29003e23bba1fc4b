/* i915.c - a graphics driver: buffer objects, requests submitted to the GPU,
 * and the interrupt that says a request completed.  Fires
 * i915_gem_object_create, i915_gem_request_submit, i915_gem_request_complete. */
#include "toy.h"
#include <events/i915.h>

#define I915_IRQ 16

static unsigned int next_seqno = 1;
static unsigned int completed_seqno;

static int i915_irq_handler(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	while (completed_seqno + 1 < next_seqno)
		trace_i915_gem_request_complete(++completed_seqno);
	return 1; /* IRQ_HANDLED */
}

int i915_init(void)
{
	return request_irq(I915_IRQ, i915_irq_handler, "i915", NULL);
}

void i915_exit(void)
{
	free_irq(I915_IRQ);
}

void *i915_gem_create(size_t size)
{
	void *obj = kmalloc(size);

	if (obj)
		trace_i915_gem_object_create(obj, size);
	return obj;
}

unsigned int i915_gem_submit(void *obj)
{
	(void)obj; /* the GPU would read its commands from here */
	trace_i915_gem_request_submit(next_seqno);
	return next_seqno++;
}
