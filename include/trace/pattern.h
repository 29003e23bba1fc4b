/* SPDX-License-Identifier: MIT */
/*
 * trace/pattern.h - the language of TRACEPOINTS, of tracepoint_enable()
 * and of tracepoint_filter()'s patterns: which events, and with which
 * field filter.  The whole grammar is here: a spec split into groups, a
 * group into its pattern list and its filter, a list into items, and an
 * item matched against system:event.  Pure functions, no state.
 *
 *   spec    := group ( ';' group )*
 *   group   := list [ 'if' filter ]      the filter's own language is
 *                                        trace/filter.h's
 *   list    := item ( ',' item )*        spaces, tabs and line ends
 *                                        around an item are ignored
 *   item    := glob ':' glob             system:event
 *            | glob                      an event name, in any system
 *   glob    := one or more of  A-Z a-z 0-9 _  and the wildcards
 *              '*' (any run, also empty) and '?' (exactly one character)
 *
 * 'if' is a word after the last pattern of a group (after a space); the
 * filter runs to the next ';' outside quotes (so a ',' or ';' inside a
 * quoted string belongs to the string).  A spec without ';' and without
 * 'if' is a plain list.  A group with nothing but spaces (a trailing ';',
 * or ";;") stands for nothing and is skipped by its users.
 *
 * Examples: "kmem:kmalloc", "kmem:*", "*:timer_*", "kmalloc,kfree", "*",
 * "kmem:kmalloc if bytes_req > 4096 && cache == \"dentry\"; sched:*".
 *
 * Included by trace/sink.h (the recorder's enabling, filters, start-up and
 * control channel use it), by trace/filter.h (which held the spec
 * splitter before; its includers keep it) and by tools and tests on its
 * own.  Depends only on trace/glob.h (the glob match) and libc: no event
 * type, no filter compiler.
 */
#ifndef TRACE_PATTERN_H_INCLUDED
#define TRACE_PATTERN_H_INCLUDED

#include <trace/glob.h>
#include <errno.h>
#include <stddef.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TRACE_PATTERN_MAX 1024 /* bytes in one item */

static inline int tp__pat_is_name(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

static inline int tp__pat_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* 1 if s[0..n) is spaces only (or empty), else 0. */
static inline int tp__pat_blank(const char *s, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (!tp__pat_is_space(s[i]))
			return 0;
	return 1;
}

/*
 * Checks a whole list.  0 if well-formed; else -EINVAL, *pos = the 0-based
 * offset of the offending byte (the list's length for "unexpected end") and
 * *why = what is wrong there.  list == NULL is malformed at offset 0.
 */
static inline int trace_pattern_check(const char *list, size_t *pos, const char **why)
{
	size_t i = 0, item_start, colon, len;
	const char *w = NULL;

	if (!list) {
		w = "no pattern (NULL)";
		goto bad;
	}
	for (;;) {
		while (tp__pat_is_space(list[i]))
			i++;
		item_start = i;
		colon = (size_t)-1;
		while (list[i] && list[i] != ',' && !tp__pat_is_space(list[i])) {
			char c = list[i];
			if (c == ':') {
				if (colon != (size_t)-1) {
					w = "a second ':' (use system:event)";
					goto bad;
				}
				if (i == item_start) {
					w = "empty system name before ':'";
					goto bad;
				}
				colon = i;
			} else if (!tp__pat_is_name(c) && c != '*' && c != '?') {
				w = (unsigned char)c < 0x20 || (unsigned char)c >= 0x7f
					    ? "a control or non-ASCII byte (allowed: A-Z a-z 0-9 _ "
					      "* ? : ,)"
					    : "a character that is not allowed (allowed: A-Z a-z "
					      "0-9 _ * ? : ,)";
				goto bad;
			}
			i++;
		}
		len = i - item_start;
		if (len == 0) {
			w = list[i] ? "empty pattern (two commas, or a leading comma)"
				    : "empty pattern (nothing after the last comma, or an empty "
				      "list)";
			goto bad;
		}
		if (len > TRACE_PATTERN_MAX) {
			i = item_start + TRACE_PATTERN_MAX;
			w = "pattern too long";
			goto bad;
		}
		if (colon == i - 1) {
			w = "empty event name after ':'";
			goto bad;
		}
		item_start = i; /* the first space after the item, if any */
		while (tp__pat_is_space(list[i]))
			i++;
		if (list[i] == '\0')
			return 0;
		if (list[i] != ',') {
			w = strncmp(list + i, "if", 2) == 0 && tp__pat_is_space(list[i + 2])
				    ? "a field filter (\"if ...\") where only patterns are taken "
				      "(filters go in TRACEPOINTS, tracepoint_enable() or the "
				      "second "
				      "argument of tracepoint_filter())"
				    : "a space inside a pattern";
			i = item_start;
			goto bad;
		}
		i++;
	}
bad:
	if (pos)
		*pos = list ? i : 0;
	if (why)
		*why = w;
	return -EINVAL;
}

/* Splits a list that trace_pattern_check() accepted (no check here):
 * calls fn(item, len, priv) for every item (spaces trimmed); stops on a
 * non-zero return, which it returns; 0 after the last item. */
static inline int trace_pattern_for_each(const char *list,
					 int (*fn)(const char *item, size_t len, void *priv),
					 void *priv)
{
	const char *p = list;
	int ret;
	for (;;) {
		const char *end;
		while (tp__pat_is_space(*p))
			p++;
		end = p;
		while (*end && *end != ',' && !tp__pat_is_space(*end))
			end++;
		if ((ret = fn(p, (size_t)(end - p), priv)) != 0)
			return ret;
		while (tp__pat_is_space(*end))
			end++;
		if (*end != ',')
			return 0;
		p = end + 1;
	}
}

/* Whether one item (as passed by trace_pattern_for_each) matches
 * system:event: 1 if it does, 0 if not.  An item without ':' is matched
 * against the event name only. */
static inline int trace_pattern_match(const char *item, size_t len, const char *system,
				      const char *event)
{
	const char *colon = (const char *)memchr(item, ':', len);
	if (!colon)
		return trace_filter_glob(item, len, event, strlen(event));
	return trace_filter_glob(item, (size_t)(colon - item), system, strlen(system)) &&
	       trace_filter_glob(colon + 1, len - (size_t)(colon - item) - 1, event, strlen(event));
}

/* Whether an item has a wildcard: 1 if it holds '*' or '?', 0 if not (an
 * exact name that matches nothing is an unknown event; a glob that matches
 * nothing is just reported). */
static inline int trace_pattern_is_glob(const char *item, size_t len)
{
	return memchr(item, '*', len) != NULL || memchr(item, '?', len) != NULL;
}

/* ---- Groups: "patterns if filter; ..." ---- */

/* One group of a spec, as trace_spec_next() splits it. */
struct trace_spec_group {
	const char *pat; /* the group's pattern list (not NUL-terminated) */
	size_t pat_len;
	const char *filter; /* after 'if', or NULL */
	size_t filter_len;
	size_t pat_at, filter_at; /* their offsets in the whole spec */
};

/* Reads the group that starts at spec[at]; returns the offset of the next
 * group (after the ';'), or 0 if this was the last one. */
static inline size_t trace_spec_next(const char *spec, size_t at, struct trace_spec_group *g)
{
	size_t i = at, last = at; /* last: just after the last non-space byte */
	char prev = ',';	  /* the last non-space byte before a run of spaces */
	memset(g, 0, sizeof(*g));
	g->pat = spec + at;
	g->pat_at = at;
	while (spec[i] && spec[i] != ';') {
		if (tp__pat_is_space(spec[i])) {
			size_t j = i;
			while (tp__pat_is_space(spec[j]))
				j++;
			if (prev != ',' && spec[j] == 'i' && spec[j + 1] == 'f' &&
			    !tp__pat_is_name(spec[j + 2])) {
				char q = 0;
				g->pat_len = last - at;
				g->filter = spec + j + 2;
				g->filter_at = j + 2;
				for (i = j + 2; spec[i] && (q || spec[i] != ';'); i++)
					if (q ? spec[i] == q : (spec[i] == '"' || spec[i] == '\''))
						q = q ? 0 : spec[i];
				g->filter_len = i - g->filter_at;
				return spec[i] == ';' ? i + 1 : 0;
			}
			i = j;
			continue;
		}
		prev = spec[i];
		last = ++i;
	}
	g->pat_len = last - at;
	return spec[i] == ';' ? i + 1 : 0;
}

/* 1 if spec holds nothing but spaces and ';' (empty groups only: nothing
 * to record; TRACEPOINTS is then as if unset), else 0. */
static inline int tp__spec_blank(const char *spec)
{
	for (; *spec; spec++)
		if (!tp__pat_is_space(*spec) && *spec != ';')
			return 0;
	return 1;
}

/* 1 if spec is a plain pattern list (no ';', no 'if'), else 0. */
static inline int trace_spec_is_plain(const char *spec)
{
	struct trace_spec_group g;
	return !spec || (trace_spec_next(spec, 0, &g) == 0 && !g.filter);
}

/* A group's pattern list pats that trace_pattern_check() refused at *pos,
 * told better: a group that starts with the word 'if' ("; if x > 1", an
 * 'if' trace_spec_next() cannot tell from an event named "if") has no
 * pattern before its 'if': then *pos = where the 'if' is and *why says so. */
static inline void tp__spec_no_pattern(const char *pats, size_t *pos, const char **why)
{
	size_t b = 0;
	while (tp__pat_is_space(pats[b]))
		b++;
	if (pats[b] == 'i' && pats[b + 1] == 'f' && tp__pat_is_space(pats[b + 2]) && *pos > b + 1) {
		*pos = b;
		*why = "no pattern before 'if'";
	}
}

#ifdef __cplusplus
}
#endif

#endif /* TRACE_PATTERN_H_INCLUDED */
