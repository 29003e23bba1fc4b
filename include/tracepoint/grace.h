/* SPDX-License-Identifier: MIT */
/*
 * tracepoint/grace.h - grace periods: when a replaced probe list may be freed.
 *
 * A probe list is never changed in place: a writer publishes a new one and
 * retires the old one, which is freed once no reader can still hold it.
 * Both sides of that contract are here, because each is only correct with
 * the other in view: the read side (tp__read_begin/tp__read_end, inlined
 * into every dispatch function) and the write side (allocate, publish,
 * retire, poll; called with the registration lock of modules.h held).  The
 * protocol is described at the top of tracepoint.h ("Grace periods").
 * TRACEPOINT_MALLOC and TRACEPOINT_FREE may be defined before including
 * tracepoint.h.
 *
 * Internal: included by tracepoint.h; depends on compiler.h and defs.h.
 */
#ifndef TRACEPOINT_H_INCLUDED
#error "tracepoint/grace.h is internal: #include <tracepoint.h> instead"
#elif !defined(TP__GRACE_H)
#define TP__GRACE_H

/* --- The read side of the grace period, inlined into each typed
 * dispatch function (external-linkage inline: referenced from C99 inline
 * definitions, so it must not be static). --- */
TP__ALWAYS_INLINE const struct tracepoint_probe *
tp__read_begin(struct tracepoint *tp, long **counter)
{
	long *c = __atomic_load_n(&tp->tp__priv.cur, __ATOMIC_RELAXED);
	*counter = c;
	__atomic_fetch_add(c, 1, __ATOMIC_SEQ_CST);
	return __atomic_load_n(&tp->funcs, __ATOMIC_SEQ_CST);
}

TP__ALWAYS_INLINE void tp__read_end(long *counter)
{
	__atomic_fetch_sub(counter, 1, __ATOMIC_RELEASE);
}

/* Probe lists come from here; tests define these to inject failures. */
#ifndef TRACEPOINT_MALLOC
#define TRACEPOINT_MALLOC(size) malloc(size)
#endif
#ifndef TRACEPOINT_FREE
#define TRACEPOINT_FREE(ptr) free(ptr)
#endif

/* --- The write side of the grace period.  Called with the lock
 * held; never waits, so it is safe from inside a probe. --- */
static inline void tp__gp_poll(struct tracepoint *tp)
{
	struct tp__probes **pp, *p;
	unsigned long seq = __atomic_load_n(&tp->tp__priv.seq, __ATOMIC_SEQ_CST);
	int round;

	for (round = 0; round < 2 && seq < tp->tp__priv.wait_seq; round++) {
		long *r = tp->tp__priv.readers[tp->tp__priv.gen];
		if (__atomic_load_n(&r[(seq + 1) & 1], __ATOMIC_SEQ_CST))
			break;
		seq++;
		__atomic_store_n(&tp->tp__priv.seq, seq, __ATOMIC_SEQ_CST);
		__atomic_store_n(&tp->tp__priv.cur, &r[seq & 1], __ATOMIC_SEQ_CST);
	}
	pp = &tp->tp__priv.retired;
	while ((p = *pp) != NULL) {
		if (seq >= p->seq + 2) {
			__atomic_store_n(pp, p->next, __ATOMIC_RELAXED);
			TRACEPOINT_FREE(p);
		} else {
			pp = &p->next;
		}
	}
}

/* Records that readers may still use what was just unpublished. */
static inline unsigned long tp__gp_mark(struct tracepoint *tp)
{
	unsigned long seq = __atomic_load_n(&tp->tp__priv.seq, __ATOMIC_SEQ_CST);
	__atomic_store_n(&tp->tp__priv.wait_seq, seq + 2, __ATOMIC_SEQ_CST);
	return seq;
}

static inline void tp__retire(struct tracepoint *tp, struct tracepoint_probe *old)
{
	struct tp__probes *h;
	if (!old)
		return;
	h = (struct tp__probes *)(void *)((char *)old - offsetof(struct tp__probes, probes));
	h->seq = tp__gp_mark(tp);
	h->next = tp->tp__priv.retired;
	__atomic_store_n(&tp->tp__priv.retired, h, __ATOMIC_SEQ_CST);
}

static inline struct tracepoint_probe *tp__alloc_probes(size_t n)
{
	struct tp__probes *h = (struct tp__probes *)TRACEPOINT_MALLOC(
		offsetof(struct tp__probes, probes) + (n + 1) * sizeof(struct tracepoint_probe));
	if (!h)
		return NULL;
	h->next = NULL;
	h->seq = 0;
	memset(h->probes, 0, (n + 1) * sizeof(struct tracepoint_probe));
	return h->probes;
}

static inline void tp__free_unpublished(struct tracepoint_probe *p)
{
	if (p)
		TRACEPOINT_FREE((char *)p - offsetof(struct tp__probes, probes));
}

static inline void tp__publish(struct tracepoint *tp, struct tracepoint_probe *p)
{
	struct tracepoint_probe *prev = tp->funcs;
	__atomic_store_n(&tp->funcs, p, __ATOMIC_SEQ_CST);
	if (!prev && p)
		__atomic_fetch_or(&tp->enabled, (unsigned short)TP__KEY_PROBES, __ATOMIC_SEQ_CST);
	else if (prev && !p)
		__atomic_fetch_and(&tp->enabled, (unsigned short)~TP__KEY_PROBES, __ATOMIC_SEQ_CST);
}

#endif /* TP__GRACE_H */
