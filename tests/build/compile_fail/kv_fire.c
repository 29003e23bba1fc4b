/* Fires the kv events (ev_kv.h, ev_kv2.h) and attaches a probe to kv_put;
 * -DKV_DATA_FIRST makes it a probe in the kernel's order (void *data
 * first). */
#include "ev_kv.h"
#include "ev_kv2.h"
#include "ev_kv.h" /* again: a header may be included twice */

#ifdef KV_DATA_FIRST
static void on_put(void *data, int key, const char *val)
#else
static void on_put(int key, const char *val, void *data)
#endif
{
	(void)data;
	(void)key;
	(void)val;
}

int kv_run(int n);
int kv_run(int n)
{
	int r = register_trace_kv_put(on_put, NULL);
	trace_kv_put(n, "v");
	trace_kv_resize((unsigned)n);
	return r;
}
