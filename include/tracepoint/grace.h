/* SPDX-License-Identifier: MIT */
/*
 * tracepoint/grace.h - grace periods: when a replaced probe list may be freed.
 *
 * A probe list is never changed in place: a writer publishes a new one and
 * retires the old one, which is freed once no reader can still hold it.
 * Both sides of that contract are here, because each is only correct with
 * the other in view: the read side (tp__read_begin/tp__read_end, inlined
 * into every dispatch function) and the write side (allocate, publish,
 * retire, poll; called with the registration lock of registry.h held).
 *
 * The read side stores to memory of its own thread only, so that threads
 * firing the same tracepoint share no cache line: each thread that fires
 * claims a slot (a cache line of counters) in its process's grace domain,
 * once, without a lock or an allocation, and from then on counts "entered"
 * and "left" there with plain increments.  The writer pays instead: to tell
 * that the readers of one phase are gone it sums the slots' "left", has
 * every running thread of the process execute a memory barrier
 * (membarrier(2), MEMBARRIER_CMD_PRIVATE_EXPEDITED), then sums "entered";
 * equal sums mean no reader of that phase is left.  Two phase flips after a
 * list was retired, nobody can hold it.  Where membarrier() is missing, or
 * no slot is free, a reader counts on a shared counter with atomic
 * read-modify-writes instead (correct, slower); the writer checks both.
 * TRACEPOINT_MALLOC and TRACEPOINT_FREE may be defined before including
 * tracepoint.h.
 *
 * Internal: included by tracepoint.h; depends on compiler.h and defs.h.
 */
#ifndef TRACEPOINT_H_INCLUDED
#error "tracepoint/grace.h is internal: #include <tracepoint.h> instead"
#elif !defined(TP__GRACE_H)
#define TP__GRACE_H

#if !defined(__cplusplus) && !defined(__USE_MISC)
extern long syscall(long, ...);
#endif

/* membarrier(2) commands (linux/membarrier.h), spelled out so that old
 * kernel headers do not matter. */
enum tp__membarrier_cmd {
	TP__MB_QUERY = 0,
	TP__MB_GLOBAL = 1,
	TP__MB_PRIVATE_EXPEDITED = 8,
	TP__MB_REGISTER_PRIVATE_EXPEDITED = 16
};

/* How the writer makes the readers' plain increments visible. */
enum tp__gp_mode {
	TP__GP_UNDECIDED = 0, /* no writer yet: readers use the shared counters */
	TP__GP_MEMBARRIER,    /* slots, and membarrier() on the write side */
	TP__GP_ATOMIC	      /* no membarrier(): shared counters only */
};

/* One thread's counters: a cache line that only its owner writes (the
 * writer flips cur, reads the counts, and frees slots of dead threads). */
#define TP__GP_SLOTS 1024
struct tp__slot {
	long count[2][2];    /* [phase][0: entered, 1: left] */
	long *cur;	     /* &count[current phase][0] */
	unsigned long owner; /* pthread_self() of the claimant, 0 if free */
	int tid;	     /* its kernel thread id (liveness, fork); 0 while free */
	char pad[64 - 4 * sizeof(long) - sizeof(long *) - sizeof(unsigned long) - sizeof(int)];
};

/* A process's grace domain: one for the executable and its libraries (a
 * weak exported object, like the fork guard; a module whose symbols are
 * not shared has its own, and its tracepoints say which they use). */
struct tp__domain {
	unsigned long seq;	/* grace-period sequence; seq & 1 is the phase */
	unsigned long wait_seq; /* sequence that frees everything retired so far */
	int lock;		/* pid of the writer holding it, 0 if free */
	int pid;		/* process the counters count */
	int mode;		/* enum tp__gp_mode */
	unsigned used;		/* slots ever claimed (high-water mark) */
	unsigned gen;		/* generation of shared[] in use (fork) */
	unsigned polls;		/* polls since the last dead-slot sweep */
	long shared[2][2];	/* atomic readers: [generation][phase] */
	/* TP__GP_SLOTS slots, mapped by the first writer (tp__gp_init) before
	 * it lets readers claim them: a program that never attaches a probe
	 * keeps no 64 KiB of counters. */
	struct tp__slot *slot;
	char pad[128 - 2 * sizeof(unsigned long) - 4 * sizeof(int) - 2 * sizeof(unsigned) -
		 4 * sizeof(long) - sizeof(struct tp__slot *)];
};
#define TP__DOMAIN_BYTES 128
TP__STATIC_ASSERT(sizeof(struct tp__slot) == 64 && sizeof(struct tp__domain) == TP__DOMAIN_BYTES,
		  "the grace domain's layout changed", tp__grace_domain_layout_changed);

/* The domain's slots (NULL before the first writer mapped them): an
 * acquire load, so that whoever sees them also sees them mapped. */
static inline struct tp__slot *tp__slots(const struct tp__domain *d)
{
	return __atomic_load_n(&d->slot, __ATOMIC_ACQUIRE);
}

/* What a thread knows: its slot (NULL until claimed) and whether it is
 * claiming one right now (a signal handler then takes the shared path). */
enum tp__thread_state { TP__THREAD_NEW = 0, TP__THREAD_CLAIMING, TP__THREAD_SHARED };
struct tp__thread {
	struct tp__slot *slot;
	int state;
};

#define TP__DOMAIN_SYM "tp__domain_" TP__STR(TRACEPOINT_ABI)
#define TP__THREAD_SYM "tp__thread_" TP__STR(TRACEPOINT_ABI)
extern struct tp__domain tp__domain_obj __asm__(TP__DOMAIN_SYM) __attribute__((weak));
/* Reached from a C dispatch only in the file that defines the tracepoint,
 * which also defines the variable (below): in an executable (-fPIE or no
 * PIC) that is the copy every module uses, at an offset known at link time
 * (local-exec, one instruction); a shared object reads its offset from the
 * GOT (initial-exec).  A C++ dispatch may be a copy in a file that only
 * fires, so it takes the latter everywhere. */
#if !defined(__cplusplus) && (defined(__PIE__) || !defined(__PIC__))
#define TP__TLS_MODEL "local-exec"
#else
#define TP__TLS_MODEL "initial-exec"
#endif
extern __thread struct tp__thread tp__me __asm__(TP__THREAD_SYM)
	__attribute__((tls_model(TP__TLS_MODEL)));

/* Both objects are defined (weak, in COMDAT groups) by every translation
 * unit that has a dispatch function; the dynamic linker keeps one of each. */
#define TP__DOMAIN_ASM                                                       \
	".ifndef tp__domain_emitted\n\t"                                     \
	".set tp__domain_emitted, 1\n\t"                                     \
	".pushsection .bss." TP__DOMAIN_SYM ",\"awG\",@nobits,"              \
	TP__DOMAIN_SYM ",comdat\n\t"                                         \
	".weak " TP__DOMAIN_SYM "\n\t"                                       \
	".type " TP__DOMAIN_SYM ", @object\n\t"                              \
	".size " TP__DOMAIN_SYM ", " TP__STR(TP__DOMAIN_BYTES) "\n\t"        \
	".balign 128\n"                                                       \
	TP__DOMAIN_SYM ":\n\t"                                               \
	".zero " TP__STR(TP__DOMAIN_BYTES) "\n\t"                            \
	".popsection\n\t"                                                     \
	".pushsection .tbss." TP__THREAD_SYM ",\"awTG\",@nobits,"            \
	TP__THREAD_SYM ",comdat\n\t"                                         \
	".weak " TP__THREAD_SYM "\n\t"                                       \
	".type " TP__THREAD_SYM ", @tls_object\n\t"                          \
	".size " TP__THREAD_SYM ", 16\n\t"                                   \
	".balign 8\n"                                                         \
	TP__THREAD_SYM ":\n\t"                                               \
	".zero 16\n\t"                                                        \
	".popsection\n\t"                                                     \
	".endif\n\t"
TP__STATIC_ASSERT(sizeof(struct tp__thread) == 16, "struct tp__thread outgrew 16 bytes",
		  tp__thread_outgrew_16_bytes);

/* ThreadSanitizer does not know membarrier(): under it, readers count with
 * atomic read-modify-writes that order the probe calls before "left", as
 * it can see (slower, same protocol). */
#if defined(__SANITIZE_THREAD__)
#define TP__TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TP__TSAN 1
#endif
#endif

/* A full fence; ThreadSanitizer builds (which reject fences) rely on the
 * sequentially consistent read-modify-writes around it instead. */
#if defined(TP__TSAN)
#define TP__FENCE() ((void)0)
#else
#define TP__FENCE() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#endif

/* A plain increment of the caller's own counter.  One instruction on x86-64,
 * so a signal handler that fires in between cannot lose an update. */
TP__ALWAYS_INLINE void tp__count(long *c)
{
#if defined(TP__TSAN)
	__atomic_fetch_add(c, 1L, __ATOMIC_SEQ_CST);
#elif defined(__x86_64__)
	__asm__ __volatile__("incq %0" : "+m"(*c) : : "memory", "cc");
#else
	__atomic_fetch_add(c, 1L, __ATOMIC_RELAXED);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
#endif
}

/* --- The read side, inlined into each typed dispatch function: a thread
 * with a slot counts "entered" on its current phase's counter, which it
 * returns, loads the probe list, and counts "left" next to it.  A thread
 * without one takes the dispatch's shared path (tp__read_begin_slow, which
 * claims a slot or counts on the shared counter, and tp__read_end_token). */
TP__ALWAYS_INLINE long *tp__read_begin(struct tp__slot *s)
{
	long *c = __atomic_load_n(&s->cur, __ATOMIC_RELAXED);
	tp__count(c);
	return c;
}

TP__ALWAYS_INLINE void tp__read_end(long *c)
{
	tp__count(c + 1);
}

/* A token of tp__read_begin_slow: a slot's counter, or the shared one with
 * its low bit set. */
TP__ALWAYS_INLINE void tp__read_end_token(long *token)
{
	if ((uintptr_t)token & 1u)
		__atomic_fetch_sub((long *)(void *)((uintptr_t)token & ~(uintptr_t)1), 1L,
				   __ATOMIC_RELEASE);
	else
		tp__count(token + 1);
}

static inline int tp__gettid(void)
{
	return (int)syscall(SYS_gettid);
}

/* A thread's first fire: claim a free slot, or the first never used one.
 * Lock-free and allocation-free; async-signal-safe. */
static inline struct tp__slot *tp__gp_claim(struct tp__domain *d)
{
	unsigned long me = (unsigned long)pthread_self();
	unsigned i, n = __atomic_load_n(&d->used, __ATOMIC_SEQ_CST);
	struct tp__slot *s = NULL, *sl = tp__slots(d);
	for (i = 0; i < n && !s; i++) {
		unsigned long free_ = 0;
		if (__atomic_load_n(&sl[i].owner, __ATOMIC_RELAXED) == 0 &&
		    __atomic_compare_exchange_n(&sl[i].owner, &free_, me, false, __ATOMIC_SEQ_CST,
						__ATOMIC_RELAXED))
			s = &sl[i];
	}
	/* A slot counted in 'used' is free until owned: one that scans may
	 * take it before the thread that counted it does, who then goes on. */
	while (!s && n < TP__GP_SLOTS) {
		unsigned long free_ = 0;
		if (__atomic_compare_exchange_n(&d->used, &n, n + 1, false, __ATOMIC_SEQ_CST,
						__ATOMIC_RELAXED) &&
		    __atomic_compare_exchange_n(&sl[n].owner, &free_, me, false, __ATOMIC_SEQ_CST,
						__ATOMIC_RELAXED))
			s = &sl[n];
	}
	if (!s)
		return NULL; /* the caller may sweep dead threads' slots once */
	__atomic_store_n(&s->tid, tp__gettid(), __ATOMIC_RELAXED);
	/* Count on the current phase; a writer that flips meanwhile either saw
	 * this slot (and moves cur) or flipped before the check below. */
	for (;;) {
		unsigned long seq = __atomic_load_n(&d->seq, __ATOMIC_SEQ_CST);
		__atomic_store_n(&s->cur, &s->count[seq & 1][0], __ATOMIC_SEQ_CST);
		if (__atomic_load_n(&d->seq, __ATOMIC_SEQ_CST) == seq)
			break;
	}
	return s;
}

/* The shared path's start, reached through the tracepoint (struct
 * tracepoint's read_slow), so that it is one function per defining
 * translation unit, not per tracepoint; defining it also defines the
 * domain and the thread variable (TP__DOMAIN_ASM).  When every slot is
 * taken it frees the slots of dead threads with the write side's lock and
 * reap, defined below with the write side (declared here only to keep the
 * read side first in this file). */
static inline bool tp__gp_trylock(struct tp__domain *d);
static inline void tp__gp_unlock(struct tp__domain *d);
static inline void tp__gp_reap(struct tp__domain *d, unsigned q, int sweep);
static inline long *tp__read_begin_slow(void)
{
	struct tp__domain *d;
	long *c;
	unsigned long seq;
	__asm__(TP__DOMAIN_ASM);
	d = &tp__domain_obj;
	if (tp__me.slot) /* a reader outside a dispatch (probes.h) */
		return tp__read_begin(tp__me.slot);
	if (tp__me.state == TP__THREAD_NEW &&
	    __atomic_load_n(&d->mode, __ATOMIC_ACQUIRE) == TP__GP_MEMBARRIER) {
		struct tp__slot *s;
		tp__me.state = TP__THREAD_CLAIMING;
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		s = tp__gp_claim(d);
		if (!s && tp__gp_trylock(d)) {
			tp__gp_reap(d, 0, 1); /* all slots taken: free the dead's */
			tp__gp_unlock(d);
			s = tp__gp_claim(d);
		}
		if (s) {
			tp__me.slot = s;
			tp__me.state = TP__THREAD_NEW;
			return tp__read_begin(s);
		}
		tp__me.state = TP__THREAD_SHARED; /* no slot left: for good */
	}
	seq = __atomic_load_n(&d->seq, __ATOMIC_SEQ_CST);
	c = &d->shared[__atomic_load_n(&d->gen, __ATOMIC_RELAXED) & 1][seq & 1];
	__atomic_fetch_add(c, 1L, __ATOMIC_SEQ_CST);
	TP__FENCE();
	return (long *)(void *)((uintptr_t)c | 1u);
}

/* Probe lists come from here; tests define these to inject failures. */
#ifndef TRACEPOINT_MALLOC
#define TRACEPOINT_MALLOC(size) malloc(size)
#endif
#ifndef TRACEPOINT_FREE
#define TRACEPOINT_FREE(ptr) free(ptr)
#endif

/* --- The write side. --- */
static inline long tp__membarrier(int cmd)
{
#ifdef SYS_membarrier
	return syscall(SYS_membarrier, cmd, 0, 0);
#else
	(void)cmd;
	errno = ENOSYS;
	return -1;
#endif
}

/* Strict ISO modes (-std=c99) hide MAP_ANONYMOUS; Linux's value. */
#ifdef MAP_ANONYMOUS
#define TP__MAP_ANONYMOUS MAP_ANONYMOUS
#else
#define TP__MAP_ANONYMOUS 0x20
#endif

/* Decides, once per process, whether readers may use slots (and maps
 * them). */
static inline void tp__gp_init(struct tp__domain *d)
{
	int saved = errno, mode = TP__GP_ATOMIC;
	long cmds;
	if (__atomic_load_n(&d->mode, __ATOMIC_ACQUIRE) != TP__GP_UNDECIDED)
		return;
	cmds = tp__membarrier(TP__MB_QUERY);
	if (cmds > 0 && (cmds & TP__MB_PRIVATE_EXPEDITED) &&
	    tp__membarrier(TP__MB_REGISTER_PRIVATE_EXPEDITED) == 0) {
		/* Writers of other tracepoints may be here at once: the first
		 * mapping installed is the one, the others are given back. */
		struct tp__slot *s = __atomic_load_n(&d->slot, __ATOMIC_ACQUIRE);
		if (!s) {
			size_t len = TP__GP_SLOTS * sizeof(struct tp__slot);
			void *m = mmap(NULL, len, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | TP__MAP_ANONYMOUS, -1, 0);
			if (m != MAP_FAILED &&
			    __atomic_compare_exchange_n(&d->slot, &s, (struct tp__slot *)m, false,
							__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
				s = (struct tp__slot *)m;
			else if (m != MAP_FAILED)
				munmap(m, len); /* s: the one installed meanwhile */
			else
				s = __atomic_load_n(&d->slot, __ATOMIC_ACQUIRE);
		}
		if (s) /* else: shared counters, as without membarrier */
			mode = TP__GP_MEMBARRIER;
	}
	errno = saved;
	{ /* the first decision stands (all decide alike but for a failed mapping) */
		int undecided = TP__GP_UNDECIDED;
		__atomic_compare_exchange_n(&d->mode, &undecided, mode, false, __ATOMIC_RELEASE,
					    __ATOMIC_RELAXED);
	}
}

/* Every running thread of the process executes a full memory barrier;
 * -1 if that cannot be had (then nothing is freed). */
static inline int tp__gp_barrier(void)
{
	int saved = errno, r = 0;
	if (tp__membarrier(TP__MB_PRIVATE_EXPEDITED) != 0 &&
	    (errno != EPERM || tp__membarrier(TP__MB_REGISTER_PRIVATE_EXPEDITED) != 0 ||
	     tp__membarrier(TP__MB_PRIVATE_EXPEDITED) != 0) &&
	    tp__membarrier(TP__MB_GLOBAL) != 0)
		r = -1;
	errno = saved;
	return r;
}

/* Frees the slots of threads that died (their counts no longer matter):
 * those with readers of phase q, or all of them when sweeping. */
static inline void tp__gp_reap(struct tp__domain *d, unsigned q, int sweep)
{
	unsigned i, n = __atomic_load_n(&d->used, __ATOMIC_SEQ_CST);
	struct tp__slot *sl = tp__slots(d);
	for (i = 0; i < n; i++) {
		struct tp__slot *s = &sl[i];
		int saved = errno, tid;
		if (!__atomic_load_n(&s->owner, __ATOMIC_SEQ_CST) ||
		    (!sweep && __atomic_load_n(&s->count[q][0], __ATOMIC_RELAXED) ==
				       __atomic_load_n(&s->count[q][1], __ATOMIC_RELAXED)))
			continue;
		tid = __atomic_load_n(&s->tid, __ATOMIC_RELAXED);
		/* tid 0: claimed a moment ago, its owner has not said who it is */
		if (tid > 0 && syscall(SYS_tgkill, (long)getpid(), (long)tid, 0L) != 0 &&
		    errno == ESRCH) {
			/* Atomic stores, as the dead thread's were (the sanitizer
			 * does not see a thread's death order anything). */
			long *c = &s->count[0][0];
			size_t k;
			for (k = 0; k < sizeof(s->count) / sizeof(*c); k++)
				__atomic_store_n(&c[k], 0L, __ATOMIC_RELAXED);
			__atomic_store_n(&s->tid, 0, __ATOMIC_RELAXED);
			__atomic_store_n(&s->owner, 0UL, __ATOMIC_SEQ_CST);
		}
		errno = saved;
	}
}

/* Whether no reader of phase q is left (domain lock held). */
static inline bool tp__gp_drained(struct tp__domain *d, unsigned q)
{
	unsigned i, n = __atomic_load_n(&d->used, __ATOMIC_SEQ_CST);
	const struct tp__slot *sl = tp__slots(d);
	long left = 0, entered = 0;
	for (i = 0; i < n; i++)
		left += __atomic_load_n(&sl[i].count[q][1], __ATOMIC_ACQUIRE);
	if (n && tp__gp_barrier() != 0)
		return false;
	TP__FENCE();
	for (i = 0; i < n; i++)
		entered += __atomic_load_n(&sl[i].count[q][0], __ATOMIC_RELAXED);
	if (entered != left) {
		tp__gp_reap(d, q, 0);
		return false;
	}
	return __atomic_load_n(&d->shared[__atomic_load_n(&d->gen, __ATOMIC_RELAXED) & 1][q],
			       __ATOMIC_SEQ_CST) == 0;
}

static inline bool tp__gp_trylock(struct tp__domain *d)
{
	int free_ = 0, me = (int)getpid(), owner;
	if (__atomic_compare_exchange_n(&d->lock, &free_, me, false, __ATOMIC_ACQUIRE,
					__ATOMIC_RELAXED))
		return true;
	/* Inherited across fork from a parent's thread: take it over. */
	owner = free_;
	return owner != me && __atomic_compare_exchange_n(&d->lock, &owner, me, false,
							  __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static inline void tp__gp_unlock(struct tp__domain *d)
{
	__atomic_store_n(&d->lock, 0, __ATOMIC_RELEASE);
}

/* Advances the domain's sequence by up to two phases, as far as readers
 * allow.  Never waits (safe from inside a probe); a writer that finds the
 * domain busy leaves the work to the next poll. */
static inline void tp__gp_advance(struct tp__domain *d)
{
	int round;
	if (!tp__gp_trylock(d))
		return;
	if (++d->polls >= 64 &&
	    __atomic_load_n(&d->used, __ATOMIC_RELAXED) > TP__GP_SLOTS / 4 * 3) {
		d->polls = 0;
		tp__gp_reap(d, 0, 1);
	}
	for (round = 0; round < 2 && d->seq < __atomic_load_n(&d->wait_seq, __ATOMIC_SEQ_CST);
	     round++) {
		unsigned q = (unsigned)(d->seq + 1) & 1u, i, n;
		struct tp__slot *sl;
		if (!tp__gp_drained(d, q))
			break;
		__atomic_store_n(&d->seq, d->seq + 1, __ATOMIC_SEQ_CST);
		n = __atomic_load_n(&d->used, __ATOMIC_SEQ_CST);
		sl = tp__slots(d); /* after used: a slot in use is mapped */
		for (i = 0; i < n; i++) {
			long *from = &sl[i].count[q ^ 1u][0];
			__atomic_compare_exchange_n(&sl[i].cur, &from, &sl[i].count[q][0], false,
						    __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);
		}
	}
	tp__gp_unlock(d);
}

/* Called with the tracepoint's lock held; never waits. */
static inline void tp__gp_poll(struct tracepoint *tp)
{
	struct tp__domain *d = tp->tp__priv.gp;
	struct tp__probes **pp, *p;
	unsigned long seq;
	if (__atomic_load_n(&d->seq, __ATOMIC_SEQ_CST) <
	    __atomic_load_n(&d->wait_seq, __ATOMIC_SEQ_CST))
		tp__gp_advance(d);
	seq = __atomic_load_n(&d->seq, __ATOMIC_SEQ_CST);
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

/* Readers inside a dispatch now, in every phase (for tests). */
static inline long tp__gp_active(const struct tp__domain *d)
{
	unsigned i, n = __atomic_load_n(&d->used, __ATOMIC_SEQ_CST);
	const struct tp__slot *sl = tp__slots(d);
	long a = __atomic_load_n(&d->shared[d->gen & 1][0], __ATOMIC_SEQ_CST) +
		 __atomic_load_n(&d->shared[d->gen & 1][1], __ATOMIC_SEQ_CST);
	for (i = 0; i < n; i++)
		a += __atomic_load_n(&sl[i].count[0][0], __ATOMIC_RELAXED) -
		     __atomic_load_n(&sl[i].count[0][1], __ATOMIC_RELAXED) +
		     __atomic_load_n(&sl[i].count[1][0], __ATOMIC_RELAXED) -
		     __atomic_load_n(&sl[i].count[1][1], __ATOMIC_RELAXED);
	return a;
}

/* Whether everything retired from tp so far has been freed or may be. */
static inline bool tp__gp_done(const struct tracepoint *tp)
{
	const struct tp__domain *d = tp->tp__priv.gp;
	return __atomic_load_n(&d->seq, __ATOMIC_SEQ_CST) >=
	       __atomic_load_n(&tp->tp__priv.wait_seq, __ATOMIC_SEQ_CST);
}

/* Records that readers may still use what was just unpublished. */
static inline unsigned long tp__gp_mark(struct tracepoint *tp)
{
	struct tp__domain *d = tp->tp__priv.gp;
	unsigned long seq = __atomic_load_n(&d->seq, __ATOMIC_SEQ_CST), want = seq + 2, cur;
	tp__gp_init(d);
	cur = __atomic_load_n(&d->wait_seq, __ATOMIC_SEQ_CST);
	while (cur < want && !__atomic_compare_exchange_n(&d->wait_seq, &cur, want, false,
							  __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		;
	__atomic_store_n(&tp->tp__priv.wait_seq, want, __ATOMIC_SEQ_CST);
	return seq;
}

/* A list is allocated with room for a head entry in front of its probes
 * (probes[0]); it is published from there when it has several. */
static inline struct tp__probes *tp__probes_of(struct tracepoint_probe *first)
{
	if (first->dead != TP__PROBE_HEAD)
		first--;
	return (struct tp__probes *)(void *)((char *)first - offsetof(struct tp__probes, probes));
}

static inline void tp__retire(struct tracepoint *tp, struct tracepoint_probe *old)
{
	struct tp__probes *h;
	if (!old)
		return;
	h = tp__probes_of(old);
	h->seq = tp__gp_mark(tp);
	h->next = tp->tp__priv.retired;
	__atomic_store_n(&tp->tp__priv.retired, h, __ATOMIC_SEQ_CST);
}

static inline struct tracepoint_probe *tp__alloc_probes(size_t n)
{
	struct tp__probes *h = (struct tp__probes *)TRACEPOINT_MALLOC(
		offsetof(struct tp__probes, probes) + (n + 2) * sizeof(struct tracepoint_probe));
	if (!h)
		return NULL;
	h->next = NULL;
	h->seq = 0;
	memset(h->probes, 0, (n + 2) * sizeof(struct tracepoint_probe));
	return h->probes + 1;
}

static inline void tp__free_unpublished(struct tracepoint_probe *p)
{
	if (p) /* as tp__alloc_probes returned it: no head yet */
		TRACEPOINT_FREE((char *)(p - 1) - offsetof(struct tp__probes, probes));
}

/* Publishes a list of tp__alloc_probes (or NULL), with its head entry
 * when it has several probes. */
static inline void tp__publish(struct tracepoint *tp, struct tracepoint_probe *p)
{
	struct tracepoint_probe *prev = tp->funcs;
	tp__gp_init(tp->tp__priv.gp);
	if (p && p[0].func && p[1].func) {
		p[-1].func = tp->iter_slow;
		p[-1].data = p;
		p[-1].dead = TP__PROBE_HEAD;
		p--;
	}
	__atomic_store_n(&tp->funcs, p, __ATOMIC_SEQ_CST);
	if (!tp->none.func) { /* before any reader can see it */
		tp->none.data = (char *)tp + 1;
		tp->none.dead = TP__PROBE_HEAD;
		__atomic_store_n(&tp->none.func, tp->iter_slow, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&tp->call, p ? p : &tp->none, __ATOMIC_SEQ_CST);
	tp->tp__priv.live = p ? tp__probes_of(p) : NULL;
	if (!prev && p)
		__atomic_fetch_or(&tp->enabled, (unsigned short)TP__KEY_PROBES, __ATOMIC_SEQ_CST);
	else if (prev && !p)
		__atomic_fetch_and(&tp->enabled, (unsigned short)~TP__KEY_PROBES, __ATOMIC_SEQ_CST);
}

/* --- fork().  The child's only thread keeps its slot (it may be inside a
 * probe: fork() called by one); the slots of the threads that did not
 * survive are freed, and the shared counters move to the other generation,
 * zeroed (the forking thread's pending decrement, if any, lands on the old
 * one).  Called by process.h's child walk for each tracepoint's domain,
 * and by the first writer of a process that never installed it. --- */
static inline void tp__gp_adopt(struct tp__domain *d, int me)
{
	unsigned long self = (unsigned long)pthread_self();
	unsigned i, n, g;
	struct tp__slot *sl;
	if (__atomic_load_n(&d->pid, __ATOMIC_SEQ_CST) == me)
		return;
	while (!tp__gp_trylock(d))
		sched_yield(); /* another writer of this new process adopts it */
	if (__atomic_load_n(&d->pid, __ATOMIC_SEQ_CST) == me) {
		tp__gp_unlock(d);
		return;
	}
	n = d->used;
	sl = tp__slots(d);
	for (i = 0; i < n; i++) {
		struct tp__slot *s = &sl[i];
		if (s->owner == self) {
			s->tid = tp__gettid();
		} else if (s->owner) { /* freed last: a new thread may take it */
			memset(s->count, 0, sizeof(s->count));
			__atomic_store_n(&s->tid, 0, __ATOMIC_RELAXED);
			__atomic_store_n(&s->owner, 0UL, __ATOMIC_SEQ_CST);
		}
	}
	g = (d->gen ^ 1u) & 1u;
	d->shared[g][0] = d->shared[g][1] = 0;
	__atomic_store_n(&d->gen, g, __ATOMIC_SEQ_CST);
	if (d->mode == TP__GP_MEMBARRIER) {
		int saved = errno;
		(void)tp__membarrier(TP__MB_REGISTER_PRIVATE_EXPEDITED);
		errno = saved;
	}
	__atomic_store_n(&d->pid, me, __ATOMIC_SEQ_CST);
	tp__gp_unlock(d);
}

#endif /* TP__GRACE_H */
