/* SPDX-License-Identifier: MIT */
/*
 * tools/dump/hist.c - tracepoint-dump --hist 'system:event hist:keys=...':
 * the histogram a hist trigger would have made in the traced program,
 * computed from the recorded events of each trace, in the kernel's hist
 * file layout.  The trigger's text, table, key modifiers and output are
 * include/trace/hist_core.h's, the recorder's own, so the two agree entry
 * by entry (tests/recorder/t_hist.sh).
 *
 * Several triggers, split with ';' as in TRACEPOINTS, are each computed
 * and printed after a "# system:event" line (as the control channel's
 * `hist` prints them).  Variables, onmatch() and synthetic events
 * (synthetic:NAME) work as trace/recorder/hist_vars.h's: the events of
 * all threads are then taken in time order (the merge of the streams), a
 * trigger with variables saves them per key, onmatch() takes them once,
 * and trace() fires the synthetic event's triggers.  .execname names a
 * thread by its packets' comm (the recorder's: the thread's name when the
 * packet opened).
 *
 * Part of tracepoint-dump (dump.h has the map of its parts).
 */
#include "dump.h"
#include "../../include/trace/hist_core.h"

enum hist_limits {
	HIST_TRIGGERS = 32, /* triggers in one --hist */
	HIST_SYNTHS = 16    /* synthetic events in one --hist */
};

/* Where a variable's operand or a synthetic event's parameter comes
 * from (as recorder/hist_vars.h's enum tp__hist_src). */
enum hist_from { SRC_FIELD = 0, SRC_SELF = 1, SRC_MATCH = 2 };
struct hist_opnd {
	const struct trace_hist_ref *ref;
	unsigned char src, idx;
};

/* Saved variables: 2^bits slots of state, key words and values. */
enum hist_vstate { V_FREE = 0, V_LIVE = 1, V_READ = 2 };
struct hist_vtab {
	uint64_t *w;
	unsigned bits, keywords, nvars, stride;
	unsigned long long dropped;
};

struct hist_synth {
	char name[TRACE_HIST_NAME_MAX];
	unsigned nf;
	char fname[TRACE_HIST_PARAMS_MAX][TRACE_HIST_NAME_MAX];
	unsigned char sgn[TRACE_HIST_PARAMS_MAX];
};

struct hist_trig {
	size_t at; /* the group's offset in the --hist text */
	char name[2 * TRACE_HIST_NAME_MAX + 2];
	const struct event *ev; /* NULL: on a synthetic event */
	struct hist_synth *on;	/* ... this one */
	struct trace_hist_spec hs;
	struct trace_hist_table t;
	void *mem;
	struct hist_vtab *vt;	  /* variables (and no onmatch) */
	struct hist_trig *match;  /* onmatch's trigger */
	struct hist_synth *synth; /* onmatch's trace() */
	struct hist_opnd vop[TRACE_HIST_VARS_MAX][2], par[TRACE_HIST_PARAMS_MAX];
	int busy; /* adding an event: a synthetic event back to it is dropped */
};

struct hist_run {
	struct hist_trig tg[HIST_TRIGGERS];
	unsigned n;
	struct hist_synth sy[HIST_SYNTHS];
	unsigned nsy;
};

/* What an event's values are read from: a record, and for a synthetic
 * event its parameters. */
struct hist_src {
	const struct cursor *c;
	const uint64_t *par;
};

/* ---- The text ---- */

static int hist_space(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n';
}

/* The group of spec at *at: [b, e) without the spaces around it, *at past
 * its ';'.  0 at the end of spec. */
static int hist_group(const char *spec, size_t *at, size_t *b, size_t *e)
{
	size_t i = *at;
	if (!spec[i])
		return 0;
	while (spec[i] && spec[i] != ';')
		i++;
	*b = *at;
	*e = i;
	*at = spec[i] ? i + 1 : i;
	while (*b < *e && hist_space(spec[*b]))
		(*b)++;
	while (*e > *b && hist_space(spec[*e - 1]))
		(*e)--;
	return 1;
}

/* Splits the group spec[b, e) "system:event hist:..." into the event
 * [b, *ev_end) and the trigger [*trig_at, e); 0, or -1 with *at the offset
 * of what is wrong. */
static int hist_split(const char *spec, size_t b, size_t e, size_t *ev_end, size_t *trig_at,
		      size_t *at, const char **why)
{
	size_t i = b, j;
	while (i < e && !hist_space(spec[i]))
		i++;
	if (i == b || !memchr(spec + b, ':', i - b)) {
		*at = b;
		*why = "expected 'system:event' first";
		return -1;
	}
	*ev_end = i;
	while (i < e && hist_space(spec[i]))
		i++;
	if (e - i < 4 || strncmp(spec + i, "hist", 4) != 0) {
		*at = i;
		*why = "expected a 'hist:...' trigger after the event";
		return -1;
	}
	*trig_at = i;
	for (j = i; j < e; j++) {
		if (hist_space(spec[j])) {
			*at = j;
			*why = "a filter ('if') is not supported by --hist; the trigger has no "
			       "spaces";
			return -1;
		}
	}
	return 0;
}

static void hist_report(const char *spec, size_t at, const char *why)
{
	size_t b = 0, e, i;
	/* the line of spec that holds at */
	for (i = 0; i < at && spec[i]; i++)
		if (spec[i] == '\n')
			b = i + 1;
	for (e = b; spec[e] && spec[e] != '\n'; e++)
		;
	fprintf(stderr, "tracepoint-dump: --hist: %s at position %zu\n  %.*s\n  %*s^\n", why,
		at + 1, (int)(e - b), spec + b, (int)(at - b), "");
}

/* Checks the spec's form (no trace needed): 0, or 2 (reported). */
int hist_check(const char *spec)
{
	size_t at = 0, b, e, ev_end, trig_at, bad, i;
	const char *why;
	unsigned n = 0;
	for (i = 0; spec[i]; i++)
		if (((unsigned char)spec[i] < 0x20 && !hist_space(spec[i])) ||
		    (unsigned char)spec[i] >= 0x7f) {
			hist_report("", 0, "the trigger holds a control or non-ASCII byte");
			return 2;
		}
	while (hist_group(spec, &at, &b, &e)) {
		if (b == e)
			continue; /* an empty group */
		if (++n > HIST_TRIGGERS) {
			hist_report(spec, b, "too many triggers (at most 32)");
			return 2;
		}
		if (hist_split(spec, b, e, &ev_end, &trig_at, &bad, &why) != 0) {
			hist_report(spec, bad, why);
			return 2;
		}
	}
	if (!n) {
		hist_report(spec, 0, "expected 'system:event hist:...'");
		return 2;
	}
	return 0;
}

/* ---- Saved variables ---- */

static struct hist_vtab *vtab_make(const struct trace_hist_spec *s)
{
	struct hist_vtab *v = (struct hist_vtab *)xcalloc(1, sizeof(*v));
	v->bits = trace_hist_table_bits(s->size);
	v->keywords = s->keywords;
	v->nvars = s->nvars;
	v->stride = 1 + s->keywords + s->nvars;
	v->w = (uint64_t *)xcalloc((size_t)1 << v->bits, v->stride * sizeof(uint64_t));
	return v;
}

/* The slot of key (LIVE), else a free or read one before the first free
 * (want_free), else NULL. */
static uint64_t *vtab_find(struct hist_vtab *v, const uint64_t *key, int want_free)
{
	size_t mask = ((size_t)1 << v->bits) - 1, n;
	size_t i = (size_t)(trace_hist_hash(key, v->keywords) >> (64 - v->bits)) & mask;
	uint64_t *spare = NULL;
	for (n = 0; n <= mask; n++, i = (i + 1) & mask) {
		uint64_t *e = v->w + i * v->stride;
		if (e[0] == V_LIVE && !memcmp(e + 1, key, v->keywords * 8u))
			return e;
		if (!spare && e[0] != V_LIVE)
			spare = e;
		if (e[0] == V_FREE)
			break;
	}
	return want_free ? spare : NULL;
}

static void vtab_save(struct hist_vtab *v, const uint64_t *key, const uint64_t *vals)
{
	uint64_t *e = vtab_find(v, key, 1);
	if (!e) {
		v->dropped++;
		return;
	}
	e[0] = V_LIVE;
	memcpy(e + 1, key, v->keywords * 8u);
	memcpy(e + 1 + v->keywords, vals, v->nvars * 8u);
}

static int vtab_take(struct hist_vtab *v, const uint64_t *key, uint64_t *vals)
{
	uint64_t *e = vtab_find(v, key, 0);
	if (!e)
		return 0;
	memcpy(vals, e + 1 + v->keywords, v->nvars * 8u);
	e[0] = V_READ;
	return 1;
}

/* ---- Making the triggers ---- */

static struct hist_synth *synth_find(struct hist_run *R, const char *name)
{
	unsigned i;
	for (i = 0; i < R->nsy; i++)
		if (!strcmp(R->sy[i].name, name))
			return &R->sy[i];
	return NULL;
}

/* The newest trigger with variables (and no onmatch) on name. */
static struct hist_trig *vars_of(struct hist_run *R, const char *name)
{
	unsigned i;
	for (i = R->n; i-- > 0;)
		if (R->tg[i].vt && !strcmp(R->tg[i].name, name))
			return &R->tg[i];
	return NULL;
}

static int var_find(const char *name, const struct trace_hist_spec *self, unsigned upto,
		    const struct trace_hist_spec *m, struct hist_opnd *o)
{
	unsigned k;
	for (k = 0; k < upto; k++)
		if (!strcmp(self->var[k].name, name)) {
			o->src = SRC_SELF;
			o->idx = (unsigned char)k;
			return 0;
		}
	for (k = 0; m && k < m->nvars; k++)
		if (!strcmp(m->var[k].name, name)) {
			o->src = SRC_MATCH;
			o->idx = (unsigned char)k;
			return 0;
		}
	return -1;
}

/* Resolves t's names (as recorder/hist_vars.h's tp__hist_link): 0, or -1
 * with why. */
static int hist_link(struct hist_run *R, struct hist_trig *t, char *why, size_t len)
{
	const struct trace_hist_spec *s = &t->hs, *m = NULL;
	unsigned k, j;
	if (s->has_onmatch) {
		char name[2 * TRACE_HIST_NAME_MAX + 2];
		snprintf(name, sizeof(name), "%s:%s", s->onmatch.system, s->onmatch.event);
		if (!(t->match = vars_of(R, name))) {
			snprintf(why, len,
				 "onmatch(%s.%s): no trigger with variables on %s before it",
				 s->onmatch.system, s->onmatch.event, name);
			return -1;
		}
		m = &t->match->hs;
		if (tp__hist_keys_like(s, m, why, len) != 0)
			return -1;
	}
	for (k = 0; k < s->nvars; k++) {
		const struct trace_hist_operand *op[2] = { &s->var[k].a, &s->var[k].b };
		for (j = 0; j < (s->var[k].op ? 2u : 1u); j++) {
			struct hist_opnd *o = &t->vop[k][j];
			o->ref = &op[j]->ref;
			if (op[j]->is_var && var_find(op[j]->ref.name, s, k, m, o)) {
				snprintf(why, len, "no variable $%s (of this trigger before %s%s)",
					 op[j]->ref.name, s->var[k].name,
					 m ? ", or of onmatch's trigger" : "");
				return -1;
			}
		}
	}
	if (!s->has_onmatch) {
		if (s->nvars)
			t->vt = vtab_make(s);
		return 0;
	}
	t->synth = synth_find(R, s->onmatch.synth);
	if (t->synth && t->synth->nf != s->onmatch.nparams) {
		snprintf(why, len, "synthetic event %s has %u fields", s->onmatch.synth,
			 t->synth->nf);
		return -1;
	}
	if (!t->synth) {
		if (R->nsy == HIST_SYNTHS) {
			snprintf(why, len, "at most %d synthetic events", HIST_SYNTHS);
			return -1;
		}
		t->synth = &R->sy[R->nsy++];
		snprintf(t->synth->name, sizeof(t->synth->name), "%s", s->onmatch.synth);
		t->synth->nf = s->onmatch.nparams;
	}
	for (k = 0; k < s->onmatch.nparams; k++) {
		const struct trace_hist_operand *op = &s->onmatch.param[k];
		struct hist_opnd *o = &t->par[k];
		o->ref = &op->ref;
		if (op->is_var && var_find(op->ref.name, s, s->nvars, m, o)) {
			snprintf(why, len, "no variable $%s (of this trigger or onmatch's)",
				 op->ref.name);
			return -1;
		}
		if (t->synth->fname[k][0] && strcmp(t->synth->fname[k], op->ref.name)) {
			snprintf(why, len,
				 "synthetic event %s has other fields (its first trace() names "
				 "them)",
				 s->onmatch.synth);
			return -1;
		}
		snprintf(t->synth->fname[k], sizeof(t->synth->fname[k]), "%s", op->ref.name);
		t->synth->sgn[k] =
			!op->is_var && op->ref.field < TRACE_HIST_COMMON_TIMESTAMP &&
			(t->ev ? t->ev->f[op->ref.field].t.sgn : t->on->sgn[op->ref.field]);
	}
	return 0;
}

/* The trigger of group spec[b, e) on tr: 0 (made), 1 (the event is not
 * in the trace: noted, skipped) or -1 (reported). */
static int hist_make(struct dump *dx, struct trace *tr, struct hist_run *R, const char *spec,
		     size_t b, size_t e)
{
	struct hist_trig *t = &R->tg[R->n];
	struct trace_hist_fdesc *fd;
	struct trace_hist_spec *hs;
	size_t ev_end, trig_at, at, pos = 0;
	const char *why;
	char err[1024];
	unsigned k, nf;
	if (hist_split(spec, b, e, &ev_end, &trig_at, &at, &why) != 0) {
		hist_report(spec, at, why);
		return -1;
	}
	memset(t, 0, sizeof(*t));
	t->at = b;
	snprintf(t->name, sizeof(t->name), "%.*s", (int)(ev_end - b), spec + b);
	if (!strncmp(t->name, "synthetic:", 10)) {
		if (!(t->on = synth_find(R, t->name + 10))) {
			hist_report(spec, b, "no trace() of an earlier trigger names this event");
			return -1;
		}
		nf = t->on->nf;
		fd = (struct trace_hist_fdesc *)xcalloc(nf + 1, sizeof(*fd));
		for (k = 0; k < nf; k++) {
			fd[k].name = t->on->fname[k];
			fd[k].kind = TRACE_HIST_F_INT;
			fd[k].is_signed = t->on->sgn[k];
		}
	} else {
		for (k = 0; k < tr->nev; k++)
			if (tr->ev[k].namelen == ev_end - b &&
			    !memcmp(tr->ev[k].name, spec + b, ev_end - b))
				t->ev = &tr->ev[k];
		if (!t->ev) {
			note(dx, 0, tr->dir, -1, "--hist: no event %s in this trace", t->name);
			return 1;
		}
		nf = t->ev->nf;
		fd = (struct trace_hist_fdesc *)xcalloc(nf + 1, sizeof(*fd));
		for (k = 0; k < nf; k++) {
			const struct field *f = &t->ev->f[k];
			fd[k].name = f->name;
			fd[k].is_signed = f->t.sgn;
			if (f->hidden || f->t.bad)
				continue;
			if (f->t.kind == FT_STR || f->is_text)
				fd[k].kind = TRACE_HIST_F_STR;
			else if (f->t.kind == FT_INT && !f->count && !f->seq)
				fd[k].kind = TRACE_HIST_F_INT;
		}
	}
	/* parsed into a block of its own: gcc (-Wrestrict) takes the spec's
	 * names and its text, both in R, for one object */
	hs = (struct trace_hist_spec *)xmalloc(sizeof(*hs));
	if (trace_hist_parse(spec + trig_at, e - trig_at, fd, nf, hs, &pos, err, sizeof(err)) !=
	    0) {
		hist_report(spec, trig_at + pos, err);
		free(fd);
		free(hs);
		return -1;
	}
	t->hs = *hs;
	free(hs);
	free(fd);
	if (hist_link(R, t, err, sizeof(err)) != 0) {
		hist_report(spec, b, err);
		return -1;
	}
	t->mem = xcalloc(1, trace_hist_table_bytes(&t->hs));
	trace_hist_table_init(&t->t, &t->hs, t->mem);
	R->n++;
	return 0;
}

/* ---- Adding an event ---- */

static uint64_t hist_num(const struct hist_trig *t, const struct hist_src *s,
			 const struct trace_hist_ref *r)
{
	const struct cursor *c = s->c;
	uint64_t v;
	if (r->field == TRACE_HIST_COMMON_TIMESTAMP)
		return c->ns;
	if (r->field == TRACE_HIST_COMMON_PID)
		return c->pid;
	if (r->field == TRACE_HIST_COMMON_TID)
		return c->tid;
	if (s->par)
		return s->par[r->field];
	{
		const struct field *fl = &t->ev->f[r->field];
		v = ld(c->pl + c->off[r->field], fl->t.size, fl->t.swap);
		return fl->t.sgn ? sext(v, 8u * fl->t.size) : v;
	}
}

static uint64_t hist_opnd(const struct hist_trig *t, const struct hist_src *s,
			  const struct hist_opnd *o, const uint64_t *self, const uint64_t *matched)
{
	if (o->src == SRC_SELF)
		return self[o->idx];
	if (o->src == SRC_MATCH)
		return matched[o->idx];
	return trace_hist_key_num(o->ref, hist_num(t, s, o->ref));
}

static void hist_fire(struct hist_run *R, struct hist_trig *t, const struct hist_src *s);

/* t's variables, match and synthetic event for key: 0 when onmatch's
 * trigger holds no entry of the key (the event is not aggregated). */
static int hist_vars(struct hist_run *R, struct hist_trig *t, const struct hist_src *s,
		     const uint64_t *key)
{
	uint64_t matched[TRACE_HIST_VARS_MAX], self[TRACE_HIST_VARS_MAX],
		par[TRACE_HIST_PARAMS_MAX];
	struct hist_src ss;
	unsigned k;
	if (t->match && !vtab_take(t->match->vt, key, matched))
		return 0;
	for (k = 0; k < t->hs.nvars; k++) {
		const struct trace_hist_var *v = &t->hs.var[k];
		uint64_t a = hist_opnd(t, s, &t->vop[k][0], self, matched);
		if (v->op) {
			uint64_t b2 = hist_opnd(t, s, &t->vop[k][1], self, matched);
			a = v->op == '-' ? a - b2 : a + b2;
		}
		self[k] = a;
	}
	if (t->vt)
		vtab_save(t->vt, key, self);
	if (!t->synth)
		return 1;
	for (k = 0; k < t->synth->nf; k++)
		par[k] = hist_opnd(t, s, &t->par[k], self, matched);
	ss.c = s->c;
	ss.par = par;
	for (k = 0; k < R->n; k++)
		if (R->tg[k].on == t->synth)
			hist_fire(R, &R->tg[k], &ss);
	return 1;
}

static void hist_fire(struct hist_run *R, struct hist_trig *t, const struct hist_src *s)
{
	uint64_t key[TRACE_HIST_KEYS_MAX * TRACE_HIST_STR_WORDS], vals[TRACE_HIST_VALS_MAX], *e;
	unsigned j;
	if (t->busy) { /* a chain of synthetic events back to t: as the recorder, a drop */
		t->t.dropped++;
		return;
	}
	for (j = 0; j < t->hs.nkeys; j++) {
		const struct trace_hist_ref *r = &t->hs.key[j];
		if (r->kind == TRACE_HIST_F_STR) {
			size_t n;
			const u8 *str = get_text(s->c, (int)r->field, &n);
			trace_hist_key_str(key + r->word, (const char *)str, n);
			continue;
		}
		key[r->word] = trace_hist_key_num(r, hist_num(t, s, r));
		if (r->mods & TRACE_HIST_M_EXECNAME) {
			const struct cursor *c = s->c;
			char comm[TRACE_HIST_COMM_BYTES];
			memset(comm, 0, sizeof(comm));
			if (c->pk > 0)
				memcpy(comm, c->st->pk[c->pk - 1].comm, sizeof(comm) - 1);
			memcpy(key + r->word + 1, comm, sizeof(comm));
		}
	}
	if (t->hs.nvars || t->hs.has_onmatch) {
		int on;
		t->busy = 1;
		on = hist_vars(R, t, s, key);
		t->busy = 0;
		if (!on)
			return;
	}
	for (j = 0; j < t->hs.nvals; j++)
		vals[j] = trace_hist_key_num(&t->hs.val[j], hist_num(t, s, &t->hs.val[j]));
	e = trace_hist_table_find(&t->t, key, trace_hist_hash(key, t->hs.keywords));
	if (e)
		trace_hist_table_add(&t->t, e, 1, vals);
	else
		t->t.dropped++;
}

/* One record: each trigger on its event, in the order given. */
static void hist_record(struct hist_run *R, const struct cursor *c)
{
	struct hist_src s;
	unsigned k;
	if (c->kind != K_EVENT)
		return;
	s.c = c;
	s.par = NULL;
	for (k = 0; k < R->n; k++)
		if (R->tg[k].ev == c->ev)
			hist_fire(R, &R->tg[k], &s);
}

static void hist_emit(struct dump *dx, struct cursor *c)
{
	hist_record((struct hist_run *)dx->hist, c);
}

/* The histograms of one trace; 0, or 1 (a trigger does not fit the trace:
 * reported). */
int hist_trace(struct dump *dx, struct trace *tr, const char *spec)
{
	struct hist_run *R = (struct hist_run *)xcalloc(1, sizeof(*R));
	size_t at = 0, b, e, i;
	unsigned k, ngroups = 0;
	int ordered = 0, r = 0;
	while (hist_group(spec, &at, &b, &e)) {
		if (b == e)
			continue;
		ngroups++;
		if ((r = hist_make(dx, tr, R, spec, b, e)) < 0)
			break;
		r = 0;
	}
	for (k = 0; k < R->n; k++)
		ordered |= R->tg[k].hs.nvars || R->tg[k].hs.has_onmatch;
	if (r == 0 && ordered) { /* the threads' events in time order */
		dx->hist = R;
		merge(dx, &tr, 1, hist_emit);
		dx->hist = NULL;
	} else if (r == 0) { /* stream by stream */
		for (i = 0; i < tr->nst; i++) {
			struct cursor c;
			cur_init(&c, &tr->st[i], i);
			while (cur_next(&c))
				hist_record(R, &c);
			cur_free(&c);
		}
	}
	for (k = 0; r == 0 && k < R->n; k++) {
		struct hist_trig *t = &R->tg[k];
		char *txt;
		if (t->vt)
			t->t.dropped += t->vt->dropped;
		txt = trace_hist_format(&t->hs, &t->t, NULL, "active", &i);
		if (ngroups > 1)
			ob_printf(dx, "# %s\n", t->name);
		if (txt)
			ob_puts(dx, txt, i);
		if (ngroups > 1)
			ob_puts(dx, "\n", 1);
		free(txt);
	}
	for (k = 0; k < R->n; k++) {
		if (R->tg[k].vt)
			free(R->tg[k].vt->w);
		free(R->tg[k].vt);
		free(R->tg[k].mem);
	}
	free(R);
	return r < 0;
}
