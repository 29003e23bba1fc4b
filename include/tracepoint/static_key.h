/* SPDX-License-Identifier: MIT */
/*
 * tracepoint/static_key.h - the call site: one instruction while idle, and
 * the code patching that flips it.
 *
 * Both ends of the static-key mechanism are here: what a call site is
 * compiled to (TP__KEY_CHECK: an asm goto listed in the module's tp__jump
 * table, or the portable load and branch), and what rewrites it (the module
 * constructor that idles a module's sites at load time, and tp__patch_key,
 * which points every site of a tracepoint at its key whenever the key
 * changes).  TRACEPOINT_STATIC_KEYS says which of the two forms call sites
 * have; TRACEPOINT_MPROTECT may be defined before including tracepoint.h.
 *
 * Internal: included by tracepoint.h; depends on compiler.h, defs.h and
 * modules.h (the module note, the walk of the modules, the fork guard, and
 * the process hooks it declares ahead, which the module constructor runs).
 */
#ifndef TRACEPOINT_H_INCLUDED
#error "tracepoint/static_key.h is internal: #include <tracepoint.h> instead"
#elif !defined(TP__STATIC_KEY_H)
#define TP__STATIC_KEY_H

/* --- The fast-path check. ---
 * Static keys (x86-64, aarch64; gcc, clang >= 9): each call site is one
 * 5-byte x86 instruction or one aarch64 instruction, listed in the module's
 * "tp__jump" table.  It is compiled idle (falls through), so nothing is
 * patched, and no page of code made private, until a tracepoint is enabled:
 * enabling points that tracepoint's sites at the out-of-line slow path, and
 * a module loaded later has its constructor do the same for the tracepoints
 * already enabled.  On x86-64 only the opcode byte changes, a9 (test
 * $rel32, %eax) <-> e9 (jmp rel32), so no thread can ever fetch a torn
 * instruction; on aarch64 a single aligned word flips between nop and b.
 * Where patching is impossible, enabling fails and attaches nothing.
 * -DTRACEPOINT_PORTABLE compiles every site as a load and branch instead
 * (compiler.h decides TRACEPOINT_STATIC_KEYS). */
TP__ALWAYS_INLINE bool tp__key_enabled(const struct tracepoint *tp)
{
	return __builtin_expect(__atomic_load_n(&tp->enabled, __ATOMIC_RELAXED), 0) != 0;
}

/* The tracepoint of a jump-table entry (see struct tp__jump_entry). */
static inline struct tracepoint *tp__jump_key(const struct tp__jump_entry *e)
{
#if defined(__x86_64__)
	return *(struct tracepoint *const *)(const void *)((const char *)&e->key + e->key);
#else
	return e->key;
#endif
}

/* The slow path of a site is unlikely, and must not shape the fast one:
 * gcc's cold label keeps the registers the call of the dispatch needs out
 * of the fast path (a wrapper whose tail call the site interrupts saves
 * nothing around it) and moves the block to the end of the function, not
 * into a .cold fragment of its own (whose unwind entry would cost more
 * than the site).  clang has no cold labels. */
#if defined(__clang__)
#define TP__COLD_LABEL
#else
#define TP__COLD_LABEL __attribute__((cold))
#endif

#if TRACEPOINT_STATIC_KEYS
/* Sites are compiled idle: x86-64 "test $rel32, %eax" (a9, the jump's
 * displacement kept as its immediate), aarch64 "nop".  The first site of a
 * translation unit leaves its module constructor, tp__jump_init (below;
 * the macro is expanded only after this file), in .init_array. */
#if defined(__x86_64__)
#define TP__SITE_INSN "1: .byte 0xa9\n\t.long %l[tp__slow] - (1b + 5)\n\t"
#else
#define TP__SITE_INSN "1: nop\n\t"
#endif
#if defined(__x86_64__)
#define TP__JUMP_ENTRY(key)                                                  \
	".balign 4\n\t.long 1b - ., %l[tp__slow] - ., " key "@GOTPCREL\n\t"
#else
#define TP__JUMP_ENTRY(key)                                                  \
	".balign 8\n\t.long 1b - ., %l[tp__slow] - .\n\t.quad " key "\n\t"
#endif
#define TP__KEY_CHECK(sym, name, slow_result)                                \
	__asm__ goto(TP__SITE_INSN                                           \
		     ".pushsection tp__jump,\"aw\",@progbits\n\t"           \
		     TP__JUMP_ENTRY(TP__SYM("__tracepoint_", sym, name))    \
		     ".popsection\n\t"                                        \
		     TP__MODULE_NOTE_ASM                                     \
		     ".ifndef tp__jump_init_emitted\n\t"                     \
		     ".set tp__jump_init_emitted, 1\n\t"                     \
		     ".pushsection .init_array,\"aw\",@init_array\n\t"        \
		     ".balign 8\n\t"                                          \
		     ".quad %c0\n\t"                                          \
		     ".popsection\n\t"                                        \
		     ".endif\n\t"                                             \
		     : : TP__FN_CONSTRAINT(tp__jump_init) : : tp__slow);   \
	return false;                                                         \
tp__slow: TP__COLD_LABEL;                                                    \
	return slow_result
#elif defined(__x86_64__) && (!defined(__clang__) || __clang_major__ >= 9)
/* Portable check on x86-64: compilers will not fold an atomic load into a
 * compare, so spell it: one cmpw against memory and one branch. */
#define TP__KEY_CHECK(sym, name, slow_result)                                \
	__asm__ goto("cmpw $0, %0\n\tjne %l[tp__slow]"                      \
		     : : "m"(__tracepoint_##name.enabled) : "cc" : tp__slow);  \
	return false;                                                         \
tp__slow: TP__COLD_LABEL;                                                    \
	return true
#else
#define TP__KEY_CHECK(sym, name, slow_result) return tp__key_enabled(&__tracepoint_##name)
#endif

/* --- Code patching.  Every patch runs inside a dl_iterate_phdr
 * callback: the loader's lock serializes all patchers of the process (no
 * singleton needed), and no module can be unmapped under our feet.  Pages
 * are made writable one at a time, in address order, and always given back
 * read+exec; they stay executable throughout, since other threads may be
 * running the very code being patched. --- */
#ifndef TRACEPOINT_MPROTECT
#define TRACEPOINT_MPROTECT mprotect
#endif

struct tp__patch {
	uintptr_t page; /* page currently writable, 0 if none */
	uintptr_t pagesz;
	int err;		      /* first failure, as -errno */
	struct tracepoint *key;	      /* only this key's sites, or NULL for all */
	int load;		      /* a module's first patch: its sites are all idle */
	int batch;		      /* a batch is open (tracepoint_batch_begin) */
	int open;		      /* mod's code is writable for a batch */
	const struct tp__module *mod; /* the module being patched, if known */
};

/* The page size, asked of the C library once per process (and per file
 * that patches): sysconf() was a twentieth of enabling a tracepoint. */
static inline uintptr_t tp__page_size(void)
{
	static uintptr_t size;
	uintptr_t s = __atomic_load_n(&size, __ATOMIC_RELAXED);
	if (!s) {
		s = (uintptr_t)sysconf(_SC_PAGESIZE);
		__atomic_store_n(&size, s, __ATOMIC_RELAXED);
	}
	return s;
}

static inline void tp__patch_begin(struct tp__patch *pt, struct tracepoint *key)
{
	memset(pt, 0, sizeof(*pt));
	pt->pagesz = tp__page_size();
	pt->key = key;
}

static inline void tp__patch_close(struct tp__patch *pt)
{
	if (pt->page) {
		TRACEPOINT_MPROTECT((void *)pt->page, (size_t)pt->pagesz, PROT_READ | PROT_EXEC);
		pt->page = 0;
	}
}

/* The page-aligned span of a module's code segment (0, 0 if unknown). */
static inline void tp__code_span(const struct tp__module *m, uintptr_t pagesz, uintptr_t *lo,
				 uintptr_t *hi)
{
	uintptr_t start, end;
	tp__module_code(m, &start, &end);
	*lo = start & ~(pagesz - 1);
	*hi = start < end ? (end + pagesz - 1) & ~(pagesz - 1) : *lo;
}

/* Makes the page of a site writable.  Nothing to do while the module's code
 * is open for a batch; in a batch, the first patch of a module opens its
 * whole code segment, once, until tracepoint_batch_end (one mprotect pair
 * for any number of sites, instead of one per page per tracepoint);
 * otherwise the site's page alone, given back by tp__patch_close.  If
 * opening the segment is refused, page by page decides. */
static inline int tp__patch_open(struct tp__patch *pt, uintptr_t page)
{
	const struct tp__module *m = pt->mod;
	if (pt->open || page == pt->page)
		return 0;
	if (m && pt->batch) {
		uintptr_t lo, hi;
		tp__code_span(m, pt->pagesz, &lo, &hi);
		if (page >= lo && page < hi) {
			if (TRACEPOINT_MPROTECT((void *)lo, (size_t)(hi - lo),
						PROT_READ | PROT_WRITE | PROT_EXEC) == 0) {
				__atomic_fetch_or(&m->state->flags, TP__MODULE_WRITABLE,
						  __ATOMIC_RELAXED);
				pt->open = 1;
				return 0;
			}
			/* (a refusal may have changed part of the span) */
			TRACEPOINT_MPROTECT((void *)lo, (size_t)(hi - lo), PROT_READ | PROT_EXEC);
		}
	}
	tp__patch_close(pt);
	if (TRACEPOINT_MPROTECT((void *)page, (size_t)pt->pagesz,
				PROT_READ | PROT_WRITE | PROT_EXEC) != 0) {
		if (!pt->err)
			pt->err = errno ? -errno : -EPERM;
		return pt->err;
	}
	pt->page = page;
	return 0;
}

/* Where an enabled site jumps: its slow path, or, when the slow path's first
 * instruction is itself a direct jump (a site in tail position, whose slow
 * path is "jmp tp__iter_<name>"), that jump's destination, one jump fewer
 * on every enabled call.  The machine state at the slow path is the site's
 * own (nothing runs between them), so both destinations are the same
 * program.  Code is read in asm: it is not data to ThreadSanitizer. */
static inline const unsigned char *tp__site_dest(const struct tp__jump_entry *e,
						 const unsigned char *site)
{
	const unsigned char *t = (const unsigned char *)&e->target + e->target;
	const unsigned char *d = t;
	intptr_t dist;
#if defined(__x86_64__)
	unsigned char op = 0; /* written by the asm below */
	int32_t rel = 0;
	__asm__ __volatile__("movb %1, %0" : "=q"(op) : "m"(*t));
	if (op == 0xe9) { /* jmp rel32 */
		__asm__ __volatile__("movl %1, %0"
				     : "=r"(rel)
				     : "m"(*(const int32_t *)(const void *)(t + 1)));
		d = t + 5 + rel;
	} else if (op == 0xeb) { /* jmp rel8 */
		__asm__ __volatile__("movb %1, %0" : "=q"(op) : "m"(t[1]));
		d = t + 2 + (signed char)op;
	}
	dist = d - (site + 5);
	if (dist != (int32_t)dist)
		return t;
#elif defined(__aarch64__)
	uint32_t insn = 0; /* written by the asm below */
	__asm__ __volatile__("ldr %w0, [%1]" : "=r"(insn) : "r"(t) : "memory");
	if ((insn & 0xfc000000u) == 0x14000000u) /* b */
		d = t + (intptr_t)((int32_t)(insn << 6) >> 6) * 4;
	dist = d - site;
	if (dist < -(1L << 27) || dist >= (1L << 27))
		return t;
#else
	(void)site;
	(void)dist;
#endif
	return d;
}

/* Valgrind runs its own translations of the code, and by default
 * (--smc-check=all-non-file) does not look for changes in code mapped
 * from a file: after a site changes, its client request
 * DISCARD_TRANSLATIONS (TP__VALGRIND_DISCARD) makes it translate those
 * bytes again.  The request is a marker valgrind recognizes: four
 * rotations of a register by 128 bits in all (it is left as it was), then
 * an instruction that does nothing (an exchange or "or" of a register
 * with itself), the request's words at the address in rax / x4, its
 * answer in rdx / x3.  Natively, once per site patched: the six words
 * stored on the stack and five instructions that change nothing. */
enum { TP__VALGRIND_DISCARD = 0x1002 };
static inline void tp__valgrind_discard(const void *start, size_t len)
{
#if defined(__x86_64__) || defined(__aarch64__)
	uint64_t req[6]; /* read by valgrind: the asm's "memory" */
	uint64_t res = 0;
	req[0] = TP__VALGRIND_DISCARD;
	req[1] = (uint64_t)(uintptr_t)start;
	req[2] = len;
	req[3] = 0;
	req[4] = 0;
	req[5] = 0;
#if defined(__x86_64__)
	__asm__ __volatile__("rolq $3, %%rdi\n\trolq $13, %%rdi\n\t"
			     "rolq $61, %%rdi\n\trolq $51, %%rdi\n\t"
			     "xchgq %%rbx, %%rbx"
			     : "+d"(res)
			     : "a"(&req[0])
			     : "cc", "memory");
#else
	register uint64_t x3 __asm__("x3") = res;
	register const uint64_t *x4 __asm__("x4") = &req[0];
	__asm__ __volatile__("ror x12, x12, #3\n\tror x12, x12, #13\n\t"
			     "ror x12, x12, #51\n\tror x12, x12, #61\n\t"
			     "orr x10, x10, x10"
			     : "+r"(x3)
			     : "r"(x4)
			     : "cc", "memory");
	res = x3;
#endif
	(void)res;
#else
	(void)start;
	(void)len;
#endif
}

/* Sets one site to "jump to the slow path" (on) or "fall through" (off). */
static inline int tp__patch_site(struct tp__patch *pt, const struct tp__jump_entry *e, bool on)
{
	unsigned char *site = (unsigned char *)(uintptr_t)&e->site + e->site;
	uintptr_t page = (uintptr_t)site & ~(pt->pagesz - 1);
#if defined(__x86_64__)
	unsigned char want = on ? 0xe9 : 0xa9; /* jmp rel32 : test $imm32,%eax */
	unsigned char cur = 0;		       /* written by the asm below */
	int32_t rel = 0, rel_now = 0;
	bool retarget = false; /* the displacement changes to rel */
	__asm__ __volatile__("movb %1, %0" : "=q"(cur) : "m"(*site));
	if (cur == want)
		return 0;
	if (cur != 0xe9 && cur != 0xa9)
		return -EILSEQ; /* not ours any more (a debugger's breakpoint?) */
	/* The displacement is the idle test's immediate, which no one reads:
	 * point it at the site's destination before the opcode makes it a
	 * jump (any mix of old and new bytes is still that test), unless it
	 * would cross into the next page. */
	if (on && ((uintptr_t)site & (pt->pagesz - 1)) <= pt->pagesz - 5) {
		rel = (int32_t)(tp__site_dest(e, site) - (site + 5));
		__asm__ __volatile__("movl %1, %0"
				     : "=r"(rel_now)
				     : "m"(*(int32_t *)(void *)(site + 1)));
		retarget = rel != rel_now;
	}
#elif defined(__aarch64__)
	uint32_t want = 0xd503201fu; /* nop */
	uint32_t cur = 0;	     /* written by the asm below */
	__asm__ __volatile__("ldr %w0, [%1]" : "=r"(cur) : "r"(site) : "memory");
	if (on)
		want = 0x14000000u |
		       ((uint32_t)((tp__site_dest(e, site) - site) >> 2) & 0x03ffffffu);
	if (cur == want)
		return 0;
	if (cur != 0xd503201fu && (cur & 0xfc000000u) != 0x14000000u)
		return -EILSEQ;
#else
	(void)on;
	(void)page;
	(void)site;
	return -ENOSYS;
#endif
#if defined(__x86_64__) || defined(__aarch64__)
	if (tp__patch_open(pt, page) != 0)
		return pt->err;
		/* Single-copy atomic stores, written in asm: code is not data to the
	 * compiler or to ThreadSanitizer (whose shadow has no room for it). */
#if defined(__x86_64__)
	if (retarget)
		__asm__ __volatile__("movl %1, %0"
				     : "=m"(*(int32_t *)(void *)(site + 1))
				     : "r"(rel)
				     : "memory");
	__asm__ __volatile__("movb %1, %0" : "=m"(*site) : "q"(want) : "memory");
	tp__valgrind_discard(site, 5);
#else
	__asm__ __volatile__("str %w1, [%0]" : : "r"(site), "r"(want) : "memory");
	__builtin___clear_cache((char *)site, (char *)site + 4);
	tp__valgrind_discard(site, 4);
#endif
	return 0;
#endif
}

static inline void tp__patch_range(struct tp__patch *pt, const struct tp__jump_entry *e,
				   const struct tp__jump_entry *stop)
{
	for (; e < stop; e++) {
		struct tracepoint *key = tp__jump_key(e);
		if (!key || (pt->key && key != pt->key) || (pt->load && !tp__key_enabled(key)))
			continue;
		tp__patch_site(pt, e, tp__key_enabled(key));
	}
	tp__patch_close(pt);
}

/* --- A module's jump table, sorted by tracepoint on first use, so that
 * enabling one tracepoint finds its sites by binary search and touches
 * nothing else.  Entries hold offsets relative to themselves: moving one
 * rewrites them.  Sorting happens inside a walk (the loader's lock), like
 * every other access to the table; heapsort: no allocation. --- */
static inline uintptr_t tp__jump_addr(const int32_t *field)
{
	return (uintptr_t)field + (uintptr_t)(intptr_t)*field;
}

static inline void tp__jump_swap(struct tp__jump_entry *a, struct tp__jump_entry *b)
{
	uintptr_t as = tp__jump_addr(&a->site), at = tp__jump_addr(&a->target);
	uintptr_t bs = tp__jump_addr(&b->site), bt = tp__jump_addr(&b->target);
#if defined(__x86_64__)
	uintptr_t ak = tp__jump_addr(&a->key), bk = tp__jump_addr(&b->key);
	a->key = (int32_t)(intptr_t)(bk - (uintptr_t)&a->key);
	b->key = (int32_t)(intptr_t)(ak - (uintptr_t)&b->key);
#else
	struct tracepoint *k = a->key;
	a->key = b->key;
	b->key = k;
#endif
	a->site = (int32_t)(intptr_t)(bs - (uintptr_t)&a->site);
	a->target = (int32_t)(intptr_t)(bt - (uintptr_t)&a->target);
	b->site = (int32_t)(intptr_t)(as - (uintptr_t)&b->site);
	b->target = (int32_t)(intptr_t)(at - (uintptr_t)&b->target);
}

/* Order: by tracepoint, then by site address (so that one tracepoint's
 * sites are patched page after page). */
static inline bool tp__jump_less(const struct tp__jump_entry *a, const struct tp__jump_entry *b)
{
	const struct tracepoint *ka = tp__jump_key(a), *kb = tp__jump_key(b);
	if (ka != kb)
		return (uintptr_t)ka < (uintptr_t)kb;
	return tp__jump_addr(&a->site) < tp__jump_addr(&b->site);
}

static inline void tp__jump_sift(struct tp__jump_entry *e, size_t i, size_t n)
{
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= n)
			return;
		if (c + 1 < n && tp__jump_less(&e[c], &e[c + 1]))
			c++;
		if (!tp__jump_less(&e[i], &e[c]))
			return;
		tp__jump_swap(&e[i], &e[c]);
		i = c;
	}
}

static inline void tp__jump_sort(const struct tp__module *m)
{
	struct tp__jump_entry *e = (struct tp__jump_entry *)(uintptr_t)m->jump_start;
	size_t n = (size_t)(m->jump_stop - m->jump_start), i;
	if (__atomic_load_n(&m->state->flags, __ATOMIC_ACQUIRE) & TP__MODULE_SORTED)
		return;
	for (i = n / 2; i-- > 0;)
		tp__jump_sift(e, i, n);
	for (i = n; i-- > 1;) {
		tp__jump_swap(&e[0], &e[i]);
		tp__jump_sift(e, 0, i);
	}
	__atomic_fetch_or(&m->state->flags, TP__MODULE_SORTED, __ATOMIC_RELEASE);
}

/* One tracepoint's sites in a module, on several pages: made writable with
 * one mprotect pair for the pages from its first site to its last (in the
 * module's code segment), not one pair per page.  0 (nothing done) if
 * that span cannot be opened: page by page decides. */
static inline int tp__patch_span(struct tp__patch *pt, const struct tp__module *m,
				 const struct tp__jump_entry *lo, const struct tp__jump_entry *hi)
{
	uintptr_t first = tp__jump_addr(&lo->site) & ~(pt->pagesz - 1);
	uintptr_t last = tp__jump_addr(&hi[-1].site) & ~(pt->pagesz - 1);
	uintptr_t clo, chi;
	size_t len = (size_t)(last - first + pt->pagesz);
	tp__code_span(m, pt->pagesz, &clo, &chi);
	if (last <= first || first < clo || last >= chi)
		return 0;
	if (TRACEPOINT_MPROTECT((void *)first, len, PROT_READ | PROT_WRITE | PROT_EXEC) != 0) {
		TRACEPOINT_MPROTECT((void *)first, len, PROT_READ | PROT_EXEC); /* if partly done */
		return 0;
	}
	pt->open = 1;
	tp__patch_range(pt, lo, hi);
	pt->open = 0;
	pt->mod = NULL;
	TRACEPOINT_MPROTECT((void *)first, len, PROT_READ | PROT_EXEC);
	return 1;
}

static inline int tp__patch_module(const struct tp__module *m, void *arg)
{
	struct tp__patch *pt = (struct tp__patch *)arg;
	const struct tp__jump_entry *lo = m->jump_start, *hi = m->jump_stop;
	/* Read under the loader's lock, which tracepoint_batch_end's walk
	 * also takes: a module opened here is seen by that walk. */
	pt->batch = __atomic_load_n(tp__batch_depth(), __ATOMIC_SEQ_CST) > 0;
	pt->open = (__atomic_load_n(&m->state->flags, __ATOMIC_RELAXED) & TP__MODULE_WRITABLE) != 0;
	pt->mod = m;
	if (pt->key && lo < hi) {
		tp__jump_sort(m);
		while (lo < hi) { /* the first entry not below the key */
			const struct tp__jump_entry *mid = lo + (hi - lo) / 2;
			const struct tracepoint *k = tp__jump_key(mid);
			if ((uintptr_t)k < (uintptr_t)pt->key)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (hi = lo; hi < m->jump_stop && tp__jump_key(hi) == pt->key; hi++)
			;
		if (hi - lo > 1 && !pt->open && !pt->batch && tp__patch_span(pt, m, lo, hi))
			return 0;
	}
	tp__patch_range(pt, lo, hi);
	pt->mod = NULL;
	pt->open = 0;
	return 0;
}

/* The end of the last open batch: gives every module's code opened for it
 * back its read+exec protection (unless a new batch opened meanwhile). */
static inline int tp__batch_close_module(const struct tp__module *m, void *arg)
{
	int *err = (int *)arg;
	uintptr_t lo, hi;
	if (!(__atomic_load_n(&m->state->flags, __ATOMIC_RELAXED) & TP__MODULE_WRITABLE) ||
	    __atomic_load_n(tp__batch_depth(), __ATOMIC_SEQ_CST) > 0)
		return 0;
	tp__code_span(m, tp__page_size(), &lo, &hi);
	if (TRACEPOINT_MPROTECT((void *)lo, (size_t)(hi - lo), PROT_READ | PROT_EXEC) != 0 && !*err)
		*err = errno ? -errno : -EPERM;
	__atomic_fetch_and(&m->state->flags, ~TP__MODULE_WRITABLE, __ATOMIC_RELAXED);
	return 0;
}

static inline int tp__batch_close_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	return tp__for_each_module(info, tp__batch_close_module, arg);
}

/* The modules that hold tracepoint notes, as the last whole walk of this
 * file's patcher found them: enabling one tracepoint then patches from
 * this list instead of reading every loaded object's program headers and
 * notes again (most of an enable's instructions).  Valid while the
 * loader's counts of objects loaded and unloaded (dlpi_adds, dlpi_subs)
 * are those it was made at; read inside dl_iterate_phdr (the loader's lock:
 * no object comes or goes meanwhile) and written under the fork guard. */
enum { TP__MODULE_CACHE = 8 };
struct tp__module_cache {
	int valid;
	int n;
	unsigned long long adds, subs;
	struct tp__phdr_info obj[TP__MODULE_CACHE];
	struct tp__module mod[TP__MODULE_CACHE];
};

struct tp__patch_walk {
	struct tp__patch pt; /* first: what tp__patch_module is given */
	struct tp__module_cache *cache;
	int calls;   /* callbacks so far */
	int filling; /* this walk remakes the cache */
};

static inline struct tp__module_cache *tp__module_cache_of_file(void)
{
	static struct tp__module_cache cache;
	return &cache;
}

/* tp__patch_module, noting the module in the cache being made. */
static inline int tp__patch_module_note(const struct tp__module *m, void *arg)
{
	struct tp__patch_walk *w = (struct tp__patch_walk *)arg;
	struct tp__module_cache *c = w->cache;
	if (w->filling && c->n < TP__MODULE_CACHE) {
		c->obj[c->n] = *m->obj;
		c->mod[c->n] = *m;
		c->mod[c->n].obj = &c->obj[c->n];
		c->n++;
	} else {
		w->filling = 0; /* too many: no cache */
	}
	return tp__patch_module(m, &w->pt);
}

static inline int tp__patch_key_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct tp__patch_walk *w = (struct tp__patch_walk *)arg;
	struct tp__module_cache *c = w->cache;
	const struct tp__phdr_counts *n = (const struct tp__phdr_counts *)(const void *)info;
	if (w->calls++ == 0 && size >= sizeof(struct tp__phdr_counts)) {
		int i;
		if (c->valid && c->adds == n->adds && c->subs == n->subs) {
			for (i = 0; i < c->n; i++)
				tp__patch_module(&c->mod[i], &w->pt);
			return 1;
		}
		c->valid = 0;
		c->n = 0;
		c->adds = n->adds;
		c->subs = n->subs;
		w->filling = 1;
	}
	return tp__for_each_module(info, w->filling ? tp__patch_module_note : tp__patch_module,
				   w->filling ? arg : (void *)&w->pt);
}

/* --- Whether anything was ever enabled in the process.  A module's
 * constructor need not read its sites' keys (its whole jump table, the GOT
 * and every tracepoint struct it names: page faults at start-up) while no
 * key of the process was ever enabled.  That is noted in the main
 * program's module state, which every copy of this code finds through the
 * main program's note (the first object dl_iterate_phdr reports); a main
 * program without tracepoints has no note, and then constructors read the
 * keys as before.  Order: an enabler sets its key, then the flag, then
 * walks the modules; a constructor runs in a module already on the
 * loader's list, so either it sees the flag (and the key), or the
 * enabler's walk, which starts later, sees the module. --- */
static inline int tp__main_state_cb(const struct tp__module *m, void *arg)
{
	*(struct tp__module_state **)arg = m->state;
	return 1;
}

static inline int tp__main_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	tp__for_each_module(info, tp__main_state_cb, arg);
	return 1; /* the first object only: the main program */
}

/* The main program's module state, or NULL if it has no tracepoints. */
static inline struct tp__module_state *tp__main_state(void)
{
	struct tp__module_state *s = NULL;
	tp__iterate_phdr(tp__main_cb, &s);
	return s;
}

/* Notes that a key is (or may be) enabled, before the walk that patches it. */
static inline void tp__note_keys_used(void)
{
	static int noted; /* by this copy of the code: the flag is never cleared */
	struct tp__module_state *s;
	if (__atomic_load_n(&noted, __ATOMIC_ACQUIRE))
		return;
	s = tp__main_state();
	if (s)
		__atomic_fetch_or(&s->flags, TP__MODULE_KEYS_USED, __ATOMIC_SEQ_CST);
	__atomic_store_n(&noted, 1, __ATOMIC_RELEASE);
}

/* Whether a constructor must read its sites' keys: not while no key of the
 * process was ever enabled. */
static inline bool tp__keys_maybe_used(void)
{
	struct tp__module_state *s = tp__main_state();
	return !s || (__atomic_load_n(&s->flags, __ATOMIC_SEQ_CST) & TP__MODULE_KEYS_USED);
}

/* --- A file without the patcher (portable or USDT mode) that enables a
 * key: other modules may hold call sites of it compiled with static keys.
 * The tracepoint's definer, when it has the patcher (its patch_sites,
 * tp__module_init below), points them at their slow path as a module
 * constructor does for keys already enabled; called from inside the walk
 * (the loader's lock and our guard are both recursive), so no module goes
 * away meanwhile.  Disabling leaves such sites jumping, which is correct:
 * their dispatch finds no probe. --- */
static inline int tp__foreign_module_cb(const struct tp__module *m, void *arg)
{
	struct tracepoint *tp = (struct tracepoint *)arg;
	if (m->jump_start < m->jump_stop)
		tp->patch_sites(m->jump_start, m->jump_stop);
	return 0;
}

static inline int tp__foreign_sites_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	tp__for_each_module(info, tp__foreign_module_cb, arg);
	return 0;
}

/* Points every site of one tracepoint (NULL: of every tracepoint), in every
 * loaded module, at the tracepoint's state as read under the loader's lock:
 * whoever patches last applies the latest state.  Called without the registration lock, so the
 * only lock order is loader lock -> registration lock. */
static inline int tp__patch_key(struct tracepoint *tp)
{
#if TRACEPOINT_STATIC_KEYS
	struct tp__patch_walk w;
	if (!tp || tp__key_enabled(tp))
		tp__note_keys_used();
	tp__patch_begin(&w.pt, tp);
	w.cache = tp__module_cache_of_file();
	w.calls = w.filling = 0;
	tp__guard_lock();
	tp__iterate_phdr(tp__patch_key_cb, &w);
	if (w.filling) /* a whole walk, every module noted */
		w.cache->valid = 1;
	tp__guard_unlock();
	return w.pt.err;
#else
	if (tp && tp->patch_sites && tp__key_enabled(tp)) {
		tp__note_keys_used();
		tp__guard_lock();
		tp__iterate_phdr(tp__foreign_sites_cb, tp);
		tp__guard_unlock();
	}
	return 0;
#endif
}

/* TRACEPOINTS in the environment of a program that has no recorder would
 * silently record nothing: say so once (from the first module constructor).
 * The recorder is the file that defines TRACEPOINT_SINK_MAIN before
 * <trace/sink.h>; its tracepoint_enable() (the old name of
 * trace_recorder_enable(), still exported: trace/recorder/old_names.h) is
 * looked up as a weak symbol. */
extern int tp__recorder_enable_ref(const char *) __asm__("tracepoint_enable") __attribute__((weak));

static inline void tp__no_sink_check(void)
{
	const char *v = getenv("TRACEPOINTS");
	const char *line[2];
	if (!v || !*v || tp__recorder_enable_ref ||
	    __atomic_exchange_n(&tp__guard()->said_no_sink, 1, __ATOMIC_RELAXED))
		return;
	line[0] = "tracepoints: TRACEPOINTS is set, but this program has no recorder: nothing "
		  "is recorded (one file must #define TRACEPOINT_SINK_MAIN before including "
		  "<trace/sink.h>; from a static library, make sure the linker keeps that "
		  "object)\n";
	line[1] = NULL;
	tp__say(line);
}

#if TRACEPOINT_STATIC_KEYS
extern const struct tp__jump_entry __start_tp__jump[] __attribute__((weak, visibility("hidden")));
extern const struct tp__jump_entry __stop_tp__jump[] __attribute__((weak, visibility("hidden")));

/* The module constructor (an .init_array entry left by the first call site
 * of each translation unit) hands the module's sites to the module_init of
 * the first site's tracepoint (its definer's copy, tp__module_init below),
 * so that a file that only fires tracepoints carries a few instructions of
 * constructor, not the patcher and the process hooks. */
extern struct tp__module_state tp__module_state __attribute__((visibility("hidden")));

static inline void tp__jump_init(void)
{
	const struct tp__jump_entry *e = __start_tp__jump;
	/* Every translation unit with sites has this constructor; a word the
	 * linker keeps once per module (a COMDAT group) lets only the first run. */
	struct tracepoint *key;
	if (__atomic_exchange_n(&tp__module_state.init_done, 1, __ATOMIC_RELAXED))
		return;
	key = e < __stop_tp__jump ? tp__jump_key(e) : NULL;
	if (key && tp__abi_ok(key) && key->patch_sites)
		key->patch_sites(__start_tp__jump, __stop_tp__jump);
}
#endif

struct tp__site_range {
	struct tp__patch pt;
	const struct tp__jump_entry *start, *stop;
};

static inline int tp__patch_sites_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct tp__site_range *r = (struct tp__site_range *)arg;
	(void)info;
	(void)size;
	tp__patch_range(&r->pt, r->start, r->stop);
	return 1; /* ran once, under the loader's lock */
}

/* A module's constructor: points the sites of tracepoints already enabled
 * at their slow path (the others are idle as compiled). */
static inline void tp__patch_sites(const struct tp__jump_entry *start,
				   const struct tp__jump_entry *stop)
{
	struct tp__site_range r;
	const struct tp__jump_entry *e;
	/* Nothing to do, and no text page to touch, unless some tracepoint of
	 * the module is enabled already.  A key enabled after this check is
	 * patched here by its enabler, whose walk sees this module. */
	if (!tp__keys_maybe_used())
		return;
	for (e = start; e < stop; e++) {
		struct tracepoint *key = tp__jump_key(e);
		if (key && tp__key_enabled(key))
			break;
	}
	if (e == stop)
		return;
	tp__patch_begin(&r.pt, NULL);
	r.pt.load = 1;
	r.start = start;
	r.stop = stop;
	tp__iterate_phdr(tp__patch_sites_cb, &r);
}

/* What a module constructor runs, in the definer of its first site's
 * tracepoint: the process hooks (fork handlers, exit marker), the
 * no-recorder check, and the sites of tracepoints already enabled. */
static inline void tp__module_init(const struct tp__jump_entry *start,
				   const struct tp__jump_entry *stop)
{
	tp__process_hooks();
	tp__no_sink_check();
	tp__patch_sites(start, stop);
}

/* What DEFINE_TRACE stores in struct tracepoint's patch_sites, which the
 * module constructor above calls (0 where there is nothing to patch). */
#if defined(__x86_64__) || defined(__aarch64__)
#define TP__PATCHER tp__module_init
#else
#define TP__PATCHER 0
#endif

#endif /* TP__STATIC_KEY_H */
