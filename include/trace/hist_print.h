/* SPDX-License-Identifier: MIT */
/*
 * trace/hist_print.h - the text of a histogram, in the layout of the
 * kernel's tracefs `hist` file: the header with the trigger, one
 * "{ key: ... } hitcount: N  val: N" line per entry in the trigger's sort
 * order, then "Totals:" with Hits, Entries and Dropped.
 *
 * Why a file: the recorder (at exit, on the control channel) and
 * tracepoint-dump --hist print the same text from the same table, so a
 * script reads either as it reads ftrace's; the sort is here too, with a
 * total order (ties broken by the key) so that the two agree line by line.
 *
 * Who includes it: trace/hist_core.h, at its end (its types); nothing
 * else.  C99, libc only.
 */
#ifndef TRACE_HIST_CORE_H_INCLUDED
#error "trace/hist_print.h is internal: #include <trace/hist_core.h> instead"
#elif !defined(TRACE_HIST_PRINT_H_INCLUDED)
#define TRACE_HIST_PRINT_H_INCLUDED

#ifdef __cplusplus
extern "C" {
#endif

/* Text that grows (malloc); oom once an allocation failed. */
struct tp__text {
	char *p;
	size_t len, cap;
	int oom;
};

static inline void tp__text_put(struct tp__text *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline void tp__text_put(struct tp__text *o, const char *fmt, ...)
{
	va_list ap;
	int n;
	if (o->oom)
		return;
	for (;;) {
		size_t room = o->cap - o->len;
		va_start(ap, fmt);
		n = vsnprintf(o->p ? o->p + o->len : NULL, room, fmt, ap);
		va_end(ap);
		if (n < 0) {
			o->oom = 1;
			return;
		}
		if ((size_t)n < room) {
			o->len += (size_t)n;
			return;
		}
		{
			size_t cap = o->cap ? o->cap : 4096;
			char *q;
			while (cap - o->len <= (size_t)n)
				cap *= 2;
			q = (char *)realloc(o->p, cap);
			if (!q) {
				o->oom = 1;
				return;
			}
			o->p = q;
			o->cap = cap;
		}
	}
}

/* Compares two entries by the spec's sort fields, then by the key. */
static inline int tp__hist_cmp(const struct trace_hist_spec *s, const uint64_t *a,
			       const uint64_t *b)
{
	unsigned i;
	for (i = 0; i < s->nsort; i++) {
		unsigned by = s->sort[i];
		uint64_t x, y;
		int c;
		if (by == TRACE_HIST_SORT_HITCOUNT) {
			x = a[0];
			y = b[0];
			c = x < y ? -1 : x > y;
		} else if (by >= TRACE_HIST_SORT_VAL) {
			x = a[1 + by - TRACE_HIST_SORT_VAL];
			y = b[1 + by - TRACE_HIST_SORT_VAL];
			c = x < y ? -1 : x > y;
		} else {
			const struct trace_hist_ref *r = &s->key[by - TRACE_HIST_SORT_KEY];
			const uint64_t *ka = a + 1 + s->nvals + r->word,
				       *kb = b + 1 + s->nvals + r->word;
			if (r->kind == TRACE_HIST_F_STR) {
				c = strncmp((const char *)ka, (const char *)kb,
					    TRACE_HIST_STR_BYTES);
				c = c < 0 ? -1 : c > 0;
			} else if (r->is_signed &&
				   !(r->mods & (TRACE_HIST_M_LOG2 | TRACE_HIST_M_HEX))) {
				int64_t u = (int64_t)*ka, v = (int64_t)*kb;
				c = u < v ? -1 : u > v;
			} else {
				c = *ka < *kb ? -1 : *ka > *kb;
			}
		}
		if (c)
			return s->desc[i] ? -c : c;
	}
	i = s->keywords;
	return memcmp(a + 1 + s->nvals, b + 1 + s->nvals, i * sizeof(uint64_t));
}

/* Sorts v[0..n) of entries (merge sort, tmp of n). */
static inline void tp__hist_sort(const struct trace_hist_spec *s, const uint64_t **v,
				 const uint64_t **tmp, size_t n)
{
	size_t w, i;
	for (w = 1; w < n; w *= 2) {
		for (i = 0; i < n; i += 2 * w) {
			size_t a = i, m = i + w < n ? i + w : n, b = m,
			       e = i + 2 * w < n ? i + 2 * w : n, k = i;
			while (a < m && b < e)
				tmp[k++] = tp__hist_cmp(s, v[b], v[a]) < 0 ? v[b++] : v[a++];
			while (a < m)
				tmp[k++] = v[a++];
			while (b < e)
				tmp[k++] = v[b++];
		}
		memcpy(v, tmp, n * sizeof(*v));
	}
}

/* Writes the symbol of address addr ("name", or "name+0xoff" when
 * with_offset) into buf[0..len), or leaves it "" (not known). */
typedef void (*trace_hist_sym_fn)(void *priv, uint64_t addr, int with_offset, char *buf,
				  size_t len);

/* One key of an entry, as the kernel prints it. */
static inline void tp__hist_put_key(struct tp__text *o, const struct trace_hist_ref *r,
				    const uint64_t *k, trace_hist_sym_fn sym, void *priv)
{
	if (r->mods & (TRACE_HIST_M_SYM | TRACE_HIST_M_SYMOFF)) {
		char nm[256];
		int off = (r->mods & TRACE_HIST_M_SYMOFF) != 0;
		nm[0] = '\0';
		if (sym)
			sym(priv, *k, off, nm, sizeof(nm));
		nm[sizeof(nm) - 1] = '\0';
		tp__text_put(o, off ? "%s: [%llx] %-55s" : "%s: [%llx] %-45s", r->name,
			     (unsigned long long)*k, nm);
	} else if (r->mods & TRACE_HIST_M_EXECNAME) {
		char comm[TRACE_HIST_COMM_BYTES + 1];
		memcpy(comm, k + 1, TRACE_HIST_COMM_BYTES);
		comm[TRACE_HIST_COMM_BYTES] = '\0';
		tp__text_put(o, "%s: %-16s[%10llu]", r->name, comm, (unsigned long long)*k);
	} else if (r->kind == TRACE_HIST_F_STR) {
		char str[TRACE_HIST_STR_BYTES];
		memcpy(str, k, sizeof(str));
		str[sizeof(str) - 1] = '\0';
		tp__text_put(o, "%s: %-50s", r->name, str);
	} else if (r->mods & TRACE_HIST_M_HEX) {
		tp__text_put(o, "%s: %llx", r->name, (unsigned long long)*k);
	} else if (r->mods & TRACE_HIST_M_LOG2) {
		tp__text_put(o, "%s: ~ 2^%-2llu", r->name, (unsigned long long)*k);
	} else if ((r->mods & TRACE_HIST_M_BUCKETS) && r->is_signed) {
		tp__text_put(o, "%s: ~ %lld-%lld", r->name, (long long)*k,
			     (long long)(*k + r->buckets - 1));
	} else if (r->mods & TRACE_HIST_M_BUCKETS) {
		tp__text_put(o, "%s: ~ %llu-%llu", r->name, (unsigned long long)*k,
			     (unsigned long long)(*k + r->buckets - 1));
	} else if (r->is_signed) {
		tp__text_put(o, "%s: %10lld", r->name, (long long)*k);
	} else {
		tp__text_put(o, "%s: %10llu", r->name, (unsigned long long)*k);
	}
}

/*
 * The hist file of table t (trigger spec s, its filter text or NULL, state
 * "active" or "paused"), the keys with .sym or .sym-offset named by sym
 * (NULL: the address only): a malloc()ed NUL-terminated text (*len its
 * length), or NULL when memory runs out.
 */
static inline char *trace_hist_format_sym(const struct trace_hist_spec *s,
					  const struct trace_hist_table *t, const char *filter,
					  const char *state, size_t *len, trace_hist_sym_fn sym,
					  void *priv)
{
	struct tp__text o;
	size_t n = (size_t)1 << t->bits, i, m = 0;
	const uint64_t **v = (const uint64_t **)malloc((t->count + 1) * 2 * sizeof(*v));
	uint64_t hits = 0;
	memset(&o, 0, sizeof(o));
	if (!v)
		return NULL;
	for (i = 0; i < n && m < t->count; i++) {
		const uint64_t *e = t->w + i * t->stride;
		if (e[0])
			v[m++] = e;
	}
	tp__hist_sort(s, v, v + m, m);
	tp__text_put(&o, "# event histogram\n#\n# trigger info: %s%s%s [%s]\n#\n\n", s->text,
		     filter ? " if " : "", filter ? filter : "", state);
	for (i = 0; i < m; i++) {
		const uint64_t *e = v[i];
		unsigned k;
		for (k = 0; k < s->nkeys; k++) {
			tp__text_put(&o, "%s", k ? ", " : "{ ");
			tp__hist_put_key(&o, &s->key[k], e + 1 + s->nvals + s->key[k].word, sym,
					 priv);
		}
		tp__text_put(&o, " } hitcount: %10llu", (unsigned long long)e[0]);
		for (k = 0; k < s->nvals; k++)
			tp__text_put(&o,
				     s->val[k].mods & TRACE_HIST_M_HEX ? "  %s: %10llx"
								       : "  %s: %10llu",
				     s->val[k].name, (unsigned long long)e[1 + k]);
		tp__text_put(&o, "\n");
		hits += e[0];
	}
	tp__text_put(&o, "\nTotals:\n    Hits: %llu\n    Entries: %zu\n    Dropped: %llu\n",
		     (unsigned long long)hits, m, (unsigned long long)t->dropped);
	free(v);
	if (o.oom) {
		free(o.p);
		return NULL;
	}
	if (len)
		*len = o.len;
	return o.p;
}

/* trace_hist_format_sym without symbols. */
static inline char *trace_hist_format(const struct trace_hist_spec *s,
				      const struct trace_hist_table *t, const char *filter,
				      const char *state, size_t *len)
{
	return trace_hist_format_sym(s, t, filter, state, len, NULL, NULL);
}

#ifdef __cplusplus
}
#endif

#endif /* TRACE_HIST_PRINT_H_INCLUDED */
