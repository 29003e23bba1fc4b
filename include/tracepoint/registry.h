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
 * those it uses.  Here the mechanisms of the other headers meet: the walks
 * (modules.h), the grace period's write side (grace.h), code patching
 * (static_key.h) and, for a module that registers probes, its dlclose
 * destructor (unload.h, named ahead for its .fini_array entry).  The
 * per-tracepoint registration lock is here too, where it is taken.
 *
 * Internal: included by tracepoint.h; depends on compiler.h, defs.h,
 * modules.h (and the process hooks it declares ahead), static_key.h and
 * grace.h.
 */
#ifndef TRACEPOINT_H_INCLUDED
#error "tracepoint/registry.h is internal: #include <tracepoint.h> instead"
#elif !defined(TP__REGISTRY_H)
#define TP__REGISTRY_H

/* A module that registers probes gets tp__owner_fini as a destructor: an
 * .fini_array entry, one per translation unit.  The destructor (it detaches
 * the module's probes at dlclose) is defined in unload.h, which needs the
 * functions below.  Declared ahead only to be named in that entry (the asm
 * operand below): nothing here calls it. */
static inline void tp__owner_fini(void);
#if defined(__x86_64__) || defined(__aarch64__)
#define TP__OWNER_FINI()                                                     \
	__asm__(".ifndef tp__owner_fini_emitted\n\t"                          \
		".set tp__owner_fini_emitted, 1\n\t"                          \
		".pushsection .fini_array,\"aw\",@fini_array\n\t"             \
		".balign 8\n\t"                                                \
		".quad %c0\n\t"                                                \
		".popsection\n\t"                                              \
		".endif" : : TP__FN_CONSTRAINT(tp__owner_fini))
#else
#define TP__OWNER_FINI() do { } while (0)
#endif

/* --- The registration lock.  A spin-then-sleep lock holding the
 * owner's pid: a child forked while another thread held it sees a foreign
 * pid and takes the lock over, so fork never inherits a dead owner; the
 * first lock in a new process starts the tracepoint over. --- */

/* A child starts over with each tracepoint: lists retired before the fork
 * are left allocated, since the forking thread may be inside a probe (fork()
 * called by one) whose caller holds one; the grace domain frees the slots
 * of the threads that did not survive (tp__gp_adopt, grace.h).  Called by
 * the child handler (process.h), and by the first lock of a process that
 * never installed it. */
static inline void tp__adopt_counters(struct tracepoint *tp, int me)
{
	tp__gp_adopt(tp->tp__priv.gp, me);
	__atomic_store_n(&tp->tp__priv.retired, (struct tp__probes *)NULL, __ATOMIC_RELEASE);
	tp->tp__priv.pid = me;
}

static inline void tp__lock(struct tracepoint *tp)
{
	int me = (int)getpid();
	unsigned round = 0;
	for (;;) {
		int owner = 0;
		if (__atomic_compare_exchange_n(&tp->tp__priv.lock, &owner, me, false,
						__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			break;
		if (owner != me &&
		    __atomic_compare_exchange_n(&tp->tp__priv.lock, &owner, me, false,
						__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			break; /* inherited across fork from a parent's thread */
		tp__pause(round++);
	}
	if (tp->tp__priv.pid != me)
		tp__adopt_counters(tp, me);
}

static inline void tp__unlock(struct tracepoint *tp)
{
	__atomic_store_n(&tp->tp__priv.lock, 0, __ATOMIC_RELEASE);
}

/* A tracepoint defined with another tracepoint.h layout: said, not touched. */
static inline int tp__abi_mismatch(const struct tracepoint *tp)
{
	const char *line[4];
	line[0] = "tracepoints: ";
	line[1] = tp->name ? tp->name : "?";
	line[2] = " is defined by a module built with another tracepoint.h layout; "
		  "not attached (rebuild that module with this tracepoint.h)\n";
	line[3] = NULL;
	tp__say(line);
	return -EPROTO;
}

/* Stands in for a probe removed while memory was short (see unregister). */
static inline void tp__stub_probe(void)
{
}

/* What every change of a probe list checks and runs first: -EINVAL for a
 * NULL tp or probe, -ENOENT for a tracepoint whose module is being
 * dlclose()d, -EPROTO (said on stderr) for another layout, else the
 * process hooks (fork handlers, exit marker) and 0. */
static inline int tp__writer_check(struct tracepoint *tp, tracepoint_func_t probe)
{
	if (!tp || !probe)
		return -EINVAL;
	if (tp__closed(tp))
		return -ENOENT;
	if (!tp__abi_ok(tp))
		return tp__abi_mismatch(tp);
	tp__process_hooks();
	return 0;
}

static inline int tracepoint_probe_register_prio(struct tracepoint *tp, tracepoint_func_t probe,
						 void *data, int prio)
{
	struct tracepoint_probe *old, *neu;
	size_t n = 0, live = 0, i, j;
	int ret = 0, inserted = 0;

	if ((ret = tp__writer_check(tp, probe)) != 0)
		return ret;
	TP__OWNER_FINI();
	tp__lock(tp);
	if (tp__closed(tp)) {
		ret = -ENOENT; /* its module's destructor closed it meanwhile */
		goto out;
	}
	old = tp->funcs;
	for (; old && old[n].func; n++) {
		if (old[n].dead)
			continue;
		live++;
		if (old[n].func == probe && old[n].data == data) {
			ret = -EEXIST;
			goto out;
		}
	}
	neu = tp__alloc_probes(live + 1);
	if (!neu) {
		ret = -ENOMEM;
		goto out;
	}
	if (live == 0 && tp->regfunc) {
		ret = tp->regfunc();
		if (ret) {
			tp__free_unpublished(neu);
			goto out;
		}
	}
	/* Higher priority first; a newcomer goes after its equals. */
	for (i = 0, j = 0; i < n; i++) {
		if (old[i].dead)
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
	tp__publish(tp, neu);
	tp__retire(tp, old);
	tp__gp_poll(tp);
	tp__unlock(tp);
	if (live == 0) {
		int err = tp__patch_key(tp);
		if (err && err != -EILSEQ) {
			/* Some site could not be made to jump: undo, report. */
			tracepoint_probe_unregister(tp, probe, data);
			return err;
		}
	}
	return 0;
out:
	tp__unlock(tp);
	return ret;
}

static inline int tracepoint_probe_register(struct tracepoint *tp, tracepoint_func_t probe,
					    void *data)
{
	return tracepoint_probe_register_prio(tp, probe, data, TRACEPOINT_DEFAULT_PRIO);
}

/* Publishes NULL for tp's last probe (old the list it was in), lock
 * held; unlocks, then lets the sites idle. */
static inline void tp__unregister_last(struct tracepoint *tp, struct tracepoint_probe *old)
{
	tp__publish(tp, NULL);
	tp__retire(tp, old);
	if (tp->unregfunc)
		tp->unregfunc();
	tp__gp_poll(tp);
	tp__unlock(tp);
	tp__patch_key(tp); /* a site left jumping is still correct */
}

/* Copies the live entries of e[from..n) but e[skip] (skip >= n: none)
 * to neu, in their order. */
static inline void tp__copy_live(struct tracepoint_probe *neu, const struct tracepoint_probe *e,
				 size_t from, size_t n, size_t skip)
{
	size_t j = 0;
	for (; from < n; from++)
		if (from != skip && !e[from].dead)
			neu[j++] = e[from];
}

/*
 * Removing the first live probe of the published list (the one every fire
 * calls first) is done in place: its entry is marked dead and its function
 * swapped for a stub (readers see either; the grace period covers those
 * that saw the probe).  A fire under way has called that entry already, or
 * calls it or the stub now: removing it from a copy would change nothing a
 * fire can tell, but cost O(n).  So probes removed in their list's order -
 * each removing itself as it runs, the common shape - cost O(1) each, and N
 * of them in one fire take linear time and memory (copying the list every
 * time took O(N^2) of both).  Another probe is removed from a copy, so that
 * a fire under way that has not reached it still calls it (the list in
 * effect when the fire began); if the copy cannot be allocated it too is
 * made a stub in place: removing never fails for lack of memory.  Once the
 * stubs are more than half of the list it is copied without them (when
 * memory allows): O(1) copying per removal, amortized.
 *
 * Bookkeeping in fields no reader looks at: the head entry's prio holds
 * the number of entries after it (0: not counted yet), the terminator's
 * prio the number of leading stubs (where the search starts), its dead the
 * stubs made here.
 */
static inline int tracepoint_probe_unregister(struct tracepoint *tp, tracepoint_func_t probe,
					      void *data)
{
	struct tracepoint_probe *old, *e, *neu = NULL;
	size_t n, k, i, j, stubs;
	int ret;

	if ((ret = tp__writer_check(tp, probe)) != 0)
		return ret;
	tp__lock(tp);
	old = tp->funcs;
	if (old && old->dead != TP__PROBE_HEAD) { /* a lone probe */
		if (old->func == probe && old->data == data) {
			tp__unregister_last(tp, old);
			return 0;
		}
		old = NULL;
	}
	if (!old) {
		tp__unlock(tp);
		return -ENOENT;
	}
	e = old + 1;
	n = (size_t)old->prio;
	if (n == 0) {
		while (e[n].func)
			n++;
		old->prio = (int)n;
	}
	k = (size_t)e[n].prio;
	while (e[k].func && e[k].dead)
		k++;
	e[n].prio = (int)k;
	for (i = k; e[i].func; i++)
		if (!e[i].dead && e[i].func == probe && e[i].data == data)
			break;
	if (!e[i].func) {
		tp__unlock(tp);
		return -ENOENT;
	}
	if (i == k) { /* the first live probe: is there another one? */
		for (j = k + 1; e[j].func && e[j].dead; j++)
			;
		if (!e[j].func) {
			tp__unregister_last(tp, old);
			return 0;
		}
		e[n].prio = (int)j;
	} else if ((neu = tp__alloc_probes(n - k - 1)) != NULL) {
		tp__copy_live(neu, e, k, n, i); /* there are two at least */
		tp__publish(tp, neu);
		tp__retire(tp, old);
		tp__gp_poll(tp);
		tp__unlock(tp);
		return 0;
	}
	__atomic_store_n(&e[i].dead, TP__PROBE_STUB, __ATOMIC_RELAXED);
	__atomic_store_n(&e[i].func, (tracepoint_func_t)tp__stub_probe, __ATOMIC_RELEASE);
	stubs = (size_t)++e[n].dead;
	tp__gp_mark(tp);
	/* more stubs than probes: a copy of the live ones (n - stubs is at
	 * least their number: stubs made elsewhere are not counted) */
	if (2 * stubs > n && (neu = tp__alloc_probes(n - stubs)) != NULL) {
		tp__copy_live(neu, e, 0, n, n);
		tp__publish(tp, neu);
		tp__retire(tp, old);
	}
	tp__gp_poll(tp);
	tp__unlock(tp);
	return 0;
}

static inline bool tracepoint_enabled(const struct tracepoint *tp)
{
	return __atomic_load_n(&tp->enabled, __ATOMIC_RELAXED) != 0;
}

struct tp__walk {
	int (*fn)(struct tracepoint *tp, void *priv);
	void *priv;
	int ret;
};

static inline int tp__walk_tracepoints(const struct tp__module *m, void *arg)
{
	struct tp__walk *w = (struct tp__walk *)arg;
	struct tracepoint *const *it;
	for (it = m->tp_start; it < m->tp_stop; it++) {
		if (tp__relocated(*it) && tp__abi_ok(*it) && (w->ret = w->fn(*it, w->priv)) != 0)
			return 1;
	}
	return 0;
}

static inline int tp__walk_module(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	return tp__for_each_module(info, tp__walk_tracepoints, arg);
}

static inline int tracepoint_for_each(int (*fn)(struct tracepoint *tp, void *priv), void *priv)
{
	struct tp__walk w;
	w.fn = fn;
	w.priv = priv;
	w.ret = 0;
	if (!fn)
		return -EINVAL;
	tp__process_hooks();
	tp__iterate_phdr(tp__walk_module, &w);
	return w.ret;
}

/* What a lookup by name does with the tracepoint it finds. */
enum tp__by_name_op { TP__BY_NAME_FIND, TP__BY_NAME_REGISTER, TP__BY_NAME_UNREGISTER };

struct tp__by_name {
	const char *name;
	struct tracepoint *tp;
	tracepoint_func_t probe;
	void *data;
	int prio;
	enum tp__by_name_op op;
	int ret;
};

/* Whether tp is the one called name: its bare name ("kmalloc"), or an
 * event's system and name as the recorder spells them ("kmem:kmalloc"). */
static inline bool tp__name_matches(const struct tracepoint *tp, const char *name)
{
	const char *colon = strchr(name, ':');
	size_t n;
	if (!colon)
		return strcmp(tp->name, name) == 0;
	n = (size_t)(colon - name);
	return tp->system && strlen(tp->system) == n && memcmp(tp->system, name, n) == 0 &&
	       strcmp(tp->name, colon + 1) == 0;
}

static inline int tp__by_name_cb(struct tracepoint *tp, void *priv)
{
	struct tp__by_name *q = (struct tp__by_name *)priv;
	if (!tp__name_matches(tp, q->name))
		return 0;
	q->tp = tp;
	/* Registration happens while the module cannot be unloaded. */
	if (q->op == TP__BY_NAME_REGISTER)
		q->ret = tracepoint_probe_register_prio(tp, q->probe, q->data, q->prio);
	else if (q->op == TP__BY_NAME_UNREGISTER)
		q->ret = tracepoint_probe_unregister(tp, q->probe, q->data);
	return 1;
}

/* Finds the tracepoint called name and applies op to it: op's result,
 * -ENOENT if there is none, -EINVAL for a NULL name (or a NULL probe). */
static inline int tp__by_name_apply(enum tp__by_name_op op, const char *name,
				    tracepoint_func_t probe, void *data, int prio,
				    struct tracepoint **found)
{
	struct tp__by_name q;
	if (found)
		*found = NULL;
	if (!name || (op != TP__BY_NAME_FIND && !probe))
		return -EINVAL;
	q.name = name;
	q.tp = NULL;
	q.probe = probe;
	q.data = data;
	q.prio = prio;
	q.op = op;
	q.ret = -ENOENT;
	tracepoint_for_each(tp__by_name_cb, &q);
	if (found)
		*found = q.tp;
	return q.tp ? q.ret : -ENOENT;
}

static inline struct tracepoint *tracepoint_find(const char *name)
{
	struct tracepoint *tp;
	tp__by_name_apply(TP__BY_NAME_FIND, name, NULL, NULL, 0, &tp);
	return tp;
}

static inline int tracepoint_probe_register_name(const char *name, tracepoint_func_t probe,
						 void *data, int prio)
{
	return tp__by_name_apply(TP__BY_NAME_REGISTER, name, probe, data, prio, NULL);
}

static inline int tracepoint_probe_unregister_name(const char *name, tracepoint_func_t probe,
						   void *data)
{
	return tp__by_name_apply(TP__BY_NAME_UNREGISTER, name, probe, data, 0, NULL);
}

/* One pass over every tracepoint: advance grace periods that can advance and
 * count those still waiting for readers.  Never sleeps under the loader lock. */
static inline int tp__sync_cb(struct tracepoint *tp, void *priv)
{
	int *pending = (int *)priv;
	if (tp__gp_done(tp) && !__atomic_load_n(&tp->tp__priv.retired, __ATOMIC_SEQ_CST))
		return 0;
	tp__lock(tp);
	tp__gp_poll(tp);
	if (!tp__gp_done(tp))
		(*pending)++;
	tp__unlock(tp);
	return 0;
}

/*
 * Returns once no probe unregistered before the call is running or can run
 * again.  Must not be called from inside a probe (it would wait for itself).
 */
/* Polls every tracepoint until no grace period is pending, at most
 * max_rounds times; 1 if none is pending. */
static inline int tp__sync_rounds(unsigned max_rounds)
{
	unsigned round;
	for (round = 0; round < max_rounds; round++) {
		int pending = 0;
		tracepoint_for_each(tp__sync_cb, &pending);
		if (!pending)
			return 1;
		tp__pause(round);
	}
	return 0;
}

static inline void tracepoint_synchronize_unregister(void)
{
	tp__process_hooks();
	tp__sync_rounds(~0u);
}

/* Batches of enables and disables: see tracepoint.h for the contract.
 * Inside a batch every registration still patches its own sites before it
 * returns (and still fails, attaching nothing, if they cannot be patched);
 * what the batch saves is the protection changes: each module's code
 * segment is made writable once, by the first patch in it, and given back
 * read+exec once, at the end of the last open batch. */
static inline int tracepoint_batch_begin(void)
{
	tp__process_hooks();
	__atomic_add_fetch(tp__batch_depth(), 1, __ATOMIC_SEQ_CST);
	return 0;
}

static inline int tracepoint_batch_end(void)
{
	int *depth = tp__batch_depth();
	int n = __atomic_load_n(depth, __ATOMIC_SEQ_CST), err = 0;
	do {
		if (n <= 0)
			return -EINVAL; /* no batch is open */
	} while (!__atomic_compare_exchange_n(depth, &n, n - 1, false, __ATOMIC_SEQ_CST,
					      __ATOMIC_SEQ_CST));
	if (n > 1)
		return 0; /* another batch is still open: it gives the code back */
#if TRACEPOINT_STATIC_KEYS
	tp__iterate_phdr(tp__batch_close_cb, &err);
#endif
	return err;
}

struct tp__count_sites {
	const struct tracepoint *tp;
	int n;
};

static inline int tp__count_sites_module(const struct tp__module *m, void *arg)
{
	struct tp__count_sites *c = (struct tp__count_sites *)arg;
	const struct tp__jump_entry *e;
	for (e = m->jump_start; e < m->jump_stop; e++)
		if (tp__jump_key(e) == c->tp)
			c->n++;
	return 0;
}

static inline int tp__count_sites_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	return tp__for_each_module(info, tp__count_sites_module, arg);
}

static inline int tracepoint_sites(const struct tracepoint *tp)
{
#if TRACEPOINT_STATIC_KEYS
	struct tp__count_sites c;
	if (!tp)
		return -EINVAL;
	c.tp = tp;
	c.n = 0;
	tp__iterate_phdr(tp__count_sites_cb, &c);
	return c.n;
#else
	(void)tp;
	return -ENOSYS;
#endif
}

static inline int tracepoint_probe_attached(const struct tracepoint *tp, tracepoint_func_t probe,
					    void *data)
{
	const struct tracepoint_probe *p;
	int found = 0;
	if (!tp || !probe)
		return -EINVAL;
	if (!tp__abi_ok(tp))
		return -EPROTO;
	/* Under the registration lock: a list is freed once no reader of the
	 * fast path holds it, and this is not one of those readers.  Entries
	 * are made stubs in place (unregister): atomic loads. */
	tp__lock((struct tracepoint *)(uintptr_t)tp);
	for (p = tp->funcs; p && !found; p++) {
		tracepoint_func_t f = __atomic_load_n(&p->func, __ATOMIC_ACQUIRE);
		if (!f)
			break;
		found = !__atomic_load_n(&p->dead, __ATOMIC_RELAXED) && f == probe &&
			p->data == data;
	}
	tp__unlock((struct tracepoint *)(uintptr_t)tp);
	return found;
}

#endif /* TP__REGISTRY_H */
