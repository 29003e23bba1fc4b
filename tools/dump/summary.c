/* SPDX-License-Identifier: MIT */
/*
 * tools/dump/summary.c - tracepoint-dump's --summary: process, mode, clock,
 * time span, events and drops, events per type and per thread.
 *
 * Part of tracepoint-dump (dump.h has the map of its parts).
 */
#include "dump.h"

/* ------------------------------------------------------------------ */
/* Summary                                                            */
/* ------------------------------------------------------------------ */

static int cmp_ev_count(const void *a, const void *b)
{
	const struct event *x = *(const struct event *const *)a,
			   *y = *(const struct event *const *)b;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->name, y->name);
}

static void fmt_ns(char *buf, size_t len, uint64_t ns)
{
	time_t t = (time_t)(ns / 1000000000u);
	struct tm tm;
	char d[40] = "";
	if (gmtime_r(&t, &tm))
		strftime(d, sizeof(d), "%Y-%m-%d %H:%M:%S", &tm);
	snprintf(buf, len, "%llu.%09llu (%s.%09llu UTC)", (unsigned long long)(ns / 1000000000u),
		 (unsigned long long)(ns % 1000000000u), d, (unsigned long long)(ns % 1000000000u));
}

void summary(struct dump *dx, struct trace *tr)
{
	size_t i;
	uint64_t total = 0, dropped = 0, first = UINT64_MAX, last = 0;
	struct event **evs;
	char b1[96], b2[96], *t[6];
	for (i = 0; i < tr->nst; i++) {
		struct stream *st = &tr->st[i];
		struct cursor c;
		size_t k;
		cur_init(&c, st, i);
		while (cur_next(&c)) {
			if (c.kind != K_EVENT)
				continue;
			((struct event *)c.ev)->count++;
			st->events++;
			if (!st->have_ns)
				st->first_ns = c.ns, st->have_ns = 1;
			st->last_ns = c.ns;
		}
		cur_free(&c);
		for (k = 0; k < st->npk; k++) {
			st->bytes += st->pk[k].cend - st->pk[k].off;
			if (st->pk[k].disc > st->dropped)
				st->dropped = st->pk[k].disc;
		}
		total += st->events;
		dropped += st->dropped;
		if (tr->flight_files && st->npk) {
			/* a flight ring's files: one thread, one row (its drop
			 * count is the thread's, in every file: the largest) */
			size_t j;
			for (j = 0; j < i; j++) {
				struct stream *o = &tr->st[j];
				if (o->npk && !o->merged && o->pk[0].tid == st->pk[0].tid) {
					dropped -=
						st->dropped < o->dropped ? st->dropped : o->dropped;
					o->dropped =
						st->dropped > o->dropped ? st->dropped : o->dropped;
					o->events += st->events;
					o->bytes += st->bytes;
					st->merged = 1;
					break;
				}
			}
		}
		if (st->have_ns) {
			if (st->first_ns < first)
				first = st->first_ns;
			if (st->last_ns > last)
				last = st->last_ns;
		}
	}
	/* strings from the metadata and paths, escaped like recorded text */
	t[0] = text_dup(tr->dir);
	t[1] = text_dup(tr->procname ? tr->procname : "?");
	t[2] = text_dup(tr->hostname ? tr->hostname : "");
	t[3] = text_dup(tr->mode ? tr->mode : "?");
	t[4] = text_dup(tr->clk_name ? tr->clk_name : "?");
	t[5] = text_dup(tr->snapinfo ? tr->snapinfo : "");
	ob_printf(dx, "trace       %s\n", t[0]);
	ob_printf(dx, "process     %s, pid %u", t[1], trace_pid(tr));
	if (tr->hostname)
		ob_printf(dx, ", host %s", t[2]);
	ob_printf(dx, "\nmode        %s\n", t[3]);
	ob_printf(dx, "clock       %s, %llu Hz\n", t[4], (unsigned long long)tr->freq);
	if (total) {
		uint64_t d = last - first;
		fmt_ns(b1, sizeof(b1), first);
		fmt_ns(b2, sizeof(b2), last);
		ob_printf(dx, "first event %s\nlast event  %s\nduration    %llu.%09llu s\n", b1, b2,
			  (unsigned long long)(d / 1000000000u),
			  (unsigned long long)(d % 1000000000u));
	} else {
		ob_printf(dx, "time span   (no events)\n");
	}
	ob_printf(dx, "events      %llu\n", (unsigned long long)total);
	ob_printf(dx, "dropped     %llu\n", (unsigned long long)dropped);
	if (tr->snapinfo)
		ob_printf(dx, "subtraces   %s\n", t[5]);
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		free(t[i]);
	evs = (struct event **)xcalloc(tr->nev + 1, sizeof(*evs));
	for (i = 0; i < tr->nev; i++)
		evs[i] = &tr->ev[i];
	qsort(evs, tr->nev, sizeof(*evs), cmp_ev_count);
	ob_printf(dx, "event types\n");
	for (i = 0; i < tr->nev; i++)
		if (evs[i]->count)
			ob_printf(dx, "  %12llu  %s%s\n", (unsigned long long)evs[i]->count,
				  evs[i]->name, kind_note(evs[i]->kind));
	free(evs);
	ob_printf(dx, "threads\n  %10s  %-16s %12s %10s %14s\n", "tid", "comm", "events", "dropped",
		  "bytes");
	for (i = 0; i < tr->nst; i++) {
		const struct stream *st = &tr->st[i];
		const char *comm = st->npk ? st->pk[st->npk - 1].comm : "";
		if (st->merged)
			continue;
		char cm[70];
		size_t n = strlen(comm);
		char *o = put_text(cm, (const u8 *)comm, n > 16 ? 16 : n);
		*o = '\0';
		if (st->npk)
			ob_printf(dx, "  %10u  %-16s %12llu %10llu %14llu\n", st->pk[0].tid, cm,
				  (unsigned long long)st->events, (unsigned long long)st->dropped,
				  (unsigned long long)st->bytes);
		else
			ob_printf(dx, "  %10s  %-16s %12llu %10llu %14llu   (%s: no packets)\n",
				  "-", "", 0ull, 0ull, 0ull,
				  strrchr(st->path, '/') ? strrchr(st->path, '/') + 1 : st->path);
	}
}
