/* SPDX-License-Identifier: MIT */
/*
 * trace/pattern.h - the event pattern language of tracepoint_enable() and
 * the TRACEPOINTS environment variable.  Pure functions, no state.
 *
 *   list    := item ( ',' item )*         spaces, tabs and line ends
 *                                          around an item are ignored
 *   item    := glob ':' glob              system:event
 *            | glob                       an event name, in any system
 *   glob    := one or more of  A-Z a-z 0-9 _  and the wildcards
 *              '*' (any run, also empty) and '?' (exactly one character)
 *
 * Examples: "kmem:kmalloc", "kmem:*", "*:timer_*", "kmalloc,kfree", "*".
 */
#ifndef TRACE_PATTERN_H_INCLUDED
#define TRACE_PATTERN_H_INCLUDED

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
					? "a control or non-ASCII byte (allowed: A-Z a-z 0-9 _ * ? : ,)"
					: "a character that is not allowed (allowed: A-Z a-z 0-9 _ * ? : ,)";
				goto bad;
			}
			i++;
		}
		len = i - item_start;
		if (len == 0) {
			w = list[i] ? "empty pattern (two commas, or a leading comma)"
				    : "empty pattern (nothing after the last comma, or an empty list)";
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
				      "(filters go in TRACEPOINTS, tracepoint_enable() or the second "
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

/* Glob match of pat[0..plen) against the NUL-terminated s: 1 if it
 * matches, 0 if not.  No recursion: only the last '*' seen is backtracked
 * to, so the cost is at most plen * strlen(s) steps. */
static inline int trace_glob_match(const char *pat, size_t plen, const char *s)
{
	size_t p = 0, star = (size_t)-1;
	const char *mark = NULL;

	while (*s) {
		if (p < plen && pat[p] == '*') { /* before the literal test: '*' may be in s */
			star = p++;
			mark = s;
		} else if (p < plen && (pat[p] == '?' || pat[p] == *s)) {
			p++;
			s++;
		} else if (star != (size_t)-1) {
			p = star + 1;
			s = ++mark;
		} else {
			return 0;
		}
	}
	while (p < plen && pat[p] == '*')
		p++;
	return p == plen;
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
		return trace_glob_match(item, len, event);
	return trace_glob_match(item, (size_t)(colon - item), system) &&
	       trace_glob_match(colon + 1, len - (size_t)(colon - item) - 1, event);
}

/* Whether an item has a wildcard: 1 if it holds '*' or '?', 0 if not (an
 * exact name that matches nothing is an unknown event; a glob that matches
 * nothing is just reported). */
static inline int trace_pattern_is_glob(const char *item, size_t len)
{
	return memchr(item, '*', len) != NULL || memchr(item, '?', len) != NULL;
}

#ifdef __cplusplus
}
#endif

#endif /* TRACE_PATTERN_H_INCLUDED */
