/* register_trace_cf_a() with a probe of the right type, or with -DWRONG
 * one whose second parameter is long instead of int.  C and C++. */
#include "ev_a.h"
DEFINE_TRACE(cf_a);

#ifdef WRONG
static void probe(long x, const char *s, void *data)
#else
static void probe(int x, const char *s, void *data)
#endif
{
	(void)data;
	(void)x;
	(void)s;
}

int attach(void);
int attach(void)
{
	return register_trace_cf_a(probe, NULL);
}
