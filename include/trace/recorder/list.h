/* SPDX-License-Identifier: MIT */
/*
 * trace/recorder/list.h - listing: trace_recorder_list, trace_recorder_list_print
 * (TRACEPOINTS=list) and trace_recorder_format_print (TRACEPOINTS=list-format,
 * the kernel's tracefs "format" layout).
 *
 * Internal: included by trace/sink.h (TRACEPOINT_SINK_MAIN); depends on
 * recorder/state.h and recorder/enable.h (which events are attached).
 */
#ifndef TP__SINK_DEFINED
#error "trace/recorder/list.h is internal: #include <trace/sink.h> instead"
#elif !defined(TP__REC_LIST_H)
#define TP__REC_LIST_H

/* ---- Listing. ---- */

struct tp__sink_list {
	int (*fn)(const struct tracepoint_info *info, void *priv);
	void *priv;
};

static int tp__sink_list_cb(struct tracepoint *tp, void *priv)
{
	struct tp__sink_list *l = (struct tp__sink_list *)priv;
	struct tracepoint_info info;
	if (!tp)
		return 0;
	info.tp = tp;
	info.event = trace_event_of(tp);
	info.system = info.event ? info.event->cls->system : "";
	info.name = tp->name;
	info.enabled = 0;
	if (info.event && tracepoint_enabled(tp)) {
		tp__sink_lock();
		info.enabled = tp__sink_attached(tp, 0, NULL) != NULL;
		tp__sink_unlock();
	}
	return l->fn(&info, l->priv);
}

TRACEPOINT_SINK_API int trace_recorder_list(int (*fn)(const struct tracepoint_info *info,
						      void *priv),
					    void *priv)
{
	struct tp__sink_list l;
	if (!fn)
		return -EINVAL;
	l.fn = fn;
	l.priv = priv;
	return tracepoint_for_each(tp__sink_list_cb, &l);
}

/* An event's kind (<trace/event_kinds.h>) in TRACEPOINTS=list, in the
 * words of the trace's metadata: "" for a plain instant. */
static const char *tp__sink_kind_word(unsigned kind)
{
	static const char *const words[3][4] = {
		{ "", " [slice_begin]", " [slice_end]", " [counter]" },
		{ " [flow]", " [slice_begin flow]", " [slice_end flow]", " [counter flow]" },
		{ " [flow global]", " [slice_begin flow global]", " [slice_end flow global]",
		  " [counter flow global]" }
	};
	unsigned b = kind & TRACE_KIND_BASE_MASK;
	unsigned f = !(kind & TRACE_KIND_FLOW) ? 0 : !(kind & TRACE_KIND_FLOW_GLOBAL) ? 1 : 2;
	return words[f][b < 4 ? b : 0];
}

static int tp__sink_print_cb(const struct tracepoint_info *info, void *priv)
{
	FILE *out = (FILE *)priv;
	unsigned n = 0, i;
	const struct trace_event_field *f;
	/* No call site compiled in anywhere: the files that fire it were built
	 * without its subsystem's switch (static keys only; elsewhere unknown). */
	const char *nosites = tracepoint_sites(info->tp) == 0
				      ? " - no call site compiled in (build the files that fire it "
					"with its switch)"
				      : "";
	if (!info->event) {
		fprintf(out, "%s (plain tracepoint, no fields)%s\n", info->name, nosites);
		return 0;
	}
	fprintf(out, "%s:%s (", info->system, info->name);
	f = info->event->cls->fields(&n);
	for (i = 0; i < n; i++) {
		if (f[i].kind == TRACE_FIELD_STRING)
			fprintf(out, "%sstring %s", i ? ", " : "", f[i].name);
		else if (f[i].kind == TRACE_FIELD_DYNAMIC)
			fprintf(out, "%s%s %s[]", i ? ", " : "", f[i].type, f[i].name);
		else if (f[i].array_len)
			fprintf(out, "%s%s %.*s[%u]", i ? ", " : "", f[i].type,
				tp__ev_name_len(f[i].name), f[i].name, f[i].array_len);
		else
			fprintf(out, "%s%s %s", i ? ", " : "", f[i].type, f[i].name);
	}
	fprintf(out, ")%s%s%s\n", tp__sink_kind_word(info->event->kind),
		info->enabled ? " enabled" : "", nosites);
	return 0;
}

TRACEPOINT_SINK_API void trace_recorder_list_print(FILE *out)
{
	trace_recorder_list(tp__sink_print_cb, out ? out : stdout);
}

struct tp__sink_fmt_walk {
	FILE *out;
	unsigned id;
};

/* One event in the kernel's format-file layout.  Offsets are in the entry
 * (the record's payload, after its event header); strings and dynamic
 * arrays follow the fixed fields, in declaration order. */
static int tp__sink_format_cb(const struct tracepoint_info *info, void *priv)
{
	struct tp__sink_fmt_walk *w = (struct tp__sink_fmt_walk *)priv;
	FILE *out = w->out;
	unsigned n = 0, i;
	const struct trace_event_field *f;
	const struct trace_event_class *cls;
	const char *p;
	char *fmt;
	size_t flen;
	if (!info->event)
		return 0;
	cls = info->event->cls;
	f = cls->fields(&n);
	/* the kernel names the system by the file's directory
	 * (events/SYSTEM/NAME/format): here, a line before the name */
	fprintf(out, "system: %s\nname: %s\nID: %u\nformat:\n", info->system, info->name, ++w->id);
	for (i = 0; i < n; i++) {
		unsigned size = f[i].size,
			 es = f[i].array_len ? f[i].size / f[i].array_len : f[i].size;
		if (f[i].kind == TRACE_FIELD_STRING)
			fprintf(out,
				"\tfield:__data_loc char[] %s;\toffset:%u;\tsize:0;\tsigned:1;\n",
				f[i].name, info->event->cls->entry_size);
		else if (f[i].kind == TRACE_FIELD_DYNAMIC)
			fprintf(out,
				"\tfield:__data_loc %s[] %s;\toffset:%u;\tsize:4;\tsigned:%u;\n",
				f[i].type, f[i].name, f[i].offset, f[i].is_signed);
		else if (f[i].array_len)
			fprintf(out, "\tfield:%s %.*s[%u];\toffset:%u;\tsize:%u;\tsigned:%u;\n",
				f[i].type, tp__ev_name_len(f[i].name), f[i].name, f[i].array_len,
				f[i].offset, size, f[i].is_signed);
		else
			fprintf(out, "\tfield:%s %s;\toffset:%u;\tsize:%u;\tsigned:%u;\n",
				f[i].type, f[i].name, f[i].offset, es, f[i].is_signed);
	}
	fputs("\nprint fmt: ", out);
	/* TRACE_DEFINE_ENUM names as their values (trace/eval_map.h) */
	flen = tp__ev_eval_subst(cls->evals, cls->evals_end, cls->system, cls->print_fmt, NULL, 0);
	fmt = (char *)malloc(flen + 1);
	if (!fmt)
		return -1;
	tp__ev_eval_subst(cls->evals, cls->evals_end, cls->system, cls->print_fmt, fmt, flen + 1);
	for (p = fmt; *p; p++) { /* __entry-> reads REC-> there */
		if (strncmp(p, "__entry", 7) == 0 &&
		    (p == fmt ||
		     !((p[-1] >= 'a' && p[-1] <= 'z') || (p[-1] >= 'A' && p[-1] <= 'Z') ||
		       (p[-1] >= '0' && p[-1] <= '9') || p[-1] == '_'))) {
			fputs("REC", out);
			p += 6;
		} else {
			fputc(*p, out);
		}
	}
	free(fmt);
	fputs("\n\n", out);
	return 0;
}

TRACEPOINT_SINK_API void trace_recorder_format_print(FILE *out)
{
	struct tp__sink_fmt_walk w;
	w.out = out ? out : stdout;
	w.id = 0;
	trace_recorder_list(tp__sink_format_cb, &w);
}

#endif /* TP__REC_LIST_H */
