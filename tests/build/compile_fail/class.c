/* Defines and fires the events of ev_class.h: an event whose TP_PROTO is
 * not its class's must fail, with a message naming both. */
#define CREATE_TRACE_POINTS
#include "ev_class.h"

void fire(void);
void fire(void)
{
	trace_cf_cls_read(3, 10);
	trace_cf_cls_write(4, 20);
}
