/* SPDX-License-Identifier: MIT */
/*
 * trace/stages/recorder.h - pass 3, the recorders: per class, the code
 * that reserves a record, runs TP_fast_assign into it, copies the
 * strings and dynamic arrays and ends it (trace/record.h), and the
 * recorder probe tp__ev_probe_<class> that every event of the class is
 * attached with.  Each class also gets its formatter
 * (trace/stages/formatter.h) in this pass, and each event its tracepoint
 * (trace/stages/tracepoints.h).
 *
 * Why a file: this is the code that runs when an enabled event fires.
 *
 * Internal: read by trace/define_trace.h after trace/stages/reset.h,
 * trace/stages/formatter.h and trace/stages/tracepoints.h; depends on
 * trace/stages/init.h, the entry struct (pass 1), the string names
 * (pass 1b), the field descriptors (pass 2) and trace/record.h.
 */
#ifndef TP__EV_INCLUDE_FILE
#error "trace/stages/recorder.h is internal: an event header's #include <trace/define_trace.h> reads it"
#endif

/* The recorder of a class, in three parts (below): the recorder of a
 * record of fixed fields only, the general one (strings, dynamic
 * arrays) with its slow copy, and the probe that picks one. */
#define DECLARE_EVENT_CLASS(c, proto, args, tstruct, assign, print)           \
	TP__EV_IF(TP__ON)(                                                    \
	static __attribute__((noinline)) TP__UNUSED void                      \
	tp__ev_full_##c(void *tp__ev_data TP__EV_PROTO(PARAMS(proto), PARAMS(args))); \
	/* The recorder: inline in the probes (tp__ev_full 0: the fast       \
	 * reservation, no call but jumps in tail position), and in its slow \
	 * copy tp__ev_full_<c> (1: the full reservation, out of line). */   \
	TP__EV_REC_FIXED(c, PARAMS(proto), PARAMS(args), PARAMS(assign))      \
	TP__EV_REC_VAR(c, PARAMS(proto), PARAMS(args), PARAMS(tstruct), PARAMS(assign)) \
	TP__EV_REC_PROBE(c, PARAMS(proto), PARAMS(args), PARAMS(tstruct))     \
	TP__EV_FORMATTER(c, c, PARAMS(print))) TP__EV_SEMI
#define TP__EV_REC_FIXED(c, proto, args, assign)                              \
	/* A record of fixed fields only: TP_fast_assign writes it on the     \
	 * stack, tp__ev_record (out of line, shared) reserves, copies and    \
	 * commits it: a few instructions of code per class. */                \
	static TP__ALWAYS_INLINE TP__UNUSED void                              \
	tp__ev_fixed_##c(void *tp__ev_data TP__EV_PROTO(PARAMS(proto), PARAMS(args))) \
	{                                                                     \
		struct tp__ev_entry_##c tp__ev_local, *__entry = &tp__ev_local; \
		TP__EV_STRS(c);                                               \
		struct tp__ev_ctx tp__ev_ctx; /* for the (dead) copy of a class \
					       * with a __dynamic_array */   \
		TP__USE_ARGS(0 TP__EV_ARGS(PARAMS(args)));                     \
		memset(&tp__ev_ctx, 0, sizeof(tp__ev_ctx));                     \
		/* what TP_fast_assign leaves alone is recorded as zeros */   \
		memset(&tp__ev_local, 0, offsetof(struct tp__ev_entry_##c, tp__ev_end)); \
		{ assign }                                                    \
		TP__EV_RECORD(tp__ev_data, __entry,                           \
			      offsetof(struct tp__ev_entry_##c, tp__ev_end));    \
	}
#define TP__EV_REC_VAR(c, proto, args, tstruct, assign)                       \
	static TP__ALWAYS_INLINE TP__UNUSED void                              \
	tp__ev_do_##c(const int tp__ev_full, void *tp__ev_data TP__EV_PROTO(PARAMS(proto), PARAMS(args))) \
	{                                                                     \
		struct tp__ev_res tp__ev_r;                                     \
		struct tp__ev_entry_##c *__entry;                              \
		TP__EV_STRS(c);                                               \
		struct tp__ev_var tp__ev_v[] = { tstruct { NULL, 0, NULL } };     \
		enum { tp__ev_nvar = sizeof(tp__ev_v) / sizeof(tp__ev_v[0]) - 1 }; \
		struct tp__ev_ctx tp__ev_ctx;                                   \
		size_t tp__ev_size = offsetof(struct tp__ev_entry_##c, tp__ev_end); \
		unsigned tp__ev_i;                                             \
		TP__USE_ARGS(0 TP__EV_ARGS(PARAMS(args)));                     \
		if (!tp__ev_full && tp__ev_nvar == 0) {                        \
			tp__ev_fixed_##c(tp__ev_data TP__EV_ARGS(PARAMS(args)));  \
			return;                                               \
		}                                                             \
		for (tp__ev_i = 0; tp__ev_i != (unsigned)tp__ev_nvar; tp__ev_i++) { \
			if (tp__ev_v[tp__ev_i].src)                             \
				tp__ev_v[tp__ev_i].size = tp__ev_str_size(tp__ev_v[tp__ev_i].src); \
			tp__ev_size += tp__ev_v[tp__ev_i].size;                  \
		}                                                             \
		__entry = (struct tp__ev_entry_##c *)(tp__ev_full ?             \
			tp__ev_reserve_full(tp__ev_data, tp__ev_size, &tp__ev_r) : \
			tp__ev_reserve(tp__ev_data, tp__ev_size, &tp__ev_r, 0));  \
		if (!__entry) {                                               \
			if (!tp__ev_full) /* starts over in the slow copy */    \
				tp__ev_full_##c(tp__ev_data TP__EV_ARGS(PARAMS(args))); \
			return;                                               \
		}                                                             \
		if (tp__ev_nvar != 0) {                                          \
			tp__ev_ctx_init(&tp__ev_ctx, __entry,                     \
				       offsetof(struct tp__ev_entry_##c, tp__ev_end), \
				       tp__ev_size, tp__ev_fields_##c);           \
			tp__ev_ctx.vars = tp__ev_v;                             \
			tp__ev_var_counts(&tp__ev_ctx);                          \
		}                                                             \
		{ assign }                                                    \
		if (tp__ev_nvar != 0)                                         \
			tp__ev_var_copy(&tp__ev_ctx);                            \
		tp__ev_finish(tp__ev_data, &tp__ev_r, __entry, tp__ev_size);    \
	}                                                                     \
	static __attribute__((noinline)) TP__UNUSED void                      \
	tp__ev_full_##c(void *tp__ev_data TP__EV_PROTO(PARAMS(proto), PARAMS(args))) \
	{                                                                     \
		tp__ev_do_##c(1, tp__ev_data TP__EV_ARGS(PARAMS(args)));        \
	}
#define TP__EV_REC_PROBE(c, proto, args, tstruct)                             \
	/* What the probes run: with fixed fields only, tp__ev_fixed_<c> (the \
	 * constant test leaves tp__ev_do_<c> and its slow copy unreferenced: \
	 * gcc does not compile them at all). */                          \
	static TP__ALWAYS_INLINE TP__UNUSED void                              \
	tp__ev_run_##c(void *tp__ev_data TP__EV_PROTO(PARAMS(proto), PARAMS(args))) \
	{                                                                     \
		/* 1 + the number of __string and __dynamic_array fields, as   \
		 * a size (sizeof: their source expressions are not evaluated) */ \
		if (sizeof(*__extension__({                                   \
			struct tp__ev_var tp__ev_v[] = { tstruct { NULL, 0, NULL } }; \
			(char(*)[sizeof(tp__ev_v) / sizeof(tp__ev_v[0])])0; })) == 1) \
			tp__ev_fixed_##c(tp__ev_data TP__EV_ARGS(PARAMS(args)));  \
		else                                                          \
			tp__ev_do_##c(0, tp__ev_data TP__EV_ARGS(PARAMS(args)));  \
	}                                                                     \
	static TP__UNUSED void                                                \
	tp__ev_probe_##c(TP__EV_PROBE_PROTO(PARAMS(proto), PARAMS(args)) void *tp__ev_data) \
	{                                                                     \
		tp__ev_run_##c(tp__ev_data TP__EV_ARGS(PARAMS(args)));          \
	}
#define __field(type, name)
#define __array(type, name, len)
#define __string(name, src) { tp__ev_str_src(src), 0, NULL },
#define __dynamic_array(type, name, len) { NULL, (size_t)(len) * sizeof(type), NULL },
