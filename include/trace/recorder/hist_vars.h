/* SPDX-License-Identifier: MIT */
/*
 * trace/recorder/hist_vars.h - latency between two events, as the
 * kernel's hist triggers measure it: variables, onmatch() and synthetic
 * events.
 *
 *   hst:req_start hist:keys=id:ts0=common_timestamp.usecs:k=kind
 *   hst:req_end hist:keys=id:lat=common_timestamp.usecs-$ts0:
 *       onmatch(hst.req_start).trace(req_lat,$k,$lat)
 *   synthetic:req_lat hist:keys=k:vals=lat
 *
 * A trigger with variables and no onmatch() saves them, per key, in a
 * table shared by the threads (struct tp__hist_vtab); a trigger with
 * onmatch(system.event) looks its key up in that event's trigger's table
 * and reads the entry's variables once (the entry is then free again): no
 * entry, no match, and the event is not aggregated.  It computes its own
 * variables ($ts0 of the matched entry in them), and fires the synthetic
 * event named in trace() with the parameters as its fields (the fields
 * are named after them: $lat is `lat`; all are 8-byte integers).  A
 * trigger on synthetic:NAME aggregates those as any event's.
 *
 * The shared table is lock-free: each slot has a state word (free, being
 * written, live, read) taken with a compare-and-swap; a thread that finds
 * the slot it wants in another thread's hands does not wait but counts a
 * drop, as it does when the `size` entries are in use or a key is not in
 * the first TP__HIST_VPROBES slots of its place.  No allocation and no
 * system call on the fire path; memory is mapped when the trigger is
 * made.
 *
 * Why a file: what lets one trigger read another's data (the shared
 * table, the names resolved across triggers, the synthetic events) is
 * apart from the per-thread tables of recorder/hist.h.
 *
 * Internal: included by trace/sink.h (TRACEPOINT_SINK_MAIN) after
 * recorder/hist.h (struct tp__hist, whose fire path calls
 * tp__hist_vars_fire) and before recorder/hist_spec.h (which resolves a
 * trigger's names here, tp__hist_link).
 */
#ifndef TP__SINK_DEFINED
#error "trace/recorder/hist_vars.h is internal: #include <trace/sink.h> instead"
#elif !defined(TP__REC_HIST_VARS_H)
#define TP__REC_HIST_VARS_H

enum tp__hist_vars_limits {
	TP__HIST_VPROBES = 32,	     /* slots a key may be from its place */
	TP__HIST_SYNTHS = 16,	     /* synthetic events in a process */
	TP__HIST_SYNTH_TRIGGERS = 8, /* triggers on one synthetic event */
	TP__HIST_PENDING = 32	     /* triggers a TRACEPOINTS check remembers */
};

/* A slot's state word. */
enum tp__hist_vstate {
	TP__HIST_V_FREE = 0, /* never used: a key's probe ends here */
	TP__HIST_V_BUSY = 1, /* a thread writes or reads it */
	TP__HIST_V_LIVE = 2, /* holds a key and its variables */
	TP__HIST_V_READ = 3  /* its variables were read: free for a new key */
};

/* Saved variables, shared: 2^bits slots of 1 + keywords + nvars words
 * (state, key, values). */
struct tp__hist_vtab {
	uint64_t *w;
	unsigned bits, keywords, nvars, stride;
	unsigned long long dropped; /* variables not saved (full, busy) */
};

/* A synthetic event: its fields named by the first trace() that names it. */
struct tp__hist_synth {
	char name[TRACE_HIST_NAME_MAX];
	unsigned nf;
	char fname[TRACE_HIST_PARAMS_MAX][TRACE_HIST_NAME_MAX];
	struct trace_event_field f[TRACE_HIST_PARAMS_MAX];
	struct tp__hist *trig[TP__HIST_SYNTH_TRIGGERS];
	unsigned ntrig;
};

static struct tp__hist_synth *tp__hist_synths[TP__HIST_SYNTHS];
static unsigned tp__hist_nsynths;

/* ---- The shared table ---- */

static struct tp__hist_vtab *tp__hist_vtab_make(const struct trace_hist_spec *s)
{
	struct tp__hist_vtab *v = (struct tp__hist_vtab *)calloc(1, sizeof(*v));
	size_t len;
	if (!v)
		return NULL;
	v->bits = trace_hist_table_bits(s->size);
	v->keywords = s->keywords;
	v->nvars = s->nvars;
	v->stride = 1 + s->keywords + s->nvars;
	len = ((size_t)1 << v->bits) * v->stride * sizeof(uint64_t);
	v->w = (uint64_t *)mmap(NULL, len, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS | TP__HIST_MAP_NORESERVE, -1, 0);
	if (v->w == (uint64_t *)MAP_FAILED) {
		free(v);
		return NULL;
	}
	return v;
}

/* Takes the slot e (from state `from` to busy): 1 if taken. */
static int tp__hist_vtake(uint64_t *e, uint64_t from)
{
	return __atomic_compare_exchange_n(&e[0], &from, (uint64_t)TP__HIST_V_BUSY, 0,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

/* Saves the variables vals of key (a live entry of the key, else a new
 * one); a drop is counted when it cannot. */
static void tp__hist_vtab_save(struct tp__hist_vtab *v, const uint64_t *key, const uint64_t *vals)
{
	size_t mask = ((size_t)1 << v->bits) - 1;
	size_t i = (size_t)(trace_hist_hash(key, v->keywords) >> (64 - v->bits)) & mask;
	uint64_t *spare = NULL, sst = 0;
	unsigned p;
	for (p = 0; p < TP__HIST_VPROBES; p++, i = (i + 1) & mask) {
		uint64_t *e = v->w + i * v->stride;
		uint64_t st = __atomic_load_n(&e[0], __ATOMIC_ACQUIRE);
		if (st == TP__HIST_V_LIVE && !memcmp(e + 1, key, v->keywords * 8u)) {
			if (!tp__hist_vtake(e, st)) { /* in another thread's hands */
				spare = NULL;	      /* no second entry of the key */
				break;
			}
			if (memcmp(e + 1, key, v->keywords * 8u)) { /* changed meanwhile */
				__atomic_store_n(&e[0], st, __ATOMIC_RELEASE);
				continue;
			}
			memcpy(e + 1 + v->keywords, vals, v->nvars * 8u);
			__atomic_store_n(&e[0], (uint64_t)TP__HIST_V_LIVE, __ATOMIC_RELEASE);
			return;
		}
		if (!spare && (st == TP__HIST_V_READ || st == TP__HIST_V_FREE)) {
			spare = e;
			sst = st;
		}
		if (st == TP__HIST_V_FREE)
			break; /* the key is not further */
	}
	if (spare && tp__hist_vtake(spare, sst)) {
		memcpy(spare + 1, key, v->keywords * 8u);
		memcpy(spare + 1 + v->keywords, vals, v->nvars * 8u);
		__atomic_store_n(&spare[0], (uint64_t)TP__HIST_V_LIVE, __ATOMIC_RELEASE);
		return;
	}
	__atomic_fetch_add(&v->dropped, 1, __ATOMIC_RELAXED);
}

/* Reads (once) the variables of key into vals: 1, or 0 (no such entry). */
static int tp__hist_vtab_take(struct tp__hist_vtab *v, const uint64_t *key, uint64_t *vals)
{
	size_t mask = ((size_t)1 << v->bits) - 1;
	size_t i = (size_t)(trace_hist_hash(key, v->keywords) >> (64 - v->bits)) & mask;
	unsigned p;
	for (p = 0; p < TP__HIST_VPROBES; p++, i = (i + 1) & mask) {
		uint64_t *e = v->w + i * v->stride;
		uint64_t st = __atomic_load_n(&e[0], __ATOMIC_ACQUIRE);
		if (st == TP__HIST_V_FREE)
			return 0;
		if (st != TP__HIST_V_LIVE || memcmp(e + 1, key, v->keywords * 8u))
			continue;
		if (!tp__hist_vtake(e, st))
			return 0;
		if (memcmp(e + 1, key, v->keywords * 8u)) {
			__atomic_store_n(&e[0], st, __ATOMIC_RELEASE);
			continue;
		}
		memcpy(vals, e + 1 + v->keywords, v->nvars * 8u);
		__atomic_store_n(&e[0], (uint64_t)TP__HIST_V_READ, __ATOMIC_RELEASE);
		return 1;
	}
	return 0;
}

static unsigned long long tp__hist_vars_dropped(const struct tp__hist *h)
{
	return h->vt ? __atomic_load_n(&h->vt->dropped, __ATOMIC_RELAXED) : 0;
}

/* :clear: every saved variable of h forgotten (and its drops).  A slot in
 * another thread's hands at that instant is left to it: a variable saved
 * while the table is cleared may outlive the clear. */
static void tp__hist_vars_clear(struct tp__hist *h)
{
	struct tp__hist_vtab *v = h->vt;
	size_t i, n;
	if (!v)
		return;
	n = (size_t)1 << v->bits;
	for (i = 0; i < n; i++) {
		uint64_t *e = v->w + i * v->stride;
		uint64_t st = __atomic_load_n(&e[0], __ATOMIC_ACQUIRE);
		if ((st == TP__HIST_V_LIVE || st == TP__HIST_V_READ) && tp__hist_vtake(e, st))
			__atomic_store_n(&e[0], (uint64_t)TP__HIST_V_FREE, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&v->dropped, 0ull, __ATOMIC_RELAXED);
}

static void tp__hist_vars_atfork(struct tp__hist *h)
{
	if (!h->vt)
		return;
	madvise(h->vt->w, ((size_t)1 << h->vt->bits) * h->vt->stride * sizeof(uint64_t),
		TP__HIST_MADV_DONTNEED); /* private anonymous: zeros, every slot free */
	h->vt->dropped = 0;
}

/* ---- The fire path ---- */

static uint64_t tp__hist_opnd_value(struct tp__hist *h, const struct tp__hist_opnd *o,
				    struct tp__hist_tab *tb, const unsigned char *e,
				    const uint64_t *self, const uint64_t *matched)
{
	if (o->src == TP__HIST_SRC_SELF)
		return self[o->idx];
	if (o->src == TP__HIST_SRC_MATCH)
		return matched[o->idx];
	return trace_hist_key_num(o->ref, tp__hist_num(h, &o->acc, tb, e));
}

static int tp__hist_vars_fire(struct tp__hist *h, struct tp__hist_tab *tb, const unsigned char *e,
			      const uint64_t *key)
{
	uint64_t matched[TRACE_HIST_VARS_MAX], self[TRACE_HIST_VARS_MAX],
		par[TRACE_HIST_PARAMS_MAX];
	struct tp__hist_synth *sy = h->synth;
	unsigned k, n;
	if (h->match && !tp__hist_vtab_take(h->match->vt, key, matched)) {
		__atomic_fetch_add(&h->unmatched, 1, __ATOMIC_RELAXED);
		return 0;
	}
	for (k = 0; k < h->spec.nvars; k++) {
		const struct trace_hist_var *v = &h->spec.var[k];
		uint64_t a = tp__hist_opnd_value(h, &h->vop[k][0], tb, e, self, matched);
		if (v->op) {
			uint64_t b = tp__hist_opnd_value(h, &h->vop[k][1], tb, e, self, matched);
			a = v->op == '-' ? a - b : a + b;
		}
		self[k] = a;
	}
	if (h->vt)
		tp__hist_vtab_save(h->vt, key, self);
	if (!sy)
		return 1;
	for (k = 0; k < sy->nf; k++)
		par[k] = tp__hist_opnd_value(h, &h->par[k], tb, e, self, matched);
	n = __atomic_load_n(&sy->ntrig, __ATOMIC_ACQUIRE);
	for (k = 0; k < n; k++) {
		struct tp__hist *t = sy->trig[k];
		if (__atomic_load_n(&t->attached, __ATOMIC_RELAXED))
			t->hookf.hook(&t->hookf, par, sy->nf * 8u);
	}
	return 1;
}

/* ---- Names, resolved when a trigger is checked or attached ---- */

/* What a TRACEPOINTS check has seen so far (the triggers are made only
 * once all are checked): the specs of its earlier triggers. */
struct tp__hist_pend {
	unsigned n;
	char name[TP__HIST_PENDING][2 * TRACE_HIST_NAME_MAX + 2];
	struct trace_hist_spec *spec[TP__HIST_PENDING];
};

static void tp__hist_pend_free(struct tp__hist_pend *p)
{
	unsigned i;
	for (i = 0; p && i < p->n; i++)
		free(p->spec[i]);
	if (p)
		p->n = 0;
}

static void tp__hist_pend_add(struct tp__hist_pend *p, const char *system, const char *event,
			      const struct trace_hist_spec *s)
{
	if (!p || p->n == TP__HIST_PENDING || !(s->nvars || s->has_onmatch || s->hname[0]))
		return;
	if (!(p->spec[p->n] = (struct trace_hist_spec *)malloc(sizeof(*s))))
		return;
	*p->spec[p->n] = *s;
	snprintf(p->name[p->n], sizeof(p->name[0]), "%s:%s", system, event);
	p->n++;
}

/* The spec of the trigger with variables (and no onmatch) on
 * system:event, and the trigger if made: the newest. */
static const struct trace_hist_spec *tp__hist_vars_of(const struct tp__hist_pend *p,
						      const char *system, const char *event,
						      struct tp__hist **made)
{
	char name[2 * TRACE_HIST_NAME_MAX + 2];
	unsigned i;
	snprintf(name, sizeof(name), "%s:%s", system, event);
	*made = NULL;
	for (i = p ? p->n : 0; i-- > 0;)
		if (!strcmp(p->name[i], name) && p->spec[i]->nvars && !p->spec[i]->has_onmatch)
			return p->spec[i];
	for (i = __atomic_load_n(&tp__hist_n, __ATOMIC_ACQUIRE); i-- > 0;) {
		struct tp__hist *h = tp__hist_all[i];
		if (h->vt && !h->removed && !strcmp(h->name, name)) {
			*made = h;
			return &h->spec;
		}
	}
	return NULL;
}

static struct tp__hist_synth *tp__hist_synth_find(const char *name)
{
	unsigned i, n = __atomic_load_n(&tp__hist_nsynths, __ATOMIC_ACQUIRE);
	for (i = 0; i < n; i++)
		if (!strcmp(tp__hist_synths[i]->name, name))
			return tp__hist_synths[i];
	return NULL;
}

/* The text of the triggers named `name` (name=), made or pending: NULL
 * if there is none. */
static const char *tp__hist_named(const struct tp__hist_pend *p, const char *name)
{
	unsigned i, n = __atomic_load_n(&tp__hist_n, __ATOMIC_ACQUIRE);
	for (i = 0; p && i < p->n; i++)
		if (!strcmp(p->spec[i]->hname, name))
			return p->spec[i]->text;
	for (i = 0; i < n; i++)
		if (!strcmp(tp__hist_all[i]->spec.hname, name))
			return tp__hist_all[i]->spec.text;
	return NULL;
}

/* A synthetic event's field name for a trace() parameter. */
static const char *tp__hist_param_name(const struct trace_hist_operand *o)
{
	return o->ref.name;
}

/* The fields of synthetic event `name` as seen by a check (made, or
 * named by an earlier trigger's trace()): their number and names in
 * out, or -1 if no trigger fires it. */
static int tp__hist_synth_fields(const struct tp__hist_pend *p, const char *name,
				 char (*out)[TRACE_HIST_NAME_MAX])
{
	struct tp__hist_synth *sy = tp__hist_synth_find(name);
	unsigned i, k;
	if (sy) {
		for (k = 0; k < sy->nf; k++)
			memcpy(out[k], sy->fname[k], TRACE_HIST_NAME_MAX);
		return (int)sy->nf;
	}
	for (i = 0; p && i < p->n; i++) {
		const struct trace_hist_onmatch *m = &p->spec[i]->onmatch;
		if (!p->spec[i]->has_onmatch || strcmp(m->synth, name))
			continue;
		for (k = 0; k < m->nparams; k++)
			snprintf(out[k], TRACE_HIST_NAME_MAX, "%s",
				 tp__hist_param_name(&m->param[k]));
		return (int)m->nparams;
	}
	return -1;
}

/* Each synthetic event's name once, from the made ones and a check's
 * pending triggers: fn(name, priv) for each. */
static void tp__hist_synth_each(const struct tp__hist_pend *p, void (*fn)(const char *, void *),
				void *priv)
{
	unsigned i, j, n = __atomic_load_n(&tp__hist_nsynths, __ATOMIC_ACQUIRE);
	for (i = 0; i < n; i++)
		fn(tp__hist_synths[i]->name, priv);
	for (i = 0; p && i < p->n; i++) {
		const char *nm = p->spec[i]->onmatch.synth;
		if (!p->spec[i]->has_onmatch || tp__hist_synth_find(nm))
			continue;
		for (j = 0; j < i; j++)
			if (p->spec[j]->has_onmatch && !strcmp(p->spec[j]->onmatch.synth, nm))
				break;
		if (j == i)
			fn(nm, priv);
	}
}

/* A new synthetic event with the fields of m's parameters (signed as the
 * fields they are; variables unsigned); NULL when there are too many. */
static struct tp__hist_synth *tp__hist_synth_make(const struct trace_hist_onmatch *m,
						  const struct trace_event_field *fl)
{
	struct tp__hist_synth *sy;
	unsigned k;
	if (tp__hist_nsynths == TP__HIST_SYNTHS ||
	    !(sy = (struct tp__hist_synth *)calloc(1, sizeof(*sy))))
		return NULL;
	snprintf(sy->name, sizeof(sy->name), "%s", m->synth);
	sy->nf = m->nparams;
	for (k = 0; k < m->nparams; k++) {
		const struct trace_hist_operand *o = &m->param[k];
		snprintf(sy->fname[k], sizeof(sy->fname[k]), "%s", tp__hist_param_name(o));
		sy->f[k].type = "u64";
		sy->f[k].name = sy->fname[k];
		sy->f[k].offset = (unsigned short)(8 * k);
		sy->f[k].size = 8;
		sy->f[k].kind = TRACE_FIELD_INT;
		sy->f[k].is_signed = !o->is_var && o->ref.field < TRACE_HIST_COMMON_TIMESTAMP
					     ? fl[o->ref.field].is_signed
					     : 0;
	}
	tp__hist_synths[tp__hist_nsynths] = sy;
	__atomic_store_n(&tp__hist_nsynths, tp__hist_nsynths + 1, __ATOMIC_RELEASE);
	return sy; /* never freed: triggers may fire it */
}

/* Finds $name among the variables vars[0..upto) (SELF) or of the matched
 * spec (MATCH): 0 and o's source, or -1. */
static int tp__hist_var_find(const char *name, const struct trace_hist_spec *self, unsigned upto,
			     const struct trace_hist_spec *m, struct tp__hist_opnd *o)
{
	unsigned k;
	for (k = 0; k < upto; k++)
		if (!strcmp(self->var[k].name, name)) {
			o->src = TP__HIST_SRC_SELF;
			o->idx = (uint8_t)k;
			return 0;
		}
	for (k = 0; m && k < m->nvars; k++)
		if (!strcmp(m->var[k].name, name)) {
			o->src = TP__HIST_SRC_MATCH;
			o->idx = (uint8_t)k;
			return 0;
		}
	return -1;
}

/*
 * Resolves the names of spec (on an event with fields fl): onmatch's
 * trigger, its key, the $variables, the synthetic event's fields.  With h
 * (attaching), fills h's operands and links it; with p (checking), looks
 * in p's triggers too.  0, or -EINVAL (-ENOMEM) with why (reported at
 * the trigger's start: the name is in why).
 */
static int tp__hist_link(const struct trace_hist_spec *s, const struct trace_event_field *fl,
			 struct tp__hist *h, const struct tp__hist_pend *p, char *why, size_t len)
{
	const struct trace_hist_spec *m = NULL;
	struct tp__hist *mh = NULL;
	struct tp__hist_opnd o;
	unsigned k, j;
	const char *named = s->hname[0] ? tp__hist_named(p, s->hname) : NULL;
	if (named && strcmp(named, s->text)) {
		snprintf(why, len, "the histogram named %s is another: %.400s", s->hname, named);
		return -EINVAL;
	}
	if (s->has_onmatch) {
		m = tp__hist_vars_of(p, s->onmatch.system, s->onmatch.event, &mh);
		if (!m) {
			snprintf(why, len,
				 "onmatch(%s.%s): no trigger with variables on %s:%s before it",
				 s->onmatch.system, s->onmatch.event, s->onmatch.system,
				 s->onmatch.event);
			return -EINVAL;
		}
		if (tp__hist_keys_like(s, m, why, len) != 0)
			return -EINVAL;
	}
	for (k = 0; k < s->nvars; k++) {
		const struct trace_hist_operand *op[2] = { &s->var[k].a, &s->var[k].b };
		for (j = 0; j < (s->var[k].op ? 2u : 1u); j++) {
			memset(&o, 0, sizeof(o));
			if (op[j]->is_var && tp__hist_var_find(op[j]->ref.name, s, k, m, &o)) {
				snprintf(why, len,
					 "no variable $%s (of this trigger before %s%s%s)",
					 op[j]->ref.name, s->var[k].name,
					 m ? ", or of onmatch's" : "", m ? " trigger" : "");
				return -EINVAL;
			}
			if (!op[j]->is_var) {
				o.ref = &op[j]->ref;
				tp__hist_acc_of(&op[j]->ref, fl, &o.acc);
			}
			if (h)
				h->vop[k][j] = o;
		}
	}
	if (s->has_onmatch) {
		char fn[TRACE_HIST_PARAMS_MAX][TRACE_HIST_NAME_MAX];
		int nf = tp__hist_synth_fields(p, s->onmatch.synth, fn);
		for (k = 0; k < s->onmatch.nparams; k++) {
			const struct trace_hist_operand *op = &s->onmatch.param[k];
			memset(&o, 0, sizeof(o));
			if (op->is_var && tp__hist_var_find(op->ref.name, s, s->nvars, m, &o)) {
				snprintf(why, len, "no variable $%s (of this trigger or onmatch's)",
					 op->ref.name);
				return -EINVAL;
			}
			if (!op->is_var) {
				o.ref = &op->ref;
				tp__hist_acc_of(&op->ref, fl, &o.acc);
			}
			if (h)
				h->par[k] = o;
			if (nf >= 0 && (k >= (unsigned)nf || strcmp(fn[k], op->ref.name))) {
				snprintf(why, len,
					 "synthetic event %s has other fields (its first trace() "
					 "names them)",
					 s->onmatch.synth);
				return -EINVAL;
			}
		}
		if (nf >= 0 && (unsigned)nf != s->onmatch.nparams) {
			snprintf(why, len, "synthetic event %s has %d fields", s->onmatch.synth,
				 nf);
			return -EINVAL;
		}
	}
	if (!h)
		return 0;
	if (s->has_onmatch) {
		if (!mh) {
			snprintf(why, len, "onmatch(%s.%s): its trigger is not made",
				 s->onmatch.system, s->onmatch.event);
			return -EINVAL;
		}
		h->match = mh;
		h->synth = tp__hist_synth_find(s->onmatch.synth);
		if (!h->synth && !(h->synth = tp__hist_synth_make(&s->onmatch, fl))) {
			snprintf(why, len, "at most %d synthetic events", TP__HIST_SYNTHS);
			return -EINVAL;
		}
	} else if (s->nvars && !(h->vt = tp__hist_vtab_make(s))) {
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	h->vars_on = s->nvars || s->has_onmatch;
	return 0;
}

/* Adds trigger h (made on sy) to the triggers sy fires: 0, or -ENOSPC. */
static int tp__hist_synth_attach(struct tp__hist_synth *sy, struct tp__hist *h)
{
	unsigned k;
	for (k = 0; k < sy->ntrig; k++)
		if (sy->trig[k] == h)
			return 0;
	if (sy->ntrig == TP__HIST_SYNTH_TRIGGERS)
		return -ENOSPC;
	sy->trig[sy->ntrig] = h;
	__atomic_store_n(&sy->ntrig, sy->ntrig + 1, __ATOMIC_RELEASE);
	return 0;
}

#endif /* TP__REC_HIST_VARS_H */
