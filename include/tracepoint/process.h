/* SPDX-License-Identifier: MIT */
/*
 * tracepoint/process.h - the process's life: fork() and exit().
 *
 * What keeps the tracepoints of a process right across fork() and exit():
 * the pthread_atfork() handlers that take the fork guard of modules.h, what
 * a forked child redoes before its first walk (fresh reader counters, keys
 * and call sites brought in line), and the main program's atexit() marker
 * that tells the dlclose destructors of unload.h that the process is
 * ending.  tp__process_hooks, which every entry point runs first, installs
 * them.  They walk the modules and change tracepoints with everything the
 * other files define, so this file is the last of the machinery; modules.h
 * declares ahead the two functions that earlier files call
 * (tp__fork_catch_up and tp__process_hooks).
 *
 * Internal: included by tracepoint.h, after unload.h; depends on
 * compiler.h, defs.h, modules.h (the fork guard, the walk), static_key.h
 * (tp__patch_key), grace.h, registry.h (tracepoint_for_each, the
 * registration lock's tp__adopt_counters) and unload.h (tp__module_of).
 */
#ifndef TRACEPOINT_H_INCLUDED
#error "tracepoint/process.h is internal: #include <tracepoint.h> instead"
#elif !defined(TP__PROCESS_H)
#define TP__PROCESS_H

/* --- fork().  Two things do not survive fork() on their own.
 * (1) The loader's lock may be held for good in the child: every walk of
 * ours takes the fork guard (modules.h), which the prepare handler below
 * takes too, so that no walk of ours is in progress when the process
 * forks.  The handlers are installed once, before the first walk, the
 * first registration, and by every module constructor, so that they run
 * after (prepare) the handlers that libraries install later: those may
 * take locks under which they walk.
 * (2) Reader counts include threads that do not exist in the child: the
 * child starts every tracepoint's grace domain over (tp__adopt_counters,
 * registry.h). --- */
static inline void tp__fork_prepare(void)
{
	tp__guard_lock();
}

static inline void tp__fork_parent(void)
{
	tp__guard_unlock();
}

static inline int tp__fork_adopt_cb(struct tracepoint *tp, void *priv)
{
	int me = *(const int *)priv;
	if (tp->tp__priv.pid != me)
		tp__adopt_counters(tp, me);
	/* A thread that died with the fork may have been between publishing
	 * a list and setting the key: make the key say what the list says. */
	if (tp->funcs)
		tp->enabled = (unsigned short)(tp->enabled | TP__KEY_PROBES);
	else
		tp->enabled = (unsigned short)(tp->enabled & ~TP__KEY_PROBES);
	return 0;
}

/* The child: no walk here.  Another thread of the parent may have been
 * inside dlopen() or dlclose(), or walking the modules for another library
 * (an unwinder), when the process forked: the loader's lock is then held
 * for good in the child, and a walk from this handler would hang a child
 * that only meant to exec().  The walk that brings the tracepoints in line
 * is left to the child's first walk of its own (tp__iterate_phdr). */
static inline void tp__fork_child(void)
{
	struct tp__fork_guard *g = tp__guard();
	/* Tickets taken by threads that did not survive are void. */
	g->next = g->serving + 1;
	tp__guard_unlock();
	/* fork() from inside one of our walks (a tracepoint_for_each callback,
	 * a signal handler) leaves the loader's lock held for good: do not
	 * walk then.  Otherwise no walk of ours was in progress. */
	if (g->depth != 0)
		return;
	__atomic_fetch_or(&g->handlers, TP__GUARD_CHILD_WALK, __ATOMIC_RELAXED);
}

/* A forked child's first walk, guard held: counters and keys made the
 * child's own, and, since a thread that changed a key may not have patched
 * its sites yet when the process forked (that thread is gone), every site
 * brought in line with its key. */
static inline void tp__fork_catch_up(void)
{
	int me = (int)getpid();
	__atomic_fetch_and(&tp__guard()->handlers, ~TP__GUARD_CHILD_WALK, __ATOMIC_RELAXED);
	tracepoint_for_each(tp__fork_adopt_cb, &me);
	tp__patch_key(NULL);
}

/* May this guard's handlers be given to pthread_atfork()?  Only if the
 * module they are in stays mapped: glibc (2.36 here) may call the fork
 * handlers of a library that another thread is dlclose()ing at that
 * moment, and crash (a library of four lines that only registers a
 * handler does it too).  The guard is then in the main program, or is the
 * one the program's global scope resolves (a linked library, shared by
 * every module).  A library dlopen()ed into a program that does not export
 * the core's symbols has a guard of its own and no handlers: a child
 * forked while that library walked the modules itself (its constructor,
 * destructor, or calls it makes) may find that guard and the loader's
 * lock held; docs/design.md#fork. */
static inline int tp__guard_stays(void)
{
	struct tp__range r;
	struct tp__fork_guard *g = tp__guard();
	void *main_h;
	int global;
	tp__module_of((uintptr_t)g, 0, &r);
	if (!r.found || r.main_program)
		return 1; /* the main program (or a static one) */
	main_h = dlopen(NULL, RTLD_LAZY);
	if (!main_h)
		return 0;
	global = dlsym(main_h, TP__GUARD_SYM) == (void *)g;
	dlclose(main_h);
	return global;
}

static inline void tp__fork_handlers_once(void)
{
	struct tp__fork_guard *g = tp__guard();
	if (__atomic_load_n(&g->handlers, __ATOMIC_ACQUIRE) & TP__GUARD_HANDLERS)
		return;
	/* Never while holding the guard: a fork in progress holds glibc's
	 * handler lock and waits for the guard. */
	if (__atomic_load_n(&g->owner, __ATOMIC_RELAXED) == tp__self())
		return;
	if (__atomic_fetch_or(&g->handlers, TP__GUARD_HANDLERS, __ATOMIC_ACQ_REL) &
	    TP__GUARD_HANDLERS)
		return;
	if (tp__guard_stays() &&
	    pthread_atfork(tp__fork_prepare, tp__fork_parent, tp__fork_child) != 0)
		__atomic_fetch_and(&g->handlers, ~TP__GUARD_HANDLERS, __ATOMIC_RELEASE);
}

/* --- exit().  The main program's atexit() handler, which runs before
 * every destructor, marks the process as ending: the dlclose destructors of
 * unload.h then leave everything attached. --- */
static inline void tp__exit_mark(void)
{
	__atomic_store_n(&tp__guard()->exiting, 1, __ATOMIC_RELEASE);
}

/* Installs tp__exit_mark once, from the main program's code only (a
 * library's atexit() handlers also run at its dlclose()). */
static inline void tp__exit_mark_once(void)
{
	static int done;
	struct tp__range r;
	if (__atomic_exchange_n(&done, 1, __ATOMIC_RELAXED))
		return;
	/* The program is the first module walked: no need to look further. */
	tp__module_of((uintptr_t)tp__exit_mark_once, 1, &r);
	if (r.main_program)
		atexit(tp__exit_mark);
}

/* A forked child's first call of an entry point (register, unregister,
 * a walk) brings the tracepoints in line first: the call may otherwise
 * add a probe to a tracepoint whose sites a thread of the parent had not
 * patched yet. */
static inline void tp__fork_catch_up_once(void)
{
	struct tp__fork_guard *g = tp__guard();
	if (!(__atomic_load_n(&g->handlers, __ATOMIC_RELAXED) & TP__GUARD_CHILD_WALK))
		return;
	tp__guard_lock();
	if (g->depth == 1 &&
	    (__atomic_load_n(&g->handlers, __ATOMIC_RELAXED) & TP__GUARD_CHILD_WALK))
		tp__fork_catch_up();
	tp__guard_unlock();
}

/* What every entry point runs first: fork handlers, a forked child's
 * catching up, exit marker. */
static inline void tp__process_hooks(void)
{
	tp__fork_handlers_once();
	tp__fork_catch_up_once();
	tp__exit_mark_once();
}

#endif /* TP__PROCESS_H */
