/* SPDX-License-Identifier: MIT */
/*
 * trace/recorder/enable.h - enabling by pattern: the slot (probe data) of an
 * event, described in the metadata on first use; the walk that attaches
 * or detaches the recorder for a pattern list; "did you mean" for a
 * pattern that matches nothing; trace_recorder_enable and
 * trace_recorder_disable.
 *
 * Internal: included by trace/sink.h (TRACEPOINT_SINK_MAIN); depends on
 * recorder/state.h, recorder/env.h, recorder/metadata.h,
 * recorder/settings.h and trace/pattern.h (the whole grammar: a spec with
 * ';' or 'if' goes to recorder/filters.h, a plain list is walked here).
 * Filters and enabling call each other: tp__sink_flt_rebind and
 * tp__sink_apply_spec, defined in recorder/filters.h, are declared ahead
 * here.
 */
#ifndef TP__SINK_DEFINED
#error "trace/recorder/enable.h is internal: #include <trace/sink.h> instead"
#elif !defined(TP__REC_ENABLE_H)
#define TP__REC_ENABLE_H

/* ---- Enabling by pattern. ---- */

static void tp__sink_flt_rebind(struct trace_event_sink *slot); /* recorder/filters.h */

/* The slot (probe data: sink + id) of an event, made and described in the
 * metadata on first use; NULL if that fails (reported).  Lock held. */
static struct trace_event_sink *tp__sink_slot(const struct trace_event *ev)
{
	size_t i;
	struct trace_event_sink *sl;
	char key[512];
	snprintf(key, sizeof(key), "%s:%s", ev->cls->system, ev->name);
	for (i = 0; i < tp__sink.nslots; i++) {
		/* By name: the event it was made for may be in a dlclose()d library. */
		if (strcmp(tp__sink.slot_names[i], key) == 0) {
			tp__sink.slots[i]->event = ev;
			tp__sink_flt_rebind(tp__sink.slots[i]); /* recorder/filters.h */
			return tp__sink.slots[i];
		}
	}
	if (tp__sink.nslots == tp__sink.capslots) {
		size_t nc = tp__sink.capslots ? tp__sink.capslots * 2 : 16;
		struct trace_event_sink **n = (struct trace_event_sink **)realloc(
			(void *)tp__sink.slots, nc * sizeof(*n));
		char **nn;
		if (!n)
			return NULL;
		tp__sink.slots = n;
		nn = (char **)realloc((void *)tp__sink.slot_names, nc * sizeof(*nn));
		if (!nn)
			return NULL;
		tp__sink.slot_names = nn;
		tp__sink.capslots = nc;
	}
	sl = (struct trace_event_sink *)calloc(1, sizeof(*sl));
	if (!sl || !(tp__sink.slot_names[tp__sink.nslots] = strdup(key))) {
		free(sl);
		return NULL;
	}
	sl->sink = &tp__sink.base;
	sl->id = (uint32_t)tp__sink.nslots;
	sl->event = ev;
	if (tp__sink_describe(ev, sl->id) != 0) { /* reported */
		free(tp__sink.slot_names[tp__sink.nslots]);
		free(sl);
		return NULL;
	}
	/* its records are counted by layout (recorder/disk.h); without one, a
	 * removed rotation file's records are not (said then) */
	tp__sink_layout_add(ev, sl->id);
	tp__sink.slots[tp__sink.nslots++] = sl; /* never freed: probes may still hold it */
	return sl;
}

/* op 0: the slot tp is attached with, or NULL; 1: remember (tp, slot);
 * 2: forget tp and return its slot.  Lock held.  An entry whose probe is
 * no longer attached is forgotten: the library that defined tp was
 * dlclose()d (its destructor detached the recorder), and another may now
 * sit at the same address. */
static struct trace_event_sink *tp__sink_attached(const struct tracepoint *tp, int op,
						  struct trace_event_sink *slot)
{
	size_t i;
	for (i = 0; i < tp__sink.nattached; i++) {
		if (tp__sink.attached[i].tp == tp) {
			struct trace_event_sink *s = tp__sink.attached[i].slot;
			const struct trace_event *ev = (const struct trace_event *)tp->event;
			int live = ev && tracepoint_probe_attached(tp, ev->probe, s) == 1;
			if (op == 2 || !live)
				tp__sink.attached[i] = tp__sink.attached[--tp__sink.nattached];
			if (live)
				return s;
			break;
		}
	}
	if (op == 1) {
		if (tp__sink.nattached == tp__sink.capattached) {
			size_t nc = tp__sink.capattached ? tp__sink.capattached * 2 : 16;
			struct tp__sink_slot_ref *n = (struct tp__sink_slot_ref *)realloc(
				(void *)tp__sink.attached, nc * sizeof(*n));
			if (!n)
				return NULL;
			tp__sink.attached = n;
			tp__sink.capattached = nc;
		}
		tp__sink.attached[tp__sink.nattached].tp = tp;
		tp__sink.attached[tp__sink.nattached++].slot = slot;
		return slot;
	}
	return NULL;
}

struct tp__sink_pat {
	const char *list;
	size_t skip; /* items taken by the walks before this one */
	size_t nitems;
	const char *item[64]; /* items beyond 64 are handled in further walks */
	size_t len[64];
	unsigned long hits[64];
	/* Whether an event the item selects has a call site compiled in
	 * (static keys; elsewhere unknown, taken as yes). */
	unsigned char sited[64];
	int attach;
	int err;
	int matched;
};

static int tp__sink_pat_collect(const char *item, size_t len, void *priv)
{
	struct tp__sink_pat *p = (struct tp__sink_pat *)priv;
	if (p->skip) {
		p->skip--;
		return 0;
	}
	if (p->nitems == 64)
		return 1;
	p->item[p->nitems] = item;
	p->len[p->nitems] = len;
	p->hits[p->nitems] = 0;
	p->sited[p->nitems] = 0;
	p->nitems++;
	return 0;
}

/* Is an item without ':' the name of a subsystem ("kv" for "kv:*")? */
struct tp__sink_sys {
	const char *name;
	size_t len;
};

static int tp__sink_sys_walk(struct tracepoint *tp, void *priv)
{
	const struct tp__sink_sys *q = (const struct tp__sink_sys *)priv;
	const struct trace_event *ev = trace_event_of(tp);
	return ev && strlen(ev->cls->system) == q->len &&
	       memcmp(ev->cls->system, q->name, q->len) == 0;
}

static int tp__sink_is_system(const char *item, size_t len)
{
	struct tp__sink_sys q;
	q.name = item;
	q.len = len;
	return !memchr(item, ':', len) && tracepoint_for_each(tp__sink_sys_walk, &q) != 0;
}

/* The loaded event closest to a misspelled name (trace/near.h's tp__near,
 * on the event name, in a system spelt the same or within two edits; or
 * the name alone for an item without ':'). */
struct tp__sink_near {
	const char *item;
	size_t len;
	size_t best;
	char name[TRACE_PATTERN_MAX + 1];
};

static int tp__sink_near_walk(struct tracepoint *tp, void *priv)
{
	struct tp__sink_near *q = (struct tp__sink_near *)priv;
	const struct trace_event *ev = trace_event_of(tp);
	const char *colon = (const char *)memchr(q->item, ':', q->len);
	size_t d, ns = colon ? (size_t)(colon - q->item) : 0;
	int near;
	if (!ev)
		return 0;
	if (colon && strlen(ev->cls->system) == ns &&
	    tp__near_affix(ev->cls->system, ns, q->item, ns, 0)) /* the same system */
		near = tp__near(colon + 1, q->len - ns - 1, ev->name, strlen(ev->name), &d);
	else if (colon)
		near = (d = tp__near_distance(q->item, ns, ev->cls->system, strlen(ev->cls->system),
					      2)) <= 2 &&
		       tp__near(colon + 1, q->len - ns - 1, ev->name, strlen(ev->name), &d);
	else
		near = tp__near(q->item, q->len, ev->name, strlen(ev->name), &d);
	if (near && d < q->best) {
		q->best = d;
		snprintf(q->name, sizeof(q->name), "%s:%s", ev->cls->system, ev->name);
	}
	return 0;
}

/* "; did you mean \"kv:kv_op\"?" in buf for a misspelled event, or "". */
static const char *tp__sink_did_you_mean(const char *item, size_t len, char *buf, size_t size)
{
	struct tp__sink_near q;
	memset(&q, 0, sizeof(q));
	q.item = item;
	q.len = len;
	q.best = 4;
	tracepoint_for_each(tp__sink_near_walk, &q);
	if (q.best > 3)
		return "";
	snprintf(buf, size, "; did you mean \"%s\"?", q.name);
	return buf;
}

static int tp__sink_pat_walk(struct tracepoint *tp, void *priv)
{
	struct tp__sink_pat *p = (struct tp__sink_pat *)priv;
	const struct trace_event *ev = trace_event_of(tp);
	size_t i;
	int hit = 0;
	for (i = 0; i < p->nitems; i++) {
		if (ev ? trace_pattern_match(p->item[i], p->len[i], ev->cls->system, ev->name)
		       : (!trace_pattern_is_glob(p->item[i], p->len[i]) &&
			  trace_pattern_match(p->item[i], p->len[i], "", tp->name))) {
			p->hits[i]++;
			hit = 1;
			if (!p->sited[i] && (!p->attach || !ev || tracepoint_sites(tp) != 0))
				p->sited[i] = 1; /* one event with sites is enough */
		}
	}
	if (!hit)
		return 0;
	if (!ev) {
		tp__sink_msg_once(tp->name,
				  "%s is a plain tracepoint (DECLARE_TRACE, no fields): "
				  "the sink cannot record it; make it a TRACE_EVENT",
				  tp->name);
		return 0;
	}
	p->matched++;
	tp__sink_lock();
	if (p->attach) {
		struct trace_event_sink *slot = tp__sink_attached(tp, 0, NULL);
		int r = -ENOMEM;
		if (!slot && (slot = tp__sink_slot(ev)) != NULL) {
			r = tracepoint_probe_register(tp, ev->probe, slot);
			if (r == 0 && !tp__sink_attached(tp, 1, slot)) {
				tracepoint_probe_unregister(tp, ev->probe, slot);
				r = -ENOMEM;
			}
		} else if (slot) {
			r = 0; /* already recorded */
		}
		if (r == -ENOENT) /* its module is being dlclose()d: as if gone */
			p->matched--;
		else if (r && r != -EEXIST) {
			tp__sink_msg("cannot enable %s:%s: %s", ev->cls->system, ev->name,
				     strerror(-r));
			if (!p->err)
				p->err = r;
		}
	} else {
		struct trace_event_sink *slot = tp__sink_attached(tp, 2, NULL);
		if (slot)
			tracepoint_probe_unregister(tp, ev->probe, slot);
	}
	tp__sink_unlock();
	return 0;
}

static int tp__sink_apply_spec(const char *spec, int attach); /* recorder/filters.h */
static int tp__hist_spec_has(const char *spec);		      /* recorder/hist_spec.h */
static int tp__hist_apply(const char *spec, int attach);      /* recorder/hist_spec.h */

static int tp__sink_apply(const char *list, int attach)
{
	struct tp__sink_pat p;
	size_t pos = 0, i, done = 0;
	const char *why = NULL;
	int total = 0, err = 0;

	if (tp__hist_spec_has(list)) /* "patterns hist:keys=..." */
		return tp__hist_apply(list, attach);
	if (!trace_spec_is_plain(list)) /* "patterns if filter; ..." */
		return tp__sink_apply_spec(list, attach);
	if (trace_pattern_check(list, &pos, &why) != 0) {
		/* Shown with unprintable bytes as '?', so the caret lines up. */
		char *shown = strdup(list ? list : "");
		for (i = 0; shown && shown[i]; i++)
			if ((unsigned char)shown[i] < 0x20 || (unsigned char)shown[i] >= 0x7f)
				shown[i] = '?';
		tp__sink_msg("malformed pattern list \"%s\": %s at position %zu\n  %s\n  %*s^",
			     list ? (shown ? shown : "") : "(null)", why, pos + 1,
			     shown ? shown : "", (int)pos, "");
		free(shown);
		return -EINVAL;
	}
	tp__sink_init();
	if (attach) {
		int e = 0;
		tp__sink_lock();
		if (!tp__sink.recording)
			e = tp__sink_start_env_trace(); /* reported */
		tp__sink_unlock();
		if (e)
			return e;
	}
	for (;;) {
		memset(&p, 0, sizeof(p));
		p.list = list;
		p.skip = done; /* items from the done-th on (64 per walk) */
		p.attach = attach;
		trace_pattern_for_each(list, tp__sink_pat_collect, &p);
		if (p.nitems == 0)
			break;
		/* One protection change per module for all matches. */
		tracepoint_batch_begin();
		tracepoint_for_each(tp__sink_pat_walk, &p);
		tracepoint_batch_end();
		for (i = 0; i < p.nitems; i++) {
			if (p.hits[i] && !p.sited[i]) {
				char key[TRACE_PATTERN_MAX + 16];
				snprintf(key, sizeof(key), "nosite:%.*s", (int)p.len[i], p.item[i]);
				tp__sink_msg_once(
					key,
					"\"%.*s\" selects %lu event(s) with no call site "
					"compiled in (in the code loaded so far): nothing of them "
					"is recorded until code that fires them with their "
					"subsystem's switch is loaded (TRACEPOINTS=list marks "
					"such events)",
					(int)p.len[i], p.item[i], p.hits[i]);
			}
			if (p.hits[i])
				continue;
			{
				char key[TRACE_PATTERN_MAX + 16];
				snprintf(key, sizeof(key), "nomatch:%.*s", (int)p.len[i],
					 p.item[i]);
				if (!trace_pattern_is_glob(p.item[i], p.len[i]) &&
				    tp__sink_is_system(p.item[i], p.len[i]))
					tp__sink_msg_once(
						key,
						"unknown event \"%.*s\": %.*s is a subsystem; "
						"\"%.*s:*\" records its events",
						(int)p.len[i], p.item[i], (int)p.len[i], p.item[i],
						(int)p.len[i], p.item[i]);
				else if (trace_pattern_is_glob(p.item[i], p.len[i]))
					tp__sink_msg_once(
						key,
						"pattern \"%.*s\" matches no event of this program "
						"(TRACEPOINTS=list shows them; a subsystem "
						"compiled "
						"out has none; a library's exist once it is "
						"loaded: "
						"tracepoint_enable() after its dlopen())",
						(int)p.len[i], p.item[i]);
				else {
					char near[TRACE_PATTERN_MAX + 32];
					tp__sink_msg_once(
						key,
						"unknown event \"%.*s\"%s (TRACEPOINTS=list shows "
						"the events of this program; a slice NAME is "
						"recorded as NAME_begin and NAME_end; a subsystem "
						"compiled out has none; a library's exist once it "
						"is loaded: tracepoint_enable() after its "
						"dlopen())",
						(int)p.len[i], p.item[i],
						tp__sink_did_you_mean(p.item[i], p.len[i], near,
								      sizeof(near)));
				}
			}
		}
		total += p.matched;
		if (p.err && !err)
			err = p.err;
		done += p.nitems;
		if (p.nitems < 64)
			break;
	}
	return err ? err : total;
}

TRACEPOINT_SINK_API int trace_recorder_enable(const char *patterns)
{
	return tp__sink_apply(patterns, 1);
}

TRACEPOINT_SINK_API int trace_recorder_disable(const char *patterns)
{
	return tp__sink_apply(patterns, 0);
}

#endif /* TP__REC_ENABLE_H */
