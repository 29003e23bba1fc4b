/* SPDX-License-Identifier: MIT */
/*
 * tracepoint/defs.h - the data layout that every module of a process shares.
 *
 * A struct tracepoint is defined once per program (DEFINE_TRACE) and read
 * and written by every module that fires it or attaches to it, whichever
 * tracepoint.h each was built with.  Its layout, the probe lists it points
 * to, the jump-table entry of a call site and the symbol names are therefore
 * an ABI, versioned by TRACEPOINT_ABI; they live in this one file so that a
 * change to any of them is seen next to the version it must bump.  The public
 * part (struct tracepoint's name, enabled and funcs; struct tracepoint_probe;
 * tracepoint_func_t) is described in tracepoint.h.  (tests/t_modules.sh
 * edits a copy of this file to build a module with another layout.)
 *
 * Internal: included by tracepoint.h, inside extern "C"; depends on
 * compiler.h.
 */
#ifndef TRACEPOINT_H_INCLUDED
#error "tracepoint/defs.h is internal: #include <tracepoint.h> instead"
#elif !defined(TP__DEFS_H)
#define TP__DEFS_H

/* Probes are stored untyped; every typed wrapper casts through this type,
 * which -Wcast-function-type accepts in both directions. */
typedef void (*tracepoint_func_t)(void);

/* One attached probe.  Arrays of these end with func == NULL. */
struct tracepoint_probe {
	tracepoint_func_t func;
	void *data;
	int prio;
	int dead; /* enum tp__probe_kind: not 0 for entries that are no probe */
};

/* What an entry of a published list is.  The dispatch calls a list's first
 * entry only: a lone probe, or, for several, a head entry that calls the
 * tracepoint's slow dispatch with the probes after it as its data.  Walks
 * of the list skip everything but TP__PROBE_LIVE. */
enum tp__probe_kind {
	TP__PROBE_LIVE = 0,
	TP__PROBE_STUB = 1, /* a probe removed in place (registry.h's unregister) */
	TP__PROBE_HEAD = 2  /* calls iter_slow(the entries after it, args) */
};

/* Probe lists are allocated with this header in front of them. */
struct tp__probes {
	struct tp__probes *next; /* retired list, oldest last */
	unsigned long seq;	 /* sequence at retirement */
	struct tracepoint_probe probes[1];
};

/* Bookkeeping owned by the registry (readers never touch it).  The grace
 * domain (grace.h) is the process's, as the defining module sees it. */
struct tp__domain;
struct tp__state {
	int lock; /* pid of the process holding it, 0 if free */
	int pid;  /* process the retired lists belong to */
	struct tp__probes *retired;
	unsigned long wait_seq; /* domain sequence that frees all of retired */
	struct tp__domain *gp;	/* the grace domain of this tracepoint's readers */
	/* The published list's allocation: funcs points inside it, and a leak
	 * checker (valgrind --leak-check=full) calls a block that only
	 * interior pointers reach "possibly lost", an error. */
	struct tp__probes *live;
};

/* One patchable call site (static keys), in section tp__jump.  Every
 * member is an offset relative to itself, so that an entry needs no
 * dynamic relocation: on x86-64 the key is reached through the module's
 * GOT slot of the tracepoint (one relocation per tracepoint and module, not
 * per site); aarch64's assembler has no such data relocation, so the key is
 * an address there.  Read the key with tp__jump_key() (static_key.h). */
struct tp__jump_entry {
	int32_t site;	/* offset from this field to the instruction */
	int32_t target; /* offset from this field to the slow path */
#if defined(__x86_64__)
	int32_t key;	/* offset from this field to the GOT slot */
#else
	struct tracepoint *key;
#endif
};

/* The layout every module shares.  The first four members are fixed for all
 * versions: any code can read a tracepoint's name, key, layout version and
 * size, whatever header its definer was built with.  What follows belongs
 * to TRACEPOINT_ABI; a change to it (or to struct tp__jump_entry, the
 * module note of modules.h, struct tp__state, or the order in which a
 * probe receives its arguments) bumps TRACEPOINT_ABI, and
 * code meeting another version reports the module and leaves it alone
 * (never mis-reads).  New members go at the end. */
#define TRACEPOINT_ABI 8
struct tracepoint {
	const char *name; /* first member, as in the kernel */
	/* Non-zero while someone listens: TP__KEY_PROBES while in-process
	 * probes are attached, and with -DTRACEPOINT_USDT it is also the USDT
	 * semaphore that external tracers (perf, bpftrace, gdb) increment. */
	unsigned short enabled;
	unsigned short abi; /* TRACEPOINT_ABI of the definer */
	unsigned int size;  /* sizeof(struct tracepoint) of the definer */
	/* ---- TRACEPOINT_ABI 3 to 7 (4: TP__KEY_PROBES moved; 5: the grace
	 * domain maps its slots, a head entry in lists of several probes,
	 * module state flags; 6: tp__state.live; 7: call and none) ---- */
	const char *system;	 /* TRACE_SYSTEM of the declaring header */
	int (*regfunc)(void);	 /* called when the first probe attaches */
	void (*unregfunc)(void); /* called when the last probe detaches */
	/* The slow dispatch, void (*)(void *list, proto) (declare.h): what
	 * the head entry of a list of several probes calls. */
	tracepoint_func_t iter_slow;
	/* A module's constructor work (process hooks, the sites of enabled
	 * tracepoints: tp__module_init); lives in the defining module so that
	 * files which only fire carry a small constructor stub. */
	void (*patch_sites)(const struct tp__jump_entry *start, const struct tp__jump_entry *stop);
	/* Where a thread without a slot starts reading (grace.h), also in
	 * the defining module. */
	long *(*read_slow)(void);
	struct tracepoint_probe *funcs; /* published probe list or NULL */
	const void *event;		/* event metadata (trace/define_trace.h) or NULL */
	struct tp__state tp__priv;
	/* ---- TRACEPOINT_ABI 7 ---- */
	/* What the typed dispatch calls, so that with static keys it tests
	 * nothing: the published list's first entry, or `none` once the list
	 * is empty.  NULL until a probe first attaches; the portable and USDT
	 * dispatches test it (declare.h says why). */
	struct tracepoint_probe *call;
	/* Set by the first publication: calls the slow dispatch as a reader
	 * without a slot, which reads the list (empty, or in a race the new
	 * one) under a read side of its own. */
	struct tracepoint_probe none;
};

/* The layout all versions share (see struct tracepoint). */
TP__STATIC_ASSERT(offsetof(struct tracepoint, name) == 0 &&
			  offsetof(struct tracepoint, enabled) == sizeof(void *) &&
			  offsetof(struct tracepoint, abi) == sizeof(void *) + 2 &&
			  offsetof(struct tracepoint, size) == sizeof(void *) + 4,
		  "struct tracepoint: the fixed prefix moved", tp__fixed_prefix_moved);

/* The bit of .enabled that says "in-process probes are attached"; the low
 * bits count external tracers (USDT semaphore).  Not the sign bit: the
 * kernel reads a uprobe's semaphore as a signed short and refuses to
 * increment a negative one ("ref_ctr going negative"), so with 0x8000 (ABI
 * 3) no tracer could attach while an in-process probe was. */
enum { TP__KEY_PROBES = 0x4000 };

/* What DEFINE_TRACE puts in a struct tracepoint (self: the struct itself).
 * read_slow is unload.h's tp__read_slow_defining, which also leaves the
 * translation unit's destructor entry. */
#define TP__INITIALIZER(self, name, system, reg, unreg, iter, patcher, ev)   \
	{ name, 0, TRACEPOINT_ABI, sizeof(struct tracepoint), system, reg,    \
	  unreg, iter, patcher, tp__read_slow_defining, 0, ev,                \
	  { 0, 0, 0, 0, &tp__domain_obj, 0 }, 0, { 0, 0, 0, 0 } }

/* The symbols of a tracepoint: __tracepoint_<name> for DECLARE_TRACE (one
 * namespace, as in the kernel), __tracepoint_<system>__<name> for the events
 * of TRACE_EVENT headers, so that two libraries may each have an "init"
 * event in their own system.  sym is "" or "<system>__" (TP__SYSVAR,
 * tracepoint.h: the system's TRACE_SYSTEM_VAR, else its TRACE_SYSTEM). */
#define TP__SYM(prefix, sym, name) prefix sym #name
#define TP__EVENT_SYM TP__STR(TP__SYSVAR) "__"

#endif /* TP__DEFS_H */
