/* SPDX-License-Identifier: MIT */
/*
 * tracepoint/off.h - the public functions when every subsystem of the
 * program is compiled out (-DCONFIG_TRACEPOINTS_OFF).
 *
 * No tracepoint exists then, so there is no registry, no module note, no
 * code patching, no fork or exit hook: none of the machinery is read, and
 * the functions of tracepoint.h are empty inlines that answer as a program
 * without tracepoints would.  A file that includes <tracepoint.h> and calls
 * them compiles to its own code only: no byte, symbol or string of the
 * library (tests/core/t_zero_bytes.sh).
 *   tracepoint_probe_register[_prio](), tracepoint_probe_unregister(),
 *   tracepoint_probe_register_name(), tracepoint_probe_unregister_name():
 *           -ENOSYS, as register_trace_<name>() of a compiled-out tracepoint
 *   tracepoint_sites(): -ENOSYS (no call site is recorded)
 *   tracepoint_enabled(): false;  tracepoint_probe_attached(): 0
 *   tracepoint_probe_for_each(), tracepoint_for_each(): 0 (nothing to walk)
 *   tracepoint_find(): NULL
 *   tracepoint_batch_begin(), tracepoint_batch_end(): 0
 *   tracepoint_synchronize_unregister(): returns at once
 * The types (struct tracepoint, struct tracepoint_probe, tracepoint_func_t)
 * are those of defs.h.
 *
 * Internal: included by tracepoint.h instead of the machinery, inside
 * extern "C", after defs.h; only with CONFIG_TRACEPOINTS_OFF (empty
 * otherwise).
 */
#ifndef TRACEPOINT_H_INCLUDED
#error "tracepoint/off.h is internal: #include <tracepoint.h> instead"
#elif !defined(TP__OFF_H) && TP__IS_ONE(CONFIG_TRACEPOINTS_OFF)
#define TP__OFF_H

/* tracepoint.h has taken back select.h's stand-ins for these names. */

/* What every (un)registration answers: no tracepoint exists. */
static inline TP__UNUSED int tp__off_probe(const void *where, tracepoint_func_t probe, void *data)
{
	(void)where;
	(void)probe;
	(void)data;
	return -ENOSYS;
}
static inline TP__UNUSED int tracepoint_probe_register_prio(struct tracepoint *tp,
							    tracepoint_func_t probe, void *data,
							    int prio)
{
	(void)prio;
	return tp__off_probe(tp, probe, data);
}
static inline TP__UNUSED int tracepoint_probe_register(struct tracepoint *tp,
						       tracepoint_func_t probe, void *data)
{
	return tracepoint_probe_register_prio(tp, probe, data, 0);
}
static inline TP__UNUSED int tracepoint_probe_unregister(struct tracepoint *tp,
							 tracepoint_func_t probe, void *data)
{
	return tp__off_probe(tp, probe, data);
}
static inline TP__UNUSED bool tracepoint_enabled(const struct tracepoint *tp)
{
	(void)tp;
	return false;
}
static inline TP__UNUSED int tracepoint_probe_attached(const struct tracepoint *tp,
						       tracepoint_func_t probe, void *data)
{
	(void)tp;
	(void)probe;
	(void)data;
	return 0;
}
static inline TP__UNUSED int tracepoint_probe_for_each(struct tracepoint *tp,
						       int (*fn)(tracepoint_func_t probe,
								 void *data, int prio, void *priv),
						       void *priv)
{
	(void)tp;
	(void)fn;
	(void)priv;
	return 0;
}
static inline TP__UNUSED void tracepoint_synchronize_unregister(void)
{
}
static inline TP__UNUSED int tracepoint_sites(const struct tracepoint *tp)
{
	(void)tp;
	return -ENOSYS;
}
static inline TP__UNUSED int tracepoint_for_each(int (*fn)(struct tracepoint *tp, void *priv),
						 void *priv)
{
	(void)fn;
	(void)priv;
	return 0;
}
static inline TP__UNUSED struct tracepoint *tracepoint_find(const char *name)
{
	(void)name;
	return NULL;
}
static inline TP__UNUSED int tracepoint_probe_register_name(const char *name,
							    tracepoint_func_t probe, void *data,
							    int prio)
{
	return tracepoint_probe_register_prio(tracepoint_find(name), probe, data, prio);
}
static inline TP__UNUSED int tracepoint_probe_unregister_name(const char *name,
							      tracepoint_func_t probe, void *data)
{
	return tracepoint_probe_unregister(tracepoint_find(name), probe, data);
}
static inline TP__UNUSED int tracepoint_batch_begin(void)
{
	return 0;
}
static inline TP__UNUSED int tracepoint_batch_end(void)
{
	return 0;
}

#endif /* TP__OFF_H */
