/* SPDX-License-Identifier: MIT */
/*
 * trace/recorder/hist_spec.h - hist triggers in TRACEPOINTS and in
 * trace_recorder_enable()/_disable(): a group "patterns hist:... [if
 * filter]" makes one trigger per event its patterns select (enable) or
 * pauses their triggers (disable); the other groups are recorded as
 * before.  Everything is checked first: a bad trigger changes nothing.
 *
 * Why a file: the grammar's one addition (a trigger after a group's
 * pattern list) and the walk that applies it, apart from the triggers'
 * machinery (recorder/hist.h).
 *
 * Internal: included by trace/sink.h (TRACEPOINT_SINK_MAIN) after
 * recorder/hist.h; depends on it, on recorder/filters.h (the reports,
 * tp__sink_spec_check) and recorder/enable.h (tp__sink_apply), which calls
 * tp__hist_spec_has and tp__hist_apply (declared ahead there).
 */
#ifndef TP__SINK_DEFINED
#error "trace/recorder/hist_spec.h is internal: #include <trace/sink.h> instead"
#elif !defined(TP__REC_HIST_SPEC_H)
#define TP__REC_HIST_SPEC_H

/* Splits a group's pattern part pat[0..len) "list hist:..." (or "list
 * !hist:...", *neg 1: the kernel's removal of that trigger): 1 and the
 * list's length and the trigger's place (its "hist"), or 0 (no trigger). */
static int tp__hist_split(const char *pat, size_t len, size_t *list_len, size_t *trig_at,
			  size_t *trig_len, int *neg)
{
	size_t i;
	for (i = 1; i + 4 <= len; i++) {
		int bang = pat[i] == '!' && i + 5 <= len;
		size_t h = i + (bang ? 1u : 0u);
		if (tp__pat_is_space(pat[i - 1]) && !memcmp(pat + h, "hist", 4) &&
		    (h + 4 == len || pat[h + 4] == ':' || tp__pat_is_space(pat[h + 4]))) {
			size_t e = i;
			*neg = bang;
			*list_len = i;
			while (*list_len && tp__pat_is_space(pat[*list_len - 1]))
				(*list_len)--;
			while (e < len && !tp__pat_is_space(pat[e]))
				e++;
			*trig_at = h;
			*trig_len = len - h; /* spaces after it: reported by the parser */
			while (*trig_len && tp__pat_is_space(pat[h + *trig_len - 1]))
				(*trig_len)--;
			return 1;
		}
	}
	return 0;
}

/* 1 if some group of spec has a hist trigger. */
static int tp__hist_spec_has(const char *spec)
{
	size_t at = 0, a, b, c;
	int neg;
	struct trace_spec_group g;
	if (!spec)
		return 0;
	do {
		at = trace_spec_next(spec, at, &g);
		if (tp__hist_split(g.pat, g.pat_len, &a, &b, &c, &neg))
			return 1;
	} while (at);
	return 0;
}

/* A mistake in spec: into out (the control channel's reply) if given,
 * else on stderr, as a filter's (text shown, caret under pos). */
static void tp__hist_report(struct tp__text *out, const char *what, const char *spec, size_t pos,
			    const char *why)
{
	char msg[TRACE_FILTER_MAX * 2 + 1024];
	if (!out) {
		tp__sink_flt_report(NULL, 0, what, spec, strlen(spec), pos, why);
		return;
	}
	tp__sink_flt_report(msg, sizeof(msg), what, spec, strlen(spec), pos, why);
	tp__text_put(out, "%s\n", msg);
}

enum tp__hist_op { TP__HIST_CHECK = 0, TP__HIST_ATTACH = 1, TP__HIST_PAUSE = 2 };

struct tp__hist_walk {
	const char *list; /* a checked pattern list */
	const char *trig;
	size_t trig_len;
	const char *ftext; /* the trigger's filter, or NULL */
	int op;		   /* enum tp__hist_op */
	int remove;	   /* "!hist:...": remove the trigger of that text */
	int matched, err;
	const char *spec;	    /* for reports: the whole spec, the trigger's */
	size_t trig_at, filter_at;  /* and the filter's place in it */
	struct tp__hist_pend *pend; /* checking: the triggers checked before */
	struct tp__text *out;	    /* mistakes go there (else to stderr) */
};

static int tp__hist_item_hit(const char *item, size_t len, void *priv)
{
	const struct trace_event *ev = *(const struct trace_event *const *)priv;
	return trace_pattern_match(item, len, ev->cls->system, ev->name);
}

/* One event the group's patterns select: a tracepoint's (tp, ev), or a
 * synthetic one (sy, or only its name while checking: tp, ev and sy
 * NULL); its fields fl[0..n). */
static int tp__hist_one(struct tp__hist_walk *w, struct tracepoint *tp,
			const struct trace_event *ev, struct tp__hist_synth *sy,
			const struct trace_event_field *fl, unsigned n, unsigned entry_size,
			const char *system, const char *evname)
{
	struct trace_hist_spec spec;
	struct trace_filter *prog = NULL;
	char why[1024], what[300];
	size_t pos = 0;
	int in_filter, r;
	unsigned i;
	w->matched++;
	snprintf(what, sizeof(what), "bad hist trigger on %s:%s", system, evname);
	if (tp__hist_compile(fl, n, entry_size, ev ? ev->cls->symbols : NULL, w->trig, w->trig_len,
			     w->ftext, &spec, &prog, &pos, &in_filter, why, sizeof(why)) != 0) {
		tp__hist_report(w->out, what, w->spec,
				(in_filter ? w->filter_at : w->trig_at) + pos, why);
		w->err = -EINVAL;
		return 1;
	}
	if (w->op == TP__HIST_CHECK) {
		trace_filter_free(prog);
		if (w->remove)
			return 0;
		if (spec.cmd == TRACE_HIST_CMD_NONE &&
		    tp__hist_link(&spec, fl, NULL, w->pend, why, sizeof(why)) != 0) {
			tp__hist_report(w->out, what, w->spec, w->trig_at, why);
			w->err = -EINVAL;
			return 1;
		}
		tp__hist_pend_add(w->pend, system, evname, &spec);
		return 0;
	}
	tp__sink_lock();
	for (i = 0; i < tp__hist_n; i++) {
		struct tp__hist *h = tp__hist_all[i];
		if (sy ? h->on != sy
		       : h->on || (h->ev != ev && (h->tp != tp || strcmp(h->evname, evname))))
			continue;
		if (w->op == TP__HIST_PAUSE) {
			if (h->attached && (sy || tp__hist_probe_detach(h, tp) == 0))
				__atomic_store_n(&h->attached, 0, __ATOMIC_RELAXED);
			continue;
		}
		if (!strcmp(h->spec.text, spec.text) &&
		    (h->filter_text ? w->ftext && !strcmp(h->filter_text, w->ftext) : !w->ftext))
			break; /* the same trigger: paused, or attached again if paused */
	}
	if (w->op == TP__HIST_ATTACH && w->remove) {
		trace_filter_free(prog);
		if (i < tp__hist_n) {
			struct tp__hist *h = tp__hist_all[i];
			if (h->attached && (sy || tp__hist_probe_detach(h, tp) == 0))
				__atomic_store_n(&h->attached, 0, __ATOMIC_RELAXED);
			if (!h->attached) { /* its events stay in a table shared by name= */
				tp__hist_vars_clear(h);
				__atomic_store_n(&h->removed, 1, __ATOMIC_RELEASE);
			}
		} else {
			tp__sink_msg("no hist trigger \"%s\" on %s:%s to remove", spec.text, system,
				     evname);
		}
		tp__sink_unlock();
		return 0;
	}
	if (w->op == TP__HIST_ATTACH && spec.cmd == TRACE_HIST_CMD_CLEAR) {
		trace_filter_free(prog);
		if (i < tp__hist_n)
			tp__hist_clear(tp__hist_all[i]);
		else
			tp__sink_msg("no hist trigger \"%s\" on %s:%s to clear", spec.text, system,
				     evname);
		tp__sink_unlock();
		return 0;
	}
	if (w->op == TP__HIST_ATTACH) {
		int found = i < tp__hist_n;
		struct tp__hist *h = found ? tp__hist_all[i]
					   : tp__hist_make(tp, ev, fl, n, entry_size, system,
							   evname, &spec, prog, w->ftext);
		if (found || !h)
			trace_filter_free(prog);
		if (h && !found) {
			h->on = sy;
			if (tp__hist_link(&h->spec, fl, h, NULL, why, sizeof(why)) != 0) {
				tp__sink_msg("cannot add the hist trigger to %s:%s: %s", system,
					     evname, why);
				if (!w->err)
					w->err = -EINVAL;
				tp__sink_unlock();
				return 0;
			}
		}
		if (h && found && h->removed) { /* given again: a new, empty trigger */
			tp__hist_clear_one(h);
			__atomic_store_n(&h->removed, 0, __ATOMIC_RELEASE);
		}
		if (!h) {
			r = -ENOMEM;
		} else if (spec.cmd == TRACE_HIST_CMD_PAUSE) { /* made paused if new */
			r = 0;
			if (h->attached && (sy || tp__hist_probe_detach(h, tp) == 0))
				__atomic_store_n(&h->attached, 0, __ATOMIC_RELAXED);
		} else if (h->attached) {
			r = 0;
		} else if (sy) {
			r = tp__hist_synth_attach(sy, h);
			if (r == 0)
				__atomic_store_n(&h->attached, 1, __ATOMIC_RELAXED);
		} else {
			h->ev = ev;
			h->tp = tp;
			h->slot.event = ev;
			r = tp__hist_probe_attach(h, tp, ev);
			if (r == 0)
				__atomic_store_n(&h->attached, 1, __ATOMIC_RELAXED);
		}
		if (r && r != -EEXIST) {
			tp__sink_msg("cannot add the hist trigger to %s:%s: %s", system, evname,
				     strerror(-r));
			if (!w->err)
				w->err = r;
		}
	} else {
		trace_filter_free(prog);
	}
	tp__sink_unlock();
	return 0;
}

static int tp__hist_walk_cb(struct tracepoint *tp, void *priv)
{
	struct tp__hist_walk *w = (struct tp__hist_walk *)priv;
	const struct trace_event *ev = trace_event_of(tp);
	unsigned n = 0;
	const struct trace_event_field *fl;
	if (!ev || !trace_pattern_for_each(w->list, tp__hist_item_hit, (void *)&ev))
		return 0;
	fl = ev->cls->fields(&n);
	return tp__hist_one(w, tp, ev, NULL, fl, n, ev->cls->entry_size, ev->cls->system, ev->name);
}

/* A synthetic event the group's patterns may select (system "synthetic"). */
static int tp__hist_synth_hit(const char *item, size_t len, void *priv)
{
	return trace_pattern_match(item, len, "synthetic", (const char *)priv);
}

static void tp__hist_synth_cb(const char *name, void *priv)
{
	struct tp__hist_walk *w = (struct tp__hist_walk *)priv;
	struct tp__hist_synth *sy = tp__hist_synth_find(name);
	struct trace_event_field f[TRACE_HIST_PARAMS_MAX];
	char fn[TRACE_HIST_PARAMS_MAX][TRACE_HIST_NAME_MAX];
	int k, nf;
	if (w->err || !trace_pattern_for_each(w->list, tp__hist_synth_hit, (void *)(uintptr_t)name))
		return;
	if (sy) {
		tp__hist_one(w, NULL, NULL, sy, sy->f, sy->nf, sy->nf * 8u, "synthetic", name);
		return;
	}
	/* checking: named by a trace() not attached yet */
	nf = tp__hist_synth_fields(w->pend, name, fn);
	memset(f, 0, sizeof(f));
	for (k = 0; k < nf; k++) {
		f[k].type = "u64";
		f[k].name = fn[k];
		f[k].offset = (unsigned short)(8 * k);
		f[k].size = 8;
		f[k].kind = TRACE_FIELD_INT;
	}
	if (nf >= 0 && w->op == TP__HIST_CHECK)
		tp__hist_one(w, NULL, NULL, NULL, f, (unsigned)nf, (unsigned)nf * 8u, "synthetic",
			     name);
}

/* Checks (op CHECK) or applies one group's trigger. */
static int tp__hist_group(const char *spec, const struct trace_spec_group *g0, size_t list_len,
			  size_t trig_at, size_t trig_len, int neg, int op, int *matched,
			  struct tp__hist_pend *pend, struct tp__text *out)
{
	struct tp__hist_walk w;
	struct trace_spec_group gf = *g0;
	const struct trace_spec_group *g = &gf;
	char *list = tp__sink_flt_dup(g->pat, list_len), *ftext = NULL;
	size_t pos;
	const char *why;
	int err = 0;
	memset(&w, 0, sizeof(w));
	/* the filter as written, without the spaces around it */
	while (gf.filter && gf.filter_len && tp__pat_is_space(gf.filter[0])) {
		gf.filter++;
		gf.filter_len--;
		gf.filter_at++;
	}
	while (gf.filter && gf.filter_len && tp__pat_is_space(gf.filter[gf.filter_len - 1]))
		gf.filter_len--;
	if (!list || (g->filter && !(ftext = tp__sink_flt_dup(g->filter, g->filter_len)))) {
		free(list);
		return -ENOMEM;
	}
	if (!list_len) {
		tp__hist_report(out, "malformed pattern list", spec, g->pat_at,
				"no pattern before 'hist'");
		err = -EINVAL;
	} else if (trace_pattern_check(list, &pos, &why) != 0) {
		tp__hist_report(out, "malformed pattern list", spec, g->pat_at + pos, why);
		err = -EINVAL;
	} else if (g->filter && tp__pat_blank(g->filter, g->filter_len)) {
		tp__hist_report(out, "bad filter", spec, g->filter_at + g->filter_len,
				"nothing after 'if'");
		err = -EINVAL;
	} else {
		w.list = list;
		w.trig = g->pat + trig_at;
		w.trig_len = trig_len;
		w.ftext = ftext;
		w.op = op;
		w.remove = neg;
		w.spec = spec;
		w.trig_at = g->pat_at + trig_at;
		w.filter_at = g->filter_at;
		w.pend = pend;
		w.out = out;
		tracepoint_for_each(tp__hist_walk_cb, &w);
		if (!w.err)
			tp__hist_synth_each(pend, tp__hist_synth_cb, &w);
		err = w.err;
		*matched += w.matched;
		if (!w.matched && op != TP__HIST_CHECK) {
			char key[TRACE_PATTERN_MAX + 16];
			snprintf(key, sizeof(key), "nomatch:%s", list);
			tp__sink_msg_once(key,
					  "pattern \"%s\" matches no event of this program "
					  "(TRACEPOINTS=list shows them)",
					  list);
		}
	}
	free(list);
	free(ftext);
	return err;
}

/* trace_recorder_enable()/_disable() of a spec with a hist trigger: the
 * triggers checked, then the rest of the spec checked, then both applied
 * (unless check_only: each mistake reported, nothing changed). */
static int tp__hist_run(const char *spec, int attach, int check_only, struct tp__text *out)
{
	size_t at, list_len, trig_at, trig_len, rl = 0;
	struct trace_spec_group g;
	char *rest = (char *)malloc(strlen(spec) + 2);
	struct tp__hist_pend *pend = (struct tp__hist_pend *)calloc(1, sizeof(*pend));
	int pass, err = 0, matched = 0, r, neg;
	if (!rest || !pend) {
		free(rest);
		free(pend);
		return -ENOMEM;
	}
	tp__sink_init();
	for (pass = 0; pass < (check_only ? 1 : 2) && !err; pass++) {
		at = 0;
		do {
			size_t next = trace_spec_next(spec, at, &g);
			if (tp__hist_split(g.pat, g.pat_len, &list_len, &trig_at, &trig_len,
					   &neg)) {
				int m = 0;
				err = tp__hist_group(spec, &g, list_len, trig_at, trig_len, neg,
						     pass == 0 ? TP__HIST_CHECK
						     : attach  ? TP__HIST_ATTACH
							       : TP__HIST_PAUSE,
						     &m, pass == 0 ? pend : NULL, out);
				if (pass || check_only)
					matched += m;
			} else if (pass == 0) { /* kept for the recorder, as written */
				size_t end = next ? next - 1 : strlen(spec);
				if (rl)
					rest[rl++] = ';';
				memcpy(rest + rl, spec + at, end - at);
				rl += end - at;
			}
			at = next;
		} while (at && !err);
		if (pass == 0 && !err) {
			rest[rl] = '\0';
			if (tp__spec_blank(rest)) {
				rl = 0;
			} else if (!trace_spec_is_plain(rest)) {
				err = tp__sink_spec_check(rest, 1, attach);
			} else {
				size_t pos;
				const char *why;
				if (trace_pattern_check(rest, &pos, &why) != 0) {
					r = tp__sink_apply(rest, attach); /* reports it */
					err = r < 0 ? r : -EINVAL;
				}
			}
		}
	}
	if (!err && rl && !check_only) {
		r = tp__sink_apply(rest, attach);
		if (r < 0)
			err = r;
		else
			matched += r;
	}
	free(rest);
	tp__hist_pend_free(pend);
	free(pend);
	return err ? err : matched;
}

static int tp__hist_apply(const char *spec, int attach)
{
	return tp__hist_run(spec, attach, 0, NULL);
}

/* TRACEPOINTS at start-up: 0 if spec (with a trigger) is good, else its
 * mistakes are reported and it is -EINVAL (or -ENOMEM). */
static int tp__hist_check(const char *spec)
{
	int r = tp__hist_run(spec, 1, 1, NULL);
	return r < 0 ? r : 0;
}

/* The control channel's enable and disable of a spec with a trigger
 * (recorder/ctl_commands.h): checked with its mistakes in the reply t,
 * as TRACEPOINTS's on stderr, then applied; -ENOENT (nothing changed)
 * when its patterns select no event. */
static int tp__hist_ctl(const char *spec, int on, struct tp__text *t)
{
	int r = tp__hist_run(spec, on, 1, t);
	if (r < 0)
		return r;
	if (r == 0) {
		tp__text_put(t,
			     "no event of this program matches \"%s\" (nothing changed; the "
			     "list command shows the events)\n",
			     spec);
		return -ENOENT;
	}
	r = tp__hist_run(spec, on, 0, t);
	if (r < 0) {
		tp__text_put(t, "cannot %s \"%s\": %s\n", on ? "enable" : "disable", spec,
			     strerror(-r));
		return r;
	}
	tp__text_put(t, "%s \"%s\" on %d event%s\n", on ? "enabled" : "disabled", spec, r,
		     r == 1 ? "" : "s");
	return r;
}

#endif /* TP__REC_HIST_SPEC_H */
