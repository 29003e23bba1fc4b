/* SPDX-License-Identifier: MIT */
/*
 * trace/recorder/hist.h - hist triggers in the traced program: the
 * kernel's "hist:keys=...:vals=...:sort=...:size=N [if filter]" on an
 * event aggregates its events in place, into per-thread tables merged
 * when read; at exit each trigger's table goes to <trace>/hist/ (or to
 * stderr without a trace), and trace_recorder_hist_text() (the control
 * channel's `hist`) reads it at any time.
 *
 * Why a file: a hist trigger is a second consumer of an event's records
 * beside the stream writer; it has its own attachment (the event's probe
 * with data of its own), its own memory (tables sized up front) and its
 * own output.  The text, the table and the hist file are
 * trace/hist_core.h's, shared with tracepoint-dump --hist.
 *
 * The fire path (docs/hist.md#how-it-works): an event of fixed fields
 * is attached with its class's hist probe (struct
 * trace_event.hist_probe), which assigns the entry on its stack and calls
 * the trigger's struct trace_event_hook, tp__hist_hook_fire (or its
 * straight path for one 8-byte key, tp__hist_hook_fast1/n): nothing is
 * reserved.  An event with strings is attached with its recorder probe
 * and data of the trigger's (struct tp__hist.slot, whose sink is the
 * trigger's): the full reservation goes into a scratch window of the
 * thread's table and reaches the slot's filter hook, tp__hist_fire,
 * through trace_filter_match; the record is given back.  The hook adds
 * the event to the calling thread's
 * table: no lock, no allocation, no system call (but a thread's first
 * event claims its table: one compare-and-swap, gettid and the thread's
 * name), no store to another thread's cache lines (but :clear's request,
 * st.b[1], and the shared table of variables, recorder/hist_vars.h).
 *
 * Internal: included by trace/sink.h (TRACEPOINT_SINK_MAIN) after
 * recorder/filters.h; depends on recorder/state.h (messages, gettid, the
 * trace directory), tracepoint.h (tp__self), trace/trace_events.h (the
 * slot, the sink, the filter's program), trace/filter.h, trace/pattern.h,
 * trace/hist_core.h and the C library's dladdr() (.sym, at read time).
 * recorder/hist_spec.h makes and attaches the triggers;
 * recorder/ctl_commands.h reads them.
 */
#ifndef TP__SINK_DEFINED
#error "trace/recorder/hist.h is internal: #include <trace/sink.h> instead"
#elif !defined(TP__REC_HIST_H)
#define TP__REC_HIST_H

#ifdef MADV_DONTNEED
#define TP__HIST_MADV_DONTNEED MADV_DONTNEED
#else
#define TP__HIST_MADV_DONTNEED 4 /* Linux's; hidden by strict -std=c99 */
#endif
#ifdef MAP_NORESERVE
#define TP__HIST_MAP_NORESERVE MAP_NORESERVE
#else
#define TP__HIST_MAP_NORESERVE 0x4000
#endif

enum tp__hist_limits {
	TP__HIST_MAX = 64,	  /* triggers in a process */
	TP__HIST_THREADS = 64,	  /* tables of a trigger: threads that aggregate at once */
	TP__HIST_SCRATCH = 16384, /* a table's scratch window (events with strings) */
	TP__HIST_SCRATCH_AT = 16  /* where records start in it (a filter step reads 8 bytes back) */
};

/* How a key or value is read from an entry. */
enum tp__hist_how {
	TP__HIST_INT = 0,   /* off, size (1, 2, 4, 8), sgn */
	TP__HIST_CHARS = 1, /* off, len */
	TP__HIST_VSTR = 2,  /* the var-th field: a __string() */
	TP__HIST_TS = 3,
	TP__HIST_PID = 4,
	TP__HIST_TID = 5
};
struct tp__hist_acc {
	uint16_t off, len, var;
	uint8_t how, size, sgn;
};

/* One thread's table; its header on cache lines of its own. */
struct tp__hist_tab {
	struct trace_hist_table t;
	unsigned long owner; /* pthread_self() of its thread; 0: free */
	int tid;
	/* st.b[0]: its thread is adding an event (a signal handler's is then
	 * dropped); st.b[1]: :clear asked for the table to be emptied, which
	 * its thread does at its next event (readers meanwhile skip it).  The
	 * fire path tests both with one load, st.any. */
	union {
		unsigned char b[2];
		uint16_t any;
	} st;
	char comm[TRACE_HIST_COMM_BYTES]; /* the thread's name at its first event (.execname) */
	/* t's layout for tp__hist_fast: entries, hash shift, slot mask,
	 * bytes of an entry, the key's offset in it */
	unsigned char *base;
	unsigned shift, stride, key;
	size_t mask;
	struct trace_buffer scratch;
} __attribute__((aligned(64)));

struct tp__hist_vtab;  /* recorder/hist_vars.h */
struct tp__hist_synth; /* recorder/hist_vars.h */

/* Where a variable's operand or a synthetic event's parameter comes
 * from (recorder/hist_vars.h). */
enum tp__hist_src {
	TP__HIST_SRC_FIELD = 0, /* the event: acc */
	TP__HIST_SRC_SELF = 1,	/* a variable of this trigger, computed before */
	TP__HIST_SRC_MATCH = 2	/* a variable of onmatch's trigger, read once */
};
struct tp__hist_opnd {
	struct tp__hist_acc acc;
	const struct trace_hist_ref *ref; /* the field's modifiers (.usecs) */
	uint8_t src, idx;		  /* enum tp__hist_src; the variable */
};

struct tp__hist {
	struct trace_sink_base base;  /* first: the sink the probe's slot names */
	struct trace_event_sink slot; /* the recorder probe's data (events with strings) */
	struct trace_filter hookf;    /* the slot's "filter": its hook runs the trigger */
	struct tp__flt_op hookop;
	struct trace_event_hook hk; /* the hist probe's data (events of fixed fields) */
	/* What the trigger is attached with while attached: the event's hist
	 * probe and &hk, or its recorder probe and &slot. */
	tracepoint_func_t aprobe;
	void *adata;
	struct trace_hist_spec spec;
	struct trace_filter *filter; /* the trigger's 'if', or NULL */
	char *filter_text;
	char name[256]; /* system:event */
	struct tracepoint *tp;
	const struct trace_event *ev;
	struct tp__hist_acc kacc[TRACE_HIST_KEYS_MAX], vacc[TRACE_HIST_VALS_MAX];
	unsigned fixed, nfields; /* entry_size; fields (a __string's walk) */
	const struct trace_event_field *fields;
	int id, attached, has_ts, has_var;
	int removed;	     /* "!hist:...": detached, emptied and not shown until given again */
	unsigned fast_nvals; /* tp__hist_fast's sums */
	unsigned char *mem;  /* the tables' entries and scratch windows */
	size_t tab_bytes, mem_len;
	pthread_mutex_t lock;	       /* merging: exited threads' tables, readers */
	struct trace_hist_table gone;  /* what exited threads left */
	unsigned long long nothread;   /* events of threads that found no free table */
	char sys[TRACE_HIST_NAME_MAX]; /* the system's name ("synthetic" for those) */
	const char *evname;	       /* the event's, in name */
	/* Variables and onmatch (recorder/hist_vars.h); all NULL / 0 without */
	int vars_on;		      /* the fire path calls tp__hist_vars_fire */
	struct tp__hist_vtab *vt;     /* variables saved for a matching event */
	struct tp__hist *match;	      /* onmatch's trigger */
	struct tp__hist_synth *synth; /* onmatch's trace(): the synthetic event */
	struct tp__hist_synth *on;    /* the synthetic event this trigger is on */
	struct tp__hist_opnd vop[TRACE_HIST_VARS_MAX][2];
	struct tp__hist_opnd par[TRACE_HIST_PARAMS_MAX];
	unsigned long long unmatched; /* events whose key onmatch's trigger did not hold */
	struct tp__hist_tab tabs[TP__HIST_THREADS];
};

static struct tp__hist *tp__hist_all[TP__HIST_MAX];
static unsigned tp__hist_n;
static int tp__hist_pid;
static pthread_key_t tp__hist_key;
static pthread_once_t tp__hist_once = PTHREAD_ONCE_INIT;
/* A thread's table of each trigger; before its first event, a table of
 * no one, always "to be emptied" (st.b[1], set when the first trigger is
 * made), so that the fire path's one test of st.any also sends a thread's
 * first event to tp__hist_fire_odd, which claims a table. */
static struct tp__hist_tab tp__hist_none;
#define TP__HIST_NONE4 &tp__hist_none, &tp__hist_none, &tp__hist_none, &tp__hist_none
#define TP__HIST_NONE16 TP__HIST_NONE4, TP__HIST_NONE4, TP__HIST_NONE4, TP__HIST_NONE4
TP__STATIC_ASSERT(TP__HIST_MAX == 64, "tp__hist_mine's initializer has 64 entries",
		  tp__hist_mine_has_64);
static __thread struct tp__hist_tab *tp__hist_mine[TP__HIST_MAX] = {
	TP__HIST_NONE16, TP__HIST_NONE16, TP__HIST_NONE16, TP__HIST_NONE16
};

/* recorder/hist_vars.h: an event's variables, its match, its synthetic
 * event; 0 when onmatch's trigger holds no entry of the key (the event
 * is then not aggregated). */
static int tp__hist_vars_fire(struct tp__hist *h, struct tp__hist_tab *tb, const unsigned char *e,
			      const uint64_t *key);
/* ... the variables that did not fit its shared table; that table emptied
 * in a forked child. */
static unsigned long long tp__hist_vars_dropped(const struct tp__hist *h);
static void tp__hist_vars_atfork(struct tp__hist *h);
/* ... and emptied by :clear. */
static void tp__hist_vars_clear(struct tp__hist *h);

/* ---- The fire path. ---- */

static struct tp__hist_tab *tp__hist_claim(struct tp__hist *h)
{
	unsigned long me = tp__self();
	unsigned i;
	for (i = 0; i < TP__HIST_THREADS; i++) {
		unsigned long free_ = 0;
		struct tp__hist_tab *tb = &h->tabs[i];
		if (__atomic_load_n(&tb->owner, __ATOMIC_RELAXED) == 0 &&
		    __atomic_compare_exchange_n(&tb->owner, &free_, me, 0, __ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED)) {
			tb->tid = tp__sink_gettid();
			memset(tb->comm, 0, sizeof(tb->comm));
			prctl(PR_GET_NAME, tb->comm); /* 16 bytes, NUL-terminated */
			tp__hist_mine[h->id] = tb;
			pthread_setspecific(tp__hist_key,
					    (void *)tb); /* non-NULL: the exit handler runs */
			return tb;
		}
	}
	return NULL;
}

/* An integer of 1, 2, 4 or 8 bytes at p, sign-extended if sgn. */
static TP__ALWAYS_INLINE uint64_t tp__hist_int(const unsigned char *p, unsigned size, int sgn)
{
	switch (size) {
	case 1:
		return sgn ? (uint64_t)(int64_t)(int8_t)p[0] : p[0];
	case 2: {
		uint16_t v;
		memcpy(&v, p, 2);
		return sgn ? (uint64_t)(int64_t)(int16_t)v : v;
	}
	case 4: {
		uint32_t v;
		memcpy(&v, p, 4);
		return sgn ? (uint64_t)(int64_t)(int32_t)v : v;
	}
	default: {
		uint64_t v;
		memcpy(&v, p, 8);
		return v;
	}
	}
}

/* The var-th field (a __string()) of a record's payload e[0..size). */
static const char *tp__hist_vstr(const struct tp__hist *h, unsigned var, const unsigned char *e,
				 size_t size, size_t *n)
{
	return tp__ev_var_text(h->fields, h->nfields, h->fixed, var, e, size, n);
}

static uint64_t tp__hist_num(const struct tp__hist *h, const struct tp__hist_acc *a,
			     const struct tp__hist_tab *tb, const unsigned char *e)
{
	struct timespec ts;
	switch (a->how) {
	case TP__HIST_INT:
		return tp__hist_int(e + a->off, a->size, a->sgn);
	case TP__HIST_TS:
		clock_gettime(TP__EV_CLOCK_MONOTONIC, &ts);
		return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	case TP__HIST_PID:
		return (uint64_t)(int64_t)tp__hist_pid;
	default:
		(void)h;
		return (uint64_t)(int64_t)tb->tid;
	}
}

/* Empties tb, its thread's table (:clear asked for it), and says so. */
static void tp__hist_tab_empty(struct tp__hist *h, struct tp__hist_tab *tb)
{
	tb->st.b[0] = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	memset(tb->t.w, 0, h->tab_bytes);
	tb->t.count = 0;
	__atomic_store_n(&tb->t.dropped, 0ull, __ATOMIC_RELAXED);
	__atomic_store_n(&tb->st.b[1], (unsigned char)0, __ATOMIC_RELEASE);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	tb->st.b[0] = 0;
}

/* The trigger that holds member *p.  The empty asm hides where the pointer
 * came from: gcc's -Warray-bounds (under -fsanitize=address) otherwise
 * takes the hook for an array and the step back for an access before it. */
static TP__ALWAYS_INLINE struct tp__hist *tp__hist_of(const void *p, size_t off)
{
	uintptr_t a = (uintptr_t)p;
	__asm__("" : "+r"(a));
	return (struct tp__hist *)(void *)(a - off);
}
#define TP__HIST_OF(p, member) tp__hist_of((p), offsetof(struct tp__hist, member))

/* An event that found its table busy (a signal handler interrupted an
 * event: dropped), to be emptied (emptied, then added) or none yet (the
 * thread's first: a table claimed, then added); out of line. */
static __attribute__((noinline, cold)) int tp__hist_fire_odd(const struct trace_filter *f,
							     const void *entry, size_t size)
{
	struct tp__hist *h = TP__HIST_OF(f, hookf);
	struct tp__hist_tab *tb = tp__hist_mine[h->id];
	if (tb == &tp__hist_none) {
		if (!tp__hist_claim(h)) {
			__atomic_fetch_add(&h->nothread, 1, __ATOMIC_RELAXED);
			return 0;
		}
	} else if (tb->st.b[0]) {
		__atomic_store_n(&tb->t.dropped, tb->t.dropped + 1, __ATOMIC_RELAXED);
		return 0;
	} else {
		tp__hist_tab_empty(h, tb);
	}
	return h->hookf.hook(f, entry, size);
}

/* The hook: adds one event (its entry e[0..size)) to the thread's table.
 * Returns 0: the record (events with strings: in the scratch window) is
 * given back. */
static int tp__hist_fire(const struct trace_filter *f, const void *entry, size_t size)
{
	struct tp__hist *h = TP__HIST_OF(f, hookf);
	const unsigned char *e = (const unsigned char *)entry;
	struct tp__hist_tab *tb = tp__hist_mine[h->id];
	uint64_t key[TRACE_HIST_KEYS_MAX * TRACE_HIST_STR_WORDS], vals[TRACE_HIST_VALS_MAX], *slot;
	unsigned k;
	if (__builtin_expect(tb->st.any, 0))
		return tp__hist_fire_odd(f, entry, size);
	tb->st.b[0] = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (h->filter && !trace_filter_match(h->filter, entry, size))
		goto out;
	for (k = 0; k < h->spec.nkeys; k++) {
		const struct tp__hist_acc *a = &h->kacc[k];
		uint64_t *w = key + h->spec.key[k].word;
		if (a->how == TP__HIST_CHARS) {
			trace_hist_key_str(w, (const char *)e + a->off, a->len);
		} else if (a->how == TP__HIST_VSTR) {
			size_t n;
			const char *s = tp__hist_vstr(h, a->var, e, size, &n);
			trace_hist_key_str(w, s, n);
		} else {
			*w = trace_hist_key_num(&h->spec.key[k], tp__hist_num(h, a, tb, e));
			if (h->spec.key[k].mods & TRACE_HIST_M_EXECNAME)
				memcpy(w + 1, tb->comm, TRACE_HIST_COMM_BYTES);
		}
	}
	if (h->vars_on && !tp__hist_vars_fire(h, tb, e, key))
		goto out;
	for (k = 0; k < h->spec.nvals; k++)
		vals[k] = trace_hist_key_num(&h->spec.val[k], tp__hist_num(h, &h->vacc[k], tb, e));
	slot = trace_hist_table_find(&tb->t, key, trace_hist_hash(key, h->spec.keywords));
	if (slot)
		trace_hist_table_add(&tb->t, slot, 1, vals);
	else
		__atomic_store_n(&tb->t.dropped, tb->t.dropped + 1, __ATOMIC_RELAXED);
out:
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	tb->st.b[0] = 0;
	return 0;
}

/* The common case, straight: one 8-byte key without modifier, 8-byte sums,
 * no 'if' (see tp__hist_make).  The same table as the general hook's, but
 * its own placement (Fibonacci hashing: the key times 2^64 / phi, its top
 * bits), so it is the only one that adds to its tables (readers and the
 * thread-exit merge walk every slot and never look a key up in them).
 * What it reads of its table is precomputed (struct tp__hist_tab: base,
 * shift, mask, stride and key in bytes). */
static int tp__hist_fire_fast1(const struct trace_filter *f, const void *entry, size_t size);
static int tp__hist_fire_fastn(const struct trace_filter *f, const void *entry, size_t size);

static void tp__hist_hook_odd(const struct trace_event_hook *hk, const void *entry);

/* The straight path of trigger h, for nv sums (1, or -1: h->fast_nvals);
 * it reads no string, so needs not the record's size.  hk: h->hk when
 * called as the hist probe's hook (the odd case goes out of line with
 * what the hook got, in the same registers), else NULL. */
static TP__ALWAYS_INLINE void tp__hist_fast(const struct tp__hist *h,
					    const struct trace_event_hook *hk, const void *entry,
					    const int nv)
{
	const unsigned char *e = (const unsigned char *)entry;
	struct tp__hist_tab *tb = tp__hist_mine[h->id];
	uint64_t k, hits, *en;
	size_t i, stride;
	unsigned j, koff;
	if (__builtin_expect(tb->st.any, 0)) {
		if (hk)
			tp__hist_hook_odd(hk, entry);
		else
			tp__hist_fire_odd(&h->hookf, entry, h->fixed);
		return;
	}
	tb->st.b[0] = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	/* one sum: the entry's layout is known here (hitcount, sum, key) */
	stride = nv == 1 ? 3 * sizeof(uint64_t) : tb->stride;
	koff = nv == 1 ? 2 * sizeof(uint64_t) : tb->key;
	memcpy(&k, e + h->kacc[0].off, sizeof(k));
	i = (size_t)((k * 0x9E3779B97F4A7C15ull) >> tb->shift);
	for (;;) {
		en = (uint64_t *)(void *)(tb->base + i * stride);
		hits = en[0]; /* its thread's own: read once */
		if (__builtin_expect(en[koff / 8u] == k, 1)) {
			if (__builtin_expect(hits != 0, 1))
				break;
			goto fresh; /* key 0 in an empty slot */
		}
		if (hits == 0)
			goto fresh;
		i = (i + 1) & tb->mask;
	}
add:
	for (j = 0; j < (nv < 0 ? h->fast_nvals : (unsigned)nv); j++) {
		uint64_t v;
		memcpy(&v, e + h->vacc[j].off, sizeof(v));
		__atomic_store_n(&en[1 + j], en[1 + j] + v, __ATOMIC_RELAXED);
	}
	__atomic_store_n(&en[0], hits + 1, __ATOMIC_RELEASE);
out:
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	tb->st.b[0] = 0;
	return;
fresh: /* an empty slot: the key's, if the table has room */
	if (tb->t.count >= tb->t.size) {
		__atomic_store_n(&tb->t.dropped, tb->t.dropped + 1, __ATOMIC_RELAXED);
		goto out;
	}
	en[koff / 8u] = k;
	tb->t.count++;
	goto add;
}

/* As the filter's hook (the recorder probe's hand-over, and synthetic
 * events). */
static int tp__hist_fire_fast1(const struct trace_filter *f, const void *entry, size_t size)
{
	(void)size;
	tp__hist_fast(TP__HIST_OF(f, hookf), NULL, entry, 1);
	return 0;
}

static int tp__hist_fire_fastn(const struct trace_filter *f, const void *entry, size_t size)
{
	(void)size;
	tp__hist_fast(TP__HIST_OF(f, hookf), NULL, entry, -1);
	return 0;
}

/* As the hist probe's hook (struct trace_event_hook: an event of fixed
 * fields, its entry on the probe's stack; h->fixed bytes). */
static void tp__hist_hook_fast1(const struct trace_event_hook *hk, const void *entry)
{
	tp__hist_fast(TP__HIST_OF(hk, hk), hk, entry, 1);
}

static void tp__hist_hook_fastn(const struct trace_event_hook *hk, const void *entry)
{
	tp__hist_fast(TP__HIST_OF(hk, hk), hk, entry, -1);
}

static __attribute__((noinline, cold)) void tp__hist_hook_odd(const struct trace_event_hook *hk,
							      const void *entry)
{
	const struct tp__hist *h = TP__HIST_OF(hk, hk);
	tp__hist_fire_odd(&h->hookf, entry, h->fixed);
}

static void tp__hist_hook_fire(const struct trace_event_hook *hk, const void *entry)
{
	const struct tp__hist *h = TP__HIST_OF(hk, hk);
	tp__hist_fire(&h->hookf, entry, h->fixed);
}

/* The sink's side, for events with strings (the full reservation): the
 * thread's scratch window, which no commit ever advances. */
static struct trace_buffer *tp__hist_thread_buffer(struct trace_sink_base *s)
{
	struct tp__hist *h = (struct tp__hist *)(void *)s;
	struct tp__hist_tab *tb = tp__hist_mine[h->id];
	if (tb == &tp__hist_none && !(tb = tp__hist_claim(h))) {
		__atomic_fetch_add(&h->nothread, 1, __ATOMIC_RELAXED);
		return NULL;
	}
	return &tb->scratch;
}

static int tp__hist_next_window(struct trace_sink_base *s, struct trace_buffer *b, uint64_t ts,
				size_t need)
{
	struct tp__hist_tab *tb =
		(struct tp__hist_tab *)(void *)((char *)b - offsetof(struct tp__hist_tab, scratch));
	(void)s;
	b->last_ts = ts;
	if (need > TP__HIST_SCRATCH - TP__HIST_SCRATCH_AT) { /* counted as the table's */
		__atomic_store_n(&tb->t.dropped, tb->t.dropped + 1, __ATOMIC_RELAXED);
		return -1;
	}
	return 0;
}

/* ---- Attaching. ---- */

/* Attaches h to tp: with ev's hist probe for an event of fixed fields
 * (the entry goes from the probe's stack to h->hk's hook), else with its
 * recorder probe (a scratch record handed to the slot's filter hook).
 * What tracepoint_probe_register returns. */
static int tp__hist_probe_attach(struct tp__hist *h, struct tracepoint *tp,
				 const struct trace_event *ev)
{
	int hp = !h->has_var && ev->hist_probe;
	h->aprobe = hp ? ev->hist_probe : ev->probe;
	h->adata = hp ? (void *)&h->hk : (void *)&h->slot;
	return tracepoint_probe_register(tp, h->aprobe, h->adata);
}

static int tp__hist_probe_detach(struct tp__hist *h, struct tracepoint *tp)
{
	return tracepoint_probe_unregister(tp, h->aprobe, h->adata);
}

/* ---- Threads, fork. ---- */

/* Tests only (tests/recorder/hist/churn.c): runs in an exiting thread
 * just after it gave its table back, to hold it there while other
 * threads claim the table. */
#ifndef TP__HIST_TEST_FREED
#define TP__HIST_TEST_FREED() ((void)0)
#endif

/* A thread's exit: its tables are merged into their triggers' `gone`
 * tables and freed for other threads. */
static void tp__hist_thread_exit(void *arg)
{
	unsigned i, n = __atomic_load_n(&tp__hist_n, __ATOMIC_ACQUIRE);
	(void)arg;
	for (i = 0; i < n; i++) {
		struct tp__hist *h = tp__hist_all[i];
		struct tp__hist_tab *tb = tp__hist_mine[i];
		if (tb == &tp__hist_none)
			continue;
		tb->st.b[0] = 1;
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		pthread_mutex_lock(&h->lock);
		if (!__atomic_load_n(&tb->st.b[1], __ATOMIC_ACQUIRE)) /* else cleared */
			trace_hist_table_merge(&h->gone, &tb->t);
		memset(tb->t.w, 0, h->tab_bytes);
		tb->t.count = 0;
		tb->t.dropped = 0;
		tp__hist_mine[i] = &tp__hist_none; /* a handler from here on claims another */
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		/* Not busy and not to be emptied before it is free: a thread
		 * that claims it at once would take it for busy and drop its
		 * events while this one is held up (seen under load). */
		__atomic_store_n(&tb->st.b[1], (unsigned char)0, __ATOMIC_RELAXED);
		__atomic_store_n(&tb->st.b[0], (unsigned char)0, __ATOMIC_RELAXED);
		__atomic_store_n(&tb->owner, 0ul, __ATOMIC_RELEASE);
		TP__HIST_TEST_FREED();
		pthread_mutex_unlock(&h->lock);
	}
}

/* A forked child starts with empty tables; the forking thread keeps its
 * own (the others' threads do not exist in the child). */
static void tp__hist_atfork_child(void)
{
	unsigned i, j, n = __atomic_load_n(&tp__hist_n, __ATOMIC_ACQUIRE);
	unsigned long me = tp__self();
	tp__hist_pid = (int)getpid();
	for (i = 0; i < n; i++) {
		struct tp__hist *h = tp__hist_all[i];
		pthread_mutex_init(&h->lock, NULL);
		madvise(h->mem, h->mem_len, TP__HIST_MADV_DONTNEED); /* private anonymous: zeros */
		h->gone.count = 0;
		h->gone.dropped = 0;
		h->nothread = 0;
		h->unmatched = 0;
		tp__hist_vars_atfork(h);
		for (j = 0; j < TP__HIST_THREADS; j++) {
			struct tp__hist_tab *tb = &h->tabs[j];
			tb->t.count = 0;
			tb->t.dropped = 0;
			tb->st.any = 0;
			if (tb->owner == me)
				tb->tid = (int)getpid();
			else
				tb->owner = 0;
		}
	}
}

static void tp__hist_setup(void)
{
	tp__hist_none.st.b[1] = 1;
	tp__hist_pid = (int)getpid();
	pthread_key_create(&tp__hist_key, tp__hist_thread_exit);
	pthread_atfork(NULL, NULL, tp__hist_atfork_child);
}

/* ---- Making a trigger for one event. ---- */

/* The event's fields as trace/hist_core.h sees them (f[0..n)). */
static void tp__hist_fdescs(const struct trace_event_field *fl, unsigned n,
			    struct trace_hist_fdesc *f)
{
	unsigned k;
	for (k = 0; k < n; k++) {
		const struct trace_event_field *x = &fl[k];
		f[k].name = x->name;
		f[k].is_signed = x->is_signed;
		f[k].kind = 0;
		if ((x->kind == TRACE_FIELD_INT || x->kind == TRACE_FIELD_PTR) && !x->array_len &&
		    (x->size == 1 || x->size == 2 || x->size == 4 || x->size == 8))
			f[k].kind = TRACE_HIST_F_INT;
		else if (x->kind == TRACE_FIELD_STRING ||
			 (x->kind == TRACE_FIELD_INT && x->array_len && x->size == x->array_len &&
			  (!strcmp(x->type, "char") || !strcmp(x->type, "const char"))))
			f[k].kind = TRACE_HIST_F_STR;
	}
}

static void tp__hist_acc_of(const struct trace_hist_ref *r, const struct trace_event_field *fl,
			    struct tp__hist_acc *a)
{
	memset(a, 0, sizeof(*a));
	if (r->field == TRACE_HIST_COMMON_TIMESTAMP) {
		a->how = TP__HIST_TS;
	} else if (r->field == TRACE_HIST_COMMON_PID) {
		a->how = TP__HIST_PID;
	} else if (r->field == TRACE_HIST_COMMON_TID) {
		a->how = TP__HIST_TID;
	} else if (fl[r->field].kind == TRACE_FIELD_STRING) {
		a->how = TP__HIST_VSTR;
		a->var = (uint16_t)r->field;
	} else if (r->kind == TRACE_HIST_F_STR) {
		a->how = TP__HIST_CHARS;
		a->off = fl[r->field].offset;
		a->len = fl[r->field].array_len;
	} else {
		a->how = TP__HIST_INT;
		a->off = fl[r->field].offset;
		a->size = (uint8_t)fl[r->field].size;
		a->sgn = fl[r->field].is_signed;
	}
}

/* Parses trig[0..tlen) (and compiles ftext, or NULL, with the labels of
 * the class's symbols, or NULL: none) for ev: 0, or -EINVAL with *pos in
 * the trigger (*in_filter: in the filter) and why. */
static int tp__hist_compile(const struct trace_event_field *fl, unsigned n, unsigned entry_size,
			    void (*symbols)(trace_print_symbols_fn, void *), const char *trig,
			    size_t tlen, const char *ftext, struct trace_hist_spec *spec,
			    struct trace_filter **prog, size_t *pos, int *in_filter, char *why,
			    size_t whylen)
{
	struct trace_hist_fdesc fd[256];
	*prog = NULL;
	*in_filter = 0;
	if (n > 256)
		n = 256;
	tp__hist_fdescs(fl, n, fd);
	if (trace_hist_parse(trig, tlen, fd, n, spec, pos, why, whylen) != 0)
		return -EINVAL;
	if (ftext &&
	    tp__flt_compile(ftext, fl, n, entry_size, symbols, prog, pos, why, whylen) != 0) {
		*in_filter = 1;
		return -EINVAL;
	}
	return 0;
}

static size_t tp__hist_round(size_t n)
{
	return (n + 4095u) & ~(size_t)4095u;
}

/* A new trigger (not attached yet) on the event ev of tp, or (ev and tp
 * NULL) on an event without a tracepoint, a synthetic one: its fields
 * fl[0..n), entry_size, system and name; NULL (out of memory or
 * triggers). */
static struct tp__hist *tp__hist_make(struct tracepoint *tp, const struct trace_event *ev,
				      const struct trace_event_field *fl, unsigned n,
				      unsigned entry_size, const char *system, const char *evname,
				      const struct trace_hist_spec *spec, struct trace_filter *prog,
				      const char *ftext)
{
	struct tp__hist *h;
	unsigned k;
	size_t scratch;
	int has_var = 0;
	pthread_once(&tp__hist_once, tp__hist_setup);
	if (tp__hist_n == TP__HIST_MAX) {
		tp__sink_msg("hist: at most %d triggers in a process", TP__HIST_MAX);
		return NULL;
	}
	if (!(h = (struct tp__hist *)calloc(1, sizeof(*h))))
		return NULL;
	for (k = 0; k < n; k++)
		has_var |= fl[k].kind == TRACE_FIELD_STRING || fl[k].kind == TRACE_FIELD_DYNAMIC;
	h->spec = *spec;
	h->tab_bytes = tp__hist_round(trace_hist_table_bytes(spec));
	scratch = has_var ? TP__HIST_SCRATCH : 0;
	h->mem_len = (TP__HIST_THREADS + 1) * h->tab_bytes + TP__HIST_THREADS * scratch;
	h->mem = (unsigned char *)mmap(NULL, h->mem_len, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS | TP__HIST_MAP_NORESERVE, -1, 0);
	if (h->mem == (unsigned char *)MAP_FAILED) {
		free(h);
		return NULL;
	}
	if (ftext && !(h->filter_text = strdup(ftext))) {
		munmap(h->mem, h->mem_len);
		free(h);
		return NULL;
	}
	h->filter = prog;
	h->tp = tp;
	h->ev = ev;
	h->fields = fl;
	h->nfields = n;
	h->fixed = entry_size;
	snprintf(h->name, sizeof(h->name), "%s:%s", system, evname);
	snprintf(h->sys, sizeof(h->sys), "%s", system);
	h->evname = h->name + strlen(h->sys) + 1;
	for (k = 0; k < spec->nkeys; k++) {
		tp__hist_acc_of(&spec->key[k], fl, &h->kacc[k]);
		h->has_ts |= h->kacc[k].how == TP__HIST_TS;
	}
	for (k = 0; k < spec->nvals; k++)
		tp__hist_acc_of(&spec->val[k], fl, &h->vacc[k]);
	pthread_mutex_init(&h->lock, NULL);
	trace_hist_table_init(&h->gone, spec, h->mem);
	for (k = 0; k < TP__HIST_THREADS; k++) {
		struct tp__hist_tab *tb = &h->tabs[k];
		unsigned char *sm = h->mem + (TP__HIST_THREADS + 1) * h->tab_bytes + k * scratch;
		trace_hist_table_init(&tb->t, spec, h->mem + (k + 1) * h->tab_bytes);
		tb->base = (unsigned char *)tb->t.w;
		tb->shift = 64 - tb->t.bits;
		tb->mask = ((size_t)1 << tb->t.bits) - 1;
		tb->stride = tb->t.stride * 8u;
		tb->key = (1 + spec->nvals) * 8u;
		tb->scratch.sink = &h->base;
		if (scratch) {
			tb->scratch.pos = sm + TP__HIST_SCRATCH_AT;
			tb->scratch.end = sm + TP__HIST_SCRATCH;
		}
	}
	h->base.thread_buffer = tp__hist_thread_buffer;
	h->base.next_window = tp__hist_next_window;
	h->base.clock = TRACE_CLOCK_COUNTER;
	h->hookop.kind = TP__FLT_STR;
	h->hookop.str = "";
	h->hookop.load_at = -8;
	h->hookop.offset = 0xffff;
	h->hookop.next[0] = h->hookop.next[1] = TP__FLT_DROP;
	h->hookop.call[0] = h->hookop.call[1] = TP__FLT_CALL;
	h->hookf.ops = &h->hookop;
	h->hookf.nops = 1;
	h->hookf.first = &h->hookop;
	h->hookf.fixed = entry_size;
	h->hookf.text = h->spec.text;
	h->hookf.fields = fl;
	h->hookf.nfields = n;
	h->hookf.hook = tp__hist_fire;
	{
		int fast = !prog && !spec->nvars && !spec->has_onmatch && spec->nkeys == 1 &&
			   h->kacc[0].how == TP__HIST_INT && h->kacc[0].size == 8 &&
			   !(spec->key[0].mods & ~(unsigned)(TRACE_HIST_M_HEX | TRACE_HIST_M_SYM |
							     TRACE_HIST_M_SYMOFF));
		for (k = 0; k < spec->nvals; k++)
			fast &= h->vacc[k].how == TP__HIST_INT && h->vacc[k].size == 8;
		h->hk.fn = tp__hist_hook_fire;
		if (fast) {
			h->fast_nvals = spec->nvals;
			h->hookf.hook =
				spec->nvals == 1 ? tp__hist_fire_fast1 : tp__hist_fire_fastn;
			h->hk.fn = spec->nvals == 1 ? tp__hist_hook_fast1 : tp__hist_hook_fastn;
		}
	}
	h->has_var = has_var;
	h->slot.sink = &h->base;
	h->slot.id = 0;
	h->slot.event = ev;
	h->slot.filter = &h->hookf;
	h->id = (int)tp__hist_n;
	tp__hist_all[tp__hist_n] = h;
	__atomic_store_n(&tp__hist_n, tp__hist_n + 1,
			 __ATOMIC_RELEASE); /* never freed: probes may run */
	return h;
}

/* ---- Reading. ---- */

/* .sym and .sym-offset, at read time: the program's own dynamic symbols
 * (an executable's functions are among them when linked with -rdynamic),
 * found with trace/print_helpers.h's dladdr (which %ps uses too). */
static void tp__hist_sym(void *priv, uint64_t addr, int with_offset, char *buf, size_t len)
{
	struct tp__ev_dl_info di;
	(void)priv;
	memset(&di, 0, sizeof(di));
	if (!addr || !tp__ev_dladdr || !tp__ev_dladdr((const void *)(uintptr_t)addr, &di) ||
	    !di.dli_sname)
		return;
	if (with_offset)
		snprintf(buf, len, "%s+0x%llx", di.dli_sname,
			 (unsigned long long)(addr - (uint64_t)(uintptr_t)di.dli_saddr));
	else
		snprintf(buf, len, "%s", di.dli_sname);
}

/* 1 if h and g share their table (name=, the same name). */
static int tp__hist_shares(const struct tp__hist *h, const struct tp__hist *g)
{
	return h == g || (h->spec.hname[0] && !strcmp(h->spec.hname, g->spec.hname));
}

/* Adds what h's tables hold to m. */
static void tp__hist_merge_into(struct trace_hist_table *m, struct tp__hist *h)
{
	unsigned k;
	pthread_mutex_lock(&h->lock);
	trace_hist_table_merge(m, &h->gone);
	for (k = 0; k < TP__HIST_THREADS; k++) {
		struct tp__hist_tab *tb = &h->tabs[k];
		if (!__atomic_load_n(&tb->owner, __ATOMIC_ACQUIRE) ||
		    __atomic_load_n(&tb->st.b[1], __ATOMIC_ACQUIRE)) /* empty, or to be */
			continue;
		trace_hist_table_merge(m, &tb->t);
		m->dropped += __atomic_load_n(&tb->scratch.dropped, __ATOMIC_RELAXED);
	}
	m->dropped += __atomic_load_n(&h->nothread, __ATOMIC_RELAXED) + tp__hist_vars_dropped(h);
	pthread_mutex_unlock(&h->lock);
}

/* :clear of h (and of the triggers sharing its table): the table of the
 * threads gone and the saved variables emptied now, each thread's table
 * at its next event (readers leave it out meanwhile). */
static void tp__hist_clear_one(struct tp__hist *g)
{
	unsigned k;
	pthread_mutex_lock(&g->lock);
	memset(g->gone.w, 0, g->tab_bytes);
	g->gone.count = 0;
	g->gone.dropped = 0;
	__atomic_store_n(&g->nothread, 0ull, __ATOMIC_RELAXED);
	tp__hist_vars_clear(g);
	for (k = 0; k < TP__HIST_THREADS; k++)
		if (__atomic_load_n(&g->tabs[k].owner, __ATOMIC_ACQUIRE))
			__atomic_store_n(&g->tabs[k].st.b[1], (unsigned char)1, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&g->lock);
}

static void tp__hist_clear(struct tp__hist *h)
{
	unsigned i, n = __atomic_load_n(&tp__hist_n, __ATOMIC_ACQUIRE);
	for (i = 0; i < n; i++)
		if (tp__hist_shares(h, tp__hist_all[i]))
			tp__hist_clear_one(tp__hist_all[i]);
}

/* The hist file of h: malloc()ed text, or NULL. */
static char *tp__hist_text(struct tp__hist *h)
{
	struct trace_hist_table m;
	void *mem = calloc(1, h->tab_bytes);
	char *txt;
	unsigned i, n = __atomic_load_n(&tp__hist_n, __ATOMIC_ACQUIRE);
	if (!mem)
		return NULL;
	trace_hist_table_init(&m, &h->spec, mem);
	for (i = 0; i < n; i++) /* h's tables, and those sharing them (name=) */
		if (tp__hist_shares(h, tp__hist_all[i]))
			tp__hist_merge_into(&m, tp__hist_all[i]);
	txt = trace_hist_format_sym(&h->spec, &m, h->filter_text,
				    __atomic_load_n(&h->attached, __ATOMIC_RELAXED) ? "active"
										    : "paused",
				    NULL, tp__hist_sym, NULL);
	free(mem);
	return txt;
}

static int tp__hist_selected(const struct tp__hist *h, const char *patterns)
{
	struct tp__hist_sel {
		const struct tp__hist *h;
		int hit;
	} q;
	if (!patterns || !*patterns)
		return 1;
	q.h = h;
	q.hit = 0;
	{
		const char *p = patterns;
		size_t at = 0;
		while (p[at]) {
			size_t b = at, e;
			while (p[at] && p[at] != ',')
				at++;
			e = at;
			while (b < e && tp__pat_is_space(p[b]))
				b++;
			while (e > b && tp__pat_is_space(p[e - 1]))
				e--;
			if (e > b && trace_pattern_match(p + b, e - b, h->sys, h->evname))
				q.hit = 1;
			if (p[at])
				at++;
		}
	}
	return q.hit;
}

TRACEPOINT_SINK_API char *trace_recorder_hist_text(const char *patterns)
{
	struct tp__text o;
	unsigned i, n = __atomic_load_n(&tp__hist_n, __ATOMIC_ACQUIRE);
	memset(&o, 0, sizeof(o));
	tp__text_put(&o, "%s", "");
	for (i = 0; i < n; i++) {
		char *t;
		if (__atomic_load_n(&tp__hist_all[i]->removed, __ATOMIC_ACQUIRE) ||
		    !tp__hist_selected(tp__hist_all[i], patterns))
			continue;
		t = tp__hist_text(tp__hist_all[i]);
		tp__text_put(&o, "# %s\n%s\n", tp__hist_all[i]->name, t ? t : "(out of memory)\n");
		free(t);
	}
	if (o.oom) {
		free(o.p);
		return NULL;
	}
	return o.p;
}

TRACEPOINT_SINK_API int trace_recorder_hist_print(const char *patterns, FILE *out)
{
	char *t = trace_recorder_hist_text(patterns);
	int r;
	if (!t)
		return -ENOMEM;
	r = fputs(t, out ? out : stderr) < 0 ? -EIO : 0;
	free(t);
	return r;
}

/* At exit: each trigger's hist file into <trace>/hist/ (system:event,
 * then system:event-2 ... for more triggers on one event), or to stderr
 * when no trace is recorded. */
__attribute__((destructor(101))) static void tp__hist_end(void)
{
	unsigned i, n = __atomic_load_n(&tp__hist_n, __ATOMIC_ACQUIRE);
	char dir[TP__SINK_PATH_MAX + 8];
	int to_dir = 0;
	if (!n)
		return;
	if (__atomic_load_n(&tp__sink.recording, __ATOMIC_ACQUIRE) && tp__sink.dir[0] &&
	    tp__sink.nslots) {
		snprintf(dir, sizeof(dir), "%s/hist", tp__sink.dir);
		to_dir = mkdir(dir, 0755) == 0 || errno == EEXIST;
	}
	for (i = 0; i < n; i++) {
		struct tp__hist *h = tp__hist_all[i];
		char *t, path[TP__SINK_PATH_MAX + 300];
		int fd = -1, k;
		if (__atomic_load_n(&h->removed, __ATOMIC_ACQUIRE) || !(t = tp__hist_text(h)))
			continue;
		for (k = 1; to_dir && fd < 0 && k < 100; k++) {
			if (k == 1)
				snprintf(path, sizeof(path), "%s/%s", dir, h->name);
			else
				snprintf(path, sizeof(path), "%s/%s-%d", dir, h->name, k);
			fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
			if (fd < 0 && errno != EEXIST)
				break;
		}
		if (fd >= 0) {
			size_t len = strlen(t), off = 0;
			while (off < len) {
				ssize_t w = write(fd, t + off, len - off);
				if (w <= 0)
					break;
				off += (size_t)w;
			}
			close(fd);
		} else {
			fprintf(stderr, "# %s\n%s\n", h->name, t);
		}
		free(t);
	}
	if (to_dir)
		tp__sink_msg("histograms in %s", dir);
}

#endif /* TP__REC_HIST_H */
