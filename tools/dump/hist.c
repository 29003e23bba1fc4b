/* SPDX-License-Identifier: MIT */
/*
 * tools/dump/hist.c - tracepoint-dump --hist 'system:event hist:keys=...':
 * the histogram a hist trigger would have made in the traced program,
 * computed from the recorded events of each trace, in the kernel's hist
 * file layout.  The trigger's text, table, key modifiers and output are
 * include/trace/hist_core.h's, the recorder's own, so the two agree entry
 * by entry (tests/recorder/t_hist.sh).
 *
 * Part of tracepoint-dump (dump.h has the map of its parts).
 */
#include "dump.h"
#include "../../include/trace/hist_core.h"

/* Splits "system:event hist:..." into the event and the trigger; 0, or -1
 * with *at the offset of what is wrong. */
static int hist_split(const char *spec, size_t *ev_len, size_t *trig_at, size_t *at,
		      const char **why)
{
	size_t i = 0, e;
	while (spec[i] == ' ' || spec[i] == '\t')
		i++;
	e = i;
	while (spec[e] && spec[e] != ' ' && spec[e] != '\t')
		e++;
	if (e == i || !memchr(spec + i, ':', e - i)) {
		*at = i;
		*why = "expected 'system:event' first";
		return -1;
	}
	*ev_len = e;
	while (spec[e] == ' ' || spec[e] == '\t')
		e++;
	if (strncmp(spec + e, "hist", 4) != 0) {
		*at = e;
		*why = "expected a 'hist:...' trigger after the event";
		return -1;
	}
	*trig_at = e;
	for (i = e; spec[i]; i++) {
		if (spec[i] == ' ' || spec[i] == '\t') {
			*at = i;
			*why = "a filter ('if') is not supported by --hist; the trigger has no "
			       "spaces";
			return -1;
		}
	}
	return 0;
}

static void hist_report(const char *spec, size_t at, const char *why)
{
	fprintf(stderr, "tracepoint-dump: --hist: %s at position %zu\n  %s\n  %*s^\n", why, at + 1,
		spec, (int)at, "");
}

/* Checks the spec's form (no trace needed): 0, or 2 (reported). */
int hist_check(const char *spec)
{
	size_t ev_len, trig_at, at;
	const char *why;
	size_t i;
	for (i = 0; spec[i]; i++)
		if ((unsigned char)spec[i] < 0x20 || (unsigned char)spec[i] >= 0x7f) {
			hist_report("", 0, "the trigger holds a control or non-ASCII byte");
			return 2;
		}
	if (hist_split(spec, &ev_len, &trig_at, &at, &why) != 0) {
		hist_report(spec, at, why);
		return 2;
	}
	return 0;
}

/* The histogram of one trace; 0, or 1 (the trigger does not fit the event:
 * reported). */
int hist_trace(struct dump *dx, struct trace *tr, const char *spec)
{
	size_t ev_len, trig_at, at, i, pos = 0;
	const char *why;
	char err[1024], *txt;
	struct event *ev = NULL;
	struct trace_hist_fdesc *fd;
	struct trace_hist_spec hs;
	struct trace_hist_table t;
	void *mem;
	unsigned k;
	int fi[TRACE_HIST_KEYS_MAX + TRACE_HIST_VALS_MAX];
	if (hist_split(spec, &ev_len, &trig_at, &at, &why) != 0)
		return 1;
	i = 0;
	while (spec[i] == ' ' || spec[i] == '\t')
		i++;
	for (k = 0; k < tr->nev; k++)
		if (tr->ev[k].namelen == ev_len - i &&
		    !memcmp(tr->ev[k].name, spec + i, ev_len - i))
			ev = &tr->ev[k];
	if (!ev) {
		note(dx, 0, tr->dir, -1, "--hist: no event %.*s in this trace", (int)(ev_len - i),
		     spec + i);
		return 0;
	}
	fd = (struct trace_hist_fdesc *)xcalloc(ev->nf + 1, sizeof(*fd));
	for (k = 0; k < ev->nf; k++) {
		const struct field *f = &ev->f[k];
		fd[k].name = f->name;
		fd[k].is_signed = f->t.sgn;
		if (f->hidden || f->t.bad)
			continue;
		if (f->t.kind == FT_STR || f->is_text)
			fd[k].kind = TRACE_HIST_F_STR;
		else if (f->t.kind == FT_INT && !f->count && !f->seq)
			fd[k].kind = TRACE_HIST_F_INT;
	}
	if (trace_hist_parse(spec + trig_at, strlen(spec + trig_at), fd, ev->nf, &hs, &pos, err,
			     sizeof(err)) != 0) {
		hist_report(spec, trig_at + pos, err);
		free(fd);
		return 1;
	}
	free(fd);
	for (k = 0; k < hs.nkeys; k++)
		if (hs.key[k].mods & TRACE_HIST_M_EXECNAME) {
			hist_report(spec, trig_at,
				    "a trace has no thread names: --hist takes no .execname");
			return 1;
		}
	if (hs.nvars || hs.has_onmatch) {
		hist_report(spec, trig_at,
			    "variables and onmatch() need the events' order across threads: "
			    "--hist does not take them");
		return 1;
	}
	for (k = 0; k < hs.nkeys; k++)
		fi[k] = (int)hs.key[k].field;
	for (k = 0; k < hs.nvals; k++)
		fi[TRACE_HIST_KEYS_MAX + k] = (int)hs.val[k].field;
	mem = xcalloc(1, trace_hist_table_bytes(&hs));
	trace_hist_table_init(&t, &hs, mem);
	for (i = 0; i < tr->nst; i++) {
		struct cursor c;
		cur_init(&c, &tr->st[i], i);
		while (cur_next(&c)) {
			uint64_t key[TRACE_HIST_KEYS_MAX * TRACE_HIST_STR_WORDS],
				vals[TRACE_HIST_VALS_MAX], *e;
			unsigned j;
			if (c.kind != K_EVENT || c.ev != ev)
				continue;
			for (j = 0; j < hs.nkeys + hs.nvals; j++) {
				const struct trace_hist_ref *r =
					j < hs.nkeys ? &hs.key[j] : &hs.val[j - hs.nkeys];
				int f = fi[j < hs.nkeys ? j : TRACE_HIST_KEYS_MAX + j - hs.nkeys];
				uint64_t v;
				if (r->kind == TRACE_HIST_F_STR) {
					size_t n;
					const u8 *s = get_text(&c, f, &n);
					trace_hist_key_str(key + r->word, (const char *)s, n);
					continue;
				}
				if (r->field == TRACE_HIST_COMMON_TIMESTAMP)
					v = c.ns;
				else if (r->field == TRACE_HIST_COMMON_PID)
					v = c.pid;
				else if (r->field == TRACE_HIST_COMMON_TID)
					v = c.tid;
				else {
					const struct field *fl = &ev->f[f];
					v = ld(c.pl + c.off[f], fl->t.size, fl->t.swap);
					if (fl->t.sgn)
						v = sext(v, 8u * fl->t.size);
				}
				v = trace_hist_key_num(r, v);
				if (j < hs.nkeys)
					key[r->word] = v;
				else
					vals[j - hs.nkeys] = v;
			}
			e = trace_hist_table_find(&t, key, trace_hist_hash(key, hs.keywords));
			if (e)
				trace_hist_table_add(&t, e, 1, vals);
			else
				t.dropped++;
		}
		cur_free(&c);
	}
	txt = trace_hist_format(&hs, &t, NULL, "active", &i);
	if (txt)
		ob_puts(dx, txt, i);
	free(txt);
	free(mem);
	return 0;
}
