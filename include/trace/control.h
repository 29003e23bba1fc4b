/* SPDX-License-Identifier: MIT */
/*
 * trace/control.h - the recorder's control channel: tracepoint-ctl lists,
 * enables and disables events, takes snapshots and flushes the trace of a
 * running program, over a unix socket of that process.
 *
 * Included by <trace/sink.h> (its end); the implementation is compiled in
 * the TRACEPOINT_SINK_MAIN translation unit only.  tools/tracepoint-ctl.c
 * includes this file on its own for the protocol's constants.
 *
 * Opt-in only
 * -----------
 *   A program gets a channel when it opts in: TRACEPOINTS_CONTROL=1 in its
 *   environment at start-up, or a call to tracepoint_control_start().
 *   Otherwise nothing exists: no thread, no descriptor, no file, no fork or
 *   exit handler.  Never in a process with AT_SECURE (set-user-ID,
 *   set-group-ID, file capabilities): the variable is ignored there and
 *   tracepoint_control_start() returns -EPERM.
 *
 * Where, and who may connect
 * --------------------------
 *   The socket is DIR/<pid>.sock, DIR being $XDG_RUNTIME_DIR/tracepoints
 *   when XDG_RUNTIME_DIR is an absolute path to a directory, else
 *   /tmp/tracepoints-<euid>.  DIR is made mode 0700 if missing and used
 *   only if it is a directory (not a symbolic link) owned by the process's
 *   effective uid with no group or other permission; the socket is mode
 *   0600.  Another user cannot deny the channel by taking the /tmp name
 *   first (a directory, link or file of theirs there): the program then
 *   uses /tmp/tracepoints-<euid>-XXXXXX, a directory of its user's own
 *   whose name nobody can predict (one made before by that user, 0700, or
 *   a new one from mkdtemp), and says so on stderr; tracepoint-ctl PID
 *   looks there too.  Every connection is checked again with SO_PEERCRED: a peer of
 *   another uid than the process's effective uid (root included) is
 *   refused.
 *
 * The thread
 * ----------
 *   One thread, "tp-control", with every signal blocked, serves up to
 *   TP__CTL_CLIENTS connections at once with poll(): a connection that
 *   makes no progress for TP__CTL_IDLE_MS is closed, and when all slots
 *   are taken a new connection replaces the one idle longest, so neither a
 *   half-open connection nor a flood keeps a good client out.  fork(): the
 *   child has no channel (it closes the inherited descriptors; it may call
 *   tracepoint_control_start() for one of its own); exec(): the
 *   descriptors are O_CLOEXEC; exit(): the thread is stopped and the
 *   socket unlinked (not after _exit() or a fatal signal: the next process
 *   with that pid, or tracepoint-ctl's message, deals with the stale file).
 *
 * Protocol (docs/reference.md#control-protocol)
 * ---------------------------------------------
 *   Request: one line of printable ASCII (0x20-0x7e) ending in '\n', at
 *   most TP__CTL_REQUEST_MAX bytes with the newline:
 *       list | enable PATTERNS | disable PATTERNS | snapshot | flush
 *   (one space between the command and its argument).  Reply: a header
 *   line, then exactly LEN bytes of text (lines ending in '\n'):
 *       ok RESULT LEN\n      RESULT >= 0 (events matched, snapshot number...)
 *       err ERRNO LEN\n      ERRNO > 0 (EINVAL, ENOENT, EMSGSIZE, EACCES...)
 *   Several requests may follow each other on one connection; a request
 *   that cannot be parsed (a byte outside 0x20-0x7e, no newline within the
 *   limit, an end of file in the middle of a line) gets an err reply and
 *   the connection is closed.
 */
#ifndef TRACE_CONTROL_H_INCLUDED
#define TRACE_CONTROL_H_INCLUDED

#ifndef TRACEPOINT_SINK_API
#define TRACEPOINT_SINK_API __attribute__((visibility("default")))
#endif

/* The protocol's limits and places, shared with tools/tracepoint-ctl.c. */
enum tp__ctl_limits {
	TP__CTL_REQUEST_MAX = 4096,        /* bytes in a request, its newline included */
	TP__CTL_HEADER_MAX = 64,           /* bytes in a reply's header line */
	TP__CTL_REPLY_MAX = 64 << 20,      /* bytes in a reply's text */
	TP__CTL_CLIENTS = 16,              /* connections served at once */
	TP__CTL_IDLE_MS = 5000             /* a connection without progress is closed */
};
#define TP__CTL_XDG_SUBDIR "tracepoints"      /* $XDG_RUNTIME_DIR/tracepoints */
#define TP__CTL_TMP_PREFIX "/tmp/tracepoints-" /* /tmp/tracepoints-<euid> */
#define TP__CTL_SOCKET_FMT "%s/%d.sock"       /* DIR/<pid>.sock */

#ifdef __cplusplus
extern "C" {
#endif

/* Opens this process's control channel (what TRACEPOINTS_CONTROL=1 does at
 * start-up): 0, also if it is open already; -EPERM in a process with
 * AT_SECURE; -errno if the directory or the socket cannot be made or used,
 * or the thread cannot be started (reported on stderr with the path). */
TRACEPOINT_SINK_API int tracepoint_control_start(void);
/* Closes it: stops the thread (a command under way finishes first),
 * unlinks the socket.  0, also when there is none.  Must not be called
 * from a signal handler. */
TRACEPOINT_SINK_API int tracepoint_control_stop(void);
/* The socket's path while the channel is open, else NULL. */
TRACEPOINT_SINK_API const char *tracepoint_control_path(void);

#ifdef __cplusplus
}
#endif

#endif /* TRACE_CONTROL_H_INCLUDED */

/* ======================================================================== */
/* The channel itself: in the TRACEPOINT_SINK_MAIN translation unit, read   */
/* at the end of <trace/sink.h> (it uses the recorder's functions).         */
/* ======================================================================== */
#if defined(TP__SINK_DEFINED) && !defined(TP__CTL_DEFINED)
#define TP__CTL_DEFINED

#include <dirent.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What strict ISO C modes hide, under names of our own (asm labels: the C
 * library's symbols, whatever its headers show). */
typedef union {
	unsigned long w[1024 / (8 * sizeof(unsigned long))]; /* at least a sigset_t */
	long double align;
} tp__ctl_sigset;
extern int tp__ctl_sigfillset(tp__ctl_sigset *) __asm__("sigfillset");
extern int tp__ctl_sigmask(int, const tp__ctl_sigset *, tp__ctl_sigset *) __asm__("pthread_sigmask");
extern int tp__ctl_accept4(int, struct sockaddr *, socklen_t *, int) __asm__("accept4");
extern int tp__ctl_pipe2(int *, int) __asm__("pipe2");
extern FILE *tp__ctl_open_memstream(char **, size_t *) __asm__("open_memstream");
extern int tp__ctl_setname(pthread_t, const char *) __asm__("pthread_setname_np");
extern char *tp__ctl_mkdtemp(char *) __asm__("mkdtemp");
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
enum tp__ctl_cmd { TP__CTL_LIST, TP__CTL_ENABLE, TP__CTL_DISABLE, TP__CTL_SNAPSHOT, TP__CTL_FLUSH };
enum tp__ctl_arg { TP__CTL_NO_ARG = 0, TP__CTL_ARG = 1 };

struct tp__ctl_client {
	int fd;             /* -1: a free slot */
	int eof;            /* the peer shut its side down */
	int closing;        /* close once the reply is out (after a parse error) */
	uint64_t seen;      /* CLOCK_MONOTONIC ns of the last progress */
	char *out;          /* the reply being sent, or NULL */
	int out_static;     /* out is not malloc()ed (the out-of-memory reply) */
	size_t out_len, out_off;
	size_t in_len;
	char in[TP__CTL_REQUEST_MAX];
};

struct tp__ctl_state {
	int running;                    /* a thread serves the channel */
	int pid;                        /* of the process that opened it */
	int lfd;                        /* the listening socket */
	int wake[2];                    /* tells the thread to stop */
	pthread_t thread;
	struct tp__ctl_client *cl;      /* TP__CTL_CLIENTS slots */
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	char *env_mode, *env_dir;       /* TRACEPOINTS_MODE, TRACEPOINTS_DIR at start-up */
	int handlers;                   /* the fork and exit handlers are registered */
};

static struct tp__ctl_state tp__ctl;
/* Start and stop, serialized. */
static pthread_mutex_t tp__ctl_life = PTHREAD_MUTEX_INITIALIZER;
/* The descriptors (listening socket, pipe, clients): taken by the thread
 * while it opens or closes one, and by fork(), so that a child sees them
 * all and closes them. */
static pthread_mutex_t tp__ctl_fds = PTHREAD_MUTEX_INITIALIZER;

/* ---- Replies. ---- */

/* Text that grows; `oom` once an allocation failed. */
struct tp__ctl_text {
	char *p;
	size_t len, cap;
	int oom;
};

static void tp__ctl_add(struct tp__ctl_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void tp__ctl_add(struct tp__ctl_text *t, const char *fmt, ...)
{
	va_list ap;
	int n;
	if (t->oom)
		return;
	for (;;) {
		size_t room = t->cap - t->len;
		va_start(ap, fmt);
		n = vsnprintf(t->p ? t->p + t->len : NULL, room, fmt, ap);
		va_end(ap);
		if (n < 0) {
			t->oom = 1;
			return;
		}
		if ((size_t)n < room) {
			t->len += (size_t)n;
			return;
		}
		{
			size_t cap = t->cap ? t->cap : 256;
			char *p;
			while (cap - t->len <= (size_t)n)
				cap *= 2;
			p = (char *)realloc(t->p, cap);
			if (!p) {
				t->oom = 1;
				return;
			}
			t->p = p;
			t->cap = cap;
		}
	}
}

/* Queues a reply on c: "ok RESULT LEN" or "err ERRNO LEN" (result < 0),
 * then the text.  If memory runs out, a reply without text. */
static void tp__ctl_reply(struct tp__ctl_client *c, int result, struct tp__ctl_text *t)
{
	char head[TP__CTL_HEADER_MAX];
	size_t tl = t->oom ? 0 : t->len;
	int hl = result >= 0 ? snprintf(head, sizeof(head), "ok %d %zu\n", result, tl)
			     : snprintf(head, sizeof(head), "err %d %zu\n", -result, tl);
	char *out = (char *)malloc((size_t)hl + tl + 1);
	if (!out) {
		static char bare[] = "err 12 0\n"; /* ENOMEM */
		c->out = bare;
		c->out_static = 1;
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

static void tp__ctl_free_out(struct tp__ctl_client *c)
{
	if (!c->out_static)
		free(c->out);
	c->out = NULL;
	c->out_static = 0;
	c->out_len = c->out_off = 0;
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
	struct tp__ctl_text *t;
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
	tracepoint_list(tp__ctl_match_cb, &m);
	if (m.n)
		return 0;
	it->missing = 1;
	tp__ctl_add(it->t, "no event of this program matches \"%.*s\" (nothing changed; the "
		    "list command shows the events)\n", (int)len, item);
	return 1;
}

/* enable/disable PATTERNS: all or nothing as far as the list goes (a
 * malformed list or an item that matches no event changes nothing). */
static int tp__ctl_enable(const char *list, int on, struct tp__ctl_text *t)
{
	size_t pos = 0;
	const char *why = "";
	struct tp__ctl_items it;
	int r;
	if (trace_pattern_check(list, &pos, &why) != 0) {
		tp__ctl_add(t, "malformed pattern list \"%s\": %s at position %zu\n  %s\n  %*s^\n", list, why,
			    pos + 1, list, (int)pos, "");
		return -EINVAL;
	}
	it.t = t;
	it.missing = 0;
	trace_pattern_for_each(list, tp__ctl_item_cb, &it);
	if (it.missing)
		return -ENOENT;
	if (on && !__atomic_load_n(&tp__sink.recording, __ATOMIC_ACQUIRE) &&
	    (tp__ctl.env_mode || tp__ctl.env_dir)) {
		/* The trace starts where and how the environment said. */
		r = tracepoint_output(tp__ctl.env_mode, tp__ctl.env_dir);
		if (r != 0 && r != -EBUSY) {
			tp__ctl_add(t, "cannot start the trace (TRACEPOINTS_MODE=%s, TRACEPOINTS_DIR=%s): %s\n",
				    tp__ctl.env_mode ? tp__ctl.env_mode : "(unset)",
				    tp__ctl.env_dir ? tp__ctl.env_dir : "(unset)", strerror(-r));
			return r;
		}
	}
	r = on ? tracepoint_enable(list) : tracepoint_disable(list);
	if (r < 0) {
		tp__ctl_add(t, "cannot %s \"%s\": %s (the program's stderr says more)\n", on ? "enable" : "disable",
			    list, strerror(-r));
		return r;
	}
	tp__ctl_add(t, "%s %d event%s matching \"%s\"", on ? "enabled" : "disabled", r, r == 1 ? "" : "s", list);
	if (on && tracepoint_trace_dir())
		tp__ctl_add(t, "; trace in %s", tracepoint_trace_dir());
	tp__ctl_add(t, "\n");
	return r;
}

static int tp__ctl_list(struct tp__ctl_text *t)
{
	char *buf = NULL;
	size_t len = 0, i;
	int lines = 0;
	FILE *f = tp__ctl_open_memstream(&buf, &len);
	if (!f)
		return -ENOMEM;
	tracepoint_list_print(f);
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

static int tp__ctl_snapshot(struct tp__ctl_text *t)
{
	int r, tries;
	if (!__atomic_load_n(&tp__sink.recording, __ATOMIC_ACQUIRE) || !tracepoint_trace_dir()) {
		tp__ctl_add(t, "nothing is recorded yet: enable events first\n");
		return -EINVAL;
	}
	if (tp__sink.mode != TP__SINK_FLIGHT) {
		tp__ctl_add(t, "the trace %s is in stream mode: snapshots are for flight mode "
			    "(TRACEPOINTS_MODE=flight); in stream mode the trace on disk is complete\n",
			    tracepoint_trace_dir());
		return -EINVAL;
	}
	/* -EBUSY: the recorder's lock is held for a moment (enabling). */
	for (tries = 0; (r = tracepoint_snapshot()) == -EBUSY && tries < 200; tries++) {
		struct timespec ts;
		ts.tv_sec = 0;
		ts.tv_nsec = 10000000; /* 10 ms */
		nanosleep(&ts, NULL);
	}
	if (r < 0) {
		tp__ctl_add(t, "snapshot failed: %s\n", strerror(-r));
		return r;
	}
	tp__ctl_add(t, "snapshot %d in %s/snapshot-%d\n", r, tracepoint_trace_dir(), r);
	return r;
}

static int tp__ctl_flush(struct tp__ctl_text *t)
{
	long r;
	if (!__atomic_load_n(&tp__sink.recording, __ATOMIC_ACQUIRE) || !tracepoint_trace_dir()) {
		tp__ctl_add(t, "nothing is recorded yet: nothing to flush\n");
		return 0;
	}
	r = tracepoint_flush();
	if (r < 0) {
		tp__ctl_add(t, "flush failed: %s\n", strerror((int)-r));
		return (int)r;
	}
	tp__ctl_add(t, "flushed %s to storage\n", tracepoint_trace_dir());
	return 0;
}

/* Runs one request line (printable ASCII, no newline, NUL-terminated). */
static int tp__ctl_run(char *line, struct tp__ctl_text *t)
{
	static const struct {
		const char *name;
		enum tp__ctl_cmd cmd;
		enum tp__ctl_arg arg;
	} cmds[] = {
		{ "list", TP__CTL_LIST, TP__CTL_NO_ARG },      { "enable", TP__CTL_ENABLE, TP__CTL_ARG },
		{ "disable", TP__CTL_DISABLE, TP__CTL_ARG },   { "snapshot", TP__CTL_SNAPSHOT, TP__CTL_NO_ARG },
		{ "flush", TP__CTL_FLUSH, TP__CTL_NO_ARG }
	};
	char *arg = strchr(line, ' ');
	size_t i, wl = arg ? (size_t)(arg - line) : strlen(line);
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (strlen(cmds[i].name) == wl && memcmp(cmds[i].name, line, wl) == 0)
			break;
	if (i == sizeof(cmds) / sizeof(cmds[0])) {
		tp__ctl_add(t, "unknown command \"%.*s\" (list, enable PATTERNS, disable PATTERNS, snapshot, "
			    "flush)\n", (int)(wl > 40 ? 40 : wl), line);
		return -EINVAL;
	}
	if (arg)
		arg++;
	if (cmds[i].arg == TP__CTL_ARG && (!arg || !*arg || *arg == ' ')) {
		tp__ctl_add(t, "%s needs one argument after one space: %s PATTERNS\n", cmds[i].name, cmds[i].name);
		return -EINVAL;
	}
	if (cmds[i].arg == TP__CTL_NO_ARG && arg) {
		tp__ctl_add(t, "%s takes no argument\n", cmds[i].name);
		return -EINVAL;
	}
	if (cmds[i].cmd == TP__CTL_LIST)
		return tp__ctl_list(t);
	if (cmds[i].cmd == TP__CTL_ENABLE || cmds[i].cmd == TP__CTL_DISABLE)
		return tp__ctl_enable(arg, cmds[i].cmd == TP__CTL_ENABLE, t);
	if (cmds[i].cmd == TP__CTL_SNAPSHOT)
		return tp__ctl_snapshot(t);
	return tp__ctl_flush(t);
}

/* ---- Connections. ---- */

static void tp__ctl_close(struct tp__ctl_client *c)
{
	pthread_mutex_lock(&tp__ctl_fds);
	close(c->fd);
	c->fd = -1;
	pthread_mutex_unlock(&tp__ctl_fds);
	tp__ctl_free_out(c);
	c->in_len = 0;
	c->eof = c->closing = 0;
}

/* Runs the requests that are complete, one at a time (the next waits
 * until the reply to this one is out). */
static void tp__ctl_serve(struct tp__ctl_client *c)
{
	struct tp__ctl_text t;
	size_t i;
	memset(&t, 0, sizeof(t));
	while (!c->out && !c->closing) {
		int r;
		for (i = 0; i < c->in_len; i++) {
			unsigned char b = (unsigned char)c->in[i];
			if (b == '\n')
				break;
			if (b < 0x20 || b > 0x7e) {
				tp__ctl_add(&t, "malformed request: byte 0x%02x at offset %zu (requests are lines "
					    "of printable ASCII)\n", b, i);
				c->closing = 1;
				tp__ctl_reply(c, -EINVAL, &t);
				return;
			}
		}
		if (i == c->in_len) { /* no newline yet */
			if (c->in_len == sizeof(c->in)) {
				tp__ctl_add(&t, "request too long: no newline in the first %zu bytes\n", sizeof(c->in));
				c->closing = 1;
				tp__ctl_reply(c, -EMSGSIZE, &t);
			} else if (c->eof && c->in_len) {
				tp__ctl_add(&t, "malformed request: end of file before the newline\n");
				c->closing = 1;
				tp__ctl_reply(c, -EINVAL, &t);
			}
			return;
		}
		c->in[i] = '\0';
		r = tp__ctl_run(c->in, &t);
		tp__ctl_reply(c, r, &t);
		c->in_len -= i + 1;
		memmove(c->in, c->in + i + 1, c->in_len);
	}
}

/* Sends what it can of c's reply; closes c when it is done for. */
static void tp__ctl_send(struct tp__ctl_client *c, uint64_t now)
{
	while (c->out) {
		ssize_t n = send(c->fd, c->out + c->out_off, c->out_len - c->out_off, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN) /* EWOULDBLOCK on Linux */
				tp__ctl_close(c);
			return;
		}
		c->seen = now;
		c->out_off += (size_t)n;
		if (c->out_off < c->out_len)
			continue;
		tp__ctl_free_out(c);
		if (c->closing) {
			tp__ctl_close(c);
			return;
		}
		tp__ctl_serve(c); /* the next request, if one is waiting */
	}
	if (c->eof && !c->in_len)
		tp__ctl_close(c);
}

static void tp__ctl_receive(struct tp__ctl_client *c, uint64_t now)
{
	ssize_t n = recv(c->fd, c->in + c->in_len, sizeof(c->in) - c->in_len, MSG_DONTWAIT);
	if (n < 0) {
		if (errno != EAGAIN && errno != EINTR)
			tp__ctl_close(c);
		return;
	}
	c->seen = now;
	if (n == 0)
		c->eof = 1;
	c->in_len += (size_t)n;
	tp__ctl_serve(c);
	tp__ctl_send(c, now);
}

/* Tells a refused peer why, if it listens (one try, no waiting). */
static void tp__ctl_refuse(int fd, int err, const char *why)
{
	char buf[256];
	int hl, n = (int)strlen(why);
	hl = snprintf(buf, sizeof(buf), "err %d %d\n%s", err, n, why);
	if (hl > 0 && send(fd, buf, (size_t)hl < sizeof(buf) ? (size_t)hl : sizeof(buf) - 1,
			   MSG_NOSIGNAL | MSG_DONTWAIT) < 0)
		errno = 0; /* it may have gone: nothing to do */
}

/* Accepts what is waiting: same uid only; when the slots are full, the
 * connection idle longest makes room. */
static void tp__ctl_accept(uint64_t now)
{
	for (;;) {
		struct tp__ctl_ucred cr;
		socklen_t cl = sizeof(cr);
		struct tp__ctl_client *c = NULL;
		int fd, i;
		pthread_mutex_lock(&tp__ctl_fds);
		fd = tp__ctl_accept4(tp__ctl.lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
		pthread_mutex_unlock(&tp__ctl_fds);
		if (fd < 0) {
			if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
				struct timespec ts; /* out of descriptors: try again a little later */
				ts.tv_sec = 0;
				ts.tv_nsec = 100000000;
				nanosleep(&ts, NULL);
			}
			return; /* EAGAIN: nothing left, or a peer gone already */
		}
		if (getsockopt(fd, SOL_SOCKET, TP__CTL_SO_PEERCRED, &cr, &cl) != 0 || cl != sizeof(cr) ||
		    cr.uid != geteuid()) {
			char why[160], key[48];
			unsigned uid = cl == sizeof(cr) ? (unsigned)cr.uid : (unsigned)-1;
			snprintf(why, sizeof(why), "refused: uid %u is not this process's uid %u\n", uid,
				 (unsigned)geteuid());
			tp__ctl_refuse(fd, EACCES, why);
			pthread_mutex_lock(&tp__ctl_fds);
			close(fd);
			pthread_mutex_unlock(&tp__ctl_fds);
			snprintf(key, sizeof(key), "control-refused:%u", uid);
			tp__sink_msg_once(key, "control channel: refused a connection from uid %u (pid %d): only uid %u "
					  "may control this process", uid, cl == sizeof(cr) ? (int)cr.pid : -1,
					  (unsigned)geteuid());
			continue;
		}
		for (i = 0; i < TP__CTL_CLIENTS; i++) {
			struct tp__ctl_client *s = &tp__ctl.cl[i];
			if (s->fd < 0) {
				c = s;
				break;
			}
			if (!c || s->seen < c->seen)
				c = s;
		}
		if (c->fd >= 0)
			tp__ctl_close(c); /* the one idle longest */
		pthread_mutex_lock(&tp__ctl_fds);
		c->fd = fd;
		pthread_mutex_unlock(&tp__ctl_fds);
		c->seen = now;
	}
}

static void *tp__ctl_main(void *arg)
{
	struct pollfd pf[2 + TP__CTL_CLIENTS];
	int idx[2 + TP__CTL_CLIENTS], i;
	(void)arg;
	for (;;) {
		uint64_t now = tp__sink_ns(TP__EV_CLOCK_MONOTONIC), wait = (uint64_t)TP__CTL_IDLE_MS * 1000000u;
		nfds_t n = 2;
		int k;
		pf[0].fd = tp__ctl.wake[0];
		pf[0].events = POLLIN;
		pf[1].fd = tp__ctl.lfd;
		pf[1].events = POLLIN;
		for (i = 0; i < TP__CTL_CLIENTS; i++) {
			struct tp__ctl_client *c = &tp__ctl.cl[i];
			uint64_t end;
			if (c->fd < 0)
				continue;
			end = c->seen + (uint64_t)TP__CTL_IDLE_MS * 1000000u;
			if (end <= now) {
				tp__ctl_close(c); /* no progress for too long: half-open, or not reading */
				continue;
			}
			if (end - now < wait)
				wait = end - now;
			pf[n].fd = c->fd;
			pf[n].events = (short)(c->out ? POLLOUT : c->eof ? 0 : POLLIN);
			idx[n++] = i;
		}
		/* no connection: sleep until one comes (no periodic wake-up) */
		k = poll(pf, n, n == 2 ? -1 : (int)((wait + 999999u) / 1000000u));
		if (k < 0 && errno != EINTR)
			break; /* cannot happen with valid descriptors; do not spin */
		if (k <= 0)
			continue;
		if (pf[0].revents)
			break; /* tracepoint_control_stop() */
		now = tp__sink_ns(TP__EV_CLOCK_MONOTONIC);
		for (i = 2; i < (int)n; i++) {
			struct tp__ctl_client *c = &tp__ctl.cl[idx[i]];
			if (c->fd != pf[i].fd || !pf[i].revents)
				continue;
			if (pf[i].revents & (POLLERR | POLLNVAL))
				tp__ctl_close(c);
			else if (c->out)
				tp__ctl_send(c, now);
			else
				tp__ctl_receive(c, now); /* POLLIN or POLLHUP: recv says which */
		}
		if (pf[1].revents)
			tp__ctl_accept(now);
	}
	for (i = 0; i < TP__CTL_CLIENTS; i++)
		if (tp__ctl.cl[i].fd >= 0)
			tp__ctl_close(&tp__ctl.cl[i]);
	return NULL;
}

/* ---- Opening and closing the channel. ---- */

/* Whether path is a directory (not a symbolic link) of uid me that
 * group and others cannot enter. */
static int tp__ctl_own_dir(const char *path, unsigned me)
{
	struct stat st;
	return fstatat(AT_FDCWD, path, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode) &&
	       (unsigned)st.st_uid == me && !(st.st_mode & 077);
}

/* /tmp/tracepoints-<euid> is taken by another user (who made it first, or
 * planted a link or a file there): the channel goes to a directory of this
 * user's whose name nobody can predict, /tmp/tracepoints-<euid>-XXXXXX -
 * one made before (the first found that is this user's own, 0700, not a
 * link: another user's entries of that shape are skipped), or a new one
 * (mkdtemp: created, never reused from someone else).  tracepoint-ctl
 * looks in these too.  0 or -errno, reported. */
static int tp__ctl_fallback_dir(char *dir, size_t len, const char *taken, const char *why)
{
	char prefix[64];
	unsigned me = (unsigned)geteuid();
	size_t pl;
	DIR *d;
	struct dirent *de;
	int n = snprintf(prefix, sizeof(prefix), "tracepoints-%u-", me);
	pl = (size_t)n;
	dir[0] = '\0';
	if ((d = opendir("/tmp")) != NULL) {
		while ((de = readdir(d)) != NULL) {
			if (strncmp(de->d_name, prefix, pl) != 0 || strlen(de->d_name) != pl + 6)
				continue;
			n = snprintf(dir, len, "/tmp/%s", de->d_name);
			if (n > 0 && (size_t)n < len && tp__ctl_own_dir(dir, me))
				break;
			dir[0] = '\0';
		}
		closedir(d);
	}
	if (!dir[0]) {
		n = snprintf(dir, len, "/tmp/%sXXXXXX", prefix);
		if (n < 0 || (size_t)n >= len || !tp__ctl_mkdtemp(dir)) {
			n = errno;
			tp__sink_msg("control channel: %s %s, and no directory of this user's could be made "
				     "next to it: %s; no control channel", taken, why, strerror(n));
			return -n;
		}
	}
	tp__sink_msg("control channel: %s %s: not used (not followed); the channel is in %s instead "
		     "(tracepoint-ctl finds it there)", taken, why, dir);
	return 0;
}

/* The directory of the sockets, made mode 0700 if missing; used only if
 * it is a directory (a symbolic link is not followed) of this process's
 * effective uid that group and others cannot enter (under /tmp, one that
 * another user made first is replaced by one they cannot predict:
 * tp__ctl_fallback_dir).  0 or -errno, reported. */
static int tp__ctl_dir(char *dir, size_t len)
{
	const char *x = getenv("XDG_RUNTIME_DIR");
	unsigned me = (unsigned)geteuid();
	struct stat st;
	int n, tmp = 0;
	if (x && x[0] == '/' && fstatat(AT_FDCWD, x, &st, 0) == 0 && S_ISDIR(st.st_mode)) {
		n = snprintf(dir, len, "%s/" TP__CTL_XDG_SUBDIR, x);
	} else {
		n = snprintf(dir, len, TP__CTL_TMP_PREFIX "%u", me);
		tmp = 1;
	}
	if (n < 0 || (size_t)n >= len) {
		tp__sink_msg("control channel: XDG_RUNTIME_DIR is too long: no control channel");
		return -ENAMETOOLONG;
	}
	if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
		n = errno;
		tp__sink_msg("control channel: cannot make %s: %s; no control channel", dir, strerror(n));
		return -n;
	}
	if (fstatat(AT_FDCWD, dir, &st, AT_SYMLINK_NOFOLLOW) != 0) {
		n = errno;
		tp__sink_msg("control channel: %s: %s; no control channel", dir, strerror(n));
		return -n;
	}
	if (tmp && (!S_ISDIR(st.st_mode) || (unsigned)st.st_uid != me)) {
		char taken[128], why[96];
		snprintf(taken, sizeof(taken), "%.100s", dir);
		if (S_ISLNK(st.st_mode))
			snprintf(why, sizeof(why), "is a symbolic link of uid %u", (unsigned)st.st_uid);
		else if (!S_ISDIR(st.st_mode))
			snprintf(why, sizeof(why), "is not a directory (uid %u)", (unsigned)st.st_uid);
		else
			snprintf(why, sizeof(why), "belongs to uid %u, not to this process's uid %u",
				 (unsigned)st.st_uid, me);
		return tp__ctl_fallback_dir(dir, len, taken, why);
	}
	if (!S_ISDIR(st.st_mode)) {
		tp__sink_msg("control channel: %s is %s: not used; no control channel", dir,
			     S_ISLNK(st.st_mode) ? "a symbolic link (not followed)" : "not a directory");
		return -ENOTDIR;
	}
	if ((unsigned)st.st_uid != me) {
		tp__sink_msg("control channel: %s belongs to uid %u, not to this process's uid %u: not used; "
			     "no control channel", dir, (unsigned)st.st_uid, me);
		return -EPERM;
	}
	if (st.st_mode & 077) {
		tp__sink_msg("control channel: %s has mode %03o, but group and others must have no access "
			     "(chmod 700 %s): not used; no control channel", dir, (unsigned)(st.st_mode & 0777), dir);
		return -EPERM;
	}
	return 0;
}

/* A listening socket at path (mode 0600), or -errno (reported).  A socket
 * file already there is replaced if nobody answers on it: a process with
 * this pid ended without removing it (killed, _exit(), exec()). */
static int tp__ctl_listen(const char *path)
{
	struct sockaddr_un a;
	struct stat st;
	int fd, e, tries;
	memset(&a, 0, sizeof(a));
	a.sun_family = AF_UNIX;
	memcpy(a.sun_path, path, strlen(path) + 1); /* the length was checked */
	for (tries = 0;; tries++) {
		int probe, alive;
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
		if (fd < 0) {
			e = errno;
			tp__sink_msg("control channel: socket: %s; no control channel", strerror(e));
			return -e;
		}
		if (bind(fd, (struct sockaddr *)&a, sizeof(a)) == 0)
			break;
		e = errno;
		close(fd);
		if (e != EADDRINUSE || tries) {
			tp__sink_msg("control channel: cannot bind %s: %s; no control channel", path, strerror(e));
			return -e;
		}
		if (fstatat(AT_FDCWD, path, &st, AT_SYMLINK_NOFOLLOW) != 0 || !TP__CTL_ISSOCK(st.st_mode) ||
		    st.st_uid != geteuid()) {
			tp__sink_msg("control channel: %s exists and is not a socket of this uid: not removed; "
				     "no control channel", path);
			return -EADDRINUSE;
		}
		probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
		alive = probe >= 0 && (connect(probe, (struct sockaddr *)&a, sizeof(a)) == 0 || errno == EAGAIN ||
				       errno == EINPROGRESS);
		if (probe >= 0)
			close(probe);
		if (alive) {
			tp__sink_msg("control channel: %s is served by another process (one of another pid "
				     "namespace?): no control channel", path);
			return -EADDRINUSE;
		}
		unlink(path); /* stale */
	}
	if (chmod(path, 0600) != 0 || listen(fd, TP__CTL_CLIENTS) != 0) {
		e = errno;
		close(fd);
		unlink(path);
		tp__sink_msg("control channel: cannot listen on %s: %s; no control channel", path, strerror(e));
		return -e;
	}
	return fd;
}

/* fork(): the child has no channel; it closes what it inherited.  Called
 * by the recorder's fork handlers (trace/sink.h), last in its lock order.
 * Only tp__ctl_fds is taken (held for short moments that never wait), not
 * tp__ctl_life: tracepoint_control_stop() holds that while its thread
 * finishes a command, which may need a lock that another fork handler,
 * run before this one, holds. */
static void tp__ctl_atfork_prepare(void)
{
	pthread_mutex_lock(&tp__ctl_fds);
}

static void tp__ctl_atfork_parent(void)
{
	pthread_mutex_unlock(&tp__ctl_fds);
}

static void tp__ctl_atfork_child(void)
{
	int i;
	if (tp__ctl.running) {
		close(tp__ctl.lfd);
		close(tp__ctl.wake[0]);
		close(tp__ctl.wake[1]);
		for (i = 0; i < TP__CTL_CLIENTS; i++) {
			if (tp__ctl.cl[i].fd >= 0)
				close(tp__ctl.cl[i].fd);
			tp__ctl_free_out(&tp__ctl.cl[i]);
		}
		free(tp__ctl.cl);
		tp__ctl.cl = NULL;
		tp__ctl.lfd = tp__ctl.wake[0] = tp__ctl.wake[1] = -1;
		tp__ctl.path[0] = '\0';
		tp__ctl.running = 0; /* the thread does not exist here */
	}
	pthread_mutex_unlock(&tp__ctl_fds);
	/* a start or stop under way in another thread: that thread is gone */
	pthread_mutex_init(&tp__ctl_life, NULL);
}

static void tp__ctl_atexit(void)
{
	tracepoint_control_stop();
}

TRACEPOINT_SINK_API int tracepoint_control_start(void)
{
	char dir[sizeof(tp__ctl.path)];
	tp__ctl_sigset all, old;
	int e, n, i, fd, wk[2] = { -1, -1 };
	struct tp__ctl_client *cl = NULL;
	if (getauxval(AT_SECURE))
		return -EPERM;
	tp__sink_init();
	pthread_mutex_lock(&tp__ctl_life);
	if (tp__ctl.running) {
		pthread_mutex_unlock(&tp__ctl_life);
		return 0;
	}
	/* Outside tp__ctl_fds: fork() holds its handlers' lock while it waits
	 * for ours. */
	if (!tp__ctl.handlers) {
		/* fork(): the recorder's handlers call ours, in the lock order
		 * of trace/sink.h (tp__sink_atfork_prepare). */
		if (atexit(tp__ctl_atexit) != 0) {
			pthread_mutex_unlock(&tp__ctl_life);
			tp__sink_msg("control channel: cannot register its exit handler; no control channel");
			return -ENOMEM;
		}
		tp__ctl.handlers = 1;
	}
	e = tp__ctl_dir(dir, sizeof(dir));
	if (e) {
		pthread_mutex_unlock(&tp__ctl_life);
		return e;
	}
	n = snprintf(tp__ctl.path, sizeof(tp__ctl.path), TP__CTL_SOCKET_FMT, dir, (int)getpid());
	if (n < 0 || (size_t)n >= sizeof(tp__ctl.path)) {
		tp__sink_msg("control channel: %s/%d.sock is longer than a socket's path may be (%zu bytes); "
			     "no control channel", dir, (int)getpid(), sizeof(tp__ctl.path) - 1);
		tp__ctl.path[0] = '\0';
		pthread_mutex_unlock(&tp__ctl_life);
		return -ENAMETOOLONG;
	}
	/* From the first descriptor to the running thread under tp__ctl_fds:
	 * a child forked meanwhile sees all of it or none. */
	pthread_mutex_lock(&tp__ctl_fds);
	fd = tp__ctl_listen(tp__ctl.path);
	if (fd < 0) {
		tp__ctl.path[0] = '\0';
		pthread_mutex_unlock(&tp__ctl_fds);
		pthread_mutex_unlock(&tp__ctl_life);
		return fd;
	}
	cl = (struct tp__ctl_client *)calloc(TP__CTL_CLIENTS, sizeof(*cl));
	if (!cl || tp__ctl_pipe2(wk, O_CLOEXEC | O_NONBLOCK) != 0) {
		e = cl ? errno : ENOMEM;
		goto fail;
	}
	for (i = 0; i < TP__CTL_CLIENTS; i++)
		cl[i].fd = -1;
	tp__ctl.lfd = fd;
	tp__ctl.wake[0] = wk[0];
	tp__ctl.wake[1] = wk[1];
	tp__ctl.cl = cl;
	/* Every signal blocked in the thread, from its first instruction on:
	 * the program's signals go to its own threads, as before. */
	tp__ctl_sigfillset(&all);
	tp__ctl_sigmask(TP__CTL_SIG_SETMASK, &all, &old);
	e = pthread_create(&tp__ctl.thread, NULL, tp__ctl_main, NULL);
	tp__ctl_sigmask(TP__CTL_SIG_SETMASK, &old, NULL);
	if (e)
		goto fail;
	tp__ctl_setname(tp__ctl.thread, "tp-control"); /* named before anyone looks */
	tp__ctl.pid = (int)getpid();
	__atomic_store_n(&tp__ctl.running, 1, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&tp__ctl_fds);
	pthread_mutex_unlock(&tp__ctl_life);
	return 0;
fail:
	if (wk[0] >= 0) {
		close(wk[0]);
		close(wk[1]);
	}
	tp__ctl.lfd = tp__ctl.wake[0] = tp__ctl.wake[1] = -1;
	tp__ctl.cl = NULL;
	free(cl);
	close(fd);
	unlink(tp__ctl.path);
	tp__sink_msg("control channel: cannot start its thread: %s; no control channel", strerror(e));
	tp__ctl.path[0] = '\0';
	pthread_mutex_unlock(&tp__ctl_fds);
	pthread_mutex_unlock(&tp__ctl_life);
	return -e;
}

TRACEPOINT_SINK_API int tracepoint_control_stop(void)
{
	pthread_mutex_lock(&tp__ctl_life);
	if (!tp__ctl.running || tp__ctl.pid != (int)getpid()) {
		pthread_mutex_unlock(&tp__ctl_life);
		return 0;
	}
	unlink(tp__ctl.path); /* first: no new client finds it */
	while (write(tp__ctl.wake[1], "x", 1) < 0 && errno == EINTR)
		;
	pthread_join(tp__ctl.thread, NULL);
	pthread_mutex_lock(&tp__ctl_fds);
	close(tp__ctl.lfd);
	close(tp__ctl.wake[0]);
	close(tp__ctl.wake[1]);
	tp__ctl.lfd = tp__ctl.wake[0] = tp__ctl.wake[1] = -1;
	free(tp__ctl.cl); /* the thread closed every client */
	tp__ctl.cl = NULL;
	__atomic_store_n(&tp__ctl.running, 0, __ATOMIC_RELEASE);
	tp__ctl.path[0] = '\0';
	pthread_mutex_unlock(&tp__ctl_fds);
	pthread_mutex_unlock(&tp__ctl_life);
	return 0;
}

TRACEPOINT_SINK_API const char *tracepoint_control_path(void)
{
	return __atomic_load_n(&tp__ctl.running, __ATOMIC_ACQUIRE) ? tp__ctl.path : NULL;
}

/* TRACEPOINTS_CONTROL=1: after the recorder's own start-up (priority 101),
 * so that a trace asked for by TRACEPOINTS has started. */
__attribute__((constructor(102))) static void tp__ctl_from_env(void)
{
	const char *v = tp__sink_getenv("TRACEPOINTS_CONTROL"), *mode, *dir;
	char shown[48];
	if (!v || !*v || strcmp(v, "0") == 0)
		return; /* unset, off, or ignored (AT_SECURE) */
	if (strcmp(v, "1") != 0) {
		tp__sink_msg("TRACEPOINTS_CONTROL=\"%s\" is neither 0 nor 1: no control channel",
			     tp__sink_shown(v, shown, sizeof(shown)));
		return;
	}
	mode = tp__sink_getenv("TRACEPOINTS_MODE");
	dir = tp__sink_getenv("TRACEPOINTS_DIR");
	/* Where a trace started by the channel goes (a bad mode is said once,
	 * here or by the recorder's start-up, whichever came first). */
	if (mode && strcmp(mode, "stream") != 0 && strcmp(mode, "flight") != 0) {
		tp__sink_init(); /* said once, by whichever reads it first */
		tp__sink_msg_once("env-mode", "TRACEPOINTS_MODE=\"%s\" is neither stream nor flight; using stream",
				  tp__sink_shown(mode, shown, sizeof(shown)));
		mode = NULL;
	}
	tp__ctl.env_mode = mode ? strdup(mode) : NULL;
	tp__ctl.env_dir = dir && *dir ? strdup(dir) : NULL;
	tracepoint_control_start(); /* reports its errors */
}

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TP__SINK_DEFINED && !TP__CTL_DEFINED */
