/* SPDX-License-Identifier: MIT */
/*
 * trace/glob.h - the library's one glob match, trace_filter_glob(), and
 * its old name trace_glob_match() (the NUL-terminated form), kept.
 *
 *   '*'      any run of characters, also an empty one
 *   '?'      exactly one character
 *   '[abc]'  one character of a class: 'a-z' ranges, '!' or '^' first
 *            for a negated class; an unclosed '[' is a plain character
 *   other    itself
 *
 * Why a file: two languages match globs - the event patterns of
 * TRACEPOINTS (trace/pattern.h, whose items never hold a '[') and the '~'
 * operator of field filters (run by every recorder probe, through
 * trace/filter_prog.h) - and neither file may include the other: the
 * patterns are the recorder's and the tools', the filter program is in
 * every file that defines events.
 *
 * Internal: included by trace/pattern.h and trace/filter_prog.h, each
 * before anything else of theirs; depends on <stddef.h> and <string.h>
 * only.  Pure functions, no state.
 */
#if !defined(TRACE_PATTERN_H_INCLUDED) && !defined(TRACE_FILTER_PROG_H_INCLUDED)
#error "trace/glob.h is internal: #include <trace/pattern.h> or <trace/trace_events.h> instead"
#elif !defined(TRACE_GLOB_H_INCLUDED)
#define TRACE_GLOB_H_INCLUDED

#include <stddef.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One glob token at pat[p] ('?', a '[...]' class, or a character)
 * against c: *ok says whether it matches; returns the next token's index. */
static inline size_t tp__glob_one(const char *pat, size_t plen, size_t p, unsigned char c, int *ok)
{
	if (pat[p] == '?') {
		*ok = 1;
		return p + 1;
	}
	if (pat[p] == '[') {
		size_t q = p + 1;
		int neg = 0, hit = 0;
		if (q < plen && (pat[q] == '!' || pat[q] == '^')) {
			neg = 1;
			q++;
		}
		while (q < plen && (pat[q] != ']' || q == p + 1 + (size_t)neg)) {
			unsigned char lo = (unsigned char)pat[q], hi = lo;
			if (q + 2 < plen && pat[q + 1] == '-' && pat[q + 2] != ']') {
				hi = (unsigned char)pat[q + 2];
				q += 2;
			}
			if (c >= lo && c <= hi)
				hit = 1;
			q++;
		}
		if (q < plen) { /* a closed class; an unclosed '[' is a plain character */
			*ok = hit != neg;
			return q + 1;
		}
	}
	*ok = (unsigned char)pat[p] == c;
	return p + 1;
}

/* Glob match of pat[0..plen) against s[0..slen): 1 if it matches, else 0.
 * No recursion: only the last '*' seen is backtracked to, so the cost is
 * at most plen * slen steps. */
static inline int trace_filter_glob(const char *pat, size_t plen, const char *s, size_t slen)
{
	size_t p = 0, i = 0, star = (size_t)-1, mark = 0;
	while (i < slen) {
		int ok = 0;
		size_t np;
		if (p < plen && pat[p] == '*') { /* before the literal test: '*' may be in s */
			star = ++p;
			mark = i;
			continue;
		}
		np = p < plen ? tp__glob_one(pat, plen, p, (unsigned char)s[i], &ok) : p;
		if (ok) {
			p = np;
			i++;
		} else if (star != (size_t)-1) {
			p = star;
			i = ++mark;
		} else {
			return 0;
		}
	}
	while (p < plen && pat[p] == '*')
		p++;
	return p == plen;
}

/* Old name, kept: trace_filter_glob() of pat[0..plen) against the
 * NUL-terminated s. */
static inline int trace_glob_match(const char *pat, size_t plen, const char *s)
{
	return trace_filter_glob(pat, plen, s, strlen(s));
}

#ifdef __cplusplus
}
#endif

#endif /* TRACE_GLOB_H_INCLUDED */
