/* SPDX-License-Identifier: MIT */
/*
 * tools/dump/main.c - tracepoint-dump's the command line: options, the DIR
 * arguments (a trace, or a session searched for traces), and the run of one
 * output mode.
 *
 * Part of tracepoint-dump (dump.h has the map of its parts).
 */
#include "dump.h"

/* ------------------------------------------------------------------ */
/* Directories                                                        */
/* ------------------------------------------------------------------ */

void seen_reset(struct dump *dx)
{
	size_t i;
	for (i = 0; i < dx->nseen; i++)
		free(dx->seen[i].path);
	dx->nseen = 0;
}

/* NULL if the directory dfd was not seen yet (now it is, as path); else
 * the path it was seen as. */
const char *seen_before(struct dump *dx, int dfd, const char *path)
{
	struct stat sb;
	size_t i;
	if (fstat(dfd, &sb) != 0)
		return NULL;
	for (i = 0; i < dx->nseen; i++)
		if (dx->seen[i].dev == sb.st_dev && dx->seen[i].ino == sb.st_ino)
			return dx->seen[i].path;
	GROW(dx->seen, dx->nseen, dx->capseen);
	dx->seen[dx->nseen].dev = sb.st_dev;
	dx->seen[dx->nseen].ino = sb.st_ino;
	dx->seen[dx->nseen].path = xstrdup(path);
	dx->nseen++;
	return NULL;
}

/* Sorted names of the subdirectories of dfd that are traces (with_snap:
 * snapshot-* too). */
char **sub_traces(int dfd, int with_snap, size_t *n)
{
	struct dent *ds;
	size_t nd, i, cap = 0;
	char **v = NULL;
	*n = 0;
	if (list_dir(dfd, &ds, &nd) != 0)
		return NULL;
	for (i = 0; i < nd; i++) {
		int fd;
		if (ds[i].kind != E_DIR || (!with_snap && !strncmp(ds[i].name, "snapshot-", 9)))
			continue;
		if ((fd = open_dir_at(dfd, ds[i].name)) < 0)
			continue;
		if (has_metadata_at(fd)) {
			GROW(v, *n, cap);
			v[(*n)++] = xstrdup(ds[i].name);
		}
		close(fd);
	}
	free_dents(ds, nd);
	return v;
}

/* Traces below the directory dfd (path), which is not one itself (a
 * session): searched like babeltrace2 does, without descending into a
 * trace, in real directories only, at most MAX_DEPTH levels down. */
void find_traces(struct dump *dx, int dfd, const char *path, int depth, trace_fn fn, void *ctx)
{
	struct dent *ds;
	size_t nd, i;
	if (list_dir(dfd, &ds, &nd) != 0) {
		note(dx, 1, path, -1, "cannot list: %s", strerror(errno));
		return;
	}
	for (i = 0; i < nd; i++) {
		char *sub = path_join(path, ds[i].name);
		const char *prev;
		int fd;
		if (ds[i].kind == E_OTHER) {
			skip_note(dx, 0, sub, ds[i].mode,
				  "only traces in real directories are read");
		} else if (ds[i].kind == E_DIR) {
			if ((fd = open_dir_at(dfd, ds[i].name)) < 0) {
				note(dx, 1, sub, -1, "cannot open: %s", strerror(errno));
			} else {
				if (has_metadata_at(fd))
					fn(dx, fd, sub, depth + 1, ctx);
				else if ((prev = seen_before(dx, fd, sub)) != NULL)
					note(dx, 0, sub, -1,
					     "the same directory as %s: searched once", prev);
				else if (depth + 1 < MAX_DEPTH)
					find_traces(dx, fd, sub, depth + 1, fn, ctx);
				else
					note(dx, 0, sub, -1,
					     "more than %d directories deep: not searched",
					     MAX_DEPTH);
				close(fd);
			}
		}
		free(sub);
	}
	free_dents(ds, nd);
}

/* A directory with stream files but no metadata: a damaged trace. */
int has_streams(int dfd)
{
	struct dent *ds;
	size_t nd, i;
	int r = 0;
	if (list_dir(dfd, &ds, &nd) != 0)
		return 0;
	for (i = 0; i < nd && !r; i++)
		r = !strncmp(ds[i].name, "stream-", 7);
	free_dents(ds, nd);
	return r;
}

struct group {
	const char *name; /* the DIR argument */
	struct trace **tr;
	size_t n, cap;
	size_t found; /* trace directories found */
	int all;      /* --all */
};

static void add_trace_rec(struct dump *dx, struct group *g, int dfd, const char *dir, int child,
			  int depth)
{
	struct trace *tr;
	size_t n, i;
	char **subs;
	const char *prev = seen_before(dx, dfd, dir);
	if (prev) {
		note(dx, 0, dir, -1, "the same directory as %s: read once", prev);
		return;
	}
	tr = load_trace(dx, dfd, dir);
	if (tr) {
		tr->is_child = child;
		GROW(g->tr, g->n, g->cap);
		g->tr[g->n++] = tr;
	}
	subs = sub_traces(dfd, 1, &n);
	for (i = 0; i < n; i++) {
		const char *base = subs[i];
		int snap = !strncmp(base, "snapshot-", 9), fd;
		if (tr && !g->all) {
			char *s = tr->snapinfo ? xasprintf("%s %s%s", tr->snapinfo, base,
							   snap ? "" : " (child)")
					       : xasprintf("%s%s", base, snap ? "" : " (child)");
			free(tr->snapinfo);
			tr->snapinfo = s;
		}
		if (g->all && !snap) {
			char *sub = path_join(dir, base);
			if (depth + 1 >= MAX_DEPTH)
				note(dx, 0, sub, -1, "more than %d directories deep: not read",
				     MAX_DEPTH);
			else if ((fd = open_dir_at(dfd, base)) >= 0) {
				add_trace_rec(dx, g, fd, sub, 1, depth + 1);
				close(fd);
			}
			free(sub);
		}
		free(subs[i]);
	}
	free(subs);
}

static void add_found(struct dump *dx, int dfd, const char *path, int depth, void *ctx)
{
	struct group *g = (struct group *)ctx;
	g->found++;
	add_trace_rec(dx, g, dfd, path, 0, depth);
}

/* A DIR argument: the user's path, followed as given. */
int open_arg_dir(const char *dir)
{
	return open(dir, O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC);
}

/* ------------------------------------------------------------------ */
/* main                                                               */
/* ------------------------------------------------------------------ */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: %s [--text|--json|--perfetto|--summary|--hist TRIGGER] [--all] "
		"[--clock=CLOCK] [-o FILE] DIR...\n"
		"       %s --repair DIR...\n"
		"Reads the trace directories that <trace/sink.h> writes (CTF 1.8: metadata and\n"
		"stream-* files; docs/trace-format.md).\n"
		"\n"
		"  --text        (default) one line per event, every thread merged in time order:\n"
		"                <sec>.<nsec> <tid> <system>:<event> <TP_printk output>\n"
		"                and '# N events of thread TID dropped' where drops were counted\n"
		"  --json        Chrome Trace Event JSON (Perfetto UI, chrome://tracing)\n"
		"  --perfetto    Perfetto's native protobuf trace (write it with -o FILE.pftrace;\n"
		"                open it in ui.perfetto.dev): a track per thread, slices,\n"
		"                counters and flows, the fields as arguments\n"
		"  --summary     process, mode, clock, time span, events and drops, events per\n"
		"                type and per thread\n"
		"  --hist 'system:event "
		"hist:keys=K[,K..][:vals=V,..][:sort=S[.descending]][:size=N]'\n"
		"                the histogram the kernel's (and the recorder's) hist trigger "
		"makes,\n"
		"                from the recorded events, in the kernel's hist file layout; one\n"
		"                per trace (keys' modifiers .hex .log2 .buckets=N .usecs\n"
		"                .execname; common_timestamp, common_pid, common_tid; no 'if');\n"
		"                several triggers split by ';', with variables, onmatch() and\n"
		"                synthetic:NAME events, each after a '# system:event' line\n"
		"  --all         also merge the traces nested in DIR (a forked child's\n"
		"                <comm>-<pid>/, recursively; never snapshot-*/)\n"
		"  --clock=CLOCK times on realtime (Unix time; the default), monotonic\n"
		"                (CLOCK_MONOTONIC, as perf record -k CLOCK_MONOTONIC) or boottime\n"
		"                (CLOCK_BOOTTIME; the default of --perfetto, as Perfetto's)\n"
		"  -o, --output FILE   write the output there instead of standard output\n"
		"  --repair      make crashed traces readable by babeltrace2, in place: cut an\n"
		"                incomplete trailing packet; rewrite each flight-recorder ring\n"
		"                of one file (recorders before 7 December 2026) oldest packet\n"
		"                first, each shrunk to its content, unused slots dropped.\n"
		"                Repairs every trace in or below DIR.\n"
		"  -h, --help    this help\n"
		"  -V, --version the version\n"
		"\n"
		"DIR is a trace (it has a metadata file) or a session directory: then every\n"
		"trace below it (one per process) is read, merged in time order, as\n"
		"babeltrace2 does; several DIRs are merged in time order too (monotonic and\n"
		"boottime only within one boot).  Snapshots (snapshot-<n>/) are read when\n"
		"named.  Flight rings are read directly (--repair is only needed for other\n"
		"readers).\n"
		"Problems (file and byte offset) go to stderr after the output.\n"
		"\n"
		"Links, FIFOs and devices below DIR are never followed or opened (each is\n"
		"named); --repair writes only files it creates.\n"
		"\n"
		"Exit status: 0 ok; 1 a trace is damaged, incomplete (packets missing,\n"
		"duplicated or out of order) or unreadable (what could be read was printed),\n"
		"or the output could not be written; 2 usage error, or times that cannot be\n"
		"lined up (a trace without a clock among others, monotonic or boottime\n"
		"across boots).\n",
		prog, prog);
}

/* The time (ns) of the first packet of these traces: JSON's "ts":0. */
static uint64_t trace_origin(struct trace *const *all, size_t n)
{
	uint64_t origin = UINT64_MAX;
	size_t t, s;
	for (t = 0; t < n; t++)
		for (s = 0; s < all[t]->nst; s++)
			if (all[t]->st[s].npk) {
				uint64_t ns = trace_ns(all[t], all[t]->st[s].pk[0].tsb);
				if (ns < origin)
					origin = ns;
			}
	return origin == UINT64_MAX ? 0 : origin;
}

static const char *const clock_names[3] = { "realtime", "monotonic", "boottime" };

/* The first two of these traces recorded in different boots (their clock
 * uuids, the boot ids, differ): 0 if there are none. */
static int two_boots(struct trace **all, size_t n, size_t *x, size_t *y)
{
	size_t i, j;
	for (i = 0; i < n; i++)
		for (j = i + 1; all[i]->clk_uuid && j < n; j++)
			if (all[j]->clk_uuid && strcmp(all[i]->clk_uuid, all[j]->clk_uuid)) {
				*x = i;
				*y = j;
				return 1;
			}
	return 0;
}

/* Puts every time of these traces (all that are read at once) on clock
 * want (CLK_*; -1: the output's own, boottime for --perfetto, else
 * realtime) through the readings of the clocks at one instant in each
 * trace's metadata.  Realtime lines up any traces that have a clock (it
 * is Unix time in every one); monotonic and boottime only traces of one
 * boot.  A trace without the readings (recorded before 7 December 2026)
 * keeps every trace on realtime, said once, as do traces of several boots
 * when the clock was not asked for.  2 (said on stderr) when the times
 * cannot be lined up: a trace without a clock among others, or traces of
 * several boots on an asked-for monotonic or boottime. */
static int set_clock(struct dump *dx, struct trace **all, size_t n, int want, int mode)
{
	size_t t, lacking = 0, x, y;
	const char *first = NULL;
	int asked = want >= 0;
	if (want < 0)
		want = mode == M_PERFETTO ? CLK_BOOTTIME : CLK_REALTIME;
	for (t = 0; t < n && n > 1; t++)
		if (!all[t]->has_clock) {
			char *d = text_dup(all[t]->dir);
			fprintf(stderr,
				"%s: %s: no clock in its metadata, so its times cannot be lined "
				"up with the other traces': read it alone\n",
				prog, d);
			free(d);
			return 2;
		}
	for (t = 0; t < n; t++)
		if (want != CLK_REALTIME &&
		    (all[t]->has_clk_at & (1u | 1u << want)) != (1u | 1u << want)) {
			if (!lacking++)
				first = all[t]->dir;
		}
	if (lacking) {
		char *more = lacking > 1 ? xasprintf(", nor have %zu other traces", lacking - 1)
					 : xstrdup("");
		note(dx, 0, first, -1,
		     "no %s reading in its metadata (recorded before 7 December 2026)%s: every "
		     "time "
		     "is shown on the realtime clock%s",
		     clock_names[want], more, mode == M_PERFETTO ? " and labelled REALTIME" : "");
		free(more);
		want = CLK_REALTIME;
	}
	if (want != CLK_REALTIME && two_boots(all, n, &x, &y)) {
		char *a = text_dup(all[x]->dir), *b = text_dup(all[y]->dir);
		if (asked) {
			fprintf(stderr,
				"%s: --clock=%s: %s and %s were recorded in different boots "
				"(boot ids %s and %s), whose %s clocks cannot be lined up; "
				"--clock=realtime (Unix time) merges them\n",
				prog, clock_names[want], a, b, all[x]->clk_uuid, all[y]->clk_uuid,
				clock_names[want]);
			free(a);
			free(b);
			return 2;
		}
		note(dx, 0, all[y]->dir, -1,
		     "recorded in another boot than %s (boot ids %s and %s): %s cannot line "
		     "them up, every time is shown on the realtime clock%s",
		     a, all[y]->clk_uuid, all[x]->clk_uuid, clock_names[want],
		     mode == M_PERFETTO ? " and labelled REALTIME" : "");
		free(a);
		free(b);
		want = CLK_REALTIME;
	}
	dx->clock = want;
	for (t = 0; t < n; t++)
		all[t]->shift =
			want == CLK_REALTIME
				? 0
				: (int64_t)(all[t]->clk_at[want] - all[t]->clk_at[CLK_REALTIME]);
	return 0;
}

static int usage_err(const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", prog);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry '%s --help'.\n", prog);
	return 2;
}

/* The tool, given its context and room for argc directory names. */
static int dump_run(struct dump *dx, int argc, char **argv, char **dirs)
{
	const char *outfile = NULL;
	int ndirs = 0, all = 0, i, mode = -1, nomore = 0, g_mode = M_TEXT, clk = -1;
	const char *hist = NULL;
	struct group *groups = NULL;
	struct trace **trs = NULL; /* every trace of every DIR */
	size_t ngroups = 0, capgroups = 0, ntrs = 0, captrs = 0, g, t;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		int m = -1;
		if (nomore || a[0] != '-' || !a[1]) {
			dirs[ndirs++] = argv[i];
			continue;
		}
		if (!strcmp(a, "--")) {
			nomore = 1;
		} else if (!strcmp(a, "--text")) {
			m = M_TEXT;
		} else if (!strcmp(a, "--json")) {
			m = M_JSON;
		} else if (!strcmp(a, "--summary")) {
			m = M_SUMMARY;
		} else if (!strcmp(a, "--perfetto")) {
			m = M_PERFETTO;
		} else if (!strcmp(a, "--hist") || !strncmp(a, "--hist=", 7)) {
			hist = a[6] == '=' ? a + 7 : ++i < argc ? argv[i] : NULL;
			if (!hist)
				return usage_err(
					"%s",
					"--hist needs a trigger: 'system:event hist:keys=...'");
			if (hist_check(hist) != 0)
				return 2;
			m = M_HIST;
		} else if (!strcmp(a, "--repair")) {
			m = M_REPAIR;
		} else if (!strcmp(a, "--all")) {
			all = 1;
		} else if (!strcmp(a, "--clock") || !strncmp(a, "--clock=", 8)) {
			const char *v = a[7] == '=' ? a + 8 : ++i < argc ? argv[i] : NULL;
			for (clk = 0; v && clk < 3 && strcmp(v, clock_names[clk]); clk++)
				;
			if (!v || clk == 3)
				return usage_err(
					"--clock takes realtime, monotonic or boottime, not '%s'",
					v ? v : "");

		} else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
			if (++i >= argc)
				return usage_err("%s needs a file name", a);
			outfile = argv[i];
		} else if (!strncmp(a, "--output=", 9)) {
			outfile = a + 9;
		} else if (!strncmp(a, "-o", 2)) {
			outfile = a + 2;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(a, "-V") || !strcmp(a, "--version")) {
			printf("tracepoint-dump %s (CTF 1.8 traces of tracepoint.h's recorder)\n",
			       TRACEPOINT_DUMP_VERSION);
			return 0;
		} else {
			return usage_err("unknown option '%s'", a);
		}
		if (m >= 0) {
			if (mode >= 0 && mode != m && (mode == M_REPAIR || m == M_REPAIR))
				return usage_err("%s cannot be combined with another mode",
						 "--repair");
			if (mode >= 0 && mode != m)
				return usage_err(
					"%s: one output at a time (--text, --json, --summary, "
					"--perfetto or --hist)",
					a);
			mode = m;
		}
	}
	if (mode >= 0)
		g_mode = mode;
	if (!ndirs)
		return usage_err("%s", "no trace directory given");
	if (g_mode == M_REPAIR) {
		if (outfile || all)
			return usage_err("%s takes no -o or --all (it repairs subtraces too)",
					 "--repair");
		return do_repair(dx, dirs, ndirs);
	}
	/* load everything first (JSON needs a common time origin); a
	 * directory named twice, or inside another DIR, is read once */
	for (i = 0; i < ndirs; i++) {
		int fd = open_arg_dir(dirs[i]);
		if (fd < 0) {
			note(dx, 1, dirs[i], -1, "%s",
			     errno == ENOTDIR ? "not a directory" : strerror(errno));
			continue;
		}
		GROW(groups, ngroups, capgroups);
		memset(&groups[ngroups], 0, sizeof(*groups));
		groups[ngroups].name = dirs[i];
		groups[ngroups].all = all;
		if (has_metadata_at(fd)) {
			add_trace_rec(dx, &groups[ngroups++], fd, dirs[i], 0, 0);
		} else if (has_streams(fd)) {
			note(dx, 1, dirs[i], -1,
			     "stream files but no metadata file: cannot read this trace");
		} else {
			/* a session: every process's trace below, merged */
			(void)seen_before(dx, fd, dirs[i]);
			find_traces(dx, fd, dirs[i], 0, add_found, &groups[ngroups]);
			if (!groups[ngroups].found)
				note(dx, 1, dirs[i], -1,
				     "not a trace directory (no metadata, no trace below it)");
			ngroups++;
		}
		close(fd);
	}
	for (g = 0; g < ngroups; g++)
		for (t = 0; t < groups[g].n; t++) {
			GROW(trs, ntrs, captrs);
			trs[ntrs++] = groups[g].tr[t];
		}
	for (t = 0; t < ntrs; t++)
		dx->show_cpu |= trs[t]->ctx != 0;
	if (set_clock(dx, trs, ntrs, clk, g_mode) != 0) {
		dx->status = 2;
		goto out;
	}
	dx->ob.fd = 1;
	dx->ob.name = "standard output";
	if (outfile && strcmp(outfile, "-")) {
		dx->ob.fd = open(outfile, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dx->ob.name = outfile;
		if (dx->ob.fd < 0) {
			fprintf(stderr, "%s: %s: %s\n", prog, outfile, strerror(errno));
			dx->status = 1;
			goto out;
		}
	}
	if (g_mode == M_PERFETTO && dx->ob.fd == 1 && isatty(1)) {
		fprintf(stderr,
			"%s: --perfetto writes a binary trace: give -o FILE.pftrace (or redirect "
			"the output)\n",
			prog);
		dx->status = 2;
		goto out;
	}
	dx->ob.cap = 1 << 20;
	dx->ob.b = (char *)xmalloc(dx->ob.cap);
	if (g_mode == M_PERFETTO) {
		pf_start(dx);
		merge(dx, trs, ntrs, emit_pftrace);
		pf_finish(dx);
	} else if (g_mode == M_JSON) {
		dx->origin = trace_origin(trs, ntrs);
		ob_puts(dx, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[", 39);
		for (t = 0; t < ntrs; t++)
			json_meta(dx, trs[t]);
		merge(dx, trs, ntrs, emit_json);
		ob_printf(dx,
			  "\n],\"otherData\":{\"time_origin_%s_ns\":\"%llu\",\"source\":"
			  "\"tracepoint-dump %s\"}}\n",
			  dx->clock == CLK_REALTIME ? "unix" : clock_names[dx->clock],
			  (unsigned long long)dx->origin, TRACEPOINT_DUMP_VERSION);
	} else if (g_mode == M_HIST) {
		size_t ntr = 0;
		for (g = 0; g < ngroups; g++)
			ntr += groups[g].n;
		for (g = 0; g < ngroups; g++)
			for (t = 0; t < groups[g].n; t++) {
				if (ntr > 1) {
					char *d = text_dup(groups[g].tr[t]->dir);
					ob_printf(dx, "# trace %s\n", d);
					free(d);
				}
				if (hist_trace(dx, groups[g].tr[t], hist) != 0)
					dx->status = 2;
			}
	} else if (g_mode == M_SUMMARY) {
		int first = 1;
		for (g = 0; g < ngroups; g++)
			for (t = 0; t < groups[g].n; t++) {
				if (!first)
					ob_puts(dx, "\n", 1);
				first = 0;
				summary(dx, groups[g].tr[t]);
			}
	} else {
		merge(dx, trs, ntrs, emit_text);
	}
	free(dx->flows.v);
	memset(&dx->flows, 0, sizeof(dx->flows));
	ob_flush(dx);
	if (dx->ob.fd != 1 && close(dx->ob.fd) != 0) {
		fprintf(stderr, "%s: %s: %s\n", prog, outfile, strerror(errno));
		dx->status = 1;
	}
out:
	print_notes(dx);
	free(trs);
	for (g = 0; g < ngroups; g++) {
		for (t = 0; t < groups[g].n; t++)
			free_trace(groups[g].tr[t]);
		free(groups[g].tr);
	}
	free(groups);
	return dx->status;
}

int main(int argc, char **argv)
{
	struct dump dx;
	char **dirs;
	size_t i;
	int rc;
	/* as the program starts (tests/fuzz_dump calls main once per input) */
	memset(&dx, 0, sizeof(dx));
	dx.jfirst = 1;
	dx.sec = UINT64_MAX;
	dirs = (char **)xcalloc((size_t)argc + 1, sizeof(*dirs));
	rc = dump_run(&dx, argc, argv, dirs);
	free(dirs);
	free(dx.ob.b);
	free(dx.flagbuf);
	free(dx.xbuf);
	for (i = 0; i < dx.nskipped; i++)
		free(dx.skipped[i]);
	free(dx.skipped);
	for (i = 0; i < dx.nseen; i++)
		free(dx.seen[i].path);
	free(dx.seen);
	for (i = 0; i < dx.nmsg; i++)
		free(dx.msg[i]);
	free(dx.msg);
	return rc;
}
