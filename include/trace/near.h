/* SPDX-License-Identifier: MIT */
/*
 * trace/near.h - how near one name is to another, for the "did you mean"
 * of a message: an edit distance (insertions, deletions, substitutions),
 * letters compared without case, that gives up past a limit.
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
 * bytes); limit + 1 as soon as it is sure to be more than limit. */
static inline size_t tp__near_distance(const char *a, size_t na, const char *b, size_t nb,
				       size_t limit)
{
	size_t row[TP__NEAR_MAX + 1], i, j, least;
	if (na > TP__NEAR_MAX)
		na = TP__NEAR_MAX;
	if (nb > TP__NEAR_MAX)
		nb = TP__NEAR_MAX;
	for (j = 0; j <= nb; j++)
		row[j] = j;
	for (i = 1; i <= na; i++) {
		size_t diag = row[0];
		row[0] = least = i;
		for (j = 1; j <= nb; j++) {
			size_t up = row[j],
			       best = diag + (tp__near_upper(a[i - 1]) != tp__near_upper(b[j - 1]));
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
			if (best < least)
				least = best;
		}
		if (least > limit) /* the rows never shrink */
			return limit + 1;
	}
	return row[nb];
}

/* Whether b[0..nb) is near enough to a[0..na) to be suggested for it:
 * at most two edits, and not more than half of the longer name (so "d"
 * is not suggested for "a"). */
static inline int tp__near(const char *a, size_t na, const char *b, size_t nb, size_t *d)
{
	*d = tp__near_distance(a, na, b, nb, 2);
	return *d <= 2 && 2 * *d <= (na > nb ? na : nb);
}

#ifdef __cplusplus
}
#endif

#endif /* TRACE_NEAR_H_INCLUDED */
