/* SPDX-License-Identifier: MIT */
/*
 * trace/stages/formatter.h - pass 3, the formatters: tp__ev_fmt_<class>,
 * the TP_printk text of a record, and tp__ev_syms_<class>, which hands
 * the __print_symbolic/__print_flags tables to a sink; with the helpers
 * TP_printk and TP_fast_assign use (__get_str, __get_dynamic_array,
 * __print_symbolic, __print_flags, __print_hex, __assign_str).
 *
 * Why a file: the formatters are what a reader of the trace sees of
 * TP_printk; they are made in the same pass as the recorders
 * (trace/stages/recorder.h), which emits them with each class.
 *
 * Internal: read by trace/define_trace.h after trace/stages/reset.h, in
 * the pass of trace/stages/recorder.h; depends on trace/stages/init.h,
 * trace/stages/string_names.h (TP__EV_STRS), the entry struct, the
 * field descriptors of trace/stages/metadata.h and trace/trace_events.h's
 * helpers (struct tp__ev_ctx, tp__ev_print_sym, ...).
 */
#ifndef TP__EV_INCLUDE_FILE
#error "trace/stages/formatter.h is internal: an event header's #include <trace/define_trace.h> reads it"
#endif

/* The TP_printk formatter of pc on c's layout, and the function that
 * hands the __print_symbolic/__print_flags tables to a sink. */
#define TP__EV_FORMATTER(c, pc, print)                                        \
	static int tp__ev_fmt_##pc(char *tp__ev_buf, size_t tp__ev_len, void *tp__ev_e, \
				  size_t tp__ev_size)                          \
	{                                                                     \
		struct tp__ev_entry_##c *__entry = (struct tp__ev_entry_##c *)tp__ev_e; \
		TP__EV_STRS(c);                                               \
		const size_t tp__ev_fixed = offsetof(struct tp__ev_entry_##c, tp__ev_end); \
		unsigned tp__ev_nf = 0;                                        \
		const struct trace_event_field *tp__ev_fl = tp__ev_fields_##c(&tp__ev_nf); \
		char tp__ev_scratch[TP__EV_SCRATCH];                          \
		struct tp__ev_ctx tp__ev_ctx;                                   \
		tp__ev_ctx_init(&tp__ev_ctx, __entry, tp__ev_fixed, tp__ev_size,  \
			       tp__ev_fields_##c);                              \
		tp__ev_ctx.scratch = tp__ev_scratch;                            \
		(void)__entry;                                                \
		(void)tp__ev_fl;                                               \
		return snprintf(tp__ev_buf, tp__ev_len, TP__EV_FMT(print));     \
	}                                                                     \
	static void tp__ev_syms_##pc(trace_print_symbols_fn tp__ev_fn, void *tp__ev_priv) \
	{                                                                     \
		struct tp__ev_entry_##c tp__ev_zero, *__entry = &tp__ev_zero;   \
		TP__EV_STRS(c);                                               \
		const size_t tp__ev_fixed = offsetof(struct tp__ev_entry_##c, tp__ev_end); \
		const size_t tp__ev_size = tp__ev_fixed;                        \
		unsigned tp__ev_nf = 0;                                        \
		const struct trace_event_field *tp__ev_fl = tp__ev_fields_##c(&tp__ev_nf); \
		char tp__ev_scratch[16];                                       \
		struct tp__ev_ctx tp__ev_ctx;                                   \
		memset(&tp__ev_zero, 0, sizeof(tp__ev_zero));                   \
		tp__ev_ctx_init(&tp__ev_ctx, __entry, tp__ev_fixed, tp__ev_size,  \
			       tp__ev_fields_##c);                              \
		tp__ev_ctx.scratch = tp__ev_scratch;                            \
		tp__ev_ctx.collect = tp__ev_fn;                                 \
		tp__ev_ctx.priv = tp__ev_priv;                                  \
		(void)tp__ev_fl;                                               \
		tp__ev_args_used(0, print);                                    \
	}
#define TP__EV_PRINT_CLASS(c, name, print)                                    \
	TP__EV_IF(TP__ON)(TP__EV_FORMATTER(c, name, PARAMS(print))) TP__EV_SEMI
#define TP_printk(...) __VA_ARGS__
#define __assign_str(...) TP__EV_ASSIGN_STR(__VA_ARGS__, 0)
#define TP__EV_ASSIGN_STR(name, ...) TP__EV_IS_STRING(name)
#define __get_str(name)                                                       \
	(TP__EV_IS_STRING(name),                                              \
	 tp__ev_get_str(__entry, tp__ev_fixed, tp__ev_size, tp__ev_fl, tp__ev_nf, #name))
/* Where __entry's dynamic array `name` is: its length field's offset. */
#define TP__EV_DYN_OFF(name) ((size_t)((char *)&__entry->tp__ev_len_##name - (char *)__entry))
#define __get_dynamic_array(name) tp__ev_dyn(&tp__ev_ctx, TP__EV_DYN_OFF(name))
#define __get_dynamic_array_len(name) tp__ev_dyn_len(&tp__ev_ctx, TP__EV_DYN_OFF(name))
#define __print_symbolic(value, ...)                                          \
	tp__ev_print_sym(&tp__ev_ctx, (long long)(value), #value,             \
			 TP__EV_SYMTAB(__VA_ARGS__), NULL)
#define __print_flags(value, delim, ...)                                      \
	tp__ev_print_sym(&tp__ev_ctx, (long long)(value), #value,             \
			 TP__EV_SYMTAB(__VA_ARGS__), delim)
#define __print_hex(buf, len) tp__ev_print_hex(&tp__ev_ctx, buf, (size_t)(len))
#define TP__EV_SYMTAB(...)                                                    \
	__extension__({                                                       \
		static const struct trace_print_flags tp__ev_tab[] = {          \
			__VA_ARGS__, { 0, NULL } };                             \
		tp__ev_tab;                                                     \
	})
