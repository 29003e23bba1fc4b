/* SPDX-License-Identifier: MIT */
/*
 * trace/stages/formatter.h - pass 3, the formatters: tp__ev_fmt_<class>,
 * the TP_printk text of a record, and tp__ev_syms_<class>, which hands
 * the __print_symbolic/__print_flags tables to a sink; with the helpers
 * TP_printk and TP_fast_assign use (__get_str, __get_dynamic_array,
 * __print_symbolic, __print_flags, __print_hex, __assign_str, and the
 * kernel's others, whose functions are trace/print_helpers.h's).
 *
 * Why a file: the formatters are what a reader of the trace sees of
 * TP_printk; they are made in the same pass as the recorders
 * (trace/stages/recorder.h), which emits them with each class.
 *
 * Internal: read by trace/define_trace.h after trace/stages/reset.h, in
 * the pass of trace/stages/recorder.h; depends on trace/stages/init.h,
 * the entry struct, trace/stages/recorder.h (struct tp__ev_vars_<class>,
 * tp__ev_vars_read_<class>, made before the formatters) and
 * trace/trace_events.h's helpers (struct tp__ev_ctx, tp__ev_print_sym, ...).
 */
#ifndef TP__EV_INCLUDE_FILE
#error "trace/stages/formatter.h is internal: an event header's #include <trace/define_trace.h> reads it"
#endif

/* The TP_printk formatter of pc on c's layout, and the function that
 * hands the __print_symbolic/__print_flags tables to a sink; both read
 * the record's variable parts first (tp__ev_vars_read_<c>). */
#define TP__EV_FORMATTER(c, pc, print)                                        \
	static int tp__ev_fmt_##pc(char *tp__ev_buf, size_t tp__ev_len, void *tp__ev_e, \
				  size_t tp__ev_size)                          \
	{                                                                     \
		struct tp__ev_entry_##c *__entry = (struct tp__ev_entry_##c *)tp__ev_e; \
		struct tp__ev_vars_##c tp__ev_o;                                \
		char tp__ev_scratch[TP__EV_SCRATCH];                          \
		struct tp__ev_ctx tp__ev_ctx;                                   \
		tp__ev_vars_read_##c(&tp__ev_o, __entry, tp__ev_size);           \
		memset(&tp__ev_ctx, 0, sizeof(tp__ev_ctx));                     \
		tp__ev_ctx.scratch = tp__ev_scratch;                            \
		(void)__entry;                                                \
		return tp__ev_snprintf(tp__ev_buf, tp__ev_len, TP__EV_FMT(print)); \
	}                                                                     \
	static void tp__ev_syms_##pc(trace_print_symbols_fn tp__ev_fn, void *tp__ev_priv) \
	{                                                                     \
		struct tp__ev_entry_##c tp__ev_zero, *__entry = &tp__ev_zero;   \
		struct tp__ev_vars_##c tp__ev_o;                                \
		char tp__ev_scratch[16];                                       \
		struct tp__ev_ctx tp__ev_ctx;                                   \
		memset(&tp__ev_zero, 0, sizeof(tp__ev_zero));                   \
		tp__ev_vars_read_##c(&tp__ev_o, __entry,                        \
				     offsetof(struct tp__ev_entry_##c, tp__ev_end)); \
		memset(&tp__ev_ctx, 0, sizeof(tp__ev_ctx));                     \
		tp__ev_ctx.scratch = tp__ev_scratch;                            \
		tp__ev_ctx.collect = tp__ev_fn;                                 \
		tp__ev_ctx.priv = tp__ev_priv;                                  \
		tp__ev_args_used(0, print);                                    \
	}
#define TP__EV_PRINT_CLASS(c, name, print)                                    \
	TP__EV_IF(TP__ON)(TP__EV_FORMATTER(c, name, PARAMS(print))) TP__EV_SEMI
#define TP_printk(...) __VA_ARGS__
/* The helpers, in TP_printk and TP_fast_assign, through the class's
 * tp__ev_o (struct tp__ev_vars_<c>, trace/stages/recorder.h): a name that
 * is no __string of the class fails to compile, naming tp__ev_s_<name>.
 * In TP_fast_assign __get_str gives the string being recorded. */
#define __assign_str(...) TP__EV_ASSIGN_STR(__VA_ARGS__, 0)
#define TP__EV_ASSIGN_STR(name, ...) TP__EV_IS_STRING(name)
#define TP__EV_IS_STRING(name) ((void)sizeof(tp__ev_o.tp__ev_s_##name))
#define __get_str(name) TP__EV_GET_STR(name)
#define TP__EV_GET_STR(name) (tp__ev_o.tp__ev_s_##name)
#define __get_dynamic_array(name) TP__EV_GET_DYN(name)
#define TP__EV_GET_DYN(name) ((void *)((unsigned char *)__entry + tp__ev_o.tp__ev_voff_##name))
/* The kernel's type: a 32-bit unsigned (%u, %d and %x take it). */
#define __get_dynamic_array_len(name) TP__EV_GET_DYN_LEN(name)
#define TP__EV_GET_DYN_LEN(name) ((unsigned int)tp__ev_o.tp__ev_vlen_##name)
/* __string_len and __vstring are copied after TP_fast_assign as
 * __string is: their __assign_* only check the name. */
#define __assign_str_len(name, ...) TP__EV_IS_STRING(name)
#define __assign_vstr(name, fmt, va) TP__EV_IS_STRING(name)
/* A bitmask's and a sockaddr's bytes, copied in TP_fast_assign (at most
 * the room the record has for them). */
#define __assign_bitmask(name, src, nr_bits)                                  \
	tp__ev_put_bytes(__get_dynamic_array(name), tp__ev_o.tp__ev_vlen_##name, (src), \
			 TP__EV_BITS_TO_LONGS(nr_bits) * sizeof(long))
#define __assign_sockaddr(name, src, len)                                     \
	tp__ev_put_bytes(__get_dynamic_array(name), tp__ev_o.tp__ev_vlen_##name, (src), \
			 (size_t)(len))
/* In TP_printk, for %s: a bitmask as the kernel's %*pb; for %pISpc and
 * its kin: the address (the in-program formatter prints the pointer;
 * tracepoint-dump prints the address, as the kernel). */
#define __get_bitmask(name)                                                   \
	tp__ev_print_bitmask(&tp__ev_ctx, __get_dynamic_array(name), tp__ev_o.tp__ev_vlen_##name)
#define __get_sockaddr(name) ((struct sockaddr *)__get_dynamic_array(name))
#define __print_symbolic(value, ...)                                          \
	tp__ev_print_sym(&tp__ev_ctx, (long long)(value), #value,             \
			 TP__EV_SYMTAB(__VA_ARGS__), NULL)
#define __print_flags(value, delim, ...)                                      \
	tp__ev_print_sym(&tp__ev_ctx, (long long)(value), #value,             \
			 TP__EV_SYMTAB(__VA_ARGS__), delim)
#define __print_hex(buf, len) tp__ev_print_hex(&tp__ev_ctx, buf, (size_t)(len))
/* The kernel's other helpers (trace/print_helpers.h): as its trace file
 * prints them. */
#define __print_symbolic_u64(value, ...)                                      \
	tp__ev_print_sym_u64(&tp__ev_ctx, (unsigned long long)(value),        \
			     TP__EV_SYMTAB_U64(__VA_ARGS__), NULL)
#define __print_flags_u64(value, delim, ...)                                  \
	tp__ev_print_sym_u64(&tp__ev_ctx, (unsigned long long)(value),        \
			     TP__EV_SYMTAB_U64(__VA_ARGS__), delim)
#define __print_hex_str(buf, len) tp__ev_print_hex_str(&tp__ev_ctx, buf, (size_t)(len))
#define __print_array(array, count, el_size)                                  \
	tp__ev_print_array(&tp__ev_ctx, array, (size_t)(count), (size_t)(el_size))
#define __print_hex_dump(prefix, type, rowsize, groupsize, buf, len, ascii)  \
	tp__ev_print_hex_dump(&tp__ev_ctx, prefix, type, rowsize, groupsize, buf, \
			      (size_t)(len), (int)(ascii))
#define __print_ns_to_secs(value) ((unsigned long long)(value) / 1000000000u)
#define __print_ns_without_secs(value)                                        \
	((unsigned)((unsigned long long)(value) % 1000000000u))
#define TP__EV_SYMTAB_U64(...)                                                \
	__extension__({                                                       \
		static const struct trace_print_flags_u64 tp__ev_tab[] = {      \
			__VA_ARGS__, { 0, NULL } };                             \
		tp__ev_tab;                                                     \
	})
#define TP__EV_SYMTAB(...)                                                    \
	__extension__({                                                       \
		static const struct trace_print_flags tp__ev_tab[] = {          \
			__VA_ARGS__, { 0, NULL } };                             \
		tp__ev_tab;                                                     \
	})
