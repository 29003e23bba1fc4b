/* SPDX-License-Identifier: MIT */
/*
 * tracepoint/probes.h - reading one tracepoint's probe list from outside
 * the fire path: tracepoint_probe_for_each (its contract is stated in
 * tracepoint.h).
 *
 * A reader like the typed dispatch: it takes the grace period's read side
 * (grace.h) around the walk, so the list it walks stays allocated even if
 * the callback, or another thread, attaches or detaches probes meanwhile
 * (writers never wait for readers, so that is allowed; a writer retires the
 * list and publishes another one, which this walk does not see, or makes
 * an entry a stub in place, which this walk may or may not see).  Stubs,
 * the entries unregistration leaves behind, are skipped, as
 * tracepoint_probe_attached does.
 *
 * Internal: included by tracepoint.h, after registry.h; depends on
 * compiler.h, defs.h, modules.h and grace.h.
 */
#ifndef TRACEPOINT_H_INCLUDED
#error "tracepoint/probes.h is internal: #include <tracepoint.h> instead"
#elif !defined(TP__PROBES_H)
#define TP__PROBES_H

static inline int tracepoint_probe_for_each(struct tracepoint *tp,
					    int (*fn)(tracepoint_func_t probe, void *data, int prio,
						      void *priv),
					    void *priv)
{
	const struct tracepoint_probe *p;
	long *token;
	int ret = 0;
	if (!tp || !fn)
		return -EINVAL;
	if (!tp__abi_ok(tp))
		return -EPROTO;
	token = tp->read_slow();
	for (p = __atomic_load_n(&tp->funcs, __ATOMIC_ACQUIRE); p; p++) {
		/* A stub is stored (release) after its entry is marked dead. */
		tracepoint_func_t f = __atomic_load_n(&p->func, __ATOMIC_ACQUIRE);
		if (!f)
			break;
		if (!__atomic_load_n(&p->dead, __ATOMIC_RELAXED) &&
		    (ret = fn(f, p->data, p->prio, priv)) != 0)
			break;
	}
	tp__read_end_token(token);
	return ret;
}

#endif /* TP__PROBES_H */
