/* SPDX-License-Identifier: MIT */
/*
 * trace/stages/recorder.h - pass 3, the recorders: per class, the code
 * that sizes a record, reserves it, runs TP_fast_assign into it, copies
 * the strings and ends it (trace/record.h), and the recorder probe
 * tp__ev_probe_<class> that every event of the class is attached with;
 * before them the class's variable parts by name (struct
 * tp__ev_vars_<class>), which the helpers of TP_fast_assign and
 * TP_printk use.  Each class also gets its formatter
 * (trace/stages/formatter.h) in this pass, and each event its tracepoint
 * (trace/stages/tracepoints.h).
 *
 * Why a file: this is the code that runs when an enabled event fires.
 *
 * Internal: read by trace/define_trace.h after trace/stages/reset.h,
 * trace/stages/formatter.h and trace/stages/tracepoints.h; depends on
 * trace/stages/init.h (TP__EV_EACH), the entry struct (pass 1), the
 * field descriptors (pass 2) and trace/record.h.
 */
#ifndef TP__EV_INCLUDE_FILE
#error "trace/stages/recorder.h is internal: an event header's #include <trace/define_trace.h> reads it"
#endif

/* The recorder of a class, in three parts (below): the recorder of a
 * record of fixed fields only, the general one (strings, dynamic
 * arrays) with its slow copy, and the probe that picks one.  Before them,
 * struct tp__ev_vars_<class> and tp__ev_vars_read_<class> (the class's
 * variable parts, read back from a record by its formatters). */
#define DECLARE_EVENT_CLASS(c, proto, args, tstruct, assign, print)           \
	TP__EV_IF(TP__ON)(                                                    \
	TP__EV_VARS(c, PARAMS(tstruct))                                       \
	static __attribute__((noinline)) TP__UNUSED void                      \
	tp__ev_full_##c(void *tp__ev_data TP__EV_PROTO(PARAMS(proto), PARAMS(args))); \
	/* The recorder: inline in the probes (tp__ev_full 0: the fast       \
	 * reservation, no call but strnlen's and jumps in tail position),   \
	 * and in its slow copy tp__ev_full_<c> (1: the full reservation,    \
	 * out of line). */                                                  \
	TP__EV_REC_FIXED(c, PARAMS(proto), PARAMS(args), PARAMS(assign))      \
	TP__EV_REC_VAR(c, PARAMS(proto), PARAMS(args), PARAMS(tstruct), PARAMS(assign)) \
	TP__EV_REC_PROBE(c, PARAMS(proto), PARAMS(args))                     \
	TP__EV_FORMATTER(c, c, PARAMS(print))) TP__EV_SEMI
/* The variable parts of class c, one set of members each, in declaration
 * order: a __string's text (tp__ev_s_<name>: what __get_str() gives, and
 * what __assign_str() and __get_str() check a name against, as the
 * kernel), and for both kinds the bytes (a string's with its NUL) and
 * the offset in the record's payload.  The recorder computes them before
 * its reservation; a formatter reads them from a record
 * (tp__ev_vars_read_<c>, with trace/trace_events.h's tp__ev_read_*). */
#define TP__EV_VARS(c, tstruct)                                               \
	struct tp__ev_vars_##c { TP__EV_EACH(TP__EV_VM, tstruct) char tp__ev_none; }; \
	static TP__UNUSED void tp__ev_vars_read_##c(struct tp__ev_vars_##c *tp__ev_o, \
						   const void *tp__ev_e, size_t tp__ev_size) \
	{                                                                     \
		typedef struct tp__ev_entry_##c tp__ev_entry_t TP__UNUSED;    \
		size_t tp__ev_at = offsetof(tp__ev_entry_t, tp__ev_end);        \
		TP__EV_EACH(TP__EV_VR, tstruct)                                \
		(void)tp__ev_o;                                                \
		(void)tp__ev_e;                                                \
		(void)tp__ev_size;                                             \
		(void)tp__ev_at;                                               \
	}
/* errno in TP_fast_assign: the C library's macro is taken away in the
 * passes (trace/stages/init.h), so that a field may be named errno as in
 * the kernel; a read of errno's value gets this copy, made before the
 * assignment (a write changes only the copy). */
#define TP__EV_ERRNO int errno TP__UNUSED = tp__ev_errno_value();
/* How many variable parts class c has, as a constant (0: none). */
#define TP__EV_NVAR(c) offsetof(struct tp__ev_vars_##c, tp__ev_none)
#define TP__EV_REC_FIXED(c, proto, args, assign)                              \
	/* A record of fixed fields only: TP_fast_assign writes it on the     \
	 * stack, tp__ev_record (out of line, shared) reserves, copies and    \
	 * commits it: a few instructions of code per class.  In the hist     \
	 * probe (tp__ev_hist 1) the entry goes to the hook instead. */       \
	static TP__ALWAYS_INLINE TP__UNUSED void                              \
	tp__ev_fixed_##c(const int tp__ev_hist, void *tp__ev_data TP__EV_PROTO(PARAMS(proto), PARAMS(args))) \
	{                                                                     \
		struct tp__ev_entry_##c tp__ev_local, *__entry = &tp__ev_local; \
		struct tp__ev_vars_##c tp__ev_o; /* for the (dead) copy of a  \
						  * class with variable parts */ \
		TP__USE_ARGS(0 TP__EV_ARGS(PARAMS(args)));                     \
		memset(&tp__ev_o, 0, sizeof(tp__ev_o));                         \
		/* what TP_fast_assign leaves alone is recorded as zeros */   \
		memset(&tp__ev_local, 0, offsetof(struct tp__ev_entry_##c, tp__ev_end)); \
		{ TP__EV_ERRNO assign }                                       \
		if (tp__ev_hist)                                              \
			((const struct trace_event_hook *)tp__ev_data)        \
				->fn((const struct trace_event_hook *)tp__ev_data, \
				     offsetof(struct tp__ev_entry_##c, tp__ev_end) ? __entry : NULL); \
		else                                                          \
			TP__EV_RECORD(tp__ev_data, __entry,                   \
				      offsetof(struct tp__ev_entry_##c, tp__ev_end)); \
	}
/* A record with variable parts: their sizes and places first (each
 * __string's one strnlen), then the reservation of the whole record,
 * the dynamic arrays' element counts, TP_fast_assign in place, each
 * string's one copy, the end.  Straight code, generated per class: no
 * table is walked. */
#define TP__EV_REC_VAR(c, proto, args, tstruct, assign)                       \
	static TP__ALWAYS_INLINE TP__UNUSED void                              \
	tp__ev_do_##c(const int tp__ev_full, void *tp__ev_data TP__EV_PROTO(PARAMS(proto), PARAMS(args))) \
	{                                                                     \
		struct tp__ev_res tp__ev_r;                                     \
		struct tp__ev_entry_##c *__entry;                              \
		struct tp__ev_vars_##c tp__ev_o;                                \
		size_t tp__ev_size = offsetof(struct tp__ev_entry_##c, tp__ev_end); \
		TP__USE_ARGS(0 TP__EV_ARGS(PARAMS(args)));                     \
		(void)tp__ev_o;                                                \
		TP__EV_EACH(TP__EV_VS, tstruct)                                \
		__entry = (struct tp__ev_entry_##c *)(tp__ev_full ?             \
			tp__ev_reserve_full(tp__ev_data, tp__ev_size, &tp__ev_r) : \
			tp__ev_reserve(tp__ev_data, tp__ev_size, &tp__ev_r, 0,  \
				       (0 TP__EV_EACH(TP__EV_VD, tstruct)) == 0)); \
		if (!__entry) {                                               \
		tp__ev_slow: __attribute__((unused)); /* a NULL string */     \
			if (!tp__ev_full) /* starts over in the slow copy */    \
				tp__ev_full_##c(tp__ev_data TP__EV_ARGS(PARAMS(args))); \
			return;                                               \
		}                                                             \
		TP__EV_EACH(TP__EV_VC, tstruct)                                \
		{ TP__EV_ERRNO assign }                                       \
		TP__EV_EACH(TP__EV_VP, tstruct)                                \
		tp__ev_finish(tp__ev_data, &tp__ev_r, __entry, tp__ev_size);    \
	}                                                                     \
	static __attribute__((noinline)) TP__UNUSED void                      \
	tp__ev_full_##c(void *tp__ev_data TP__EV_PROTO(PARAMS(proto), PARAMS(args))) \
	{                                                                     \
		tp__ev_do_##c(1, tp__ev_data TP__EV_ARGS(PARAMS(args)));        \
	}
#define TP__EV_REC_PROBE(c, proto, args)                                      \
	/* What the probes run: with fixed fields only, tp__ev_fixed_<c> (the \
	 * constant test leaves tp__ev_do_<c> and its slow copy unreferenced: \
	 * gcc does not compile them at all). */                          \
	static TP__ALWAYS_INLINE TP__UNUSED void                              \
	tp__ev_run_##c(void *tp__ev_data TP__EV_PROTO(PARAMS(proto), PARAMS(args))) \
	{                                                                     \
		if (TP__EV_NVAR(c) == 0)                                      \
			tp__ev_fixed_##c(0, tp__ev_data TP__EV_ARGS(PARAMS(args))); \
		else                                                          \
			tp__ev_do_##c(0, tp__ev_data TP__EV_ARGS(PARAMS(args)));  \
	}                                                                     \
	static TP__UNUSED void                                                \
	tp__ev_probe_##c(TP__EV_PROBE_PROTO(PARAMS(proto), PARAMS(args)) void *tp__ev_data) \
	{                                                                     \
		tp__ev_run_##c(tp__ev_data TP__EV_ARGS(PARAMS(args)));          \
	}                                                                     \
	/* The hist probe (struct trace_event.hist_probe, data: a struct      \
	 * trace_event_hook): the entry assigned on the stack, then the hook; \
	 * nothing reserved.  A class with variable parts gets an empty one   \
	 * (its triggers attach the recorder probe); none at all with       \
	 * -DTRACEPOINT_NO_HIST_PROBE (TP__EV_HP, init.h). */                \
	TP__EV_HP(static TP__UNUSED void                                      \
	tp__ev_hprobe_##c(TP__EV_PROBE_PROTO(PARAMS(proto), PARAMS(args)) void *tp__ev_data) \
	{                                                                     \
		if (TP__EV_NVAR(c) == 0)                                      \
			tp__ev_fixed_##c(1, tp__ev_data TP__EV_ARGS(PARAMS(args))); \
		else                                                          \
			(void)tp__ev_data;                                     \
	})
/* In this pass the fixed fields are nothing, and the variable parts the
 * elements TP__EV_EACH walks. */
#define __field(type, name)
#define __array(type, name, len)
#define __string(name, src) (tp__ev_kind_str, name, src)
#define __field_struct(type, name)
#define __string_len(name, src, len) (tp__ev_kind_strl, name, src, len)
#define __vstring(name, fmt, va) (tp__ev_kind_vstr, name, fmt, va)
#define __dynamic_array(type, name, len) (tp__ev_kind_dyn, name, type, len)
/* TP__EV_VM: the members of struct tp__ev_vars_<c>. */
#define TP__EV_VM_A(k, ...) TP__EV_VM_##k(__VA_ARGS__) TP__EV_VM_B
#define TP__EV_VM_B(k, ...) TP__EV_VM_##k(__VA_ARGS__) TP__EV_VM_A
#define TP__EV_VM_A_END
#define TP__EV_VM_B_END
#define TP__EV_VM_tp__ev_kind_str(name, src)                                  \
	const char *tp__ev_s_##name;                                          \
	size_t tp__ev_vlen_##name, tp__ev_voff_##name;
/* A dynamic array has a tp__ev_s_<name> too: the kernel's __get_str() is
 * its __get_dynamic_array() as char * (printk.h prints a char array so),
 * which TP_fast_assign may write (block.h: blk_dump_cmd(__get_str(cmd))). */
#define TP__EV_VM_tp__ev_kind_dyn(name, type, len)                            \
	char *tp__ev_s_##name;                                                \
	size_t tp__ev_vlen_##name, tp__ev_voff_##name;
#define TP__EV_VM_tp__ev_kind_strl(name, src, len) TP__EV_VM_tp__ev_kind_str(name, src)
#define TP__EV_VM_tp__ev_kind_vstr(name, fmt, va) TP__EV_VM_tp__ev_kind_str(name, fmt)
/* TP__EV_VR: reads them from a record (tp__ev_vars_read_<c>). */
#define TP__EV_VR_A(k, ...) TP__EV_VR_##k(__VA_ARGS__) TP__EV_VR_B
#define TP__EV_VR_B(k, ...) TP__EV_VR_##k(__VA_ARGS__) TP__EV_VR_A
#define TP__EV_VR_A_END
#define TP__EV_VR_B_END
#define TP__EV_VR_tp__ev_kind_str(name, src)                                  \
	tp__ev_read_str(tp__ev_e, tp__ev_size, &tp__ev_at, &tp__ev_o->tp__ev_s_##name, \
			&tp__ev_o->tp__ev_vlen_##name, &tp__ev_o->tp__ev_voff_##name);
#define TP__EV_VR_tp__ev_kind_strl(name, src, len) TP__EV_VR_tp__ev_kind_str(name, src)
#define TP__EV_VR_tp__ev_kind_vstr(name, fmt, va) TP__EV_VR_tp__ev_kind_str(name, fmt)
#define TP__EV_VR_tp__ev_kind_dyn(name, type, len)                            \
	tp__ev_read_dyn(tp__ev_e, tp__ev_size, &tp__ev_at,                    \
			offsetof(tp__ev_entry_t, tp__ev_len_##name), sizeof(type), \
			&tp__ev_o->tp__ev_vlen_##name, &tp__ev_o->tp__ev_voff_##name); \
	tp__ev_o->tp__ev_s_##name = tp__ev_dyn_str(tp__ev_e, tp__ev_o->tp__ev_voff_##name, \
						   tp__ev_o->tp__ev_vlen_##name);
/* TP__EV_VS: the recorder computes them (a string's source and size, an
 * array's bytes) and adds them to the record's size.  A NULL string is
 * recorded as "(null)" by the slow copy: the fast one keeps only the
 * arguments in registers across the strnlen call. */
#define TP__EV_VS_A(k, ...) TP__EV_VS_##k(__VA_ARGS__) TP__EV_VS_B
#define TP__EV_VS_B(k, ...) TP__EV_VS_##k(__VA_ARGS__) TP__EV_VS_A
#define TP__EV_VS_A_END
#define TP__EV_VS_B_END
#define TP__EV_VS_tp__ev_kind_str(name, src)                                  \
	tp__ev_o.tp__ev_s_##name = (src);                                     \
	if (!tp__ev_o.tp__ev_s_##name) {                                      \
		if (!tp__ev_full) /* as few registers as possible to save */  \
			goto tp__ev_slow;                                     \
		tp__ev_o.tp__ev_s_##name = tp__ev_str_src(NULL);              \
	}                                                                     \
	tp__ev_o.tp__ev_vlen_##name = tp__ev_str_size(tp__ev_o.tp__ev_s_##name); \
	tp__ev_o.tp__ev_voff_##name = tp__ev_size;                            \
	tp__ev_size += tp__ev_o.tp__ev_vlen_##name;
#define TP__EV_VS_tp__ev_kind_dyn(name, type, len)                            \
	tp__ev_o.tp__ev_vlen_##name = (size_t)(len) * sizeof(type);           \
	tp__ev_o.tp__ev_voff_##name = tp__ev_size;                            \
	tp__ev_size += tp__ev_o.tp__ev_vlen_##name;
/* __string_len: at most len bytes of src (to its first NUL); a NULL src
 * as __string's.  __vstring: the size of the text vsnprintf makes. */
#define TP__EV_VS_tp__ev_kind_strl(name, src, len)                            \
	tp__ev_o.tp__ev_s_##name = (src);                                     \
	tp__ev_o.tp__ev_vlen_##name = (size_t)(len);                          \
	if (!tp__ev_o.tp__ev_s_##name) {                                      \
		if (!tp__ev_full)                                             \
			goto tp__ev_slow;                                     \
		tp__ev_o.tp__ev_s_##name = tp__ev_str_src(NULL);              \
		tp__ev_o.tp__ev_vlen_##name = sizeof("(null)") - 1u;          \
	}                                                                     \
	tp__ev_o.tp__ev_vlen_##name =                                         \
		tp__ev_strl_size(tp__ev_o.tp__ev_s_##name, tp__ev_o.tp__ev_vlen_##name); \
	tp__ev_o.tp__ev_voff_##name = tp__ev_size;                            \
	tp__ev_size += tp__ev_o.tp__ev_vlen_##name;
#define TP__EV_VS_tp__ev_kind_vstr(name, fmt, va)                             \
	tp__ev_o.tp__ev_s_##name = (fmt);                                     \
	tp__ev_o.tp__ev_vlen_##name = tp__ev_vstr_size(tp__ev_o.tp__ev_s_##name, (va)); \
	tp__ev_o.tp__ev_voff_##name = tp__ev_size;                            \
	tp__ev_size += tp__ev_o.tp__ev_vlen_##name;
/* TP__EV_VD: + 1 for each dynamic array (their sizes have no bound). */
#define TP__EV_VD_A(k, ...) TP__EV_VD_##k TP__EV_VD_B
#define TP__EV_VD_B(k, ...) TP__EV_VD_##k TP__EV_VD_A
#define TP__EV_VD_A_END
#define TP__EV_VD_B_END
#define TP__EV_VD_tp__ev_kind_str
#define TP__EV_VD_tp__ev_kind_dyn + 1
#define TP__EV_VD_tp__ev_kind_strl
#define TP__EV_VD_tp__ev_kind_vstr
/* TP__EV_VC: in the reserved record, each array's element count. */
#define TP__EV_VC_A(k, ...) TP__EV_VC_##k(__VA_ARGS__) TP__EV_VC_B
#define TP__EV_VC_B(k, ...) TP__EV_VC_##k(__VA_ARGS__) TP__EV_VC_A
#define TP__EV_VC_A_END
#define TP__EV_VC_B_END
#define TP__EV_VC_tp__ev_kind_str(name, src)
#define TP__EV_VC_tp__ev_kind_strl(name, src, len)
#define TP__EV_VC_tp__ev_kind_vstr(name, fmt, va)
#define TP__EV_VC_tp__ev_kind_dyn(name, type, len)                            \
	__entry->tp__ev_len_##name = (uint32_t)(tp__ev_o.tp__ev_vlen_##name / sizeof(type)); \
	tp__ev_o.tp__ev_s_##name = (char *)__entry + tp__ev_o.tp__ev_voff_##name;
/* TP__EV_VP: after TP_fast_assign, each string's copy. */
#define TP__EV_VP_A(k, ...) TP__EV_VP_##k(__VA_ARGS__) TP__EV_VP_B
#define TP__EV_VP_B(k, ...) TP__EV_VP_##k(__VA_ARGS__) TP__EV_VP_A
#define TP__EV_VP_A_END
#define TP__EV_VP_B_END
#define TP__EV_VP_tp__ev_kind_str(name, src)                                  \
	tp__ev_str_put((unsigned char *)__entry + tp__ev_o.tp__ev_voff_##name, \
		       tp__ev_o.tp__ev_s_##name, tp__ev_o.tp__ev_vlen_##name);
#define TP__EV_VP_tp__ev_kind_dyn(name, type, len)
#define TP__EV_VP_tp__ev_kind_strl(name, src, len) TP__EV_VP_tp__ev_kind_str(name, src)
#define TP__EV_VP_tp__ev_kind_vstr(name, fmt, va)                             \
	tp__ev_vstr_put((unsigned char *)__entry + tp__ev_o.tp__ev_voff_##name, \
			tp__ev_o.tp__ev_vlen_##name, tp__ev_o.tp__ev_s_##name, (va));
