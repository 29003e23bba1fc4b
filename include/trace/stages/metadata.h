/* SPDX-License-Identifier: MIT */
/*
 * trace/stages/metadata.h - pass 2: the event metadata: the field
 * descriptors of each class (tp__ev_fields_<class>), its struct
 * trace_event_class (system, name, TP_printk text, layout, formatter), and
 * one struct trace_event per event (with its kind, trace/event_kinds.h);
 * the recorder probe and the formatter are declared here, defined by the
 * next pass.
 *
 * Why a file: this is what the recorder and the tools read of an event
 * (struct trace_event, trace/trace_events.h).
 *
 * Internal: read by trace/define_trace.h after trace/stages/reset.h;
 * depends on trace/stages/init.h, the entry struct of pass 1
 * (trace/stages/entry_struct.h) and trace/trace_events.h's types.
 */
#ifndef TP__EV_INCLUDE_FILE
#error "trace/stages/metadata.h is internal: an event header's #include <trace/define_trace.h> reads it"
#endif

#define DECLARE_TRACE(name, proto, args) TP__EV_SEMI
#define DECLARE_TRACE_NOARGS(name) TP__EV_SEMI
#define DECLARE_EVENT_CLASS(c, proto, args, tstruct, assign, print)           \
	TP__EV_IF(TP__ON)(                                                    \
	static const struct trace_event_field *tp__ev_fields_##c(unsigned *tp__ev_n) \
	{                                                                     \
		typedef struct tp__ev_entry_##c tp__ev_entry_t TP__UNUSED;    \
		static const struct trace_event_field tp__ev_f[] = {           \
			tstruct { NULL, NULL, 0, 0, 0, 0, 0 } };                \
		*tp__ev_n = (unsigned)(sizeof(tp__ev_f) / sizeof(tp__ev_f[0])) - 1u; \
		return tp__ev_f;                                               \
	}                                                                     \
	/* The recorder probe of the class: every event of the class is \
	 * attached with it (its data says which event). */               \
	static void tp__ev_probe_##c(TP__EV_PROBE_PROTO(PARAMS(proto), PARAMS(args)) void *); \
	/* Its hist probe (struct trace_event.hist_probe). */             \
	TP__EV_HP(static void tp__ev_hprobe_##c(TP__EV_PROBE_PROTO(PARAMS(proto), PARAMS(args)) void *);) \
	TP__EV_CLASS(c, c, print)) TP__EV_SEMI
/* The class struct of a class (pc == c) or of a DEFINE_EVENT_PRINT (pc:
 * the event, with its own text and formatter on c's layout). */
#define TP__EV_CLASS(c, pc, print)                                            \
	static int tp__ev_fmt_##pc(char *, size_t, void *, size_t);            \
	static void tp__ev_syms_##pc(trace_print_symbols_fn, void *);          \
	static const struct trace_event_class tp__ev_class_##pc = {            \
		TP__STR(TRACE_SYSTEM), #c, print,                             \
		(unsigned)offsetof(struct tp__ev_entry_##c, tp__ev_end),        \
		tp__ev_fields_##c, tp__ev_fmt_##pc, tp__ev_syms_##pc,           \
		__start_tp__eval_map, __stop_tp__eval_map };
#define TP__EV_PRINT_CLASS(c, name, print)                                    \
	TP__EV_IF(TP__ON)(TP__EV_CLASS(c, name, print)) TP__EV_SEMI
#define DEFINE_EVENT(c, name, proto, args)                                    \
	TP__EV_DEFINE(c, c, name, PARAMS(proto), PARAMS(args), 0, 0)
/* struct trace_event of an event of class c, with pc's class struct (c's,
 * or a DEFINE_EVENT_PRINT's own), the class's recorder probe and its hist
 * probe. */
#define TP__EV_EVENT(c, pc, name, kind)                                       \
	TP__EV_IF(TP__ON)(                                                    \
	static const struct trace_event tp__ev_event_##name = {                \
		&tp__ev_class_##pc, #name, &__tracepoint_##name,               \
		(tracepoint_func_t)tp__ev_probe_##c, (kind),                   \
		TP__EV_HP_FN(c) };) TP__EV_SEMI
#define TP__EV_DEFINE(c, pc, name, proto, args, reg, unreg)                   \
	TP__EV_EVENT(c, pc, name, TRACE_KIND_INSTANT)
#undef TP__EV_DEFINE_KIND
#define TP__EV_DEFINE_KIND(c, name, kind, proto, args) TP__EV_EVENT(c, c, name, kind)
/* TRACE_DEFINE_ENUM(name), TRACE_DEFINE_SIZEOF(type): a struct
 * trace_eval_map of the system, and its address in the section whose
 * bounds each class holds (trace/eval_map.h). */
#undef TRACE_DEFINE_ENUM
#undef TRACE_DEFINE_SIZEOF
#define TRACE_DEFINE_ENUM(a) TP__EV_EVAL_MAP(#a, (long long)(a), __COUNTER__)
#define TRACE_DEFINE_SIZEOF(a) TP__EV_EVAL_MAP("sizeof(" #a ")", (long long)sizeof(a), __COUNTER__)
#define TP__EV_EVAL_MAP(text, value, n) TP__EV_EVAL_MAP_(text, value, n)
#define TP__EV_EVAL_MAP_(text, value, n)                                      \
	TP__EV_IF(TP__ON)(                                                    \
	static const struct trace_eval_map tp__ev_eval_##n = {                 \
		TP__STR(TRACE_SYSTEM), text, value };                          \
	static struct trace_eval_map const *tp__ev_evalp_##n                  \
		__attribute__((used, section("tp__eval_map"))) = &tp__ev_eval_##n;) \
	TP__EV_SEMI
/* The TP_printk arguments as text, after macro expansion, as the kernel's
 * print fmt: a helper of the header (show_state(x) around
 * __print_symbolic) becomes what it stands for, while the helpers that
 * no pass before this one defines (__get_str, __print_*, __entry, REC)
 * stay as they are written, for the readers (tools/dump/printk.c). */
#define TP_printk(...) TP__EV_PRINT_TEXT(__VA_ARGS__)
#define TP__EV_PRINT_TEXT(...) #__VA_ARGS__
#define __field(type, name)                                                   \
	{ #type, #name,                                                       \
	  (unsigned short)(offsetof(tp__ev_entry_t, name) - TP__EV_DECL_END(type, name)), \
	  (unsigned short)TP__EV_DECL_SIZE(type, name),                       \
	  (unsigned char)TP__EV_KIND(type), (unsigned char)TP__EV_IS_SIGNED(type), \
	  (unsigned short)TP__EV_DECL_LEN(type, name) },
/* A __field whose name is an array declarator, as the kernel's older
 * rcu.h has (__field(char, rcutorturename[RCUTORTURENAME_LEN])): in C a
 * struct of that one member gives its size, and the offset of the name
 * in it (0 for a plain name, the array's end for name[N], where offsetof
 * in the entry points too) gives its element count; the descriptor keeps
 * the name as written, its readers stop at the '['.  C++ defines no type
 * in sizeof: there the name must be plain. */
#ifdef __cplusplus
#define TP__EV_DECL_END(type, name) 0u
#define TP__EV_DECL_SIZE(type, name) sizeof(type)
#define TP__EV_DECL_LEN(type, name) 0u
#else
#define TP__EV_DECL_END(type, name) offsetof(struct { type name; }, name)
#define TP__EV_DECL_SIZE(type, name) sizeof(struct { type name; })
#define TP__EV_DECL_LEN(type, name)                                           \
	(TP__EV_DECL_END(type, name) ? TP__EV_DECL_SIZE(type, name) / sizeof(type) : 0u)
#endif
#define __array(type, name, len)                                              \
	{ #type, #name, (unsigned short)offsetof(tp__ev_entry_t, name),        \
	  (unsigned short)(sizeof(type) * (len)), (unsigned char)TP__EV_KIND(type), \
	  (unsigned char)TP__EV_IS_SIGNED(type), (unsigned short)(len) },
#define __string(name, src)                                                   \
	{ "string", #name, 0, 0, TRACE_FIELD_STRING, 0, 0 },
#define __string_len(name, src, len) __string(name, src)
#define __vstring(name, fmt, va) __string(name, fmt)
/* A struct (or union): its bytes. */
#define __field_struct(type, name)                                            \
	{ #type, #name, (unsigned short)offsetof(tp__ev_entry_t, name),        \
	  (unsigned short)sizeof(type), TRACE_FIELD_OTHER, 0, 0 },
#define __dynamic_array(type, name, len)                                      \
	{ #type, #name, (unsigned short)offsetof(tp__ev_entry_t, tp__ev_len_##name), \
	  (unsigned short)sizeof(type), TRACE_FIELD_DYNAMIC,                   \
	  (unsigned char)TP__EV_IS_SIGNED(type), (unsigned short)TP__EV_KIND(type) },
