/* Minimal consumer for the global-switch and language-mode cases. */
#include "ev_a.h"
DEFINE_TRACE(cf_a);

void fire(void);
void fire(void)
{
	trace_cf_a(1, "a");
}
