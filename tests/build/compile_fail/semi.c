/* Every macro a user writes at file scope, each followed by ';'
 * (declarations in ev_a.h and ev_semi.h). */
#include "ev_a.h"
DEFINE_TRACE(cf_a);
EXPORT_TRACEPOINT_SYMBOL(cf_a);
EXPORT_TRACEPOINT_SYMBOL_GPL(cf_a);

#include "ev_semi.h"
DEFINE_TRACE(cf_semi);
DEFINE_TRACE(cf_semi_noargs);
static int reg(void)
{
	return 0;
}
static void unreg(void)
{
}
DEFINE_TRACE_FN(cf_semi_fn, reg, unreg);

void fire(void);
void fire(void)
{
	trace_cf_a(1, "a");
	trace_cf_semi(1, 2);
	trace_cf_semi_noargs();
	trace_cf_semi_fn(3);
	(void)reg;
	(void)unreg;
}
