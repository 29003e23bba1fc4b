/* SPDX-License-Identifier: MIT */
/*
 * tracepoint/modules.h - the process: its loaded modules, and the guard
 * around every walk of them.
 *
 * There is no registry of tracepoints: the list of all of them is the
 * dynamic loader's list of modules.  Each module carries an ELF note,
 * written here (TP__MODULE_NOTE_ASM, left by the first call site or
 * DEFINE_TRACE of each translation unit) and read here
 * (tp__for_each_module, from dl_iterate_phdr), with the bounds of its
 * tp__ptrs and tp__jump sections; a module whose note or
 * tracepoints have another layout is reported and skipped.
 *
 * Every walk of the modules goes through one process-wide guard, because
 * glibc's fork() can leave the loader's lock held in the child; the guard
 * is here, with the walk.  The fork handlers that take it, and what a
 * forked child must redo, are in process.h, the last file.
 *
 * Internal: included by tracepoint.h; depends on compiler.h and defs.h.
 * Declares ahead two functions of process.h (see "The process hooks"
 * below): every walk's and every entry point's first step, which need
 * the walks and the entry points defined after this file.
 */
#ifndef TRACEPOINT_H_INCLUDED
#error "tracepoint/modules.h is internal: #include <tracepoint.h> instead"
#elif !defined(TP__MODULES_H)
#define TP__MODULES_H

/* --- The module note.  One per translation unit (the assembler's
 * .ifndef sees earlier ones), holding link-time offsets to this module's
 * tp__ptrs and tp__jump bounds and to its state, so iteration and
 * patching find them from the program headers alone.  Offsets, not
 * addresses: no relocation in read-only data.  It opens with TRACEPOINT_ABI: a module
 * built with another layout is reported and skipped by every walk. */
#define TP__NOTE_TYPE 0x7470
#define TP__NOTE_DESC 48
/* Each module's own state (tp__module_state, one per module), which the
 * note points to: whether its constructor ran, and its flags below.  Every
 * copy of the patcher that touches the module's code finds this same word
 * through the note, whichever module that copy lives in. */
enum tp__module_flag {
	TP__MODULE_SORTED = 1,	 /* jump table sorted by tracepoint (static_key.h) */
	TP__MODULE_WRITABLE = 2, /* its code segment is read+write+exec for a batch
				  * (tracepoint_batch_begin): patch without mprotect */
	TP__MODULE_KEYS_USED = 4 /* in the main program's state only: some key was
				  * enabled in the process (static_key.h) */
};
struct tp__module_state {
	int init_done;
	int flags; /* enum tp__module_flag; changed under the loader lock */
};
#define TP__MODULE_NOTE_ASM                                                  \
	".ifndef tp__module_note_emitted\n\t"                                \
	".set tp__module_note_emitted, 1\n\t"                                \
	".pushsection .note.tracepoint,\"a\",@note\n\t"                       \
	".balign 4\n\t"                                                       \
	".long 11, " TP__STR(TP__NOTE_DESC) ", " TP__STR(TP__NOTE_TYPE) "\n\t" \
	".asciz \"tracepoint\"\n\t"                                           \
	".balign 4\n\t"                                                       \
	".long " TP__STR(TRACEPOINT_ABI) ", 0\n\t"                           \
	".weak __start_tp__ptrs, __stop_tp__ptrs\n\t"                       \
	".weak __start_tp__jump, __stop_tp__jump\n\t"                       \
	".hidden __start_tp__ptrs, __stop_tp__ptrs\n\t"                     \
	".hidden __start_tp__jump, __stop_tp__jump\n\t"                     \
	".quad __start_tp__ptrs - .\n\t"                                     \
	".quad __stop_tp__ptrs - .\n\t"                                      \
	".quad __start_tp__jump - .\n\t"                                     \
	".quad __stop_tp__jump - .\n\t"                                      \
	".quad tp__module_state - .\n\t"                                     \
	".popsection\n\t"                                                     \
	".pushsection .bss.tp__module_state,\"awG\",@nobits,"                \
	"tp__module_state,comdat\n\t"                                         \
	".weak tp__module_state\n\t"                                          \
	".hidden tp__module_state\n\t"                                        \
	".balign 8\n\t"                                                        \
	"tp__module_state: .zero 8\n\t"                                       \
	".popsection\n\t"                                                     \
	".endif\n\t"
#define TP__MODULE_NOTE __asm__(TP__MODULE_NOTE_ASM)

/* --- POSIX calls that strict ISO C modes (-std=c99) hide.  The
 * prototypes are glibc's; redeclaring them is harmless where they are
 * already visible.  C++ compilers always expose them. --- */
#if !defined(__cplusplus) && !defined(__USE_GNU)
struct dl_phdr_info;
extern int dl_iterate_phdr(int (*)(struct dl_phdr_info *, size_t, void *), void *);
#endif
#if !defined(__cplusplus) && !defined(__USE_POSIX199309)
extern int nanosleep(const struct timespec *, struct timespec *);
#endif

/* The part of glibc's struct dl_phdr_info we read (hidden in strict C). */
struct tp__phdr_info {
	ElfW(Addr) addr;
	const char *name;
	const ElfW(Phdr) * phdr;
	ElfW(Half) phnum;
};
/* The same with the loader's counts of objects loaded and unloaded so far,
 * which follow (glibc, musl) when the callback's size covers them. */
struct tp__phdr_counts {
	ElfW(Addr) addr;
	const char *name;
	const ElfW(Phdr) * phdr;
	ElfW(Half) phnum;
	unsigned long long adds, subs;
};

/* How every lock of the header waits (the guard below, the registration
 * lock of registry.h): spin, then sleep. */
static inline void tp__pause(unsigned round)
{
	if (round < 64) {
		sched_yield();
	} else {
		struct timespec ts = { 0, 50000 };
		nanosleep(&ts, NULL);
	}
}

/* --- The fork guard.  glibc's fork() leaves the loader's
 * dl_iterate_phdr() lock held in the child if another thread was inside
 * dl_iterate_phdr(): every walk of ours (listing, patching) therefore runs
 * inside one process-wide guard, which our pthread_atfork() prepare
 * handler (process.h) takes, so that no walk of ours is in progress when
 * the process forks.  The guard is an exported weak object, one for the
 * executable and its libraries (a module whose symbols are not shared gets
 * its own, with its own handlers). --- */
struct tp__fork_guard {
	unsigned long owner;	/* pthread_self() of the holder, 0 if free */
	unsigned depth;		/* nesting of the holder */
	unsigned next, serving; /* tickets: first come, first served, so that
				   * a fork is not starved by a walking loop */
	int handlers;		/* enum tp__guard_flags */
	int exiting;		/* exit() has begun (set by the main program) */
	int said_no_sink;	/* "TRACEPOINTS is set but ..." was printed */
};

/* The bits of tp__fork_guard.handlers (an old module of the same layout
 * sees a non-zero word as "installed", which it is). */
enum tp__guard_flags {
	TP__GUARD_HANDLERS = 1,	 /* the pthread_atfork() handlers are installed */
	TP__GUARD_CHILD_WALK = 2 /* a forked child has not yet brought its
				  * tracepoints in line (tp__fork_catch_up) */
};

/* The process-wide guard: one weak, exported object per layout version. */
#define TP__GUARD_SYM "tp__fork_guard_" TP__STR(TRACEPOINT_ABI)
extern struct tp__fork_guard tp__fork_guard_obj __asm__(TP__GUARD_SYM) __attribute__((weak));
TP__STATIC_ASSERT(sizeof(struct tp__fork_guard) <= 32, "the fork guard outgrew its 32 bytes",
		  tp__fork_guard_outgrew_its_32_bytes);

static inline struct tp__fork_guard *tp__guard(void)
{
	__asm__(".ifndef tp__fork_guard_emitted\n\t"
		".set tp__fork_guard_emitted, 1\n\t"
		".pushsection .bss." TP__GUARD_SYM ",\"awG\",@nobits," TP__GUARD_SYM ",comdat\n\t"
		".weak " TP__GUARD_SYM "\n\t"
		".type " TP__GUARD_SYM ", @object\n\t"
		".size " TP__GUARD_SYM ", 32\n\t"
		".balign 8\n" TP__GUARD_SYM ":\n\t"
		".zero 32\n\t"
		".popsection\n\t"
		".endif");
	return &tp__fork_guard_obj;
}

static inline unsigned long tp__self(void)
{
	return (unsigned long)pthread_self();
}

static inline void tp__guard_lock(void)
{
	struct tp__fork_guard *g = tp__guard();
	unsigned long me = tp__self();
	unsigned round = 0, ticket;
	if (__atomic_load_n(&g->owner, __ATOMIC_RELAXED) == me) {
		g->depth++;
		return;
	}
	ticket = __atomic_fetch_add(&g->next, 1u, __ATOMIC_RELAXED);
	while (__atomic_load_n(&g->serving, __ATOMIC_ACQUIRE) != ticket)
		tp__pause(round++);
	__atomic_store_n(&g->owner, me, __ATOMIC_RELAXED);
	g->depth = 1;
}

/* The guard if it is free or already ours, without waiting: 1 if taken. */
static inline int tp__guard_trylock(void)
{
	struct tp__fork_guard *g = tp__guard();
	unsigned long me = tp__self();
	unsigned s;
	if (__atomic_load_n(&g->owner, __ATOMIC_RELAXED) == me) {
		g->depth++;
		return 1;
	}
	s = __atomic_load_n(&g->serving, __ATOMIC_ACQUIRE);
	/* Free when no ticket is out: the next ticket is the one served. */
	if (!__atomic_compare_exchange_n(&g->next, &s, s + 1, 0, __ATOMIC_ACQUIRE,
					 __ATOMIC_RELAXED))
		return 0;
	__atomic_store_n(&g->owner, me, __ATOMIC_RELAXED);
	g->depth = 1;
	return 1;
}

static inline void tp__guard_unlock(void)
{
	struct tp__fork_guard *g = tp__guard();
	if (--g->depth == 0) {
		__atomic_store_n(&g->owner, 0UL, __ATOMIC_RELAXED);
		__atomic_store_n(&g->serving, g->serving + 1, __ATOMIC_RELEASE);
	}
}

/* --- Batches of enables (tracepoint_batch_begin/end, registry.h): how many
 * are open in the process.  One weak, exported word, shared like the guard;
 * a module whose symbols are not shared counts its own (its patches are then
 * not batched, which is slower, never wrong: whether code is writable is
 * said by each module's own state, which every patcher reads). --- */
#define TP__BATCH_SYM "tp__batch_" TP__STR(TRACEPOINT_ABI)
extern int tp__batch_obj __asm__(TP__BATCH_SYM) __attribute__((weak));

static inline int *tp__batch_depth(void)
{
	__asm__(".ifndef tp__batch_emitted\n\t"
		".set tp__batch_emitted, 1\n\t"
		".pushsection .bss." TP__BATCH_SYM ",\"awG\",@nobits," TP__BATCH_SYM ",comdat\n\t"
		".weak " TP__BATCH_SYM "\n\t"
		".type " TP__BATCH_SYM ", @object\n\t"
		".size " TP__BATCH_SYM ", 4\n\t"
		".balign 4\n" TP__BATCH_SYM ":\n\t"
		".zero 4\n\t"
		".popsection\n\t"
		".endif");
	return &tp__batch_obj;
}

/* --- The process hooks, declared ahead: the one place where a file uses
 * what a later one defines.  What a forked child must redo before its first
 * walk, and what every entry point runs first, walk the modules and change
 * tracepoints themselves, so they are defined in process.h, the last file,
 * which needs all the others; the walk below and the entry points of
 * static_key.h and registry.h call them. --- */
/* A forked child's first walk, guard held: tracepoints brought in line. */
static inline void tp__fork_catch_up(void);
/* What every entry point runs first: fork handlers, a forked child's
 * catching up, exit marker. */
static inline void tp__process_hooks(void);

/* Every dl_iterate_phdr() of ours goes through here; the first one in a
 * forked child brings the tracepoints in line first (tp__fork_child). */
static inline int tp__iterate_phdr(int (*cb)(struct dl_phdr_info *, size_t, void *), void *arg)
{
	int r;
	tp__guard_lock();
	if (tp__guard()->depth == 1 &&
	    (__atomic_load_n(&tp__guard()->handlers, __ATOMIC_RELAXED) & TP__GUARD_CHILD_WALK))
		tp__fork_catch_up();
	r = dl_iterate_phdr(cb, arg);
	tp__guard_unlock();
	return r;
}

/* --- Module discovery, dl_iterate_phdr -> PT_NOTE -> our note.  The
 * callback runs under the loader's lock, which also serializes every code
 * patch in the process (see tp__patch_* in static_key.h). --- */
struct tp__module {
	struct tracepoint *const *tp_start, *const *tp_stop;
	const struct tp__jump_entry *jump_start, *jump_stop;
	struct tp__module_state *state;
	const struct tp__phdr_info *obj; /* its program headers (tp__module_code) */
};

/* A module's code: its one executable PT_LOAD segment, which a batch makes
 * writable as a whole; start == end if it has several. */
static inline void tp__module_code(const struct tp__module *m, uintptr_t *start, uintptr_t *end)
{
	const struct tp__phdr_info *info = m->obj;
	int n = 0;
	ElfW(Half) i;
	*start = *end = 0;
	for (i = 0; i < info->phnum; i++) {
		if (info->phdr[i].p_type != PT_LOAD || !(info->phdr[i].p_flags & PF_X) || n++ != 0)
			continue;
		*start = (uintptr_t)(info->addr + info->phdr[i].p_vaddr);
		*end = *start + (uintptr_t)info->phdr[i].p_memsz;
	}
	if (n != 1)
		*start = *end = 0;
}

/* One line on stderr, written without stdio (async-signal-safe). */
static inline void tp__say(const char *const *parts)
{
	for (; *parts; parts++) {
		ssize_t r = write(2, *parts, strlen(*parts));
		(void)r;
	}
}

static inline void tp__report_module(const char *module, uint32_t abi)
{
	/* Once per module and translation unit; more than 8 are all reported. */
	static const char *seen[8];
	static unsigned nseen;
	char v[12], *q = v + sizeof(v);
	const char *line[8];
	unsigned i;
	if (!module || !*module)
		module = "the executable";
	for (i = 0; i < nseen && i < 8; i++)
		if (seen[i] == module)
			return;
	if (nseen < 8)
		seen[nseen++] = module;
	*--q = 0;
	do
		*--q = (char)('0' + abi % 10);
	while ((abi /= 10) != 0);
	line[0] = "tracepoints: ";
	line[1] = module;
	line[2] = " was built with tracepoint.h layout ";
	line[3] = q;
	line[4] = ", this code reads layout " TP__STR(
		TRACEPOINT_ABI) "; its tracepoints are skipped (rebuild it with this "
				"tracepoint.h)\n";
	line[5] = NULL;
	tp__say(line);
}

/* The abi of a tracepoint whose module is being dlclose()d, set by its
 * destructor (unload.h) under the registration lock: walks skip it as of
 * another layout, and writers refuse it (tp__closed) with -ENOENT.  If
 * the module is opened again, the loader maps its data afresh. */
enum { TP__ABI_CLOSED = 0 };

static inline bool tp__closed(const struct tracepoint *tp)
{
	return __atomic_load_n(&tp->abi, __ATOMIC_ACQUIRE) == TP__ABI_CLOSED;
}

/* Whether a tracepoint (of any module, any version) has our layout: only
 * the fixed prefix is read to tell. */
static inline bool tp__abi_ok(const struct tracepoint *tp)
{
	/* Atomic loads: never merged into one wider load that spans the key,
	 * which other threads change. */
	return __atomic_load_n(&tp->abi, __ATOMIC_RELAXED) == TRACEPOINT_ABI &&
	       __atomic_load_n(&tp->size, __ATOMIC_RELAXED) == sizeof(struct tracepoint);
}

/* Is the module that defines tp done with its relocations?  dl_iterate_phdr()
 * lists a library that another thread is dlopen()ing from the moment it is
 * mapped: its array of tracepoints holds zeros until the loader applies the
 * relative relocations, and each tracepoint's domain pointer (a symbol
 * relocation, applied after those) is NULL until then.  Walks skip such a
 * tracepoint; its module's constructor has not run either. */
static inline bool tp__relocated(const struct tracepoint *tp)
{
	return tp && __atomic_load_n(&tp->tp__priv.gp, __ATOMIC_ACQUIRE) != NULL;
}

/* Calls fn once per module that carries our note; stops on non-zero. */
static inline int tp__for_each_module(const struct dl_phdr_info *dlinfo,
				      int (*fn)(const struct tp__module *m, void *arg), void *arg)
{
	const struct tp__phdr_info *info = (const struct tp__phdr_info *)(const void *)dlinfo;
	const char *seen = NULL;
	ElfW(Half) i;

	for (i = 0; i < info->phnum; i++) {
		const char *p, *end;
		if (info->phdr[i].p_type != PT_NOTE)
			continue;
		p = (const char *)(info->addr + info->phdr[i].p_vaddr);
		end = p + info->phdr[i].p_memsz;
		while (p + 12 <= end) {
			uint32_t nsz, dsz, type, abi = 0;
			const char *name, *desc;
			int64_t off[5];
			struct tp__module m;
			memcpy(&nsz, p, 4);
			memcpy(&dsz, p + 4, 4);
			memcpy(&type, p + 8, 4);
			name = p + 12;
			desc = name + ((nsz + 3u) & ~3u);
			p = desc + ((dsz + 3u) & ~3u);
			if (p > end)
				break;
			if (type != TP__NOTE_TYPE || nsz != 11 ||
			    memcmp(name, "tracepoint", 11) != 0)
				continue;
			if (dsz >= 4)
				memcpy(&abi, desc, 4);
			if (dsz != TP__NOTE_DESC || abi != TRACEPOINT_ABI) {
				/* Built with another tracepoint.h: never read it. */
				tp__report_module(info->name, dsz == TP__NOTE_DESC ? abi : 1);
				continue;
			}
			desc += 8;
			memcpy(off, desc, sizeof(off));
			if (desc + off[0] == seen)
				continue; /* another translation unit's copy */
			seen = desc + off[0];
			m.tp_start = (struct tracepoint *const *)(const void *)(desc + off[0]);
			m.tp_stop = (struct tracepoint *const *)(const void *)(desc + 8 + off[1]);
			m.jump_start =
				(const struct tp__jump_entry *)(const void *)(desc + 16 + off[2]);
			m.jump_stop =
				(const struct tp__jump_entry *)(const void *)(desc + 24 + off[3]);
			m.state =
				(struct tp__module_state *)(void *)(uintptr_t)(desc + 32 + off[4]);
			m.obj = info;
			if (fn(&m, arg))
				return 1;
		}
	}
	return 0;
}

#endif /* TP__MODULES_H */
