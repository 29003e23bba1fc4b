/* register_trace_cf_a() with a probe of the right type, or with -DWRONG
 * one whose second parameter is long instead of int.  C and C++. */
#include "ev_a.h"
DEFINE_TRACE(cf_a);

#ifdef WRONG
static void probe(void *data, long x, const char *s)
#else
static void probe(void *data, int x, const char *s)
#endif
{
	(void)data; (void)x; (void)s;
}

int attach(void);
int attach(void)
{
	return register_trace_cf_a(probe, NULL);
}
