/* SPDX-License-Identifier: MIT */
/*
 * trace/eval_map.h - TRACE_DEFINE_ENUM and TRACE_DEFINE_SIZEOF, with the
 * kernel's meaning: the value of an enumerator (or of sizeof(type)) that a
 * TP_printk names, written into the print format the readers get in its
 * place, so that __print_symbolic(REC->state, { FOO_STATE, "foo" }) reads
 * as { 3, "foo" } in the trace's metadata and in TRACEPOINTS=list-format.
 *
 * How: the metadata pass (trace/stages/metadata.h) makes one struct
 * trace_eval_map per TRACE_DEFINE_* and puts a pointer to it in the
 * section tp__eval_map; each class holds the bounds of its own object's
 * section (hidden symbols: a shared library's are its own), and
 * tp__ev_eval_subst writes a class's print format with the names of its
 * system replaced.
 *
 * Internal: included by trace/trace_events.h (inside its extern "C");
 * depends on <string.h> and <stdio.h> (tracepoint/libc.h, trace_events.h).
 */
#ifndef TRACE_TRACE_EVENTS_H_INCLUDED
#error "trace/eval_map.h is internal: #include <trace/define_trace.h> reads it"
#endif
#ifndef TRACE_EVAL_MAP_H_INCLUDED
#define TRACE_EVAL_MAP_H_INCLUDED

/* One TRACE_DEFINE_ENUM(name) or TRACE_DEFINE_SIZEOF(type) of a system:
 * the text replaced ("name", "sizeof(type)") and its value. */
struct trace_eval_map {
	const char *system;
	const char *eval_string;
	long long eval_value;
};

/* The section's bounds in the object (executable or shared library) that
 * refers to them; NULL in one without any TRACE_DEFINE_*. */
extern struct trace_eval_map const *__start_tp__eval_map[]
	__attribute__((weak, visibility("hidden")));
extern struct trace_eval_map const *__stop_tp__eval_map[]
	__attribute__((weak, visibility("hidden")));

static inline int tp__ev_eval_id(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/* The map of [*maps, end) of this system whose text starts at p (at the
 * start of a word), or NULL. */
static inline const struct trace_eval_map *tp__ev_eval_find(struct trace_eval_map const *const *m,
							    struct trace_eval_map const *const *end,
							    const char *system, const char *p)
{
	for (; m && m < end; m++) {
		size_t n;
		if (!*m || strcmp((*m)->system, system) != 0)
			continue;
		n = strlen((*m)->eval_string);
		if (strncmp(p, (*m)->eval_string, n) == 0 && !tp__ev_eval_id(p[n]))
			return *m;
	}
	return NULL;
}

/* fmt (a class's print format) with the names of maps [m, end) of system
 * replaced by their values, outside string and character literals and
 * not after "->" or "." (a field's name), into out (len bytes, may be 0);
 * returns the length of the whole text, as snprintf. */
static inline size_t tp__ev_eval_subst(struct trace_eval_map const *const *m,
				       struct trace_eval_map const *const *end, const char *system,
				       const char *fmt, char *out, size_t len)
{
	size_t o = 0;
	const char *p = fmt;
	char quote = 0;
	while (*p) {
		const struct trace_eval_map *e = NULL;
		if (quote) {
			if (*p == '\\' && p[1]) {
				if (o + 1 < len)
					out[o] = *p;
				o++;
				p++;
			} else if (*p == quote) {
				quote = 0;
			}
		} else if (*p == '"' || *p == '\'') {
			quote = *p;
		} else if (tp__ev_eval_id(*p) && !(*p >= '0' && *p <= '9') &&
			   (p == fmt || (!tp__ev_eval_id(p[-1]) && p[-1] != '.' &&
					 !(p[-1] == '>' && p - fmt >= 2 && p[-2] == '-')))) {
			e = tp__ev_eval_find(m, end, system, p);
			if (e) {
				char v[24];
				int k = snprintf(v, sizeof(v), "%lld", e->eval_value);
				size_t i;
				for (i = 0; k > 0 && i < (size_t)k; i++, o++)
					if (o + 1 < len)
						out[o] = v[i];
				p += strlen(e->eval_string);
				continue;
			}
			while (tp__ev_eval_id(p[1])) { /* the rest of the word */
				if (o + 1 < len)
					out[o] = *p;
				o++;
				p++;
			}
		}
		if (o + 1 < len)
			out[o] = *p;
		o++;
		p++;
	}
	if (len)
		out[o < len ? o : len - 1] = '\0';
	return o;
}

#endif /* TRACE_EVAL_MAP_H_INCLUDED */
