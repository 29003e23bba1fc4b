/* SPDX-License-Identifier: MIT */
/*
 * trace/near.h - how near one name is to another, for the "did you mean"
 * of a message: an edit distance (insertions, deletions, substitutions,
 * two neighbours swapped), letters compared without case, that gives up
 * past a limit.
 *
 * Why a file: two places suggest a name - the recorder (a misspelt
 * TRACEPOINTS variable or event, trace/recorder/env.h and enable.h) and
 * the filter compiler (a misspelt __print_symbolic/__print_flags label,
 * trace/filter.h) - and the filter compiler is also used without the
 * recorder (tests, fuzzers).
 *
 * Internal: included by trace/filter.h (and so by trace/sink.h, which
 * includes filter.h before the recorder's files); depends on <stddef.h>
 * and <string.h> only.  Pure functions, no state.
 */
#ifndef TRACE_FILTER_H_INCLUDED
#error "trace/near.h is internal: #include <trace/filter.h> or <trace/sink.h> instead"
#elif !defined(TRACE_NEAR_H_INCLUDED)
#define TRACE_NEAR_H_INCLUDED

#include <stddef.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { TP__NEAR_MAX = 64 /* longer names are compared by this many bytes */ };

static inline char tp__near_upper(char c)
{
	return c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c;
}

/* The distance between a[0..na) and b[0..nb) (each cut to TP__NEAR_MAX
 * bytes): insertions, deletions, substitutions and swaps of two
 * neighbours ("PTU" is one from "PUT"), each counting one; limit + 1 as
 * soon as it is sure to be more than limit. */
static inline size_t tp__near_distance(const char *a, size_t na, const char *b, size_t nb,
				       size_t limit)
{
	size_t rows[3][TP__NEAR_MAX + 1], i, j, least;
	size_t *old = rows[0], *prev = rows[1], *row = rows[2], *t;
	if (na > TP__NEAR_MAX)
		na = TP__NEAR_MAX;
	if (nb > TP__NEAR_MAX)
		nb = TP__NEAR_MAX;
	for (j = 0; j <= nb; j++)
		row[j] = j;
	for (i = 1; i <= na; i++) {
		t = old; /* the rows move up: row i-2, i-1, i */
		old = prev;
		prev = row;
		row = t;
		row[0] = least = i;
		for (j = 1; j <= nb; j++) {
			char x = tp__near_upper(a[i - 1]), y = tp__near_upper(b[j - 1]);
			size_t best = prev[j - 1] + (x != y);
			if (prev[j] + 1 < best)
				best = prev[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			if (i > 1 && j > 1 && x == tp__near_upper(b[j - 2]) &&
			    tp__near_upper(a[i - 2]) == y && old[j - 2] + 1 < best)
				best = old[j - 2] + 1;
			row[j] = best;
			if (best < least)
				least = best;
		}
		/* a row's least never shrinks (a swap from row i-2 costs at
		 * least row i-1's diagonal): */
		if (least > limit)
			return limit + 1;
	}
	return row[nb];
}

/* Whether s[0..n) begins (end 0) or ends (end 1) with p[0..np), without
 * case. */
static inline int tp__near_affix(const char *s, size_t n, const char *p, size_t np, int end)
{
	size_t i, at = end ? n - np : 0;
	if (np > n)
		return 0;
	for (i = 0; i < np; i++)
		if (tp__near_upper(s[at + i]) != tp__near_upper(p[i]))
			return 0;
	return 1;
}

/* Whether b[0..nb) is near enough to a[0..na) to be suggested for it, and
 * how near (*d, smaller is nearer): at most two edits, and not more than
 * half of the longer name (so "d" is not suggested for "a"); or, 3, one of
 * them (3 bytes or more) begins or ends the other ("DEL" for "DELETE",
 * "net_request" for "request"). */
static inline int tp__near(const char *a, size_t na, const char *b, size_t nb, size_t *d)
{
	const char *s = na < nb ? a : b, *l = na < nb ? b : a;
	size_t ns = na < nb ? na : nb, nl = na < nb ? nb : na;
	*d = tp__near_distance(a, na, b, nb, 2);
	if (*d <= 2 && 2 * *d <= nl)
		return 1;
	*d = 3;
	return ns >= 3 && (tp__near_affix(l, nl, s, ns, 0) || tp__near_affix(l, nl, s, ns, 1));
}

#ifdef __cplusplus
}
#endif

#endif /* TRACE_NEAR_H_INCLUDED */
