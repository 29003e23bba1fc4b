/* SPDX-License-Identifier: MIT */
/*
 * trace/recorder/filters.h - the recorder's field filters: trace_recorder_filter()
 * and the "patterns if filter; patterns..." form of TRACEPOINTS and
 * trace_recorder_enable(): checking every group, then setting each group's
 * filter before enabling its events.  The grammar (groups, patterns) is
 * trace/pattern.h's, the filter compiler trace/filter.h's.
 *
 * Internal: included by trace/sink.h (TRACEPOINT_SINK_MAIN); depends on
 * recorder/state.h, recorder/settings.h, recorder/enable.h,
 * trace/pattern.h and trace/filter.h.
 */
#ifndef TP__SINK_DEFINED
#error "trace/recorder/filters.h is internal: #include <trace/sink.h> instead"
#elif !defined(TP__REC_FILTERS_H)
#define TP__REC_FILTERS_H

/* A text with control bytes shown as '?' (so a caret lines up), in out. */
static void tp__sink_flt_shown(const char *s, size_t n, char *out, size_t len)
{
	size_t i;
	if (n >= len)
		n = len - 1;
	for (i = 0; i < n; i++)
		out[i] = (unsigned char)s[i] < 0x20 || (unsigned char)s[i] >= 0x7f ? '?' : s[i];
	out[n] = '\0';
}

/* A NUL-terminated copy of s[0..n), or NULL (reported). */
static char *tp__sink_flt_dup(const char *s, size_t n)
{
	char *d = (char *)malloc(n + 1);
	if (!d) {
		tp__sink_msg("cannot enable: out of memory");
		return NULL;
	}
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

/* Reports a bad filter: into err[0..errlen) if err is given, else on
 * stderr.  text[0..n) is shown with a caret under byte pos. */
static void tp__sink_flt_report(char *err, size_t errlen, const char *what, const char *text,
				size_t n, size_t pos, const char *why)
{
	char shown[TRACE_FILTER_MAX + 1], msg[TRACE_FILTER_MAX * 2 + 1024];
	tp__sink_flt_shown(text, n, shown, sizeof(shown));
	if (pos > strlen(shown))
		pos = strlen(shown);
	snprintf(msg, sizeof(msg), "%s: %s at position %zu\n  %s\n  %*s^", what, why, pos + 1,
		 shown, (int)pos, "");
	if (err && errlen)
		snprintf(err, errlen, "%s", msg);
	else
		tp__sink_msg("%s", msg);
}

/* Replaced programs: never freed (a probe may still be running one, as
 * slots are never freed), but kept reachable.  Lock held. */
static struct trace_filter **tp__sink_flt_retired;
static size_t tp__sink_flt_nretired;

static void tp__sink_flt_retire(const struct trace_filter *f)
{
	struct trace_filter **n;
	if (!f)
		return;
	n = (struct trace_filter **)realloc((void *)tp__sink_flt_retired,
					    (tp__sink_flt_nretired + 1) * sizeof(*n));
	if (!n)
		return; /* then it is only unreachable */
	tp__sink_flt_retired = n;
	memcpy(&n[tp__sink_flt_nretired++], &f, sizeof(f));
}

/* The slot of an event if it has one (lock held). */
static struct trace_event_sink *tp__sink_flt_slot_of(const struct trace_event *ev)
{
	char key[512];
	size_t i;
	snprintf(key, sizeof(key), "%s:%s", ev->cls->system, ev->name);
	for (i = 0; i < tp__sink.nslots; i++)
		if (strcmp(tp__sink.slot_names[i], key) == 0)
			return tp__sink.slots[i];
	return NULL;
}

/* Whether two programs do the same (compiled from one text for two
 * definitions of an event). */
static int tp__sink_flt_same(const struct trace_filter *a, const struct trace_filter *b)
{
	unsigned k;
	if (a->nops != b->nops || a->fixed != b->fixed || a->first - a->ops != b->first - b->ops)
		return 0;
	for (k = 0; k < a->nops; k++) {
		const struct tp__flt_op *p = &a->ops[k], *q = &b->ops[k];
		if (p->mask != q->mask || p->x != q->x || p->add != q->add || p->v != q->v ||
		    p->slen != q->slen || p->load_at != q->load_at || p->offset != q->offset ||
		    p->len != q->len || p->kind != q->kind || p->shift != q->shift ||
		    p->glob != q->glob || memcmp(p->next, q->next, sizeof(p->next)) != 0 ||
		    memcmp(p->call, q->call, sizeof(p->call)) != 0 ||
		    (p->str && memcmp(p->str, q->str, p->slen) != 0))
			return 0;
	}
	return 1;
}

/* A slot found again by name, maybe for another definition of its event
 * (a library defining it was unloaded and another loaded, perhaps at the
 * same address): its filter is compiled again for the event's fields now,
 * and replaced if the program differs, or dropped (reported) if the fields
 * no longer fit it - the old program's offsets may lie outside the new
 * records.  Lock held. */
static void tp__sink_flt_rebind(struct trace_event_sink *slot)
{
	const struct trace_filter *old = slot->filter;
	const struct trace_event *ev = slot->event;
	struct trace_filter *prog = NULL;
	char why[256];
	if (!old)
		return;
	if (trace_filter_compile_event(old->text, ev->cls, &prog, NULL, why, sizeof(why)) != 0) {
		tp__sink_msg(
			"the filter \"%s\" of %s:%s does not fit the event's fields any more (a "
			"library defining it was loaded again): dropped (%s)",
			old->text, ev->cls->system, ev->name, why);
		prog = NULL;
	} else if (tp__sink_flt_same(old, prog)) {
		trace_filter_free(prog);
		return;
	}
	__atomic_store_n(&slot->filter, (const struct trace_filter *)prog, __ATOMIC_RELEASE);
	tp__sink_flt_retire(old);
}

struct tp__sink_flt_got {
	const struct trace_event *ev;
	struct trace_filter *prog; /* compiled for it; NULL: clear */
};

struct tp__sink_flt_walk {
	const char *pats;   /* a checked pattern list */
	const char *filter; /* NULL: clear */
	struct tp__sink_flt_got *got;
	size_t ngot, capgot;
	int apply; /* 0: compile, 1: install */
	int err;
	char *errbuf;
	size_t errlen;
	const char *shown; /* the text errors are shown in (the filter's, or */
	size_t shown_at;   /* the spec's with the filter at shown_at) */
};

struct tp__sink_flt_hit {
	const struct trace_event *ev;
	int hit;
};

static int tp__sink_flt_item(const char *item, size_t len, void *priv)
{
	struct tp__sink_flt_hit *h = (struct tp__sink_flt_hit *)priv;
	if (trace_pattern_match(item, len, h->ev->cls->system, h->ev->name)) {
		h->hit = 1;
		return 1;
	}
	return 0;
}

static int tp__sink_flt_cb(struct tracepoint *tp, void *priv)
{
	struct tp__sink_flt_walk *w = (struct tp__sink_flt_walk *)priv;
	const struct trace_event *ev = trace_event_of(tp);
	struct tp__sink_flt_hit h;
	size_t i;
	if (!ev)
		return 0;
	h.ev = ev;
	h.hit = 0;
	trace_pattern_for_each(w->pats, tp__sink_flt_item, &h);
	if (!h.hit)
		return 0;
	for (i = 0; i < w->ngot; i++) /* an event defined twice (two libraries) */
		if (w->got[i].ev == ev || (!w->apply && strcmp(w->got[i].ev->name, ev->name) == 0 &&
					   strcmp(w->got[i].ev->cls->system, ev->cls->system) == 0))
			break;
	if (w->apply) {
		struct trace_event_sink *slot;
		if (i == w->ngot)
			return 0;
		tp__sink_lock();
		/* clearing makes no slot; setting makes it as enabling would */
		slot = w->got[i].prog ? tp__sink_slot(ev) : tp__sink_flt_slot_of(ev);
		if (slot) {
			const struct trace_filter *old = slot->filter;
			__atomic_store_n(&slot->filter, (const struct trace_filter *)w->got[i].prog,
					 __ATOMIC_RELEASE);
			w->got[i].prog = NULL;
			tp__sink_flt_retire(old);
		} else if (w->got[i].prog && !w->err) {
			w->err = -ENOMEM;
		}
		tp__sink_unlock();
		return 0;
	}
	if (i < w->ngot)
		return 0;
	if (w->ngot == w->capgot) {
		size_t nc = w->capgot ? w->capgot * 2 : 16;
		struct tp__sink_flt_got *n =
			(struct tp__sink_flt_got *)realloc((void *)w->got, nc * sizeof(*w->got));
		if (!n) {
			w->err = -ENOMEM;
			return 1;
		}
		w->got = n;
		w->capgot = nc;
	}
	w->got[w->ngot].ev = ev;
	w->got[w->ngot].prog = NULL;
	if (w->filter) {
		size_t pos = 0;
		char why[1024], what[600];
		int r = trace_filter_compile_event(w->filter, ev->cls, &w->got[w->ngot].prog, &pos,
						   why, sizeof(why));
		if (r == -EINVAL) {
			if (strpbrk(w->pats, "*?,") && strlen(why) + 80 < sizeof(why))
				strcat(why, " (a group's filter applies to every event its "
					    "patterns match)");
			snprintf(what, sizeof(what), "bad filter for %s:%s", ev->cls->system,
				 ev->name);
			tp__sink_flt_report(w->errbuf, w->errlen, what, w->shown, strlen(w->shown),
					    w->shown_at + pos, why);
		}
		if (r) {
			w->err = r;
			return 1;
		}
	}
	w->ngot++;
	return 0;
}

/* Sets (filter) or clears (NULL) the filter of every event matching the
 * checked pattern list pats; dry: compile only. */
static int tp__sink_filter_set(const char *pats, const char *filter, char *err, size_t errlen,
			       int dry, const char *shown, size_t shown_at)
{
	struct tp__sink_flt_walk w;
	size_t i;
	int ret;
	memset(&w, 0, sizeof(w));
	w.pats = pats;
	w.filter = filter;
	w.errbuf = err;
	w.errlen = errlen;
	w.shown = shown ? shown : filter;
	w.shown_at = shown ? shown_at : 0;
	tp__sink_init();
	tracepoint_for_each(tp__sink_flt_cb, &w);
	if (!w.err && !dry) {
		w.apply = 1;
		tracepoint_for_each(tp__sink_flt_cb, &w);
	}
	ret = w.err ? w.err : (int)w.ngot;
	if (w.err == -ENOMEM)
		tp__sink_msg("cannot set a filter: out of memory");
	for (i = 0; i < w.ngot; i++)
		trace_filter_free(w.got[i].prog);
	free((void *)w.got);
	return ret;
}

TRACEPOINT_SINK_API int trace_recorder_filter(const char *patterns, const char *filter, char *err,
					      size_t errlen)
{
	size_t pos = 0;
	const char *why = NULL;
	char whybuf[1024];
	int r;
	if (err && errlen)
		err[0] = '\0';
	if (trace_pattern_check(patterns, &pos, &why) != 0) {
		tp__sink_flt_report(err, errlen, "malformed pattern list",
				    patterns ? patterns : "(null)", patterns ? strlen(patterns) : 6,
				    pos, why);
		return -EINVAL;
	}
	if (filter && tp__pat_blank(filter, strlen(filter)))
		filter = NULL;
	if (filter) {
		r = trace_filter_compile(filter, NULL, 0, 0, NULL, &pos, whybuf, sizeof(whybuf));
		if (r) {
			tp__sink_flt_report(err, errlen, "bad filter", filter, strlen(filter), pos,
					    whybuf);
			return r;
		}
	}
	r = tp__sink_filter_set(patterns, filter, err, errlen, 0, NULL, 0);
	if (r == 0 && err && errlen) {
		snprintf(err, errlen,
			 "pattern \"%s\" matches no event of this program "
			 "(TRACEPOINTS=list shows them; a subsystem compiled out has none; a "
			 "library's "
			 "exist once it is loaded: tracepoint_enable() after its dlopen())",
			 patterns);
	} else if (r == 0) {
		char key[TRACE_PATTERN_MAX + 16];
		snprintf(key, sizeof(key), "nomatch:%s", patterns);
		tp__sink_msg_once(
			key,
			"pattern \"%s\" matches no event of this program (TRACEPOINTS=list "
			"shows them; a subsystem compiled out has none; a library's exist once it "
			"is loaded: tracepoint_enable() after its dlopen())",
			patterns);
	}
	return r;
}

/* Checks a spec ("patterns [if filter]; ...") without telling anyone;
 * with report, says what is wrong: on stderr, or into err[0..errlen) if
 * err is given (the control channel's reply).  0 or -EINVAL.  Field names
 * and labels are checked too when fields is set (the events must be
 * loaded). */
static int tp__sink_spec_check_to(const char *spec, int report, int fields, char *err,
				  size_t errlen)
{
	size_t at = 0, pos;
	struct trace_spec_group g;
	char why[1024], quiet[2];
	const char *w;
	unsigned groups = 0; /* with patterns */
	do {
		size_t next = trace_spec_next(spec, at, &g);
		char *pats = tp__sink_flt_dup(g.pat, g.pat_len), *ftext = NULL;
		int bad = 0;
		if (!pats)
			return -ENOMEM;
		if (tp__pat_blank(pats, g.pat_len) && !g.filter) {
			free(pats); /* an empty group ("a;", "a;;b"): nothing, as in ftrace */
			at = next;
			continue;
		}
		groups++;
		if (tp__pat_blank(pats, g.pat_len)) {
			if (report)
				tp__sink_flt_report(err, errlen, "malformed pattern list", spec,
						    strlen(spec), g.pat_at + g.pat_len,
						    "no pattern before 'if'");
			bad = 1;
		} else if (trace_pattern_check(pats, &pos, &w) != 0) {
			tp__spec_no_pattern(pats, &pos, &w); /* "; if ..." */
			if (report)
				tp__sink_flt_report(err, errlen, "malformed pattern list", spec,
						    strlen(spec), g.pat_at + pos, w);
			bad = 1;
		} else if (g.filter && tp__pat_blank(g.filter, g.filter_len)) {
			if (report)
				tp__sink_flt_report(err, errlen, "bad filter", spec, strlen(spec),
						    g.filter_at + g.filter_len,
						    "nothing after 'if'");
			bad = 1;
		} else if (g.filter && g.filter_len > TRACE_FILTER_MAX) {
			if (report)
				tp__sink_flt_report(err, errlen, "bad filter", spec, strlen(spec),
						    g.filter_at + TRACE_FILTER_MAX,
						    "filter too long");
			bad = 1;
		} else if (g.filter) {
			if (!(ftext = tp__sink_flt_dup(g.filter, g.filter_len))) {
				free(pats);
				return -ENOMEM;
			}
			if (trace_filter_compile(ftext, NULL, 0, 0, NULL, &pos, why, sizeof(why)) !=
			    0) {
				if (report)
					tp__sink_flt_report(err, errlen, "bad filter", spec,
							    strlen(spec), g.filter_at + pos, why);
				bad = 1;
			} else if (fields && tp__sink_filter_set(pats, ftext, report ? err : quiet,
								 report ? errlen : sizeof(quiet), 1,
								 spec, g.filter_at) < 0) {
				bad = 1; /* reported */
			}
		}
		free(pats);
		free(ftext);
		if (bad)
			return -EINVAL;
		at = next;
	} while (at);
	if (!groups) {
		if (report)
			tp__sink_flt_report(err, errlen, "malformed pattern list", spec,
					    strlen(spec), strlen(spec),
					    "no pattern at all (only ';' and spaces)");
		return -EINVAL;
	}
	return 0;
}

static int tp__sink_spec_check(const char *spec, int report, int fields)
{
	return tp__sink_spec_check_to(spec, report, fields, NULL, 0);
}

/* trace_recorder_enable() / trace_recorder_disable() of a spec with ';' or 'if':
 * everything is checked first (patterns, filters, fields: nothing changes
 * if anything is wrong), then each group's filter is set before its events
 * are enabled, so no unfiltered record is made. */
static int tp__sink_apply_spec(const char *spec, int attach)
{
	size_t at = 0;
	int total = 0, err, r;
	struct trace_spec_group g;
	if (!attach) {
		do {
			at = trace_spec_next(spec, at, &g);
			if (g.filter) {
				tp__sink_msg("tracepoint_disable(\"%s\"): a filter ('if') has no "
					     "meaning here; "
					     "nothing changed (tracepoint_filter(patterns, NULL, "
					     "...) clears one)",
					     spec);
				return -EINVAL;
			}
		} while (at);
	}
	if ((err = tp__sink_spec_check(spec, 1, attach)) != 0)
		return err;
	do {
		size_t next = trace_spec_next(spec, at, &g);
		char *pats, *ftext = NULL;
		if (!g.filter && tp__pat_blank(g.pat, g.pat_len)) {
			at = next; /* an empty group (checked above) */
			continue;
		}
		pats = tp__sink_flt_dup(g.pat, g.pat_len);
		if (!pats || (g.filter && !(ftext = tp__sink_flt_dup(g.filter, g.filter_len)))) {
			free(pats);
			return -ENOMEM;
		}
		r = ftext ? tp__sink_filter_set(pats, ftext, NULL, 0, 0, spec, g.filter_at) : 0;
		if (r >= 0)
			r = tp__sink_apply(pats, attach);
		if (r < 0 && !err)
			err = r;
		else if (r > 0)
			total += r;
		free(pats);
		free(ftext);
		at = next;
	} while (at);
	return err ? err : total;
}

#endif /* TP__REC_FILTERS_H */
