/* Every function of <tracepoint.h>, called from one function: with
 * -DCONFIG_TRACEPOINTS_OFF the object holds tp_api() and nothing else
 * (t_zero_bytes). */
#include <tracepoint.h>
static int each(struct tracepoint *tp, void *priv)
{
	(void)tp;
	(void)priv;
	return 0;
}
static void probe(void)
{
}
int tp_api(void);
int tp_api(void)
{
	int r = tracepoint_for_each(each, NULL);
	struct tracepoint *tp = tracepoint_find("x");
	r += tracepoint_probe_register_name("x", TRACEPOINT_FUNC(probe), NULL, 1);
	r += tracepoint_probe_unregister_name("x", TRACEPOINT_FUNC(probe), NULL);
	if (tp) {
		r += tracepoint_probe_register(tp, TRACEPOINT_FUNC(probe), NULL);
		r += tracepoint_probe_register_prio(tp, TRACEPOINT_FUNC(probe), NULL, 3);
		r += tracepoint_probe_attached(tp, TRACEPOINT_FUNC(probe), NULL);
		r += tracepoint_enabled(tp);
		r += tracepoint_sites(tp);
		r += tracepoint_probe_unregister(tp, TRACEPOINT_FUNC(probe), NULL);
	}
	r += tracepoint_batch_begin();
	r += tracepoint_batch_end();
	tracepoint_synchronize_unregister();
	return r;
}
