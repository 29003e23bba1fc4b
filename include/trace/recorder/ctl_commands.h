/* SPDX-License-Identifier: MIT */
/*
 * trace/recorder/ctl_commands.h - the control channel's state and commands:
 * what strict ISO C modes hide of the sockets API, the channel's state and
 * its two locks, the replies, and list, enable, disable, snapshot and
 * flush run on behalf of tracepoint-ctl.
 *
 * Internal: included by trace/sink.h (TRACEPOINT_SINK_MAIN), after the
 * recorder's parts, whose functions it calls; depends on the protocol's limits
 * (trace/control.h), recorder/libc.h and the recorder: recorder/flight.h,
 * recorder/settings.h, recorder/enable.h and recorder/list.h; its replies
 * grow in trace/hist_print.h's struct tp__text.
 */
#ifndef TP__SINK_DEFINED
#error "trace/recorder/ctl_commands.h is internal: #include <trace/sink.h> instead"
#elif !defined(TP__REC_CTL_COMMANDS_H)
#define TP__REC_CTL_COMMANDS_H

/* What strict ISO C modes hide, under names of our own (asm labels: the C
 * library's symbols, whatever its headers show). */
typedef union {
	unsigned long w[1024 / (8 * sizeof(unsigned long))]; /* at least a sigset_t */
	long double align;
} tp__ctl_sigset;
extern int tp__ctl_sigfillset(tp__ctl_sigset *) __asm__("sigfillset");
extern int tp__ctl_sigmask(int, const tp__ctl_sigset *,
			   tp__ctl_sigset *) __asm__("pthread_sigmask");
extern int tp__ctl_accept4(int, struct sockaddr *, socklen_t *, int) __asm__("accept4");
extern int tp__ctl_pipe2(int *, int) __asm__("pipe2");
extern FILE *tp__ctl_open_memstream(char **, size_t *) __asm__("open_memstream");
extern int tp__ctl_setname(pthread_t, const char *) __asm__("pthread_setname_np");
extern char *tp__ctl_mkdtemp(char *) __asm__("mkdtemp");
extern int tp__ctl_kill(pid_t, int) __asm__("kill");
#ifdef SIG_SETMASK
#define TP__CTL_SIG_SETMASK SIG_SETMASK
#elif defined(__mips__) || defined(__alpha__)
#define TP__CTL_SIG_SETMASK 3
#elif defined(__sparc__)
#define TP__CTL_SIG_SETMASK 4
#else
#define TP__CTL_SIG_SETMASK 2
#endif
#ifdef SO_PEERCRED
#define TP__CTL_SO_PEERCRED SO_PEERCRED
#elif defined(__powerpc__) || defined(__powerpc64__)
#define TP__CTL_SO_PEERCRED 21
#elif defined(__mips__) || defined(__alpha__)
#define TP__CTL_SO_PEERCRED 18
#elif defined(__sparc__)
#define TP__CTL_SO_PEERCRED 0x40
#elif defined(__hppa__)
#define TP__CTL_SO_PEERCRED 0x4011
#else
#define TP__CTL_SO_PEERCRED 17 /* asm-generic: x86, arm, aarch64, riscv, ... */
#endif
#ifdef S_ISSOCK
#define TP__CTL_ISSOCK(m) S_ISSOCK(m)
#else
#define TP__CTL_ISSOCK(m) (((m) & 0170000) == 0140000) /* S_IFSOCK */
#endif
struct tp__ctl_ucred { /* struct ucred, hidden without _GNU_SOURCE */
	pid_t pid;
	uid_t uid;
	gid_t gid;
};

/* The commands. */
enum tp__ctl_cmd {
	TP__CTL_LIST,
	TP__CTL_ENABLE,
	TP__CTL_DISABLE,
	TP__CTL_SNAPSHOT,
	TP__CTL_FLUSH,
	TP__CTL_HIST
};
enum tp__ctl_arg { TP__CTL_NO_ARG = 0, TP__CTL_ARG = 1, TP__CTL_OPT_ARG = 2 };

struct tp__ctl_client {
	int fd;		/* -1: a free slot */
	int eof;	/* the peer shut its side down */
	int closing;	/* close once the reply is out (after a parse error) */
	uint64_t seen;	/* CLOCK_MONOTONIC ns of the last progress */
	char *out;	/* the reply being sent, or NULL */
	int out_static; /* out is not malloc()ed (the out-of-memory reply) */
	size_t out_len, out_off;
	size_t in_len;
	char in[TP__CTL_REQUEST_MAX];
};

struct tp__ctl_state {
	int running; /* a thread serves the channel */
	int pid;     /* of the process that opened it */
	int lfd;     /* the listening socket */
	int wake[2]; /* tells the thread to stop */
	pthread_t thread;
	struct tp__ctl_client *cl; /* TP__CTL_CLIENTS slots */
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	char *env_mode, *env_dir; /* TRACEPOINTS_MODE, TRACEPOINTS_DIR at start-up */
	int handlers;		  /* the fork and exit handlers are registered */
};

static struct tp__ctl_state tp__ctl;
/* Start and stop, serialized. */
static pthread_mutex_t tp__ctl_life = PTHREAD_MUTEX_INITIALIZER;
/* The descriptors (listening socket, pipe, clients): taken by the thread
 * while it opens or closes one, and by fork(), so that a child sees them
 * all and closes them. */
static pthread_mutex_t tp__ctl_fds = PTHREAD_MUTEX_INITIALIZER;

/* ---- Replies. ---- */

/* A reply's text grows in a struct tp__text (trace/hist_print.h, which
 * sink.h reads first), tp__text_put() adding to it. */

/* Queues a reply on c: "ok RESULT LEN" or "err ERRNO LEN" (result < 0),
 * then the text.  If memory runs out, a reply without text. */
static void tp__ctl_reply(struct tp__ctl_client *c, int result, struct tp__text *t)
{
	char head[TP__CTL_HEADER_MAX];
	size_t tl = t->oom ? 0 : t->len;
	int hl = result >= 0 ? snprintf(head, sizeof(head), "ok %d %zu\n", result, tl)
			     : snprintf(head, sizeof(head), "err %d %zu\n", -result, tl);
	char *out = (char *)malloc((size_t)hl + tl + 1);
	if (!out) {
		static char bare[] = "err 12 0\n"; /* ENOMEM */
		c->out_static = 1; /* before the pointer: a fork()ed child never frees it */
		__atomic_store_n(&c->out, &bare[0], __ATOMIC_RELEASE);
		c->out_len = sizeof(bare) - 1;
		c->closing = 1;
	} else {
		memcpy(out, head, (size_t)hl);
		if (tl)
			memcpy(out + hl, t->p, tl);
		c->out = out;
		c->out_len = (size_t)hl + tl;
	}
	c->out_off = 0;
	free(t->p);
	t->p = NULL;
	t->len = t->cap = 0;
}

/* The reply is done with.  The pointer is cleared before the block is
 * freed: a fork() from another thread between the two leaves the child
 * (whose fork handler frees what it finds, recorder/ctl_server.h) a NULL,
 * never a block already freed (a double free under AddressSanitizer,
 * t_sanitizers' test_control). */
static void tp__ctl_free_out(struct tp__ctl_client *c)
{
	char *out = c->out;
	int st = c->out_static;
	__atomic_store_n(&c->out, (char *)NULL, __ATOMIC_RELEASE);
	c->out_static = 0;
	c->out_len = c->out_off = 0;
	if (!st)
		free(out);
}

/* ---- The commands. ---- */

struct tp__ctl_match {
	const char *item;
	size_t len;
	unsigned long n;
};

static int tp__ctl_match_cb(const struct tracepoint_info *info, void *priv)
{
	struct tp__ctl_match *m = (struct tp__ctl_match *)priv;
	if (info->event && trace_pattern_match(m->item, m->len, info->system, info->name))
		m->n++;
	return 0;
}

struct tp__ctl_items {
	struct tp__text *t;
	int missing; /* an item matched no event */
};

/* For each item: does it match an event?  The first that does not is
 * named in the reply. */
static int tp__ctl_item_cb(const char *item, size_t len, void *priv)
{
	struct tp__ctl_items *it = (struct tp__ctl_items *)priv;
	struct tp__ctl_match m;
	m.item = item;
	m.len = len;
	m.n = 0;
	trace_recorder_list(tp__ctl_match_cb, &m);
	if (m.n)
		return 0;
	it->missing = 1;
	if (!trace_pattern_is_glob(item, len) && tp__sink_is_system(item, len)) {
		tp__text_put(it->t,
			     "no event of this program matches \"%.*s\": it is a subsystem; "
			     "\"%.*s:*\" selects its events (nothing changed)\n",
			     (int)len, item, (int)len, item);
	} else {
		char near[TRACE_PATTERN_MAX + 32];
		tp__text_put(it->t,
			     "no event of this program matches \"%.*s\"%s (nothing changed; the "
			     "list command shows the events)\n",
			     (int)len, item,
			     trace_pattern_is_glob(item, len)
				     ? ""
				     : tp__sink_did_you_mean(item, len, near, sizeof(near)));
	}
	return 1;
}

/* Does every item of every group of a spec match an event?  The first
 * that does not is named in the reply. */
static int tp__ctl_spec_items(const char *spec, struct tp__ctl_items *it)
{
	size_t at = 0;
	struct trace_spec_group g;
	do {
		size_t next = trace_spec_next(spec, at, &g);
		char pats[TP__CTL_REQUEST_MAX];
		if (g.pat_len < sizeof(pats) && !tp__pat_blank(g.pat, g.pat_len)) {
			memcpy(pats, g.pat, g.pat_len);
			pats[g.pat_len] = '\0';
			trace_pattern_for_each(pats, tp__ctl_item_cb, it);
			if (it->missing)
				return -ENOENT;
		}
		at = next;
	} while (at);
	return 0;
}

/* enable/disable PATTERNS, or enable a spec with filters ("patterns if
 * filter; ...", as TRACEPOINTS takes it): all or nothing as far as the
 * list goes (a malformed list or filter, a field or label the event does
 * not have, an item that matches no event: nothing changes), each said as
 * TRACEPOINTS says it, into the reply. */
static int tp__ctl_enable(const char *list, int on, struct tp__text *t)
{
	size_t pos = 0;
	const char *why = "";
	struct tp__ctl_items it;
	int r;
	it.t = t;
	it.missing = 0;
	if (tp__hist_spec_has(list)) /* "patterns hist:..." (recorder/hist_spec.h) */
		return tp__hist_ctl(list, on, t);
	if (!trace_spec_is_plain(list)) {
		char err[TRACE_FILTER_MAX + 2048];
		struct trace_spec_group g;
		size_t at = 0;
		if (!on) {
			do {
				at = trace_spec_next(list, at, &g);
				if (g.filter) {
					tp__text_put(t, "disable takes patterns only: a filter "
							"('if') stays with its events; enable them "
							"again with another one\n");
					return -EINVAL;
				}
			} while (at);
		}
		err[0] = '\0';
		if (tp__sink_spec_check_to(list, 1, on, err, sizeof(err)) != 0) {
			tp__text_put(t, "%s\n", err[0] ? err : "malformed pattern list");
			return -EINVAL;
		}
		if (tp__ctl_spec_items(list, &it) != 0)
			return -ENOENT;
	} else if (trace_pattern_check(list, &pos, &why) != 0) {
		tp__text_put(t, "malformed pattern list \"%s\": %s at position %zu\n  %s\n  %*s^\n",
			     list, why, pos + 1, list, (int)pos, "");
		return -EINVAL;
	} else {
		trace_pattern_for_each(list, tp__ctl_item_cb, &it);
		if (it.missing)
			return -ENOENT;
	}
	if (on && !__atomic_load_n(&tp__sink.recording, __ATOMIC_ACQUIRE) &&
	    (tp__ctl.env_mode || tp__ctl.env_dir)) {
		/* The trace starts where and how the environment said. */
		r = trace_recorder_output(tp__ctl.env_mode, tp__ctl.env_dir);
		if (r != 0 && r != -EBUSY) {
			tp__text_put(t,
				     "cannot start the trace (TRACEPOINTS_MODE=%s, "
				     "TRACEPOINTS_DIR=%s): %s\n",
				     tp__ctl.env_mode ? tp__ctl.env_mode : "(unset)",
				     tp__ctl.env_dir ? tp__ctl.env_dir : "(unset)", strerror(-r));
			return r;
		}
	}
	r = on ? trace_recorder_enable(list) : trace_recorder_disable(list);
	if (r < 0) {
		tp__text_put(t, "cannot %s \"%s\": %s (the program's stderr says more)\n",
			     on ? "enable" : "disable", list, strerror(-r));
		return r;
	}
	tp__text_put(t, "%s %d event%s matching \"%s\"", on ? "enabled" : "disabled", r,
		     r == 1 ? "" : "s", list);
	if (on && trace_recorder_trace_dir())
		tp__text_put(t, "; trace in %s", trace_recorder_trace_dir());
	tp__text_put(t, "\n");
	return r;
}

static int tp__ctl_list(struct tp__text *t)
{
	char *buf = NULL;
	size_t len = 0, i;
	int lines = 0;
	FILE *f = tp__ctl_open_memstream(&buf, &len);
	if (!f)
		return -ENOMEM;
	trace_recorder_list_print(f);
	if (fclose(f) != 0 || !buf) {
		free(buf);
		return -ENOMEM;
	}
	for (i = 0; i < len; i++)
		lines += buf[i] == '\n';
	free(t->p);
	t->p = buf;
	t->len = len;
	t->cap = len + 1;
	return lines;
}

static int tp__ctl_snapshot(struct tp__text *t)
{
	int r, tries;
	if (!__atomic_load_n(&tp__sink.recording, __ATOMIC_ACQUIRE) ||
	    !trace_recorder_trace_dir()) {
		tp__text_put(t, "nothing is recorded yet: enable events first\n");
		return -EINVAL;
	}
	if (tp__sink.mode != TP__SINK_FLIGHT) {
		tp__text_put(
			t,
			"the trace %s is in stream mode: snapshots are for flight mode "
			"(TRACEPOINTS_MODE=flight); in stream mode the trace on disk is complete\n",
			trace_recorder_trace_dir());
		return -EINVAL;
	}
	/* -EBUSY: the recorder's lock is held for a moment (enabling). */
	for (tries = 0; (r = trace_recorder_snapshot()) == -EBUSY && tries < 200; tries++) {
		struct timespec ts;
		ts.tv_sec = 0;
		ts.tv_nsec = 10000000; /* 10 ms */
		nanosleep(&ts, NULL);
	}
	if (r < 0) {
		tp__text_put(t, "snapshot failed: %s\n", strerror(-r));
		return r;
	}
	tp__text_put(t, "snapshot %d in %s/snapshot-%d\n", r, trace_recorder_trace_dir(), r);
	return r;
}

static int tp__ctl_flush(struct tp__text *t)
{
	long r;
	if (!__atomic_load_n(&tp__sink.recording, __ATOMIC_ACQUIRE) ||
	    !trace_recorder_trace_dir()) {
		tp__text_put(t, "nothing is recorded yet: nothing to flush\n");
		return 0;
	}
	r = trace_recorder_flush();
	if (r < 0) {
		tp__text_put(t, "flush failed: %s\n", strerror((int)-r));
		return (int)r;
	}
	tp__text_put(t, "flushed %s to storage\n", trace_recorder_trace_dir());
	return 0;
}

/* hist [PATTERNS]: the hist triggers' tables as they are now
 * (recorder/hist.h). */
static int tp__ctl_hist(const char *patterns, struct tp__text *t)
{
	char *txt;
	if (!__atomic_load_n(&tp__hist_n, __ATOMIC_ACQUIRE)) {
		tp__text_put(t, "no hist trigger in this process (TRACEPOINTS='system:event "
				"hist:keys=...')\n");
		return -ENOENT;
	}
	if (!(txt = trace_recorder_hist_text(patterns))) {
		t->oom = 1;
		return -ENOMEM;
	}
	tp__text_put(t, "%s", *txt ? txt : "no hist trigger on these events\n");
	free(txt);
	return 0;
}

/* Runs one request line (printable ASCII, no newline, NUL-terminated). */
static int tp__ctl_run(char *line, struct tp__text *t)
{
	static const struct {
		const char *name;
		enum tp__ctl_cmd cmd;
		enum tp__ctl_arg arg;
	} cmds[] = { { "list", TP__CTL_LIST, TP__CTL_NO_ARG },
		     { "enable", TP__CTL_ENABLE, TP__CTL_ARG },
		     { "disable", TP__CTL_DISABLE, TP__CTL_ARG },
		     { "snapshot", TP__CTL_SNAPSHOT, TP__CTL_NO_ARG },
		     { "flush", TP__CTL_FLUSH, TP__CTL_NO_ARG },
		     { "hist", TP__CTL_HIST, TP__CTL_OPT_ARG } };
	char *arg = strchr(line, ' ');
	size_t i, wl = arg ? (size_t)(arg - line) : strlen(line);
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (strlen(cmds[i].name) == wl && memcmp(cmds[i].name, line, wl) == 0)
			break;
	if (i == sizeof(cmds) / sizeof(cmds[0])) {
		tp__text_put(t,
			     "unknown command \"%.*s\" (list, enable PATTERNS, disable PATTERNS, "
			     "snapshot, "
			     "flush, hist [PATTERNS])\n",
			     (int)(wl > 40 ? 40 : wl), line);
		return -EINVAL;
	}
	if (arg)
		arg++;
	if (cmds[i].arg == TP__CTL_ARG && (!arg || !*arg || *arg == ' ')) {
		tp__text_put(t, "%s needs one argument after one space: %s PATTERNS\n",
			     cmds[i].name, cmds[i].name);
		return -EINVAL;
	}
	if (cmds[i].arg == TP__CTL_NO_ARG && arg) {
		tp__text_put(t, "%s takes no argument\n", cmds[i].name);
		return -EINVAL;
	}
	if (cmds[i].cmd == TP__CTL_LIST)
		return tp__ctl_list(t);
	if (cmds[i].cmd == TP__CTL_ENABLE || cmds[i].cmd == TP__CTL_DISABLE)
		return tp__ctl_enable(arg, cmds[i].cmd == TP__CTL_ENABLE, t);
	if (cmds[i].cmd == TP__CTL_SNAPSHOT)
		return tp__ctl_snapshot(t);
	if (cmds[i].cmd == TP__CTL_HIST)
		return tp__ctl_hist(arg, t);
	return tp__ctl_flush(t);
}

#endif /* TP__REC_CTL_COMMANDS_H */
