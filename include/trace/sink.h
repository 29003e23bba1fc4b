/* SPDX-License-Identifier: MIT */
/*
 * trace/sink.h - the built-in recorder: runtime control by pattern or by the
 * TRACEPOINTS environment variable, and traces streamed to disk as CTF.
 *
 * Where the once-per-program state lives
 * --------------------------------------
 *   Exactly one translation unit of the program (normally the one with
 *   main()) does
 *
 *       #define TRACEPOINT_SINK_MAIN
 *       #include <trace/sink.h>
 *
 *   That file holds the recorder's state and the definitions, with default
 *   visibility, of the functions declared below; every other file that
 *   includes <trace/sink.h> only gets the declarations.  Recorders need no
 *   global symbol: the sink hands each recorder probe its state as the
 *   probe's `void *data`, so the events of the executable, of linked
 *   libraries and of libraries dlopen()ed later all go to the same trace.
 *
 * What is recorded, and where (docs/trace-format.md)
 * --------------------------------------------------
 *   TRACEPOINTS_DIR is a session directory holding one trace per process
 *   (forked children and exec()ed programs add theirs).  A trace is a
 *   directory: a CTF `metadata` file (every enabled event with its fields,
 *   written before the event is attached) and one stream file per thread.  Each thread records into a window of its own file, mapped
 *   MAP_SHARED: a record is a few stores, and when the window is full the
 *   thread maps the next one.  Nothing is formatted in the traced process,
 *   no thread is started, and no lock is shared between recording threads.
 *   The pages belong to the file, so a process that dies - killed, crashed,
 *   _exit, exec - leaves every committed record on disk.  Read a trace with
 *   tools/tracepoint-dump (text, Chrome JSON, summary) or babeltrace2.
 *
 *   Flight-recorder mode keeps a fixed ring per thread instead (the last
 *   TRACEPOINTS_FLIGHT_KB of each thread); tracepoint_snapshot() freezes a
 *   copy that later records cannot overwrite.
 *
 * Environment (read at start-up by the TRACEPOINT_SINK_MAIN file: in an
 * executable before any library's constructor, from .preinit_array;
 * all ignored, silently, in a set-user-ID, set-group-ID or file-capability
 * program: docs/recording.md)
 * ---------------------------------------------------------------------
 *   TRACEPOINTS=list                 print every tracepoint and exit(0)
 *   TRACEPOINTS="kmem:*,timer:timer_start"   record these (trace/pattern.h)
 *   TRACEPOINTS='kmem:kmalloc if bytes_req > 4096; timer:*'   with a field
 *                                    filter (trace/filter.h)
 *   TRACEPOINTS_DIR=path             the session directory (default
 *                                    trace-<comm>-<pid>, made new), also
 *                                    for the program's own tracepoint_enable();
 *                                    a symbolic link in it that another user
 *                                    could have made is refused, at any
 *                                    component (docs/recording.md)
 *   TRACEPOINTS_MODE=stream|flight   default stream
 *   TRACEPOINTS_BUFFER_KB=n          window (packet) size, default 1024, at most
 *                                    1048576 (1 GiB)
 *   TRACEPOINTS_FLIGHT_KB=n          flight mode: ring per thread, default 4096, at
 *                                    most 4194304 (4 GiB)
 *   TRACEPOINTS_SNAPSHOT_SIGNAL=SIGUSR2   flight mode: snapshot on a signal
 *   TRACEPOINTS_CLOCK=counter|monotonic  default counter where usable
 *   TRACEPOINTS_CONTROL=1            open the control channel (trace/control.h)
 * (a TRACEPOINTS-like name not listed here is reported: trace/sink_env.h)
 */
#ifndef TRACE_SINK_H_INCLUDED
#define TRACE_SINK_H_INCLUDED

#include <trace/trace_events.h>
#include <trace/pattern.h>
#include <trace/filter.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What tracepoint_list() reports for each tracepoint. */
struct tracepoint_info {
	struct tracepoint *tp;
	const struct trace_event *event; /* NULL: plain DECLARE_TRACE, not recordable */
	const char *system;              /* "" for a plain tracepoint */
	const char *name;
	int enabled;                     /* the recorder is attached */
};

#define TRACEPOINT_SINK_API __attribute__((visibility("default")))

/* Attaches the recorder to every event matching the pattern list; the
 * first call starts the trace, unless tracepoint_output() did, in
 * TRACEPOINTS_DIR and TRACEPOINTS_MODE (as at start-up; else the default
 * directory and stream mode).  Returns how many events matched (events
 * already recorded count; 0: none, reported on stderr), -EINVAL for a
 * malformed or NULL list (reported with its position, nothing changed), or
 * the first error (starting the trace: -errno, reported with the path;
 * registering: e.g. -ENOMEM, -EPERM, reported with the event). */
TRACEPOINT_SINK_API int tracepoint_enable(const char *patterns);
/* Detaches the recorder from every event matching the pattern list.
 * Returns how many events matched (0: none, reported), or -EINVAL for a
 * malformed or NULL list (reported, nothing changed). */
TRACEPOINT_SINK_API int tracepoint_disable(const char *patterns);
/* Sets the field filter (trace/filter.h) of every event matching the
 * pattern list; NULL or "" clears it.  Returns how many events matched
 * (0: none, reported like the errors), -EINVAL for a malformed list or filter, a field an
 * event does not have or a type mismatch (nothing changed; the message,
 * with its position and a caret, goes to err[0..errlen) if err is not
 * NULL, else to stderr), or -ENOMEM. */
TRACEPOINT_SINK_API int tracepoint_filter(const char *patterns, const char *filter, char *err,
					  size_t errlen);
/* Starts the trace: mode "stream" or "flight" (NULL: TRACEPOINTS_MODE,
 * else stream), dir the session directory (NULL: TRACEPOINTS_DIR, else
 * trace-<comm>-<pid>, made new); a mode or dir that differs from the
 * environment's is used, and said once on stderr.  0, -EINVAL (unknown mode; "text" and
 * "json" are made by tracepoint-dump from a trace), -EBUSY (a trace is
 * already being recorded) or -errno (cannot create it; reported). */
TRACEPOINT_SINK_API int tracepoint_output(const char *mode, const char *dir);
/* This process's trace directory (SESSION/<comm>-<pid>), or NULL before the
 * trace starts and in a forked child before its first record. */
TRACEPOINT_SINK_API const char *tracepoint_trace_dir(void);
/* Writes what was recorded so far through to storage (fdatasync of every
 * open stream and of the metadata): 0 (also when nothing is recorded) or
 * the first -errno.  Not needed for a complete trace: the pages are the
 * file's, the kernel writes them back even if the process dies. */
TRACEPOINT_SINK_API long tracepoint_flush(void);
/* Flight mode: copies the rings as they are now into <dir>/snapshot-<n>
 * (a trace of its own) and returns n (1, 2, ...); -EINVAL in stream mode
 * or when nothing is recorded, -EBUSY if the recorder's lock is held (a
 * snapshot from a signal handler that interrupted tracepoint_enable), or
 * -errno.  Async-signal-safe. */
TRACEPOINT_SINK_API int tracepoint_snapshot(void);
/* Records lost so far (cannot fail): a nested record from a signal
 * handler, a window that could not be allocated (disk full), a record
 * bigger than a window. */
TRACEPOINT_SINK_API unsigned long long tracepoint_dropped(void);
/* Calls fn for every tracepoint of the running program; a non-zero return
 * stops the walk and is returned; 0 after a full walk; -EINVAL for NULL fn.
 * fn must not dlopen/dlclose. */
TRACEPOINT_SINK_API int tracepoint_list(int (*fn)(const struct tracepoint_info *info, void *priv),
					void *priv);
/* Prints the TRACEPOINTS=list lines, "system:event (fields...)" and the
 * kind of a slice, counter or flow ("[slice_begin]", "[counter flow]"...),
 * one per tracepoint, to out (NULL: stdout).  No return value. */
TRACEPOINT_SINK_API void tracepoint_list_print(FILE *out);
/* Prints the format of every event (TRACEPOINTS=list-format) in the
 * layout of the kernel's tracefs "format" files, each after a "system:"
 * line (the kernel's file has it in its path): name, ID (the event's
 * position in this list), one "field:" line per field with its offset in
 * the entry, size and signedness, and "print fmt:".  To out (NULL:
 * stdout); no return value. */
TRACEPOINT_SINK_API void tracepoint_format_print(FILE *out);
/* Window (packet) size for streams opened from now on: rounded up to a
 * power of two, at least 4096, at most 1 GiB.  No return value: any size
 * is brought into that range. */
TRACEPOINT_SINK_API void tracepoint_buffer_size(size_t bytes);
/* Flight mode: bytes of ring per thread for streams opened from now on
 * (at least two windows, at most 4 GiB).  No return value: any size is
 * brought into that range. */
TRACEPOINT_SINK_API void tracepoint_flight_size(size_t bytes);

#ifdef __cplusplus
}
#endif

/* ======================================================================== */
/* The recorder itself: only in the one TRACEPOINT_SINK_MAIN translation unit. */
/* ======================================================================== */
#ifdef TRACEPOINT_SINK_MAIN
#ifdef TP__SINK_DEFINED
#error "TRACEPOINT_SINK_MAIN: the sink is defined once per translation unit"
#endif
#define TP__SINK_DEFINED

#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#ifdef __cplusplus
extern "C" {
#endif

/* POSIX and GNU calls that strict ISO C modes (-std=c99) hide, declared
 * only where the C library hides them (glibc's feature macros), so that
 * -Wredundant-decls stays quiet. */
#ifndef __cplusplus
#ifndef __USE_MISC
extern int madvise(void *, size_t, int); /* syscall(): tracepoint/grace.h */
#endif
#if !defined(__USE_XOPEN_EXTENDED) && !defined(__USE_XOPEN2K8)
extern char *strdup(const char *);
#endif
#ifndef __USE_GNU
extern int fallocate(int, int, off_t, off_t);
#endif
#if !defined(__USE_POSIX199309) && !defined(__USE_UNIX98)
extern int fdatasync(int);
#endif
#if !defined(__USE_UNIX98) && !defined(__USE_XOPEN2K8)
extern ssize_t pwrite(int, const void *, size_t, off_t);
#endif
#if !defined(__USE_POSIX199309) && !defined(__USE_XOPEN_EXTENDED) && !defined(__USE_XOPEN2K8)
extern int ftruncate(int, off_t);
#endif
#ifndef __USE_ATFILE
extern int mkdirat(int, const char *, mode_t);
extern int openat(int, const char *, int, ...);
extern int renameat(int, const char *, int, const char *);
extern int unlinkat(int, const char *, int);
extern int fstatat(int, const char *, struct stat *, int);
extern ssize_t readlinkat(int, const char *, char *, size_t);
#endif
#if !defined(__USE_MISC) && !defined(__USE_UNIX98) && !defined(__USE_XOPEN2K)
extern int gethostname(char *, size_t);
#endif
#endif
/* glibc's own signal() (BSD semantics: stays installed, restarts calls),
 * whatever the -std: strict ISO modes redirect `signal` to SysV's. */
extern void (*tp__sink_signal(int, void (*)(int)))(int) __asm__("signal");
#ifndef CLOCK_REALTIME
#define CLOCK_REALTIME 0
#endif
#define TP__SINK_MADV_POPULATE_WRITE 23 /* Linux 5.14 */
#ifndef MAP_ANONYMOUS
#define MAP_ANONYMOUS 0x20
#endif
#ifndef AT_FDCWD
#define AT_FDCWD -100
#endif
#ifndef AT_REMOVEDIR
#define AT_REMOVEDIR 0x200
#endif
#ifndef AT_SYMLINK_NOFOLLOW
#define AT_SYMLINK_NOFOLLOW 0x100
#endif
__extension__ typedef unsigned __int128 tp__sink_u128;
#ifndef O_CLOEXEC
#define O_CLOEXEC 02000000
#endif
#ifndef O_NOFOLLOW
#define O_NOFOLLOW 0400000
#endif
#ifndef O_DIRECTORY
#define O_DIRECTORY 0200000
#endif
/* O_PATH (Linux 2.6.39; hidden without _GNU_SOURCE): a descriptor of the
 * symbolic link itself, whose fstat and readlinkat(fd, "") see one link */
#ifdef O_PATH
#define O_PATH_TP O_PATH
#else
#define O_PATH_TP 010000000
#endif
#ifndef MAP_SHARED
#define MAP_SHARED 0x01
#endif
#ifndef O_NONBLOCK
#define O_NONBLOCK 04000
#endif
#ifndef O_NOCTTY
#define O_NOCTTY 0400
#endif
#ifndef AT_SECURE
#define AT_SECURE 23
#endif
#ifndef S_ISVTX
#define S_ISVTX 01000
#endif

/* The largest window (TRACEPOINTS_BUFFER_KB, tracepoint_buffer_size) and
 * flight ring per thread (TRACEPOINTS_FLIGHT_KB, tracepoint_flight_size):
 * each is allocated on disk (fallocate) and mapped in one piece, the window
 * faulted in at once. */
#define TP__SINK_WINDOW_MAX ((size_t)1 << 30)                            /* 1 GiB */
#define TP__SINK_RING_MAX ((size_t)1 << (sizeof(size_t) > 4 ? 32 : 30)) /* 4 GiB */

/* Recorder modes. */
enum tp__sink_mode { TP__SINK_STREAM = 0, TP__SINK_FLIGHT = 1 };

/* A thread's node state (struct tp__sink_node.state). */
enum tp__sink_state {
	TP__SINK_FREE = 0,   /* may be claimed by a new thread */
	TP__SINK_OWNED = 1,  /* its thread records; its exit handler closes the stream */
	TP__SINK_EXITED = 2, /* stream closed (exit handler ran); free once the thread is gone */
	TP__SINK_LATE = 3,   /* its thread records, but no exit handler will close the stream
			     (an event after the handler ran, or no thread key): whoever
			     finds the thread gone closes it (tp__sink_reap_node) */
	TP__SINK_CLOSING = 4 /* a thread gone: its stream is being closed by another one */
};

/* Errors reported once per process (a bit each). */
enum tp__sink_err {
	TP__SINK_ERR_WINDOW = 1,  /* a window could not be allocated or mapped */
	TP__SINK_ERR_STREAM = 2,  /* a stream file could not be created */
	TP__SINK_ERR_TOOBIG = 4,  /* a record bigger than a window */
	TP__SINK_ERR_META = 8,    /* the metadata could not be written */
	TP__SINK_ERR_CHILD = 16   /* a forked child's trace could not be made */
};

enum {
	TP__SINK_PATH_MAX = 4096,
	TP__SINK_PACKET = (int)sizeof(struct trace_packet),
	TP__SINK_RETRY_DROPS = 1024, /* records dropped before a failed window is tried again */
	TP__SINK_CHILD_WAITS = 20000, /* 50 us sleeps (1 s): a forked child's thread waits for */
	TP__SINK_CHILD_WAIT_NS = 50000, /* another one that is making the child's trace */
	TP__SINK_SETTLE_WAITS = 20000, /* 50 us sleeps (1 s): exit() waits for other threads */
	TP__SINK_SETTLE_WAIT_NS = 50000 /* to finish changing a stream file */
};

/* One thread's buffer: the recorder's part first.  Nodes are mmap()ed
 * (async-signal-safe), never freed, and reused once their thread is gone. */
struct tp__sink_node {
	struct trace_buffer b;
	int state;                   /* enum tp__sink_state */
	struct tp__sink_node *next;     /* the sink's list (push only) */
	int fd;                      /* the stream file, -1: none */
	int tid;
	int exit_done;               /* its exit handler is done with it */
	unsigned char *map;          /* stream: the window; flight: the ring */
	size_t map_len;
	uint64_t window;             /* packet size of this stream */
	uint64_t file_off;           /* stream: offset of the next window */
	uint64_t seq;                /* packets opened (released: snapshots read it) */
	unsigned nwin;               /* flight: packets in the ring */
	uint64_t retry_at;           /* after a failure: dropped count to try again at */
	int snap_busy;               /* a snapshot is copying this ring */
	uint64_t bytes;              /* bytes of closed packets */
};

struct tp__sink_slot_ref {
	const struct tracepoint *tp;
	struct trace_event_sink *slot;
};

struct tp__sink_sink {
	struct trace_sink_base base;    /* first: what recorders see */
	pthread_mutex_t lock;           /* enabling, metadata, trace start; a
					   recording thread only tries it (or, in
					   a forked child, waits a bounded time) */
	pthread_mutex_t msg_lock;       /* the reported-once list */
	pthread_key_t key;              /* closes a thread's stream when it exits */
	int have_key;                   /* pthread_key_create() succeeded */
	struct tp__sink_node *nodes;
	int inited, recording, mode, pid;
	int rootfd, dirfd, metafd, child_pending;
	int child_maker;                /* the tid making a forked child's trace, or 0 */
	char root[TP__SINK_PATH_MAX];      /* the session directory */
	char dir[TP__SINK_PATH_MAX];       /* this process's trace in it */
	char procname[17];
	uint8_t uuid[16];
	size_t window, flight_bytes;
	uint64_t freq, c0, r0, m0;      /* clock: ticks/s; at tick c0, realtime and
					   CLOCK_MONOTONIC ns */
	char *events;                   /* the metadata's event blocks */
	size_t events_len, events_cap;
	struct trace_event_sink **slots; /* by id */
	char **slot_names;              /* "system:event" of each */
	size_t nslots, capslots;
	struct tp__sink_slot_ref *attached;
	size_t nattached, capattached;
	unsigned long long lost;        /* records with no buffer at all */
	unsigned long long gone_dropped, gone_bytes; /* of exited threads */
	unsigned snapshots;
	int errs;                       /* enum tp__sink_err bits already reported */
	int ring_warned;                /* a too small flight ring was reported */
	int closing;                    /* exit() has begun (tp__sink_end) ... */
	unsigned long closer;           /* ... in this thread (pthread_self()) */
	int switching;                  /* threads changing a window or closing
					   a stream file (tp__sink_file_begin) */
	char **reported;
	size_t nreported;
	char *env_dir, *env_mode;       /* TRACEPOINTS_DIR (NULL: unset or empty) and
					   TRACEPOINTS_MODE at start-up */
};

static struct tp__sink_sink tp__sink;
static pthread_once_t tp__sink_once = PTHREAD_ONCE_INIT;
static __thread struct tp__sink_node *tp__sink_mine;

/* ---- The recorder's locks, in their one order (docs/design.md#locks) ----
 * 1. the walk guard of the core (modules.h; dl_iterate_phdr()'s lock is
 *    taken inside it), 2. tp__sink.lock, 3. tp__sink.msg_lock, 4. the
 *    control channel's tp__ctl_fds (control.h).  A thread holding one takes
 *    only later ones; the recorder's lock is always taken with the guard,
 *    first, since enabling holds the guard (walking the modules) when it
 *    takes the recorder's lock.  fork()'s prepare handler takes all four in
 *    this order (tp__sink_atfork_prepare), so no registration order of
 *    pthread_atfork() handlers can make a fork wait in a circle. */
static void tp__sink_lock(void)
{
	tp__guard_lock();
	pthread_mutex_lock(&tp__sink.lock);
}

/* Both or neither, without waiting: 0 if taken (a recording thread, a
 * signal handler). */
static int tp__sink_trylock(void)
{
	if (!tp__guard_trylock())
		return EBUSY;
	if (pthread_mutex_trylock(&tp__sink.lock) != 0) {
		tp__guard_unlock();
		return EBUSY;
	}
	return 0;
}

static void tp__sink_unlock(void)
{
	pthread_mutex_unlock(&tp__sink.lock);
	tp__guard_unlock();
}

static int tp__sink_gettid(void)
{
	return (int)syscall(__NR_gettid);
}

static uint64_t tp__sink_ns(clockid_t c)
{
	struct timespec ts;
	clock_gettime(c, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void tp__sink_vmsg(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
static void tp__sink_vmsg(const char *fmt, va_list ap)
{
	char buf[1024];
	int n = snprintf(buf, sizeof(buf), "tracepoints: ");
	n += vsnprintf(buf + n, sizeof(buf) - (size_t)n - 1, fmt, ap);
	if (n > (int)sizeof(buf) - 2)
		n = (int)sizeof(buf) - 2;
	buf[n++] = '\n';
	if (write(2, buf, (size_t)n) < 0) {
		/* nowhere left to say it */
	}
}

/* A message on stderr (one write(), async-signal-safe in practice: no
 * allocation). */
static void tp__sink_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void tp__sink_msg(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	tp__sink_vmsg(fmt, ap);
	va_end(ap);
}

/* Reports an error of kind `err` the first time only. */
static void tp__sink_err_once(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void tp__sink_err_once(int err, const char *fmt, ...)
{
	va_list ap;
	if (__atomic_fetch_or(&tp__sink.errs, err, __ATOMIC_RELAXED) & err)
		return;
	va_start(ap, fmt);
	tp__sink_vmsg(fmt, ap);
	va_end(ap);
}

/* Prints a message the first time its key is seen (not signal-safe). */
static void tp__sink_msg_once(const char *key, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void tp__sink_msg_once(const char *key, const char *fmt, ...)
{
	size_t i;
	va_list ap;
	char **n;
	pthread_mutex_lock(&tp__sink.msg_lock);
	for (i = 0; i < tp__sink.nreported; i++) {
		if (strcmp(tp__sink.reported[i], key) == 0) {
			pthread_mutex_unlock(&tp__sink.msg_lock);
			return;
		}
	}
	n = (char **)realloc(tp__sink.reported, (tp__sink.nreported + 1) * sizeof(*n));
	if (n) {
		tp__sink.reported = n;
		if ((n[tp__sink.nreported] = strdup(key)) != NULL)
			tp__sink.nreported++;
	}
	va_start(ap, fmt);
	tp__sink_vmsg(fmt, ap);
	va_end(ap);
	pthread_mutex_unlock(&tp__sink.msg_lock);
}

/* Every TRACEPOINTS* variable is read through this: in a process with
 * AT_SECURE (set-user-ID or set-group-ID, file capabilities, an LSM
 * transition) the environment belongs to whoever ran it, so the variables
 * are ignored, silently, as secure_getenv() (glibc, _GNU_SOURCE) would -
 * the kernel's AT_SECURE flag is what it checks too. */
static const char *tp__sink_getenv(const char *name)
{
	return getauxval(AT_SECURE) ? NULL : getenv(name);
}

/* A value from the environment as shown in a message: at most 40 bytes,
 * control characters as '?'. */
static const char *tp__sink_shown(const char *v, char *buf, size_t len)
{
	size_t i;
	for (i = 0; v[i] && i + 4 < len && i < 40; i++)
		buf[i] = (unsigned char)v[i] < 0x20 || v[i] == 0x7f ? '?' : v[i];
	if (v[i]) {
		memcpy(buf + i, "...", 3);
		i += 3;
	}
	buf[i] = '\0';
	return buf;
}

/* ---- The clock. ---- */

/* Is the cycle counter a usable clock?  x86-64: constant and nonstop TSC;
 * aarch64: always (the generic timer). */
static int tp__sink_counter_ok(void)
{
#if defined(__x86_64__)
	char line[4096];
	int ok = 0;
	FILE *f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5) != 0)
			continue;
		ok = strstr(line, " constant_tsc") && strstr(line, " nonstop_tsc");
		break;
	}
	fclose(f);
	return ok;
#elif defined(__aarch64__)
	return 1;
#else
	return 0;
#endif
}

/* A (counter, CLOCK_MONOTONIC) pair read as close together as possible:
 * the best of a few tries (a VM may be descheduled between two reads). */
static void tp__sink_clock_pair(uint64_t *c, uint64_t *m)
{
	uint64_t best = ~(uint64_t)0;
	int i;
	for (i = 0; i < 8; i++) {
		uint64_t t1 = tp__ev_clock(tp__sink.base.clock), mm = tp__sink_ns(TP__EV_CLOCK_MONOTONIC);
		uint64_t t2 = tp__ev_clock(tp__sink.base.clock);
		if (t2 - t1 < best) {
			best = t2 - t1;
			*c = t1 + (t2 - t1) / 2;
			*m = mm;
		}
	}
}

/* The counter's frequency against CLOCK_MONOTONIC from the anchor
 * (c0, m0) to now, at least `at_least_ns` after it. */
static uint64_t tp__sink_measure_freq(uint64_t c0, uint64_t m0, uint64_t at_least_ns)
{
	uint64_t c1, m1;
	if (tp__sink.base.clock != TRACE_CLOCK_COUNTER)
		return 1000000000u;
	while ((m1 = tp__sink_ns(TP__EV_CLOCK_MONOTONIC)) - m0 < at_least_ns) {
		struct timespec ts;
		ts.tv_sec = 0;
		ts.tv_nsec = (long)(at_least_ns - (m1 - m0));
		nanosleep(&ts, NULL);
	}
	tp__sink_clock_pair(&c1, &m1);
	if (m1 == m0 || c1 <= c0)
		return 1000000000u;
	return (uint64_t)((tp__sink_u128)(c1 - c0) * 1000000000u / (m1 - m0));
}


static void tp__sink_clock_start(void)
{
	uint64_t m, r;
	tp__sink_clock_pair(&tp__sink.c0, &m);
	r = tp__sink_ns(CLOCK_REALTIME) - (tp__sink_ns(TP__EV_CLOCK_MONOTONIC) - m);
	tp__sink.m0 = m;
	tp__sink.r0 = r; /* realtime at the anchor */
	tp__sink.freq = tp__sink_measure_freq(tp__sink.c0, m, 5000000u);
}

/* ---- Metadata (CTF 1.8 TSDL). ---- */

static void tp__sink_uuid_str(const uint8_t *u, char *out)
{
	static const char hex[] = "0123456789abcdef";
	int i, k = 0;
	for (i = 0; i < 16; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			out[k++] = '-';
		out[k++] = hex[u[i] >> 4];
		out[k++] = hex[u[i] & 15];
	}
	out[k] = '\0';
}

static void tp__sink_new_uuid(uint8_t *u)
{
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	uint64_t x = tp__ev_clock(tp__sink.base.clock) ^ ((uint64_t)getpid() << 32), y;
	if (fd < 0 || read(fd, u, 16) != 16) {
		y = tp__sink_ns(CLOCK_REALTIME) * 0x9e3779b97f4a7c15ull;
		memcpy(u, &x, 8);
		memcpy(u + 8, &y, 8);
	}
	if (fd >= 0)
		close(fd);
	u[6] = (uint8_t)((u[6] & 0x0f) | 0x40); /* version 4 */
	u[8] = (uint8_t)((u[8] & 0x3f) | 0x80);
}

/* Copies s into a TSDL string literal's body (quotes and backslashes escaped). */
static void tp__sink_tsdl_str(char *out, size_t len, const char *s)
{
	size_t k = 0;
	for (; *s && k + 3 < len; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			out[k++] = '\\';
		out[k++] = c < 0x20 ? '?' : (char)c;
	}
	out[k] = '\0';
}

/* Renders the metadata's fixed part for a trace with this uuid into buf
 * (no allocation: used in a forked child and by snapshots); its length. */
static size_t tp__sink_meta_header(char *buf, size_t len, const uint8_t *uuid, const char *mode)
{
	char u[40], host[256] = "", proc[64], hostq[512];
	const char *clk = tp__sink.base.clock == TRACE_CLOCK_COUNTER ? "tsc" : "monotonic";
	uint64_t ns_at_c0 = (uint64_t)((tp__sink_u128)tp__sink.c0 * 1000000000u / tp__sink.freq);
	uint64_t t0 = tp__sink.r0 - ns_at_c0; /* realtime ns at tick 0 */
	uint64_t off_s = t0 / 1000000000u;
	uint64_t off = (uint64_t)((tp__sink_u128)(t0 % 1000000000u) * tp__sink.freq / 1000000000u);
	int n;
	tp__sink_uuid_str(uuid, u);
	gethostname(host, sizeof(host) - 1);
	tp__sink_tsdl_str(hostq, sizeof(hostq), host);
	tp__sink_tsdl_str(proc, sizeof(proc), tp__sink.procname);
	n = snprintf(buf, len,
		"/* CTF 1.8 */\n"
		"/* Written by tracepoint.h's recorder; see docs/trace-format.md. */\n\n"
		"typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
		"typealias integer { size = 32; align = 32; signed = false; } := uint32_t;\n"
		"typealias integer { size = 64; align = 64; signed = false; } := uint64_t;\n\n"
		"trace {\n\tmajor = 1;\n\tminor = 8;\n\tuuid = \"%s\";\n\tbyte_order = %s;\n"
		"\tpacket.header := struct {\n\t\tuint32_t magic;\n\t\tuint8_t uuid[16];\n\t};\n};\n\n"
		"env {\n\ttracer_name = \"tracepoint.h\";\n\thostname = \"%s\";\n"
		"\tprocname = \"%s\";\n\tvpid = %d;\n\tmode = \"%s\";\n};\n\n"
		"clock {\n\tname = \"%s\";\n\tfreq = %llu;\n\toffset_s = %llu;\n\toffset = %llu;\n"
		"\tabsolute = FALSE;\n};\n\n"
		"typealias integer { size = 64; align = 64; signed = false; map = clock.%s.value; } "
		":= uint64_clock_t;\n\n"
		"stream {\n"
		"\tpacket.context := struct {\n"
		"\t\tuint64_clock_t timestamp_begin;\n\t\tuint64_clock_t timestamp_end;\n"
		"\t\tuint64_t content_size;\n\t\tuint64_t packet_size;\n"
		"\t\tuint64_t packet_seq_num;\n\t\tuint64_t events_discarded;\n"
		"\t\tuint32_t tid;\n\t\tuint32_t pid;\n"
		"\t\tinteger { size = 8; align = 8; signed = false; encoding = UTF8; } comm[16];\n"
		"\t};\n"
		"\tevent.header := struct {\n"
		"\t\tenum : integer { size = 6; align = 8; signed = false; } "
		"{ compact = 0 ... 62, extended = 63 } id;\n"
		"\t\tvariant <id> {\n"
		"\t\t\tstruct {\n\t\t\t\tinteger { size = 26; align = 1; signed = false; "
		"map = clock.%s.value; } timestamp;\n\t\t\t} compact;\n"
		"\t\t\tstruct {\n\t\t\t\tinteger { size = 32; align = 8; signed = false; } id;\n"
		"\t\t\t\tinteger { size = 64; align = 8; signed = false; map = clock.%s.value; } "
		"timestamp;\n\t\t\t} extended;\n"
		"\t\t} v;\n"
		"\t} align(8);\n};\n\n",
		u,
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		"be",
#else
		"le",
#endif
		hostq, proc, (int)getpid(), mode, clk, (unsigned long long)tp__sink.freq,
		(unsigned long long)off_s, (unsigned long long)off, clk, clk, clk);
	return n < 0 ? 0 : (size_t)n < len ? (size_t)n : len - 1;
}

/* Appends text to the event blocks (lock held). */
static int tp__sink_events_append(const char *s, size_t n)
{
	if (tp__sink.events_len + n + 1 > tp__sink.events_cap) {
		size_t cap = tp__sink.events_cap ? tp__sink.events_cap : 4096;
		char *e;
		while (cap < tp__sink.events_len + n + 1)
			cap *= 2;
		e = (char *)realloc(tp__sink.events, cap);
		if (!e)
			return -ENOMEM;
		tp__sink.events = e;
		tp__sink.events_cap = cap;
	}
	memcpy(tp__sink.events + tp__sink.events_len, s, n);
	tp__sink.events_len += n;
	tp__sink.events[tp__sink.events_len] = '\0';
	return 0;
}

/* One field's TSDL declaration. */
static int tp__sink_field_tsdl(char *out, size_t len, const struct trace_event_field *f)
{
	unsigned n = f->array_len ? f->array_len : 1, es = f->size / (n ? n : 1);
	char dim[24] = "";
	if (f->array_len)
		snprintf(dim, sizeof(dim), "[%u]", f->array_len);
	if (f->kind == TRACE_FIELD_STRING)
		return snprintf(out, len, "\t\tstring _%s;\n", f->name);
	if (f->kind == TRACE_FIELD_FLOAT && (es == 4 || es == 8))
		return snprintf(out, len, "\t\tfloating_point { exp_dig = %u; mant_dig = %u; align = 8; } _%s%s;\n",
				es == 4 ? 8u : 11u, es == 4 ? 24u : 53u, f->name, dim);
	if ((f->kind == TRACE_FIELD_INT || f->kind == TRACE_FIELD_PTR) &&
	    (es == 1 || es == 2 || es == 4 || es == 8)) {
		int is_char = f->kind == TRACE_FIELD_INT && es == 1 && f->array_len &&
			      (strcmp(f->type, "char") == 0 || strcmp(f->type, "const char") == 0);
		return snprintf(out, len, "\t\tinteger { size = %u; align = 8; signed = %s;%s base = %d; } _%s%s;\n",
				es * 8, f->is_signed ? "true" : "false",
				is_char ? " encoding = UTF8;" : "",
				f->kind == TRACE_FIELD_PTR ? 16 : 10, f->name, dim);
	}
	/* Anything else: its bytes. */
	return snprintf(out, len, "\t\tinteger { size = 8; align = 8; signed = false; base = 16; } _%s[%u];\n",
			f->name, (unsigned)f->size);
}

/* A __dynamic_array's two TSDL declarations: its element count, in the
 * fixed part (pass 0), or its elements, after it (pass 1). */
static int tp__sink_dyn_tsdl(char *out, size_t len, const struct trace_event_field *f, int pass)
{
	struct trace_event_field e = *f;
	int k;
	if (pass == 0)
		return snprintf(out, len, "\t\tinteger { size = 32; align = 8; signed = false; base = 10; } "
				"__len_%s;\n", f->name);
	e.kind = (unsigned char)f->array_len;
	e.array_len = 0;
	k = tp__sink_field_tsdl(out, len, &e);
	if (k < 3 || (size_t)k >= len)
		return -1;
	return k - 2 + snprintf(out + k - 2, len - (size_t)(k - 2), "[__len_%s];\n", f->name);
}

/* The __print_symbolic/__print_flags tables of a class, by field: the
 * tables whose value is a plain __entry->field make that (integer) field
 * a CTF enumeration, so that readers show the names. */
struct tp__sink_syms {
	const struct trace_event_field *f;
	unsigned n;
	const struct trace_print_flags *tab[64];
	const char *delim[64];
};

static void tp__sink_syms_cb(void *priv, const char *expr, const struct trace_print_flags *t,
			     const char *delim)
{
	struct tp__sink_syms *sy = (struct tp__sink_syms *)priv;
	const char *p = expr, *id;
	size_t n;
	unsigned i;
	while (*p == ' ' || *p == '(')
		p++;
	if (strncmp(p, "__entry", 7) != 0)
		return;
	p += 7;
	while (*p == ' ')
		p++;
	if (p[0] != '-' || p[1] != '>')
		return;
	p += 2;
	while (*p == ' ')
		p++;
	for (id = p; (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		     *p == '_'; p++)
		;
	n = (size_t)(p - id);
	while (*p == ' ' || *p == ')')
		p++;
	if (*p || !n)
		return; /* an expression: printed by the formatter only */
	for (i = 0; i < sy->n && i < 64; i++)
		if (sy->f[i].kind == TRACE_FIELD_INT && !sy->f[i].array_len &&
		    strlen(sy->f[i].name) == n && strncmp(sy->f[i].name, id, n) == 0 && !sy->tab[i]) {
			sy->tab[i] = t;
			sy->delim[i] = delim;
		}
}

/* A field with a table, as a TSDL enumeration (its integer's declaration
 * from tp__sink_field_tsdl, then the labels). */
static int tp__sink_enum_tsdl(char *out, size_t len, const struct trace_event_field *f,
			      const struct trace_print_flags *t)
{
	char tmp[256], q[256];
	const char *body;
	size_t used;
	int k = tp__sink_field_tsdl(tmp, sizeof(tmp), f);
	long long lo = !f->is_signed ? 0 : f->size >= 8 ? INT64_MIN : -((long long)1 << (f->size * 8 - 1));
	unsigned long long hi = f->size >= 8 ? (f->is_signed ? (unsigned long long)INT64_MAX : UINT64_MAX)
					       : ((unsigned long long)1 << (f->size * 8 - (f->is_signed ? 1 : 0))) - 1;
	const struct trace_print_flags *e;
	for (e = t; e->name; e++) /* CTF readers refuse an enumeration without labels */
		if (f->is_signed ? !(e->mask < lo || (e->mask > 0 && (unsigned long long)e->mask > hi))
				 : !(e->mask < 0 || (unsigned long long)e->mask > hi))
			break;
	if (!e->name || k <= 0 || (size_t)k >= sizeof(tmp) || strncmp(tmp, "\t\tinteger", 9) != 0)
		return tp__sink_field_tsdl(out, len, f);
	body = strchr(tmp, '}'); /* "integer { ... }" ends there */
	if (!body)
		return tp__sink_field_tsdl(out, len, f);
	k = snprintf(out, len, "\t\tenum : %.*s {", (int)(body + 1 - (tmp + 2)), tmp + 2);
	if (k < 0 || (size_t)k >= len)
		return -1;
	used = (size_t)k;
	for (; t->name; t++) {
		int first = used == (size_t)k;
		if (f->is_signed ? t->mask < lo || (t->mask > 0 && (unsigned long long)t->mask > hi)
				 : t->mask < 0 || (unsigned long long)t->mask > hi)
			continue; /* does not fit the field: left to the formatter */
		tp__sink_tsdl_str(q, sizeof(q), t->name);
		k = snprintf(out + used, len - used, "%s \"%s\" = %lld", first ? "" : ",", q, t->mask);
		if (k < 0 || (size_t)k >= len - used)
			return -1;
		used += (size_t)k;
	}
	k = snprintf(out + used, len - used, " } _%s;\n", f->name);
	if (k < 0 || (size_t)k >= len - used)
		return -1;
	return (int)(used + (size_t)k);
}

/* The event block of an event with this id, appended to the event blocks
 * and to the metadata file (lock held). */
enum { TP__SINK_BLOCK = 65536, TP__SINK_BLOCK_FIELDS = 8192 };

static int tp__sink_describe_in(char *buf, const struct trace_event *ev, uint32_t id);

static int tp__sink_describe(const struct trace_event *ev, uint32_t id)
{
	char *buf = (char *)malloc(TP__SINK_BLOCK);
	int e;
	if (!buf)
		return -ENOMEM;
	e = tp__sink_describe_in(buf, ev, id);
	free(buf);
	return e;
}

/* The event block, in buf (TP__SINK_BLOCK bytes): the printk comment may
 * take all but TP__SINK_BLOCK_FIELDS of it (a longer one is cut: readers
 * then print name=value pairs), the fields the rest. */
static int tp__sink_describe_in(char *buf, const struct trace_event *ev, uint32_t id)
{
	char *p = buf;
	size_t left = TP__SINK_BLOCK;
	unsigned n = 0, i, pass;
	struct tp__sink_syms sy;
	const struct trace_event_field *f = ev->cls->fields(&n);
	const char *fmt = ev->cls->print_fmt;
	int k = snprintf(p, left, "event {\n\tname = \"%s:%s\";\n\tid = %u;\n\t/* printk: ",
			 ev->cls->system, ev->name, (unsigned)id);
	if (k < 0 || (size_t)k >= left / 2)
		return -ENAMETOOLONG;
	p += k;
	left -= (size_t)k;
	for (; *fmt && left > TP__SINK_BLOCK_FIELDS; fmt++) { /* the format, with "*" "/" kept apart */
		*p++ = *fmt == '\n' ? ' ' : *fmt;
		left--;
		if (fmt[0] == '*' && fmt[1] == '/') {
			*p++ = '\\';
			left--;
		}
	}
	if (ev->kind != TRACE_KIND_INSTANT) { /* <trace/event_kinds.h>: for readers */
		static const char *const base[] = { "instant", "slice_begin", "slice_end", "counter" };
		unsigned b = ev->kind & TRACE_KIND_BASE_MASK;
		k = snprintf(p, left, " */\n\t/* kind: %s%s", b < 4 ? base[b] : "instant",
			     ev->kind & TRACE_KIND_FLOW ? " flow" : "");
		if (k < 0 || (size_t)k >= left)
			return -ENAMETOOLONG;
		p += k;
		left -= (size_t)k;
	}
	k = snprintf(p, left, " */\n\tfields := struct {\n");
	if (k < 0 || (size_t)k >= left)
		return -ENAMETOOLONG;
	p += k;
	left -= (size_t)k;
	memset(&sy, 0, sizeof(sy));
	sy.f = f;
	sy.n = n;
	if (ev->cls->symbols)
		ev->cls->symbols(tp__sink_syms_cb, &sy);
	for (pass = 0; pass < 2; pass++) { /* fixed fields first, then strings and arrays */
		for (i = 0; i < n; i++) { /* one that does not fit: ENAMETOOLONG below */
			if (f[i].kind == TRACE_FIELD_DYNAMIC)
				k = tp__sink_dyn_tsdl(p, left, &f[i], (int)pass);
			else if ((f[i].kind == TRACE_FIELD_STRING) != (pass == 1))
				continue;
			else if (i < 64 && sy.tab[i] &&
				 (k = tp__sink_enum_tsdl(p, left, &f[i], sy.tab[i])) >= 0 &&
				 (size_t)k + 2048 < left) {
				/* an enumeration; a table too big for the block: the plain integer */
			} else {
				k = tp__sink_field_tsdl(p, left, &f[i]);
			}
			if (k < 0 || (size_t)k >= left)
				return -ENAMETOOLONG;
			p += k;
			left -= (size_t)k;
		}
	}
	k = snprintf(p, left, "\t};\n};\n\n");
	if (k < 0 || (size_t)k >= left)
		return -ENAMETOOLONG;
	p += k;
	if (tp__sink_events_append(buf, (size_t)(p - buf)) != 0)
		return -ENOMEM;
	if (tp__sink.metafd >= 0 && write(tp__sink.metafd, buf, (size_t)(p - buf)) != (ssize_t)(p - buf)) {
		int e = errno;
		tp__sink_err_once(TP__SINK_ERR_META, "cannot write %s/metadata: %s", tp__sink.dir, strerror(e));
		return -e;
	}
	return 0;
}

/* Writes a whole metadata file (header + event blocks) into dirfd as
 * `name`, through a dot-file renamed into place.  No allocation. */
static int tp__sink_write_metadata(int dirfd, const char *name, const uint8_t *uuid)
{
	char head[8192];
	size_t n = tp__sink_meta_header(head, sizeof(head), uuid,
				     tp__sink.mode == TP__SINK_FLIGHT ? "flight" : "stream");
	int fd = openat(dirfd, ".metadata.tmp", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
	int ok;
	if (fd < 0)
		return -errno;
	ok = write(fd, head, n) == (ssize_t)n &&
	     (tp__sink.events_len == 0 ||
	      write(fd, tp__sink.events, tp__sink.events_len) == (ssize_t)tp__sink.events_len);
	if (!ok || close(fd) != 0) {
		int e = errno ? errno : EIO;
		unlinkat(dirfd, ".metadata.tmp", 0);
		return -e;
	}
	if (renameat(dirfd, ".metadata.tmp", dirfd, name) != 0)
		return -errno;
	return 0;
}

/* ---- The trace directory. ---- */

/* The process name (its main thread's, whichever thread asks: the trace
 * may start in the control channel's thread), made safe for a file name. */
static void tp__sink_read_procname(void)
{
	char c[17] = "";
	size_t i;
	int fd = open("/proc/self/comm", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, c, 16) : -1;
	if (fd >= 0)
		close(fd);
	if (n > 0)
		c[n - (c[n - 1] == '\n')] = '\0';
	else /* no /proc: the calling thread's */
		prctl(PR_GET_NAME, (unsigned long)c, 0, 0, 0);
	c[16] = '\0';
	for (i = 0; c[i]; i++)
		if (!((c[i] >= 'a' && c[i] <= 'z') || (c[i] >= 'A' && c[i] <= 'Z') ||
		      (c[i] >= '0' && c[i] <= '9') || c[i] == '-' || c[i] == '_' || c[i] == '.'))
			c[i] = '_';
	snprintf(tp__sink.procname, sizeof(tp__sink.procname), "%s", c[0] ? c : "prog");
}

/* Makes a new directory `base` (or base.1, base.2... if it exists) in at
 * (`where` names it in messages, "" for the current directory); its fd,
 * the name used in name_out; -errno.  Nothing that exists is ever used: a
 * name taken by something else than a directory (e.g. a symbolic link
 * planted in a shared directory) is reported and skipped. */
static int tp__sink_mkdir_new(int at, const char *where, const char *base, char *name_out, size_t len)
{
	int i, fd;
	for (i = 0; i < 1000; i++) {
		struct stat st;
		if (i)
			snprintf(name_out, len, "%s.%d", base, i);
		else
			snprintf(name_out, len, "%s", base);
		if (mkdirat(at, name_out, 0755) == 0)
			break;
		if (errno != EEXIST)
			return -errno;
		if (fstatat(at, name_out, &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISDIR(st.st_mode))
			tp__sink_msg("%s%s%s exists and is %s: not used (not followed); the trace goes to a "
				  "new directory next to it", where, *where ? "/" : "", name_out,
				  S_ISLNK(st.st_mode) ? "a symbolic link" : "not a directory");
	}
	if (i == 1000)
		return -EEXIST;
	fd = openat(at, name_out, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* Whether the symbolic link of uid `owner` in the directory dst may be
 * followed: made by this user or by root, or in a directory that only
 * this user or root can write (owned by one of them, no group or other
 * write).  Anything else another user could have planted. */
static int tp__sink_link_ok(uid_t owner, const struct stat *dst)
{
	uid_t me = geteuid();
	return owner == me || owner == 0 ||
	       ((dst->st_uid == me || dst->st_uid == 0) && !(dst->st_mode & (S_IWGRP | S_IWOTH)));
}

/* Opens (made if missing) the session directory `dir` named by the user,
 * walking it one component at a time from "/" or the current directory
 * with O_NOFOLLOW: a symbolic link at any component is followed (its
 * target walked the same way) only if tp__sink_link_ok says so, so that
 * no link another user planted, at the end of the path or in its middle
 * ("/tmp/x/trace", "/tmp/x/."), leads the recorder elsewhere.  "." and
 * ".." are what they are in the directory reached so far (".." of a
 * link's target is its target's parent, as the kernel has it).  Only the
 * path's own last component is made (not a link's target).  Never blocks
 * (a FIFO is not opened).  fd or -errno, *why set for a message. */
static int tp__sink_open_session(const char *dir, const char **why)
{
	enum { TP__SINK_LINKS_MAX = 40 };
	static char why_buf[1024]; /* a message's worth: paths cut at 400 bytes */
	char buf[TP__SINK_PATH_MAX], shown[TP__SINK_PATH_MAX], target[TP__SINK_PATH_MAX];
	char comp[TP__SINK_PATH_MAX + 256];
	size_t len = strlen(dir), orig = len;
	const char *p;
	int fd, links = 0, e;
	*why = NULL;
	if (len == 0 || len >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, dir, len + 1);
	fd = open(buf[0] == '/' ? "/" : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	snprintf(shown, sizeof(shown), "%s", buf[0] == '/' ? "" : ".");
	p = buf;
	for (;;) {
		char name[256];
		const char *end, *next;
		size_t n;
		int nfd, last, mine;
		struct stat lst, dst;
		while (*p == '/')
			p++;
		if (!*p)
			return fd; /* the whole path walked */
		for (end = p; *end && *end != '/'; end++)
			;
		for (next = end; *next == '/'; next++)
			;
		n = (size_t)(end - p);
		last = !*next;
		/* a component of the path given, not of a link's target */
		mine = (size_t)(buf + strlen(buf) - p) <= orig;
		if (n >= sizeof(name)) {
			close(fd);
			return -ENAMETOOLONG;
		}
		memcpy(name, p, n);
		name[n] = '\0';
		p = next;
		if (strcmp(name, ".") == 0)
			continue;
		if (last && mine && mkdirat(fd, name, 0755) != 0 && errno != EEXIST) {
			e = errno;
			close(fd);
			return -e;
		}
		/* the component as shown in messages: the walk so far, then it */
		if (strcmp(shown, ".") == 0)
			snprintf(comp, sizeof(comp), "%s", name);
		else
			snprintf(comp, sizeof(comp), "%s/%s", shown, name);
		nfd = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
		if (nfd >= 0) {
			close(fd);
			fd = nfd;
			memcpy(shown, comp, strlen(comp) + 1);
			continue;
		}
		e = errno;
		if (e != ENOTDIR && e != ELOOP) { /* ENOTDIR: also a link */
			if (!last) {
				snprintf(why_buf, sizeof(why_buf), "%.400s: %s", comp, strerror(e));
				*why = why_buf;
			}
			close(fd);
			return -e;
		}
		nfd = openat(fd, name, O_PATH_TP | O_NOFOLLOW | O_CLOEXEC);
		if (nfd < 0 || fstat(nfd, &lst) != 0 || fstat(fd, &dst) != 0) {
			e = errno;
			if (nfd >= 0)
				close(nfd);
			close(fd);
			return -e;
		}
		if (!S_ISLNK(lst.st_mode)) {
			close(nfd);
			close(fd);
			if (last) {
				*why = "it exists and is not a directory";
			} else {
				snprintf(why_buf, sizeof(why_buf), "%.400s is not a directory", comp);
				*why = why_buf;
			}
			return -ENOTDIR;
		}
		if (!tp__sink_link_ok(lst.st_uid, &dst)) {
			const char *d = shown[0] ? shown : "/";
			char where[480];
			if ((dst.st_mode & S_ISVTX) && (dst.st_mode & S_IWOTH))
				snprintf(where, sizeof(where), "the shared directory %.400s", d);
			else if (dst.st_mode & (S_IWGRP | S_IWOTH))
				snprintf(where, sizeof(where), "%.400s, which %s may write", d,
					 dst.st_mode & S_IWOTH ? "others" : "its group");
			else
				snprintf(where, sizeof(where), "%.400s, a directory of uid %u", d, (unsigned)dst.st_uid);
			if (last)
				snprintf(why_buf, sizeof(why_buf), "a symbolic link made by another user (uid %u) "
					 "in %s: not followed", (unsigned)lst.st_uid, where);
			else
				snprintf(why_buf, sizeof(why_buf), "%.400s is a symbolic link made by another user "
					 "(uid %u) in %.450s: not followed", comp, (unsigned)lst.st_uid, where);
			*why = why_buf;
			close(nfd);
			close(fd);
			return -EPERM;
		}
		{
			ssize_t tl = ++links > TP__SINK_LINKS_MAX ? -1
				     : readlinkat(nfd, "", target, sizeof(target) - 1);
			size_t rest = strlen(p);
			e = links > TP__SINK_LINKS_MAX ? ELOOP : errno;
			close(nfd);
			if (tl <= 0 || (size_t)tl + 1 + rest >= sizeof(buf)) {
				close(fd);
				if (tl > 0)
					e = ENAMETOOLONG;
				else if (tl == 0)
					e = ENOENT;
				return -e;
			}
			/* the target, then what is left of the path */
			memmove(buf + tl + 1, p, rest + 1);
			memcpy(buf, target, (size_t)tl);
			buf[tl] = '/';
			if (rest < orig)
				orig = rest;
			p = buf;
			if (target[0] == '/') {
				close(fd);
				fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
				if (fd < 0)
					return -errno;
				shown[0] = '\0';
			}
		}
	}
}

/* Opens the trace's metadata for appending event blocks. */
static int tp__sink_open_meta(void)
{
	int e = tp__sink_write_metadata(tp__sink.dirfd, "metadata", tp__sink.uuid);
	if (e)
		return e;
	tp__sink.metafd = openat(tp__sink.dirfd, "metadata", O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW);
	return tp__sink.metafd < 0 ? -errno : 0;
}

/* Makes this process's trace directory <comm>-<pid> in the session
 * directory (rootfd) and writes its metadata; lock held, procname read. */
static int tp__sink_make_trace(void)
{
	char base[64], name[96];
	int fd, e;
	size_t l;
	snprintf(base, sizeof(base), "%s-%d", tp__sink.procname, (int)getpid());
	fd = tp__sink_mkdir_new(tp__sink.rootfd, tp__sink.root, base, name, sizeof(name));
	if (fd < 0)
		return fd;
	l = strlen(tp__sink.root);
	if (l + 1 + strlen(name) >= sizeof(tp__sink.dir)) {
		close(fd);
		return -ENAMETOOLONG;
	}
	memcpy(tp__sink.dir, tp__sink.root, l);
	tp__sink.dir[l] = '/';
	memcpy(tp__sink.dir + l + 1, name, strlen(name) + 1);
	tp__sink.dirfd = fd;
	tp__sink.pid = (int)getpid();
	tp__sink_new_uuid(tp__sink.uuid);
	e = tp__sink_open_meta();
	if (e) {
		close(fd);
		tp__sink.dirfd = -1;
		return e;
	}
	return 0;
}

/* Starts recording into the session directory `dir` (NULL: the default,
 * trace-<comm>-<pid>, made new), lock held. */
static int tp__sink_start_trace(const char *dir)
{
	char def[96];
	const char *why = NULL;
	int fd, e;
	tp__sink_read_procname();
	if (!dir) {
		char base[96];
		snprintf(base, sizeof(base), "trace-%s-%d", tp__sink.procname, (int)getpid());
		fd = tp__sink_mkdir_new(AT_FDCWD, "", base, def, sizeof(def));
		dir = def;
	} else {
		fd = tp__sink_open_session(dir, &why);
	}
	if (fd < 0) {
		tp__sink_msg("cannot create the trace directory %s: %s", dir, why ? why : strerror(-fd));
		return fd;
	}
	if (strlen(dir) >= sizeof(tp__sink.root) - 100) {
		close(fd);
		tp__sink_msg("trace directory name too long: %s", dir);
		return -ENAMETOOLONG;
	}
	snprintf(tp__sink.root, sizeof(tp__sink.root), "%s", dir);
	tp__sink.rootfd = fd;
	tp__sink_clock_start();
	e = tp__sink_make_trace();
	if (e) {
		tp__sink_msg("cannot create a trace in %s: %s", dir, strerror(-e));
		close(fd);
		tp__sink.rootfd = -1;
		return e;
	}
	__atomic_store_n(&tp__sink.recording, 1, __ATOMIC_RELEASE);
	return 0;
}

/* A forked child's first record: its own trace in the session directory.
 * The threads of a child often record their first events at once: one makes
 * the trace, the others wait for it (sleeping, for at most a second) instead
 * of losing their records.  Never blocks: a signal handler that interrupts
 * the thread making the trace, or a lock held longer, gives -EBUSY. */
static int tp__sink_start_child_trace(void)
{
	int e, i, me = tp__sink_gettid();
	for (i = 0; tp__sink_trylock() != 0; i++) {
		struct timespec ts = {0, TP__SINK_CHILD_WAIT_NS};
		if (i >= TP__SINK_CHILD_WAITS || __atomic_load_n(&tp__sink.child_maker, __ATOMIC_ACQUIRE) == me)
			return -EBUSY;
		nanosleep(&ts, NULL); /* async-signal-safe */
	}
	if (!tp__sink.child_pending) {
		tp__sink_unlock();
		return tp__sink.dirfd >= 0 ? 0 : -ENOENT;
	}
	__atomic_store_n(&tp__sink.child_maker, me, __ATOMIC_RELEASE);
	tp__sink_read_procname(); /* the child's name may differ from its parent's */
	e = tp__sink_make_trace();
	if (e)
		tp__sink_err_once(TP__SINK_ERR_CHILD, "cannot create the trace of process %d in %s: %s",
			       (int)getpid(), tp__sink.root, strerror(-e));
	else
		tp__sink.child_pending = 0;
	__atomic_store_n(&tp__sink.child_maker, 0, __ATOMIC_RELEASE);
	tp__sink_unlock();
	return e;
}

/* ---- Threads and their windows. ---- */

static void tp__sink_close_stream(struct tp__sink_node *n);

/* Is thread tid of this process gone? */
static int tp__sink_gone(int pid, int tid)
{
	return syscall(__NR_tgkill, pid, tid, 0) != 0 && errno == ESRCH;
}

/* Closes the stream of node n, whose state its caller has just made
 * TP__SINK_EXITED (or TP__SINK_CLOSING): once no snapshot reads the ring, the last
 * packet is shrunk to its content, the window unmapped, the file closed. */
static void tp__sink_retire(struct tp__sink_node *n)
{
	while (__atomic_load_n(&n->snap_busy, __ATOMIC_SEQ_CST))
		sched_yield();
	__atomic_add_fetch(&tp__sink.gone_dropped, n->b.dropped, __ATOMIC_RELAXED);
	__atomic_store_n(&n->b.dropped, 0, __ATOMIC_RELAXED);
	tp__sink_close_stream(n);
}

/* Closes the stream of node n if it is TP__SINK_LATE and its thread is gone
 * (no exit handler will close it).  Async-signal-safe, and never waits: if
 * a snapshot is reading the ring (it may be the one this signal handler
 * interrupted), the node is left for later. */
static void tp__sink_reap_node(struct tp__sink_node *n, int pid)
{
	int st = TP__SINK_LATE;
	if (__atomic_load_n(&n->state, __ATOMIC_ACQUIRE) != TP__SINK_LATE || n == tp__sink_mine ||
	    !tp__sink_gone(pid, n->tid) ||
	    !__atomic_compare_exchange_n(&n->state, &st, TP__SINK_CLOSING, 0, __ATOMIC_SEQ_CST,
					 __ATOMIC_ACQUIRE))
		return;
	/* A snapshot counts itself in snap_busy before it reads the state:
	 * either it sees TP__SINK_CLOSING and skips the ring, or it is seen here. */
	if (__atomic_load_n(&n->snap_busy, __ATOMIC_SEQ_CST)) {
		__atomic_store_n(&n->state, TP__SINK_LATE, __ATOMIC_SEQ_CST);
		return;
	}
	tp__sink_retire(n);
	__atomic_store_n(&n->state, TP__SINK_EXITED, __ATOMIC_RELEASE);
}

/* A node for the calling thread: a free one, one whose thread is gone, or
 * a new one; on the way, the streams that threads gone left open are
 * closed.  Lock-free and async-signal-safe (mmap, CAS, tgkill, munmap,
 * ftruncate, close). */
static struct tp__sink_node *tp__sink_claim(void)
{
	struct tp__sink_node *n, *head;
	int pid = (int)getpid();
	for (n = __atomic_load_n(&tp__sink.nodes, __ATOMIC_ACQUIRE); n; n = n->next)
		tp__sink_reap_node(n, pid);
	for (n = __atomic_load_n(&tp__sink.nodes, __ATOMIC_ACQUIRE); n; n = n->next) {
		int st = __atomic_load_n(&n->state, __ATOMIC_ACQUIRE);
		/* exit_done orders the exit handler's last writes before ours
		 * in a way ThreadSanitizer sees (thread death does too). */
		if (st == TP__SINK_EXITED && __atomic_load_n(&n->exit_done, __ATOMIC_ACQUIRE) &&
		    tp__sink_gone(pid, n->tid)) {
			st = TP__SINK_EXITED;
			__atomic_compare_exchange_n(&n->state, &st, TP__SINK_FREE, 0, __ATOMIC_ACQ_REL,
						    __ATOMIC_ACQUIRE);
			st = __atomic_load_n(&n->state, __ATOMIC_ACQUIRE);
		}
		if (st == TP__SINK_FREE &&
		    __atomic_compare_exchange_n(&n->state, &st, TP__SINK_OWNED, 0, __ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE))
			return n;
	}
	n = (struct tp__sink_node *)mmap(NULL, sizeof(*n), PROT_READ | PROT_WRITE,
				      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (n == (struct tp__sink_node *)MAP_FAILED)
		return NULL;
	n->state = TP__SINK_OWNED;
	head = __atomic_load_n(&tp__sink.nodes, __ATOMIC_ACQUIRE);
	do
		n->next = head;
	while (!__atomic_compare_exchange_n(&tp__sink.nodes, &head, n, 1, __ATOMIC_RELEASE,
					    __ATOMIC_ACQUIRE));
	return n;
}

static void tp__sink_node_reset(struct tp__sink_node *n)
{
	n->b.pos = n->b.end = NULL;
	n->b.pkt = NULL;
	n->b.last_ts = 0;
	n->b.busy = 0;
	__atomic_store_n(&n->fd, -1, __ATOMIC_RELAXED);
	n->map = NULL;
	n->map_len = 0;
	n->file_off = 0;
	__atomic_store_n(&n->seq, 0, __ATOMIC_RELEASE);
	n->retry_at = 0;
	n->bytes = 0;
}

/* trace_sink_base.thread_buffer: the calling thread's buffer. */
static struct trace_buffer *tp__sink_thread_buffer_(struct trace_sink_base *s)
{
	struct tp__sink_node *n = tp__sink_mine;
	if (n)
		return &n->b;
	if (!__atomic_load_n(&tp__sink.recording, __ATOMIC_ACQUIRE) || !(n = tp__sink_claim())) {
		__atomic_add_fetch(&tp__sink.lost, 1, __ATOMIC_RELAXED);
		return NULL;
	}
	tp__sink_node_reset(n);
	__atomic_store_n(&n->b.dropped, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&n->exit_done, 0, __ATOMIC_RELAXED);
	n->tid = tp__sink_gettid();
	n->b.sink = s;
	tp__sink_mine = n;
	/* Its exit closes the stream; without a thread key, whoever finds the
	 * thread gone does. */
	if (!tp__sink.have_key || pthread_setspecific(tp__sink.key, n) != 0)
		__atomic_store_n(&n->state, TP__SINK_LATE, __ATOMIC_RELEASE);
	return &n->b;
}

/* A record is lost: count it, in the packet too. */
static int tp__sink_drop(struct tp__sink_node *n)
{
	uint64_t d = n->b.dropped + 1;
	__atomic_store_n(&n->b.dropped, d, __ATOMIC_RELAXED);
	if (n->b.pkt)
		__atomic_store_n(&n->b.pkt->events_discarded, d, __ATOMIC_RELAXED);
	return -1;
}

/* Opens the calling thread's stream file in the current trace. */
static int tp__sink_open_stream(struct tp__sink_node *n)
{
	char name[64];
	int i, fd = -1;
	if (tp__sink.child_pending && tp__sink_start_child_trace() != 0)
		return -1;
	for (i = 0; i < 1000 && fd < 0; i++) {
		if (i)
			snprintf(name, sizeof(name), "stream-%d.%d", n->tid, i);
		else
			snprintf(name, sizeof(name), "stream-%d", n->tid);
		fd = openat(tp__sink.dirfd, name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0) {
		tp__sink_err_once(TP__SINK_ERR_STREAM, "cannot create a stream file in %s: %s", tp__sink.dir,
			       strerror(errno));
		return -1;
	}
	__atomic_store_n(&n->fd, fd, __ATOMIC_RELAXED); /* tracepoint_flush() reads it */
	n->window = tp__sink.window;
	n->file_off = 0;
	n->bytes = 0;
	__atomic_store_n(&n->seq, 0, __ATOMIC_RELEASE);
	if (tp__sink.mode == TP__SINK_FLIGHT) {
		size_t ring = tp__sink.flight_bytes;
		void *m;
		n->nwin = (unsigned)(ring / n->window);
		if (n->nwin < 2) {
			if (!__atomic_exchange_n(&tp__sink.ring_warned, 1, __ATOMIC_RELAXED))
				tp__sink_msg("a flight ring of %zu KiB is less than two windows "
				       "of %zu KiB: using %zu KiB (lower TRACEPOINTS_BUFFER_KB for a "
				       "smaller ring)", ring / 1024, (size_t)n->window / 1024,
				       (size_t)n->window * 2 / 1024);
			n->nwin = 2;
			ring = 2 * n->window;
		}
		if (fallocate(fd, 0, 0, (off_t)ring) != 0 && ftruncate(fd, (off_t)ring) != 0) {
			tp__sink_err_once(TP__SINK_ERR_WINDOW, "cannot allocate %zu bytes for %s/stream-%d: %s",
				       ring, tp__sink.dir, n->tid, strerror(errno));
			return -1;
		}
		m = mmap(NULL, ring, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (m == MAP_FAILED) {
			tp__sink_err_once(TP__SINK_ERR_WINDOW, "cannot map %s/stream-%d: %s", tp__sink.dir, n->tid,
				       strerror(errno));
			return -1;
		}
		n->map = (unsigned char *)m;
		n->map_len = ring;
	}
	return 0;
}

/* Fills a new packet's header at p.  Sequence number first (a snapshot
 * copying what was there sees it change), then an empty content_size, and
 * content_size again last (a release: whoever reads it sees the header
 * whole). */
static void tp__sink_packet_fill(struct tp__sink_node *n, struct trace_packet *p, uint64_t ts)
{
	/* An exchange: nothing below moves above it (a fence would do, but
	 * ThreadSanitizer does not support fences). */
	__atomic_exchange_n(&p->packet_seq_num, n->seq, __ATOMIC_ACQ_REL);
	/* Empty at once: a process killed in the middle of this leaves a
	 * packet with no events, not the old ones under the new number. */
	__atomic_store_n(&p->content_size, (uint64_t)TP__SINK_PACKET * 8u, __ATOMIC_RELAXED);
	p->magic = TRACE_PACKET_MAGIC;
	memcpy(p->uuid, tp__sink.uuid, sizeof(p->uuid));
	p->pad = 0;
	p->timestamp_begin = ts;
	__atomic_store_n(&p->timestamp_end, ts, __ATOMIC_RELAXED);
	p->packet_size = n->window * 8u;
	__atomic_store_n(&p->events_discarded, n->b.dropped, __ATOMIC_RELAXED);
	p->tid = (uint32_t)n->tid;
	p->pid = (uint32_t)tp__sink.pid;
	memset(p->comm, 0, sizeof(p->comm));
	prctl(PR_GET_NAME, (unsigned long)p->comm, 0, 0, 0);
	__atomic_store_n(&p->content_size, (uint64_t)TP__SINK_PACKET * 8u, __ATOMIC_RELEASE);
}

static void tp__sink_packet_init(struct tp__sink_node *n, struct trace_packet *p, uint64_t ts)
{
	tp__sink_packet_fill(n, p, ts);
	__atomic_store_n(&n->seq, n->seq + 1, __ATOMIC_RELEASE);
	n->b.pkt = p;
	n->b.pos = (unsigned char *)p + TP__SINK_PACKET;
	n->b.end = (unsigned char *)p + n->window;
	n->b.last_ts = ts;
}

/* ---- Changes to a stream file, against exit() ----
 * Changing a window (extend the file, write the new packet's header, map
 * it) or closing a stream (shrink the last packet and the file) takes
 * several system calls, and a process that ends between two of them
 * leaves a file that ends in zeros or in a packet longer than the file.
 * exit() ends the other threads wherever they are, so once it has begun
 * (tp__sink_end) only the thread that called it changes files: the others
 * keep writing into the window they have, and a record that needs a new
 * one is dropped and counted in its packet.  tp__sink_end waits for the
 * changes under way (counted in tp__sink.switching) before it reads any
 * thread's window.  A Dekker handshake, every access sequentially
 * consistent: this side counts itself and then looks at `closing`; the
 * exit side sets `closing` and then looks at the count. */
static int tp__sink_file_begin(void)
{
	__atomic_add_fetch(&tp__sink.switching, 1, __ATOMIC_SEQ_CST);
	return !__atomic_load_n(&tp__sink.closing, __ATOMIC_SEQ_CST) ||
	       __atomic_load_n(&tp__sink.closer, __ATOMIC_RELAXED) == tp__self();
}

static void tp__sink_file_end(void)
{
	__atomic_sub_fetch(&tp__sink.switching, 1, __ATOMIC_SEQ_CST);
}

/* Closes the packet being written: shrunk to its content (stream mode),
 * except by a thread other than exit()'s once exit() has begun: then the
 * packet keeps its window's size (the rest is padding), as it is. */
static void tp__sink_close_stream(struct tp__sink_node *n)
{
	int mine = tp__sink_file_begin();
	if (n->map && tp__sink.mode == TP__SINK_STREAM && n->b.pkt) {
		uint64_t used = __atomic_load_n(&n->b.pkt->content_size, __ATOMIC_ACQUIRE) / 8u;
		if (mine)
			n->b.pkt->packet_size = used * 8u;
		munmap(n->map, n->map_len);
		if (mine && ftruncate(n->fd, (off_t)(n->file_off - n->window + used)) != 0) {
			/* the packet says its size; the file keeps zeros after it */
		}
		n->bytes += mine ? used : n->window;
	} else if (n->map) {
		munmap(n->map, n->map_len);
	}
	if (n->fd >= 0)
		close(n->fd);
	__atomic_add_fetch(&tp__sink.gone_bytes, n->bytes, __ATOMIC_RELAXED);
	tp__sink_node_reset(n);
	tp__sink_file_end();
}

/* trace_sink_base.next_window. */
static int tp__sink_next_window_(struct trace_sink_base *s, struct trace_buffer *b, uint64_t ts,
			      size_t need)
{
	struct tp__sink_node *n = (struct tp__sink_node *)(void *)b;
	(void)s;
	if (__atomic_load_n(&n->state, __ATOMIC_ACQUIRE) == TP__SINK_EXITED) {
		/* An event after the thread's exit handler closed its stream (from
		 * another library's thread-specific data destructor): it goes into
		 * a fresh stream file.  The handler, armed again, closes it in the
		 * next destructor round; after the last round, whoever finds the
		 * thread gone does (tp__sink_reap_node: the next thread's first
		 * record, or the program's exit). */
		int st = TP__SINK_EXITED;
		if (!__atomic_compare_exchange_n(&n->state, &st, TP__SINK_LATE, 0, __ATOMIC_ACQ_REL,
						 __ATOMIC_ACQUIRE))
			return tp__sink_drop(n);
		if (tp__sink.have_key)
			pthread_setspecific(tp__sink.key, n);
	}
	if (need + TP__SINK_PACKET > (n->fd >= 0 ? n->window : tp__sink.window)) {
		tp__sink_err_once(TP__SINK_ERR_TOOBIG, "a record of %zu bytes does not fit a window of %zu "
			       "bytes; dropped (raise TRACEPOINTS_BUFFER_KB)", need, tp__sink.window);
		return tp__sink_drop(n);
	}
	if (n->retry_at && b->dropped < n->retry_at)
		return tp__sink_drop(n);
	n->retry_at = 0;
	if (n->fd < 0) {
		if (!__atomic_load_n(&tp__sink.recording, __ATOMIC_ACQUIRE) || tp__sink_open_stream(n) != 0) {
			if (n->fd >= 0)
				tp__sink_close_stream(n);
			n->retry_at = b->dropped + TP__SINK_RETRY_DROPS;
			return tp__sink_drop(n);
		}
	}
	if (tp__sink.mode == TP__SINK_FLIGHT) {
		uint64_t slot = n->seq % n->nwin;
		tp__sink_packet_init(n, (struct trace_packet *)(void *)(n->map + slot * n->window), ts);
		return 0;
	}
	{
		/* The new window first: if it cannot be had, the full one stays
		 * mapped and its packet counts the records dropped meanwhile. */
		int r = fallocate(n->fd, 0, (off_t)n->file_off, (off_t)n->window);
		void *m;
		if (r != 0 && (errno == EOPNOTSUPP || errno == ENOSYS)) {
			r = ftruncate(n->fd, (off_t)(n->file_off + n->window));
		} else if (r != 0) {
			/* a file system may keep what it could allocate (ext4 on a full
			 * disk): given back at once */
			int e = errno;
			if (ftruncate(n->fd, (off_t)n->file_off) != 0) {
				/* the file says no more than before */
			}
			errno = e;
		}
		if (r == 0) {
			/* The new packet's header goes in at once: a process killed
			 * from here on leaves a valid (empty) packet, not zeros that
			 * babeltrace2 refuses.  (Killed between the two calls, the
			 * file ends in zeros: tracepoint-dump --repair cuts them.) */
			struct trace_packet h;
			memset(&h, 0, sizeof(h));
			tp__sink_packet_fill(n, &h, ts);
			if (pwrite(n->fd, &h, sizeof(h), (off_t)n->file_off) != (ssize_t)sizeof(h))
				r = -1;
		}
		m = r == 0 ? mmap(NULL, n->window, PROT_READ | PROT_WRITE, MAP_SHARED, n->fd,
				  (off_t)n->file_off)
			   : MAP_FAILED;
		if (m == MAP_FAILED) {
			tp__sink_err_once(TP__SINK_ERR_WINDOW, "cannot extend %s/stream-%d: %s; records are "
				       "dropped (and counted) until there is room", tp__sink.dir, n->tid,
				       strerror(errno));
			n->retry_at = b->dropped + TP__SINK_RETRY_DROPS;
			return tp__sink_drop(n);
		}
		if (n->map) {
			n->bytes += n->window;
			munmap(n->map, n->map_len);
		}
		n->map = (unsigned char *)m;
		n->map_len = n->window;
		n->file_off += n->window;
		/* Fault the whole window in now, in one call, instead of one
		 * fault per page while recording (ignored before Linux 5.14). */
		madvise(m, n->window, TP__SINK_MADV_POPULATE_WRITE);
	}
	tp__sink_packet_init(n, (struct trace_packet *)(void *)n->map, ts);
	return 0;
}

/* The recorder's slow paths leave errno as they found it: they may run
 * in a signal handler, or between a failing call and its errno check. */
static struct trace_buffer *tp__sink_thread_buffer(struct trace_sink_base *s)
{
	int e = errno;
	struct trace_buffer *b = tp__sink_thread_buffer_(s);
	errno = e;
	return b;
}

static int tp__sink_next_window(struct trace_sink_base *s, struct trace_buffer *b, uint64_t ts,
			     size_t need)
{
	int e = errno, r;
	if (tp__sink_file_begin())
		r = tp__sink_next_window_(s, b, ts, need);
	else
		r = tp__sink_drop((struct tp__sink_node *)(void *)b); /* exit() has begun */
	tp__sink_file_end();
	errno = e;
	return r;
}

/* The thread-specific data destructor of the sink's key: the exiting
 * thread's stream is closed.  The thread keeps its node (tp__sink_mine): an
 * event after this finds it TP__SINK_EXITED and takes the slow path
 * (tp__sink_next_window). */
static void tp__sink_thread_exit(void *p)
{
	struct tp__sink_node *n = (struct tp__sink_node *)p;
	n->b.busy = 1; /* a signal handler's record is dropped meanwhile */
	__atomic_store_n(&n->state, TP__SINK_EXITED, __ATOMIC_SEQ_CST);
	tp__sink_retire(n);
	n->b.busy = 0;
	__atomic_store_n(&n->exit_done, 1, __ATOMIC_RELEASE);
}

/* ---- fork(): the child records into a trace of its own. ----
 * One set of handlers takes every lock of the recorder, the core's walk
 * guard first, in the order above: whether the core's own handlers (the
 * guard alone) run before or after these, the guard is taken first and
 * once per handler (it nests), so a fork never waits for a lock while
 * holding a later one.  The control channel's lock is the last. */
static void tp__ctl_atfork_prepare(void); /* trace/control.h */
static void tp__ctl_atfork_parent(void);
static void tp__ctl_atfork_child(void);

static void tp__sink_child_reset(void)
{
	struct tp__sink_node *n;
	if (!tp__sink.recording)
		return;
	/* The parent's windows stay the parent's: unmap them untouched. */
	for (n = tp__sink.nodes; n; n = n->next) {
		if (n->map)
			munmap(n->map, n->map_len);
		if (n->fd >= 0)
			close(n->fd);
		n->map = NULL;
		n->fd = -1;
		tp__sink_node_reset(n);
		n->b.dropped = 0;
		n->snap_busy = 0;
		if (n == tp__sink_mine)
			n->tid = tp__sink_gettid();
		else
			n->state = TP__SINK_FREE; /* its thread does not exist here */
	}
	if (tp__sink.metafd >= 0)
		close(tp__sink.metafd);
	tp__sink.metafd = -1;
	if (tp__sink.dirfd >= 0)
		close(tp__sink.dirfd);
	tp__sink.dirfd = -1;
	tp__sink.child_pending = 1;
	tp__sink.child_maker = 0;
	tp__sink.pid = (int)getpid();
	tp__sink.lost = tp__sink.gone_dropped = tp__sink.gone_bytes = 0;
	tp__sink.snapshots = 0;
	tp__sink.errs = 0;
}

static void tp__sink_atfork_prepare(void)
{
	tp__fork_prepare();
	pthread_mutex_lock(&tp__sink.lock);
	pthread_mutex_lock(&tp__sink.msg_lock);
	tp__ctl_atfork_prepare();
}

static void tp__sink_atfork_parent(void)
{
	tp__ctl_atfork_parent();
	pthread_mutex_unlock(&tp__sink.msg_lock);
	pthread_mutex_unlock(&tp__sink.lock);
	tp__fork_parent();
}

/* The child: the locks are ours (this thread held them all), made new;
 * the guard is given back last, and whichever handler gives it back last
 * (this one or the core's) brings the tracepoints in line (tp__fork_child). */
static void tp__sink_atfork_child(void)
{
	pthread_mutex_init(&tp__sink.lock, NULL);
	pthread_mutex_init(&tp__sink.msg_lock, NULL);
	tp__ctl_atfork_child();
	tp__sink_child_reset();
	tp__fork_child();
}

/* ---- Flight recorder snapshots. ---- */

/* Copies node n's ring into fd, oldest packet first; bytes written. */
static uint64_t tp__sink_copy_ring(struct tp__sink_node *n, int fd, const uint8_t *uuid)
{
	uint64_t end = __atomic_load_n(&n->seq, __ATOMIC_ACQUIRE), q, written = 0;
	uint64_t first = end > n->nwin ? end - n->nwin : 0;
	for (q = first; q < end; q++) {
		const struct trace_packet *p =
			(const struct trace_packet *)(const void *)(n->map + (q % n->nwin) * n->window);
		struct trace_packet h;
		uint64_t used;
		if (__atomic_load_n(&p->packet_seq_num, __ATOMIC_ACQUIRE) != q)
			continue;
		used = __atomic_load_n(&p->content_size, __ATOMIC_ACQUIRE) / 8u;
		if (used < sizeof(h) || used > n->window)
			continue;
		h.magic = p->magic;
		memcpy(h.uuid, uuid, sizeof(h.uuid));
		h.pad = 0;
		h.timestamp_begin = p->timestamp_begin;
		h.timestamp_end = __atomic_load_n(&p->timestamp_end, __ATOMIC_RELAXED);
		h.content_size = h.packet_size = used * 8u;
		h.packet_seq_num = q;
		h.events_discarded = __atomic_load_n(&p->events_discarded, __ATOMIC_RELAXED);
		h.tid = p->tid;
		h.pid = p->pid;
		memcpy(h.comm, p->comm, sizeof(h.comm));
		if (write(fd, &h, sizeof(h)) != (ssize_t)sizeof(h) ||
		    write(fd, (const unsigned char *)p + sizeof(h), used - sizeof(h)) !=
			    (ssize_t)(used - sizeof(h)))
			break;
		/* The copy is done before the sequence number is looked at again
		 * (an RMW that changes nothing, as a fence ThreadSanitizer knows). */
		if (__atomic_fetch_add((uint64_t *)(uintptr_t)&p->packet_seq_num, 0, __ATOMIC_ACQ_REL) != q) {
			/* overwritten while being copied: not part of the snapshot */
			if (ftruncate(fd, (off_t)written) != 0 || lseek(fd, (off_t)written, SEEK_SET) < 0)
				break;
			continue;
		}
		written += used;
	}
	return written;
}

TRACEPOINT_SINK_API int tracepoint_snapshot(void)
{
	struct tp__sink_node *n;
	char name[32];
	uint8_t uuid[16];
	int sd, e;
	unsigned k;
	if (!__atomic_load_n(&tp__sink.recording, __ATOMIC_ACQUIRE) || tp__sink.mode != TP__SINK_FLIGHT)
		return -EINVAL;
	if (tp__sink_trylock() != 0)
		return -EBUSY;
	if (tp__sink.dirfd < 0) { /* a forked child that recorded nothing yet */
		tp__sink_unlock();
		return -EINVAL;
	}
	k = ++tp__sink.snapshots;
	snprintf(name, sizeof(name), "snapshot-%u", k);
	if (mkdirat(tp__sink.dirfd, name, 0755) != 0 ||
	    (sd = openat(tp__sink.dirfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW)) < 0) {
		e = errno;
		tp__sink_unlock();
		return -e;
	}
	tp__sink_new_uuid(uuid);
	e = tp__sink_write_metadata(sd, "metadata", uuid);
	for (n = __atomic_load_n(&tp__sink.nodes, __ATOMIC_ACQUIRE); n && !e; n = n->next) {
		char sname[64];
		int fd, st;
		__atomic_add_fetch(&n->snap_busy, 1, __ATOMIC_SEQ_CST);
		/* seq first: what the ring's fields were set to happened before it */
		st = __atomic_load_n(&n->state, __ATOMIC_SEQ_CST);
		if ((st == TP__SINK_OWNED || st == TP__SINK_LATE) &&
		    __atomic_load_n(&n->seq, __ATOMIC_ACQUIRE) && n->map && n->nwin) {
			snprintf(sname, sizeof(sname), "stream-%d", n->tid);
			fd = openat(sd, sname, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
			if (fd >= 0) {
				if (tp__sink_copy_ring(n, fd, uuid) == 0)
					unlinkat(sd, sname, 0);
				close(fd);
			}
		}
		__atomic_sub_fetch(&n->snap_busy, 1, __ATOMIC_SEQ_CST);
	}
	close(sd);
	tp__sink_unlock();
	return e ? e : (int)k;
}

static void tp__sink_snapshot_signal(int sig)
{
	int e = errno, k;
	(void)sig;
	k = tracepoint_snapshot();
	if (k > 0)
		tp__sink_msg("snapshot %d in %s/snapshot-%d", k, tp__sink.dir, k);
	else
		tp__sink_msg("snapshot failed: %s", strerror(-k));
	errno = e;
}

/* ---- Settings, state, flush. ---- */

/* A window size: n rounded up to a power of two, from 4 KiB to 1 GiB. */
static size_t tp__sink_pow2(size_t n)
{
	size_t p = 4096;
	while (p < n && p < TP__SINK_WINDOW_MAX)
		p <<= 1;
	return p;
}

/* A size in KiB from the environment, from 1 KiB to max: its bytes; def if
 * unset, and if not a whole number of KiB in that range (reported). */
static size_t tp__sink_env_kb(const char *var, size_t def, size_t max, const char *what)
{
	const char *v = tp__sink_getenv(var), *p;
	unsigned long long k = 0;
	char shown[48];
	if (!v)
		return def;
	for (p = v; *p >= '0' && *p <= '9'; p++)
		if (k <= max / 1024) /* stops growing once too big */
			k = k * 10 + (unsigned)(*p - '0');
	if (*v && !*p && k > 0 && k <= max / 1024)
		return (size_t)k * 1024;
	if (*v && !*p && k > 0)
		tp__sink_msg("%s=\"%s\" is more than %zu KiB (%zu MiB), the largest %s; using %zu",
			  var, tp__sink_shown(v, shown, sizeof(shown)), max / 1024, max >> 20, what, def / 1024);
	else
		tp__sink_msg("%s=\"%s\" is not a size in KiB (a whole number from 1 to %zu); using %zu",
			  var, tp__sink_shown(v, shown, sizeof(shown)), max / 1024, def / 1024);
	return def;
}

static void tp__sink_init_once(void)
{
	const char *clk = tp__sink_getenv("TRACEPOINTS_CLOCK");
	char shown[48];
	int e;
	pthread_mutex_init(&tp__sink.lock, NULL);
	pthread_mutex_init(&tp__sink.msg_lock, NULL);
	e = pthread_key_create(&tp__sink.key, tp__sink_thread_exit);
	tp__sink.have_key = e == 0;
	if (e)
		tp__sink_msg("cannot create a thread-specific key (%s): the stream of an exited thread "
			  "is closed when another thread starts recording, or at exit", strerror(e));
	pthread_atfork(tp__sink_atfork_prepare, tp__sink_atfork_parent, tp__sink_atfork_child);
	tp__sink.base.thread_buffer = tp__sink_thread_buffer;
	tp__sink.base.next_window = tp__sink_next_window;
	tp__sink.base.clock = tp__sink_counter_ok() ? TRACE_CLOCK_COUNTER : TRACE_CLOCK_MONOTONIC;
	if (clk && strcmp(clk, "monotonic") == 0)
		tp__sink.base.clock = TRACE_CLOCK_MONOTONIC;
	else if (clk && strcmp(clk, "counter") != 0)
		tp__sink_msg("TRACEPOINTS_CLOCK=\"%s\" is neither counter nor monotonic; using %s",
			  tp__sink_shown(clk, shown, sizeof(shown)),
			  tp__sink.base.clock == TRACE_CLOCK_COUNTER ? "counter" : "monotonic");
	tp__sink.window = tp__sink_pow2(tp__sink_env_kb("TRACEPOINTS_BUFFER_KB", (size_t)1 << 20,
					       TP__SINK_WINDOW_MAX, "window"));
	tp__sink.flight_bytes = tp__sink_env_kb("TRACEPOINTS_FLIGHT_KB", (size_t)4 << 20, TP__SINK_RING_MAX,
					  "flight ring");
	tp__sink.rootfd = tp__sink.dirfd = tp__sink.metafd = -1;
	tp__sink.pid = (int)getpid();
	__atomic_store_n(&tp__sink.inited, 1, __ATOMIC_RELEASE);
}

static void tp__sink_init(void)
{
	pthread_once(&tp__sink_once, tp__sink_init_once);
}

/* The mode TRACEPOINTS_MODE asks for (stream if unset; a value that is
 * neither is reported once, and stream used). */
static int tp__sink_env_mode(void)
{
	const char *m = tp__sink.env_mode;
	char shown[48];
	if (m && strcmp(m, "flight") == 0)
		return TP__SINK_FLIGHT;
	if (m && strcmp(m, "stream") != 0)
		tp__sink_msg_once("env-mode", "TRACEPOINTS_MODE=\"%s\" is neither stream nor flight; using stream",
				  tp__sink_shown(m, shown, sizeof(shown)));
	return TP__SINK_STREAM;
}

/* Starts the trace where and how the environment says (TRACEPOINTS_DIR,
 * TRACEPOINTS_MODE), lock held: the first tracepoint_enable() of a program
 * that did not call tracepoint_output(). */
static int tp__sink_start_env_trace(void)
{
	tp__sink.mode = tp__sink_env_mode();
	return tp__sink_start_trace(tp__sink.env_dir);
}

TRACEPOINT_SINK_API int tracepoint_output(const char *mode, const char *dir)
{
	int m, e;
	char shown[48];
	if (mode && (strcmp(mode, "text") == 0 || strcmp(mode, "json") == 0)) {
		tp__sink_msg("output \"%s\": traces are recorded to a directory; tracepoint-dump --%s DIR "
			  "makes %s from it", mode, mode, mode);
		return -EINVAL;
	}
	if (mode && strcmp(mode, "stream") != 0 && strcmp(mode, "flight") != 0) {
		tp__sink_msg("output mode \"%s\" is neither stream nor flight", mode);
		return -EINVAL;
	}
	tp__sink_init();
	/* What the program leaves open, the environment chooses; what it
	 * chooses against the environment is said (once), not done silently. */
	if (!mode)
		m = tp__sink_env_mode();
	else
		m = mode[0] == 'f' ? TP__SINK_FLIGHT : TP__SINK_STREAM;
	if (mode && tp__sink.env_mode && strcmp(mode, tp__sink.env_mode) != 0 &&
	    (strcmp(tp__sink.env_mode, "stream") == 0 || strcmp(tp__sink.env_mode, "flight") == 0))
		tp__sink_msg_once("env-mode-program", "TRACEPOINTS_MODE=%s is not used: the program chose "
				  "mode %s (tracepoint_output)", tp__sink.env_mode, mode);
	if (!dir)
		dir = tp__sink.env_dir;
	else if (tp__sink.env_dir && strcmp(dir, tp__sink.env_dir) != 0)
		tp__sink_msg_once("env-dir-program", "TRACEPOINTS_DIR=%s is not used: the program chose the "
				  "trace directory %s (tracepoint_output)",
				  tp__sink_shown(tp__sink.env_dir, shown, sizeof(shown)), dir);
	tp__sink_lock();
	if (tp__sink.recording) {
		tp__sink_unlock();
		return -EBUSY;
	}
	tp__sink.mode = m;
	e = tp__sink_start_trace(dir);
	tp__sink_unlock();
	return e;
}

TRACEPOINT_SINK_API const char *tracepoint_trace_dir(void)
{
	return __atomic_load_n(&tp__sink.recording, __ATOMIC_ACQUIRE) && !tp__sink.child_pending
		       ? tp__sink.dir : NULL;
}

TRACEPOINT_SINK_API long tracepoint_flush(void)
{
	struct tp__sink_node *n;
	long e = 0;
	if (!__atomic_load_n(&tp__sink.recording, __ATOMIC_ACQUIRE))
		return 0;
	for (n = __atomic_load_n(&tp__sink.nodes, __ATOMIC_ACQUIRE); n; n = n->next) {
		int fd = __atomic_load_n(&n->fd, __ATOMIC_RELAXED);
		int st = __atomic_load_n(&n->state, __ATOMIC_ACQUIRE);
		if ((st == TP__SINK_OWNED || st == TP__SINK_LATE) && fd >= 0 &&
		    fdatasync(fd) != 0 && errno != EBADF && errno != EINVAL && !e)
			e = -errno;
	}
	if (tp__sink.metafd >= 0 && fdatasync(tp__sink.metafd) != 0 && !e)
		e = -errno;
	return e;
}

TRACEPOINT_SINK_API unsigned long long tracepoint_dropped(void)
{
	struct tp__sink_node *n;
	unsigned long long d = __atomic_load_n(&tp__sink.lost, __ATOMIC_RELAXED) +
			       __atomic_load_n(&tp__sink.gone_dropped, __ATOMIC_RELAXED);
	for (n = __atomic_load_n(&tp__sink.nodes, __ATOMIC_ACQUIRE); n; n = n->next)
		if (__atomic_load_n(&n->state, __ATOMIC_ACQUIRE) != TP__SINK_FREE)
			d += __atomic_load_n(&n->b.dropped, __ATOMIC_RELAXED);
	return d;
}

TRACEPOINT_SINK_API void tracepoint_buffer_size(size_t bytes)
{
	tp__sink_init();
	tp__sink_lock();
	tp__sink.window = tp__sink_pow2(bytes);
	tp__sink_unlock();
}

TRACEPOINT_SINK_API void tracepoint_flight_size(size_t bytes)
{
	tp__sink_init();
	tp__sink_lock();
	tp__sink.flight_bytes = bytes < TP__SINK_RING_MAX ? bytes : TP__SINK_RING_MAX;
	tp__sink_unlock();
}
/* ---- Enabling by pattern. ---- */

static void tp__sink_flt_rebind(struct trace_event_sink *slot);

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
			tp__sink_flt_rebind(tp__sink.slots[i]); /* trace/sink_filter.h */
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
	return ev && strlen(ev->cls->system) == q->len && memcmp(ev->cls->system, q->name, q->len) == 0;
}

static int tp__sink_is_system(const char *item, size_t len)
{
	struct tp__sink_sys q;
	q.name = item;
	q.len = len;
	return !memchr(item, ':', len) && tracepoint_for_each(tp__sink_sys_walk, &q) != 0;
}

/* The loaded event closest to a misspelled name (at most 2 edits, without
 * case; "system:name", or the name alone for an item without ':'). */
struct tp__sink_near {
	const char *item;
	size_t len;
	size_t best;
	char name[TRACE_PATTERN_MAX + 1];
};

/* Edit distance, without case, capped at limit + 1 (trace/sink_env.h). */
static size_t tp__sink_env_distance(const char *a, size_t na, const char *b, size_t limit);

static int tp__sink_near_walk(struct tracepoint *tp, void *priv)
{
	struct tp__sink_near *q = (struct tp__sink_near *)priv;
	const struct trace_event *ev = trace_event_of(tp);
	char full[TRACE_PATTERN_MAX + 1];
	size_t d;
	if (!ev)
		return 0;
	if (memchr(q->item, ':', q->len))
		snprintf(full, sizeof(full), "%s:%s", ev->cls->system, ev->name);
	else
		snprintf(full, sizeof(full), "%s", ev->name);
	d = tp__sink_env_distance(q->item, q->len, full, 2);
	if (d < q->best) {
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
	q.best = 3;
	tracepoint_for_each(tp__sink_near_walk, &q);
	if (q.best > 2)
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
		tp__sink_msg_once(tp->name, "%s is a plain tracepoint (DECLARE_TRACE, no fields): "
			       "the sink cannot record it; make it a TRACE_EVENT", tp->name);
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
		if (r && r != -EEXIST) {
			tp__sink_msg("cannot enable %s:%s: %s", ev->cls->system, ev->name, strerror(-r));
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

static int tp__sink_apply_spec(const char *spec, int attach); /* trace/sink_filter.h */

static int tp__sink_apply(const char *list, int attach)
{
	struct tp__sink_pat p;
	size_t pos = 0, i, done = 0;
	const char *why = NULL;
	int total = 0, err = 0;

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
		/* Items from the done-th on (64 per walk). */
		const char *s = list;
		size_t skip = done;
		while (skip && (s = strchr(s, ',')) != NULL) {
			s++;
			skip--;
		}
		memset(&p, 0, sizeof(p));
		p.list = list;
		p.attach = attach;
		if (s)
			trace_pattern_for_each(s, tp__sink_pat_collect, &p);
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
				tp__sink_msg_once(key, "\"%.*s\" selects %lu event(s) with no call site "
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
				snprintf(key, sizeof(key), "nomatch:%.*s", (int)p.len[i], p.item[i]);
				if (!trace_pattern_is_glob(p.item[i], p.len[i]) &&
				    tp__sink_is_system(p.item[i], p.len[i]))
					tp__sink_msg_once(key, "unknown event \"%.*s\": %.*s is a subsystem; "
						       "\"%.*s:*\" records its events", (int)p.len[i],
						       p.item[i], (int)p.len[i], p.item[i], (int)p.len[i],
						       p.item[i]);
				else if (trace_pattern_is_glob(p.item[i], p.len[i]))
					tp__sink_msg_once(key, "pattern \"%.*s\" matches no event of this program "
						       "(TRACEPOINTS=list shows them; a subsystem compiled "
						       "out has none; a library's exist once it is loaded: "
						       "tracepoint_enable() after its dlopen())",
						       (int)p.len[i], p.item[i]);
				else {
					char near[TRACE_PATTERN_MAX + 32];
					tp__sink_msg_once(key, "unknown event \"%.*s\"%s (TRACEPOINTS=list shows "
						       "the events of this program; a slice NAME is "
						       "recorded as NAME_begin and NAME_end; a subsystem "
						       "compiled out has none; a library's exist once it "
						       "is loaded: tracepoint_enable() after its dlopen())",
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

TRACEPOINT_SINK_API int tracepoint_enable(const char *patterns)
{
	return tp__sink_apply(patterns, 1);
}

TRACEPOINT_SINK_API int tracepoint_disable(const char *patterns)
{
	return tp__sink_apply(patterns, 0);
}

#include <trace/sink_filter.h>
#include <trace/sink_env.h> /* the variables; misspelt ones said at start-up */

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

TRACEPOINT_SINK_API int tracepoint_list(int (*fn)(const struct tracepoint_info *info, void *priv),
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
	static const char *const words[2][4] = {
		{ "", " [slice_begin]", " [slice_end]", " [counter]" },
		{ " [flow]", " [slice_begin flow]", " [slice_end flow]", " [counter flow]" }
	};
	unsigned b = kind & TRACE_KIND_BASE_MASK;
	return words[(kind & TRACE_KIND_FLOW) != 0][b < 4 ? b : 0];
}

static int tp__sink_print_cb(const struct tracepoint_info *info, void *priv)
{
	FILE *out = (FILE *)priv;
	unsigned n = 0, i;
	const struct trace_event_field *f;
	/* No call site compiled in anywhere: the files that fire it were built
	 * without its subsystem's switch (static keys only; elsewhere unknown). */
	const char *nosites = tracepoint_sites(info->tp) == 0
		? " - no call site compiled in (build the files that fire it with its switch)" : "";
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
			fprintf(out, "%s%s %s[%u]", i ? ", " : "", f[i].type, f[i].name, f[i].array_len);
		else
			fprintf(out, "%s%s %s", i ? ", " : "", f[i].type, f[i].name);
	}
	fprintf(out, ")%s%s%s\n", tp__sink_kind_word(info->event->kind), info->enabled ? " enabled" : "",
		nosites);
	return 0;
}

TRACEPOINT_SINK_API void tracepoint_list_print(FILE *out)
{
	tracepoint_list(tp__sink_print_cb, out ? out : stdout);
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
	const char *p;
	if (!info->event)
		return 0;
	f = info->event->cls->fields(&n);
	/* the kernel names the system by the file's directory
	 * (events/SYSTEM/NAME/format): here, a line before the name */
	fprintf(out, "system: %s\nname: %s\nID: %u\nformat:\n", info->system, info->name, ++w->id);
	for (i = 0; i < n; i++) {
		unsigned size = f[i].size, es = f[i].array_len ? f[i].size / f[i].array_len : f[i].size;
		if (f[i].kind == TRACE_FIELD_STRING)
			fprintf(out, "\tfield:__data_loc char[] %s;\toffset:%u;\tsize:0;\tsigned:1;\n",
				f[i].name, info->event->cls->entry_size);
		else if (f[i].kind == TRACE_FIELD_DYNAMIC)
			fprintf(out, "\tfield:__data_loc %s[] %s;\toffset:%u;\tsize:4;\tsigned:%u;\n",
				f[i].type, f[i].name, f[i].offset, f[i].is_signed);
		else if (f[i].array_len)
			fprintf(out, "\tfield:%s %s[%u];\toffset:%u;\tsize:%u;\tsigned:%u;\n", f[i].type,
				f[i].name, f[i].array_len, f[i].offset, size, f[i].is_signed);
		else
			fprintf(out, "\tfield:%s %s;\toffset:%u;\tsize:%u;\tsigned:%u;\n", f[i].type,
				f[i].name, f[i].offset, es, f[i].is_signed);
	}
	fputs("\nprint fmt: ", out);
	for (p = info->event->cls->print_fmt; *p; p++) { /* __entry-> reads REC-> there */
		if (strncmp(p, "__entry", 7) == 0 && (p == info->event->cls->print_fmt ||
		    !((p[-1] >= 'a' && p[-1] <= 'z') || (p[-1] >= 'A' && p[-1] <= 'Z') ||
		      (p[-1] >= '0' && p[-1] <= '9') || p[-1] == '_'))) {
			fputs("REC", out);
			p += 6;
		} else {
			fputc(*p, out);
		}
	}
	fputs("\n\n", out);
	return 0;
}

TRACEPOINT_SINK_API void tracepoint_format_print(FILE *out)
{
	struct tp__sink_fmt_walk w;
	w.out = out ? out : stdout;
	w.id = 0;
	tracepoint_list(tp__sink_format_cb, &w);
}

/* ---- Start and end of the program. ---- */

static int tp__sink_signal_number(const char *v)
{
	static const struct { const char *name; int sig; } names[] = {
		{ "USR1", SIGUSR1 }, { "USR2", SIGUSR2 }, { "HUP", SIGHUP }, { "INT", SIGINT },
		{ "QUIT", SIGQUIT }, { "TERM", SIGTERM }, { "PWR", SIGPWR }, { "WINCH", SIGWINCH }
	};
	size_t i;
	char *end;
	long n;
	if (strncmp(v, "SIG", 3) == 0)
		v += 3;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(v, names[i].name) == 0)
			return names[i].sig;
	n = strtol(v, &end, 10);
	return *v && !*end && n > 0 && n < 65 && n != SIGKILL && n != SIGSTOP ? (int)n : -1;
}

/* Runs before the executable's other constructors, so that their events
 * are recorded too; in an executable, from .preinit_array (below), before
 * the constructors of the libraries it links, so that the events those
 * fire are recorded as well.  Once, whichever runs first. */
static int tp__sink_started;
__attribute__((constructor(101))) static void tp__sink_start(void)
{
	const char *tp, *mode, *sig, *dir;
	char shown[48];
	if (__atomic_exchange_n(&tp__sink_started, 1, __ATOMIC_RELAXED))
		return;
	tp = tp__sink_getenv("TRACEPOINTS");
	mode = tp__sink_getenv("TRACEPOINTS_MODE");
	sig = tp__sink_getenv("TRACEPOINTS_SNAPSHOT_SIGNAL");
	dir = tp__sink_getenv("TRACEPOINTS_DIR");
	tp__sink_env_check();
	/* Where and how a trace goes, whoever starts it: this, the program's
	 * own tracepoint_enable() or tracepoint_output(mode or dir NULL), or
	 * the control channel. */
	if (dir && *dir)
		tp__sink.env_dir = strdup(dir);
	if (mode)
		tp__sink.env_mode = strdup(mode);
	if (!tp || tp__sink_env_blank(tp))
		return; /* unset, empty groups only, or ignored (a set-user-ID program...): silently */
	if (strcmp(tp, "list") == 0 || strcmp(tp, "list-format") == 0) {
		if (tp[4])
			tracepoint_format_print(stdout);
		else
			tracepoint_list_print(stdout);
		fflush(stdout);
		exit(0);
	}
	tp__sink_init();
	{
		size_t pos;
		const char *why;
		if (trace_spec_is_plain(tp) ? trace_pattern_check(tp, &pos, &why) != 0
					    : tp__sink_spec_check(tp, 0, 1) != 0) {
			tracepoint_enable(tp); /* reports it; no trace is started */
			return;
		}
	}
	if (tp__sink_getenv("TRACEPOINTS_OUTPUT") || tp__sink_getenv("TRACEPOINTS_FILE"))
		tp__sink_msg("TRACEPOINTS_OUTPUT and TRACEPOINTS_FILE are no longer read: the trace is a "
			  "directory (TRACEPOINTS_DIR); tracepoint-dump --text or --json DIR formats it");
	/* TRACEPOINTS_DIR and TRACEPOINTS_MODE (a bad mode reported there) */
	if (tracepoint_output(NULL, NULL) != 0)
		return; /* reported; nothing is recorded */
	if (sig) {
		int s = tp__sink_signal_number(sig);
		if (s < 0 || tp__sink.mode != TP__SINK_FLIGHT) {
			tp__sink_msg("TRACEPOINTS_SNAPSHOT_SIGNAL=\"%s\" ignored: %s",
				  tp__sink_shown(sig, shown, sizeof(shown)),
				  s < 0 ? "not a signal name or number" : "snapshots need TRACEPOINTS_MODE=flight");
		} else {
			tp__sink_signal(s, tp__sink_snapshot_signal);
		}
	}
	tracepoint_enable(tp);
}

/* exit() has begun in this thread: from now on only this thread changes
 * stream files (tp__sink_file_begin); waits, for at most a second, until
 * no other thread is in the middle of such a change.  1 if none is. */
static int tp__sink_settle(void)
{
	int i;
	__atomic_store_n(&tp__sink.closer, tp__self(), __ATOMIC_RELAXED);
	__atomic_store_n(&tp__sink.closing, 1, __ATOMIC_SEQ_CST);
	for (i = 0; __atomic_load_n(&tp__sink.switching, __ATOMIC_SEQ_CST) != 0; i++) {
		struct timespec ts = {0, TP__SINK_SETTLE_WAIT_NS};
		if (i >= TP__SINK_SETTLE_WAITS)
			return 0; /* a thread stopped in the middle (SIGSTOP, a hung disk) */
		nanosleep(&ts, NULL);
	}
	return 1;
}

/* The dynamic linker runs an executable's .preinit_array before any
 * library's constructor (ELF; a shared object may not have one: where this
 * file is not built for an executable - -fPIC without -fPIE, a preloaded
 * recorder - the constructor above starts the recorder, after the
 * constructors of the libraries loaded before it). */
#if defined(__PIE__) || !defined(__PIC__)
/* Called with the process's arguments and environment: the C library sets
 * environ (to the same envp) only in its own initializer, which runs after
 * this one (tp__sink_environ: environ, trace/sink_env.h). */
static void tp__sink_preinit_fn(int argc, char **argv, char **envp)
{
	(void)argc;
	(void)argv;
	if (!tp__sink_environ)
		tp__sink_environ = envp;
	tp__sink_start();
}
__attribute__((section(".preinit_array"), used)) static void (*tp__sink_preinit)(int, char **, char **) =
	tp__sink_preinit_fn;
#endif

/* At a normal exit: the clock's frequency measured over the whole run
 * goes into the metadata, and a summary to stderr.  Threads (this one
 * included) keep recording afterwards: other destructors' and atexit
 * handlers' events are kept too, in the windows the threads have (only
 * this thread maps new ones: tp__sink_file_begin). */
__attribute__((destructor(101))) static void tp__sink_end(void)
{
	struct tp__sink_node *n;
	unsigned long long d, bytes;
	int e, settled;
	if (!__atomic_load_n(&tp__sink.inited, __ATOMIC_ACQUIRE) ||
	    !__atomic_load_n(&tp__sink.recording, __ATOMIC_ACQUIRE))
		return;
	settled = tp__sink_settle();
	tp__sink_lock();
	if (tp__sink.dirfd < 0) { /* a forked child that recorded nothing */
		tp__sink_unlock();
		return;
	}
	if (tp__sink.nslots == 0) {
		/* No event was ever enabled (e.g. a misspelt TRACEPOINTS, reported
		 * at start): leave no empty trace behind. */
		unlinkat(tp__sink.dirfd, "metadata", 0);
		if (unlinkat(tp__sink.rootfd, tp__sink.dir + strlen(tp__sink.root) + 1, AT_REMOVEDIR) == 0)
			rmdir(tp__sink.root); /* only if that left it empty */
		tp__sink_unlock();
		return;
	}
	if (tp__sink.base.clock == TRACE_CLOCK_COUNTER) {
		uint64_t f = tp__sink_measure_freq(tp__sink.c0, tp__sink.m0, 0);
		if (f > tp__sink.freq / 2 && f < tp__sink.freq * 2)
			tp__sink.freq = f;
	}
	e = tp__sink_write_metadata(tp__sink.dirfd, "metadata", tp__sink.uuid);
	if (e == 0) {
		if (tp__sink.metafd >= 0)
			close(tp__sink.metafd);
		tp__sink.metafd = openat(tp__sink.dirfd, "metadata", O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW);
	} else {
		tp__sink_err_once(TP__SINK_ERR_META, "cannot write %s/metadata: %s", tp__sink.dir, strerror(-e));
	}
	tp__sink_unlock();
	/* streams left open by threads gone (events after their exit handler) */
	for (n = __atomic_load_n(&tp__sink.nodes, __ATOMIC_ACQUIRE); n; n = n->next)
		tp__sink_reap_node(n, (int)getpid());
	bytes = __atomic_load_n(&tp__sink.gone_bytes, __ATOMIC_RELAXED);
	for (n = __atomic_load_n(&tp__sink.nodes, __ATOMIC_ACQUIRE); n; n = n->next) {
		int st;
		/* as a snapshot does: an exiting thread's window stays mapped meanwhile */
		__atomic_add_fetch(&n->snap_busy, 1, __ATOMIC_SEQ_CST);
		st = __atomic_load_n(&n->state, __ATOMIC_SEQ_CST);
		/* Another thread's window is read only once no thread changes
		 * windows any more (settled); else its closed packets only. */
		if ((st == TP__SINK_OWNED || st == TP__SINK_LATE) && n->fd >= 0) {
			bytes += n->bytes;
			if (n->b.pkt && (settled || n == tp__sink_mine))
				bytes += __atomic_load_n(&n->b.pkt->content_size, __ATOMIC_ACQUIRE) / 8u;
		}
		__atomic_sub_fetch(&n->snap_busy, 1, __ATOMIC_SEQ_CST);
	}
	d = tracepoint_dropped();
	if (__atomic_load_n(&tp__sink.errs, __ATOMIC_RELAXED))
		tp__sink_msg("the trace in %s is incomplete (see the errors above); %llu record(s) lost",
			  tp__sink.dir, d);
	else
		tp__sink_msg("trace in %s (%.1f KiB%s); read it with: tracepoint-dump %s", tp__sink.dir,
			  (double)bytes / 1024, d ? ", some records dropped: see below" : "", tp__sink.root);
	if (d)
		tp__sink_msg("%llu record(s) dropped (counted in the trace)", d);
}

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TRACEPOINT_SINK_MAIN */

#include <trace/control.h> /* the control channel (tracepoint-ctl) */

#endif /* TRACE_SINK_H_INCLUDED */
