/* SPDX-License-Identifier: MIT */
/*
 * tracepoint/registry.h - the public functions: attach, detach, find, walk.
 *
 * The definitions of the functions tracepoint.h declares (their contracts
 * and return codes are stated there): registration with priorities,
 * unregistration that never fails for lack of memory, iteration over every
 * module's tracepoints, lookup and registration by name,
 * tracepoint_synchronize_unregister, tracepoint_probe_attached and
 * tracepoint_sites.  The typed register_trace_<name> wrappers of declare.h
 * call these.  They are static inline: a translation unit pays only for
 * those it uses.  Here the mechanisms of the other headers meet: the
 * registration lock and the walks (modules.h), the grace period's write
 * side (grace.h), code patching (static_key.h) and, for a module that
 * registers probes, its dlclose destructor (unload.h, declared ahead).
 *
 * Internal: included by tracepoint.h; depends on compiler.h, defs.h,
 * modules.h, static_key.h and grace.h.
 */
#ifndef TRACEPOINT_H_INCLUDED
#error "tracepoint/registry.h is internal: #include <tracepoint.h> instead"
#elif !defined(__TP_REGISTRY_H)
#define __TP_REGISTRY_H

/* A module that registers probes gets __tp_owner_fini as a destructor: an
 * .fini_array entry, one per translation unit.  The destructor (it detaches
 * the module's probes at dlclose) is defined in unload.h, which needs the
 * functions below. */
static inline void __tp_owner_fini(void);
#if defined(__x86_64__) || defined(__aarch64__)
#define __TP_OWNER_FINI()                                                     \
	__asm__(".ifndef __tp_owner_fini_emitted\n\t"                          \
		".set __tp_owner_fini_emitted, 1\n\t"                          \
		".pushsection .fini_array,\"aw\",@fini_array\n\t"             \
		".balign 8\n\t"                                                \
		".quad %c0\n\t"                                                \
		".popsection\n\t"                                              \
		".endif" : : __TP_FN_CONSTRAINT(__tp_owner_fini))
#else
#define __TP_OWNER_FINI() do { } while (0)
#endif

/* A tracepoint defined with another tracepoint.h layout: said, not touched. */
static inline int __tp_abi_mismatch(const struct tracepoint *tp)
{
	const char *line[4];
	line[0] = "tracepoint: ";
	line[1] = tp->name ? tp->name : "?";
	line[2] = " is defined by a module built with another tracepoint.h layout; "
		  "not attached (rebuild that module with this tracepoint.h)\n";
	line[3] = NULL;
	__tp_say(line);
	return -EPROTO;
}

/* Stands in for a probe removed while memory was short (see unregister). */
static inline void __tp_stub_probe(void)
{
}

/* What every change of a probe list checks and runs first: -EINVAL for a
 * NULL tp or probe, -EPROTO (said on stderr) for another layout, else the
 * process hooks (fork handlers, exit marker) and 0. */
static inline int __tp_writer_check(struct tracepoint *tp, tracepoint_func_t probe)
{
	if (!tp || !probe)
		return -EINVAL;
	if (!__tp_abi_ok(tp))
		return __tp_abi_mismatch(tp);
	__tp_process_hooks();
	return 0;
}

static inline int tracepoint_probe_register_prio(struct tracepoint *tp,
						 tracepoint_func_t probe,
						 void *data, int prio)
{
	struct tracepoint_probe *old, *neu;
	size_t n = 0, live = 0, i, j;
	int ret = 0, inserted = 0;

	if ((ret = __tp_writer_check(tp, probe)) != 0)
		return ret;
	__TP_OWNER_FINI();
	__tp_lock(tp);
	old = tp->funcs;
	for (; old && old[n].func; n++) {
		if (old[n].__dead)
			continue;
		live++;
		if (old[n].func == probe && old[n].data == data) {
			ret = -EEXIST;
			goto out;
		}
	}
	neu = __tp_alloc_probes(live + 1);
	if (!neu) {
		ret = -ENOMEM;
		goto out;
	}
	if (live == 0 && tp->regfunc) {
		ret = tp->regfunc();
		if (ret) {
			__tp_free_unpublished(neu);
			goto out;
		}
	}
	/* Higher priority first; a newcomer goes after its equals. */
	for (i = 0, j = 0; i < n; i++) {
		if (old[i].__dead)
			continue;
		if (!inserted && prio > old[i].prio) {
			neu[j].func = probe;
			neu[j].data = data;
			neu[j].prio = prio;
			j++;
			inserted = 1;
		}
		neu[j++] = old[i];
	}
	if (!inserted) {
		neu[j].func = probe;
		neu[j].data = data;
		neu[j].prio = prio;
		j++;
	}
	neu[j].func = NULL;
	__tp_publish(tp, neu);
	__tp_retire(tp, old);
	__tp_gp_poll(tp);
	__tp_unlock(tp);
	if (live == 0) {
		int err = __tp_patch_key(tp);
		if (err && err != -EILSEQ) {
			/* Some site could not be made to jump: undo, report. */
			tracepoint_probe_unregister(tp, probe, data);
			return err;
		}
	}
	return 0;
out:
	__tp_unlock(tp);
	return ret;
}

static inline int tracepoint_probe_register(struct tracepoint *tp,
					    tracepoint_func_t probe, void *data)
{
	return tracepoint_probe_register_prio(tp, probe, data, TRACEPOINT_DEFAULT_PRIO);
}

/*
 * Removing never fails for lack of memory: if the shorter copy cannot be
 * allocated, the entry's function is swapped in place for a stub (readers
 * see either the probe or the stub) and the stub is dropped by the next
 * change that can allocate.
 */
static inline int tracepoint_probe_unregister(struct tracepoint *tp,
					      tracepoint_func_t probe, void *data)
{
	struct tracepoint_probe *old, *neu = NULL;
	size_t n = 0, live = 0, i, j, found = (size_t)-1;

	int ret;

	if ((ret = __tp_writer_check(tp, probe)) != 0)
		return ret;
	__tp_lock(tp);
	old = tp->funcs;
	for (; old && old[n].func; n++) {
		if (old[n].__dead)
			continue;
		live++;
		if (old[n].func == probe && old[n].data == data)
			found = n;
	}
	if (found == (size_t)-1) {
		__tp_unlock(tp);
		return -ENOENT;
	}
	if (live > 1) {
		neu = __tp_alloc_probes(live - 1);
		if (!neu) {
			old[found].__dead = 1;
			__atomic_store_n(&old[found].func, (tracepoint_func_t)__tp_stub_probe,
					 __ATOMIC_RELEASE);
			__tp_gp_mark(tp);
			__tp_gp_poll(tp);
			__tp_unlock(tp);
			return 0;
		}
		for (i = 0, j = 0; i < n; i++)
			if (i != found && !old[i].__dead)
				neu[j++] = old[i];
	}
	__tp_publish(tp, neu);
	__tp_retire(tp, old);
	if (!neu && tp->unregfunc)
		tp->unregfunc();
	__tp_gp_poll(tp);
	__tp_unlock(tp);
	if (!neu)
		__tp_patch_key(tp); /* a site left jumping is still correct */
	return 0;
}

static inline bool tracepoint_enabled(const struct tracepoint *tp)
{
	return __atomic_load_n(&tp->enabled, __ATOMIC_RELAXED) != 0;
}

struct __tp_walk {
	int (*fn)(struct tracepoint *tp, void *priv);
	void *priv;
	int ret;
};

static inline int __tp_walk_tracepoints(const struct __tp_module *m, void *arg)
{
	struct __tp_walk *w = (struct __tp_walk *)arg;
	struct tracepoint *const *it;
	for (it = m->tp_start; it < m->tp_stop; it++) {
		if (*it && __tp_abi_ok(*it) && (w->ret = w->fn(*it, w->priv)) != 0)
			return 1;
	}
	return 0;
}

static inline int __tp_walk_module(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	return __tp_for_each_module(info, __tp_walk_tracepoints, arg);
}

static inline int tracepoint_for_each(int (*fn)(struct tracepoint *tp, void *priv),
				      void *priv)
{
	struct __tp_walk w;
	w.fn = fn;
	w.priv = priv;
	w.ret = 0;
	if (!fn)
		return -EINVAL;
	__tp_process_hooks();
	__tp_iterate_phdr(__tp_walk_module, &w);
	return w.ret;
}

struct __tp_by_name {
	const char *name;
	struct tracepoint *tp;
	tracepoint_func_t probe;
	void *data;
	int prio;
	int op; /* 0 find, 1 register, 2 unregister */
	int ret;
};

static inline int __tp_by_name_cb(struct tracepoint *tp, void *priv)
{
	struct __tp_by_name *q = (struct __tp_by_name *)priv;
	if (strcmp(tp->name, q->name) != 0)
		return 0;
	q->tp = tp;
	/* Registration happens while the module cannot be unloaded. */
	if (q->op == 1)
		q->ret = tracepoint_probe_register_prio(tp, q->probe, q->data, q->prio);
	else if (q->op == 2)
		q->ret = tracepoint_probe_unregister(tp, q->probe, q->data);
	return 1;
}

static inline int __tp_by_name_do(struct __tp_by_name *q)
{
	if (!q->name)
		return -EINVAL;
	q->tp = NULL;
	q->ret = -ENOENT;
	tracepoint_for_each(__tp_by_name_cb, q);
	return q->tp ? q->ret : -ENOENT;
}

static inline struct tracepoint *tracepoint_find(const char *name)
{
	struct __tp_by_name q;
	memset(&q, 0, sizeof(q));
	q.name = name;
	__tp_by_name_do(&q);
	return q.tp;
}

static inline int tracepoint_probe_register_name(const char *name,
						 tracepoint_func_t probe,
						 void *data, int prio)
{
	struct __tp_by_name q;
	if (!probe)
		return -EINVAL;
	memset(&q, 0, sizeof(q));
	q.name = name;
	q.probe = probe;
	q.data = data;
	q.prio = prio;
	q.op = 1;
	return __tp_by_name_do(&q);
}

static inline int tracepoint_probe_unregister_name(const char *name,
						   tracepoint_func_t probe,
						   void *data)
{
	struct __tp_by_name q;
	if (!probe)
		return -EINVAL;
	memset(&q, 0, sizeof(q));
	q.name = name;
	q.probe = probe;
	q.data = data;
	q.op = 2;
	return __tp_by_name_do(&q);
}

/* One pass over every tracepoint: advance grace periods that can advance and
 * count those still waiting for readers.  Never sleeps under the loader lock. */
static inline int __tp_sync_cb(struct tracepoint *tp, void *priv)
{
	int *pending = (int *)priv;
	if (__atomic_load_n(&tp->__tp.seq, __ATOMIC_SEQ_CST) >=
		    __atomic_load_n(&tp->__tp.wait_seq, __ATOMIC_SEQ_CST) &&
	    !__atomic_load_n(&tp->__tp.retired, __ATOMIC_SEQ_CST))
		return 0;
	__tp_lock(tp);
	__tp_gp_poll(tp);
	if (__atomic_load_n(&tp->__tp.seq, __ATOMIC_SEQ_CST) < tp->__tp.wait_seq)
		(*pending)++;
	__tp_unlock(tp);
	return 0;
}

/*
 * Returns once no probe unregistered before the call is running or can run
 * again.  Must not be called from inside a probe (it would wait for itself).
 */
/* Polls every tracepoint until no grace period is pending, at most
 * max_rounds times; 1 if none is pending. */
static inline int __tp_sync_rounds(unsigned max_rounds)
{
	unsigned round;
	for (round = 0; round < max_rounds; round++) {
		int pending = 0;
		tracepoint_for_each(__tp_sync_cb, &pending);
		if (!pending)
			return 1;
		__tp_pause(round);
	}
	return 0;
}

static inline void tracepoint_synchronize_unregister(void)
{
	__tp_process_hooks();
	__tp_sync_rounds(~0u);
}

struct __tp_count_sites {
	const struct tracepoint *tp;
	int n;
};

static inline int __tp_count_sites_module(const struct __tp_module *m, void *arg)
{
	struct __tp_count_sites *c = (struct __tp_count_sites *)arg;
	const struct __tp_jump_entry *e;
	for (e = m->jump_start; e < m->jump_stop; e++)
		if (e->key == c->tp)
			c->n++;
	return 0;
}

static inline int __tp_count_sites_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	return __tp_for_each_module(info, __tp_count_sites_module, arg);
}

static inline int tracepoint_sites(const struct tracepoint *tp)
{
#if TRACEPOINT_STATIC_KEYS
	struct __tp_count_sites c;
	if (!tp)
		return -EINVAL;
	c.tp = tp;
	c.n = 0;
	__tp_iterate_phdr(__tp_count_sites_cb, &c);
	return c.n;
#else
	(void)tp;
	return -ENOSYS;
#endif
}

static inline int tracepoint_probe_attached(const struct tracepoint *tp,
					    tracepoint_func_t probe, void *data)
{
	const struct tracepoint_probe *p;
	if (!tp || !probe)
		return -EINVAL;
	if (!__tp_abi_ok(tp))
		return -EPROTO;
	p = __atomic_load_n(&tp->funcs, __ATOMIC_ACQUIRE);
	for (; p && p->func; p++)
		if (!p->__dead && p->func == probe && p->data == data)
			return 1;
	return 0;
}

#endif /* __TP_REGISTRY_H */
