/* SPDX-License-Identifier: MIT */
/*
 * tracepoint/unload.h - what a module's destructors undo at dlclose().
 *
 * The one mechanism that runs at the end of a module's life, from its
 * destructors (one per DEFINE_TRACE, and an .fini_array entry left by
 * registry.h in each translation unit that registers probes), and that uses
 * all the others: unregistration, the walks and the registration lock of
 * registry.h, the grace-period poll of grace.h, the fork guard of
 * modules.h.  The section below says what is undone, and when nothing is.
 *
 * Internal: included by tracepoint.h, after registry.h; depends on
 * compiler.h, defs.h, modules.h, grace.h and registry.h.
 */
#ifndef TRACEPOINT_H_INCLUDED
#error "tracepoint/unload.h is internal: #include <tracepoint.h> instead"
#elif !defined(TP__UNLOAD_H)
#define TP__UNLOAD_H

/* --- dlclose().  A module that goes away takes with it what
 * belongs to it, from its destructors: the probe lists of the tracepoints
 * it defines (detached and freed), and the probes whose code it holds that
 * are attached to tracepoints of other modules (detached), so that nothing
 * is left pointing into unmapped memory.  At process exit nothing is
 * detached (the events of later destructors are still recorded): the main
 * program's atexit() handler (process.h), which runs before every
 * destructor, says so.  A program whose executable has no tracepoint code
 * has no such handler; its libraries then detach at exit too. --- */
extern struct tracepoint *const __start_tp__ptrs[] __attribute__((weak, visibility("hidden")));
extern struct tracepoint *const __stop_tp__ptrs[] __attribute__((weak, visibility("hidden")));

static inline int tp__exiting(void)
{
	return __atomic_load_n(&tp__guard()->exiting, __ATOMIC_ACQUIRE);
}

/* The address ranges of the module that holds `addr`. */
struct tp__range {
	uintptr_t addr;
	int found, main_program, n;
	int first_only; /* stop after the first module (the program) */
	uintptr_t lo[8], hi[8];
};

static inline int tp__range_cb(struct dl_phdr_info *dlinfo, size_t size, void *arg)
{
	const struct tp__phdr_info *info = (const struct tp__phdr_info *)(const void *)dlinfo;
	struct tp__range *r = (struct tp__range *)arg;
	ElfW(Half) i;
	int mine = 0;
	(void)size;
	for (i = 0; i < info->phnum; i++) {
		const ElfW(Phdr) *ph = &info->phdr[i];
		uintptr_t lo = info->addr + ph->p_vaddr;
		if (ph->p_type == PT_LOAD && r->addr >= lo && r->addr < lo + ph->p_memsz)
			mine = 1;
	}
	if (!mine) {
		r->main_program = 0; /* only the first module walked is the program */
		return r->first_only;
	}
	for (i = 0; i < info->phnum && r->n < 8; i++) {
		const ElfW(Phdr) *ph = &info->phdr[i];
		if (ph->p_type != PT_LOAD)
			continue;
		r->lo[r->n] = info->addr + ph->p_vaddr;
		r->hi[r->n++] = info->addr + ph->p_vaddr + ph->p_memsz;
	}
	r->found = 1;
	return 1;
}

static inline void tp__module_of(uintptr_t addr, int first_only, struct tp__range *r)
{
	memset(r, 0, sizeof(*r));
	r->addr = addr;
	r->first_only = first_only;
	r->main_program = 1;
	tp__iterate_phdr(tp__range_cb, r);
	if (!r->found)
		r->main_program = 0;
}

static inline int tp__in_range(const struct tp__range *r, uintptr_t p)
{
	int i;
	for (i = 0; i < r->n; i++)
		if (p >= r->lo[i] && p < r->hi[i])
			return 1;
	return 0;
}

/* Waits (a bounded time: a probe that never returns must not hang dlclose)
 * for the readers of tp to leave, so that its retired lists are freed. */
static inline void tp__drain(struct tracepoint *tp)
{
	unsigned round;
	for (round = 0; round < 200; round++) {
		int done;
		tp__lock(tp);
		tp__gp_poll(tp);
		done = !tp->tp__priv.retired;
		tp__unlock(tp);
		if (done)
			return;
		tp__pause(round);
	}
}

/* The destructor of a module that defines tracepoints (one .fini_array
 * entry per translation unit that defines some: see below; the first to
 * run closes every tracepoint of the module).  Each is closed under its
 * lock before its probes are detached: an enable in another thread that
 * reaches the module now (the loader lists it until it is unmapped, after
 * the destructors) finds it closed, and attaches nothing that would be
 * left behind. */
static inline void tp__defining_module_fini(void)
{
	static int done; /* LTO may leave the unit's entry twice */
	struct tracepoint *const *it;
	if (tp__exiting() || __atomic_exchange_n(&done, 1, __ATOMIC_RELAXED))
		return;
	for (it = __start_tp__ptrs; it < __stop_tp__ptrs; it++) {
		struct tracepoint *tp = *it;
		struct tracepoint_probe *old;
		if (!tp__relocated(tp) || !tp__abi_ok(tp))
			continue; /* another layout, or closed by another unit's entry */
		tp__lock(tp);
		__atomic_store_n(&tp->abi, (unsigned short)TP__ABI_CLOSED, __ATOMIC_RELEASE);
		old = tp->funcs;
		if (old || tp->tp__priv.retired) {
			tp__publish(tp, NULL);
			tp__retire(tp, old);
			if (old && tp->unregfunc)
				tp->unregfunc();
		}
		tp__unlock(tp);
		tp__drain(tp);
	}
}

/* The read_slow of every tracepoint a translation unit defines (the grace
 * period's slow path, grace.h).  Every DEFINE_TRACE references it, so it is
 * where the unit's one destructor entry is left: an .fini_array slot the
 * assembler emits once per file, named through an asm operand (which -flto
 * keeps right), instead of a destructor function, unwind entry and slot per
 * tracepoint.  The asm adds no instruction. */
static inline long *tp__read_slow_defining(void)
{
	__asm__(".ifndef tp__fini_emitted\n\t"
		".set tp__fini_emitted, 1\n\t"
		".pushsection .fini_array,\"aw\",@fini_array\n\t"
		".balign 8\n\t"
		".quad %c0\n\t"
		".popsection\n\t"
		".endif\n\t"
		:
		: TP__FN_CONSTRAINT(tp__defining_module_fini));
	return tp__read_begin_slow();
}

struct tp__owner_walk {
	struct tp__range self;
	int detached;
};

static inline int tp__owner_cb(struct tracepoint *tp, void *priv)
{
	struct tp__owner_walk *w = (struct tp__owner_walk *)priv;
	if (tp__in_range(&w->self, (uintptr_t)tp))
		return 0; /* goes away with this module: its own destructor */
	for (;;) {
		const struct tracepoint_probe *p = __atomic_load_n(&tp->funcs, __ATOMIC_ACQUIRE);
		tracepoint_func_t f = NULL;
		void *data = NULL;
		for (; p; p++) {
			/* an entry may become a stub meanwhile (registry.h) */
			tracepoint_func_t pf = __atomic_load_n(&p->func, __ATOMIC_ACQUIRE);
			if (!pf)
				break;
			if (!__atomic_load_n(&p->dead, __ATOMIC_RELAXED) &&
			    tp__in_range(&w->self, (uintptr_t)pf)) {
				f = pf;
				data = p->data;
				break;
			}
		}
		if (!f || tracepoint_probe_unregister(tp, f, data) != 0)
			return 0;
		w->detached++;
	}
}

/* The destructor of a module that registers probes: detaches those whose
 * code is in it. */
static inline void tp__owner_fini(void)
{
	struct tp__owner_walk w;
	if (tp__exiting())
		return;
	memset(&w, 0, sizeof(w));
	tp__module_of((uintptr_t)tp__owner_fini, 0, &w.self);
	if (!w.self.found || w.self.main_program)
		return;
	tracepoint_for_each(tp__owner_cb, &w);
	/* Then wait, a bounded time, for calls already under way. */
	if (w.detached)
		tp__sync_rounds(200);
}

#endif /* TP__UNLOAD_H */
