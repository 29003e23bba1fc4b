/* SPDX-License-Identifier: MIT */
/*
 * trace/recorder/state.h - the recorder's state: its limits, the thread node,
 * the one struct tp__sink_sink, its locks and its messages.
 *
 * Why a file: every later part reads or changes this state; the lock
 * order that every part keeps is written down here, with the functions
 * that take the locks (tp__sink_lock) and the ones that report on stderr.
 *
 * Internal: included by trace/sink.h (TRACEPOINT_SINK_MAIN); depends on
 * recorder/libc.h, tracepoint.h (the walk guard of tracepoint/modules.h)
 * and trace/trace_events.h (struct trace_buffer, trace_sink_base).
 */
#ifndef TP__SINK_DEFINED
#error "trace/recorder/state.h is internal: #include <trace/sink.h> instead"
#elif !defined(TP__REC_STATE_H)
#define TP__REC_STATE_H

/* The largest window (TRACEPOINTS_BUFFER_KB, trace_recorder_buffer_size) and
 * flight ring per thread (TRACEPOINTS_FLIGHT_KB, trace_recorder_flight_size):
 * each is allocated on disk (fallocate) and mapped in one piece, the window
 * faulted in at once. */
#define TP__SINK_WINDOW_MAX ((size_t)TRACE_WINDOW_MAX)                   /* 1 GiB (trace/wire.h) */
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
	TP__SINK_ERR_WINDOW = 1, /* a window could not be allocated or mapped */
	TP__SINK_ERR_STREAM = 2, /* a stream file could not be created */
	TP__SINK_ERR_TOOBIG = 4, /* a record bigger than a window */
	TP__SINK_ERR_META = 8,	 /* the metadata could not be written */
	TP__SINK_ERR_CHILD = 16, /* a forked child's trace could not be made */
	TP__SINK_ERR_FLOOR = 32, /* the file system's free space fell below the floor */
	TP__SINK_ERR_COUNT = 64	 /* a removed stream file's records could not be counted */
};

enum {
	TP__SINK_PATH_MAX = 4096,
	TP__SINK_PACKET = (int)sizeof(struct trace_packet),
	TP__SINK_RETRY_DROPS = 1024,	 /* records dropped before a failed window is tried again */
	TP__SINK_CHILD_WAITS = 20000,	 /* 50 us sleeps (1 s): a forked child's thread waits for */
	TP__SINK_CHILD_WAIT_NS = 50000,	 /* another one that is making the child's trace */
	TP__SINK_SETTLE_WAITS = 20000,	 /* 50 us sleeps (1 s): exit() waits for other threads */
	TP__SINK_SETTLE_WAIT_NS = 50000, /* to finish changing a stream file */
	TP__SINK_WARM = 256 * 1024,	 /* stream mode: the warm ring's bytes, handed to the
				      stream file at once (at least one window) */
	TP__SINK_FLIGHT_PARTS = 4,	 /* flight mode: a ring is this many files (one more
				      when a file holds more than one window) */
	TP__SINK_FLOOR_PERCENT = 5,	 /* default floor: % of the file system's size */
	TP__SINK_FILE_COUNT_MAX = 1000000 /* TRACEPOINTS_FILE_COUNT's largest */
};

/* Bounded disk (recorder/disk.h): the default floor's cap, and the most a
 * process writes between two looks at the free space. */
#define TP__SINK_FLOOR_MAX ((uint64_t)1 << 30)	/* 1 GiB */
#define TP__SINK_FLOOR_LOOK ((uint64_t)64 << 20) /* 64 MiB */
#define TP__SINK_FILE_MB_MAX ((size_t)1 << 20)	/* TRACEPOINTS_FILE_MB: 1 TiB */

/* A rotated stream file of a thread, until it is removed (recorder/disk.h). */
struct tp__sink_kept {
	uint64_t records; /* handed to it ((uint64_t)-1: not countable) */
	uint64_t dropped; /* its packets' drop count at the end */
	uint64_t bytes;	  /* its size */
};

/* One thread's buffer: the recorder's part first.  Nodes are mmap()ed
 * (async-signal-safe), never freed, and reused once their thread is gone. */
struct tp__sink_node {
	struct trace_buffer b;
	int state;		    /* enum tp__sink_state */
	struct tp__sink_node *next; /* the sink's list (push only) */
	int fd;			    /* the stream file, -1: none */
	int tid;
	int exit_done;	    /* its exit handler is done with it */
	unsigned char *map; /* the ring: stream mode's warm ring (its own
					file), flight mode's (the stream file) */
	size_t map_len;
	uint64_t window;	    /* packet size of this stream */
	uint64_t file_off;	    /* stream: where packet `handed` goes in the file */
	uint64_t seq;		    /* packets opened (released: snapshots read it) */
	unsigned nwin;		    /* packets (slots) in the ring */
	int ring_fd;		    /* stream: the warm ring's file, -1: none */
	int ring_shown;		    /* stream: the ring has its own name (not a dot file) */
	int direct;		    /* stream, after exit(): windows of the stream file mapped */
	uint64_t handed;	    /* stream: packets 0..handed-1 are in the stream file */
	char ring_name[80];	    /* stream: the warm ring's name in the trace */
	uint64_t retry_at;	    /* after a failure: dropped count to try again at */
	int snap_busy;		    /* a snapshot is copying this ring */
	uint64_t bytes;		    /* bytes of closed packets */
	char sname[40];		    /* stream: the first stream file's name (rotation) */
	uint64_t file_idx;	    /* stream: rotation files opened before the current one */
	uint64_t first_idx;	    /* stream: the oldest rotation file not removed */
	uint64_t file_records;	    /* stream, file count: records in the current file */
	uint64_t file_disc;	    /* stream: drop count of the current file's last packet */
	struct tp__sink_kept *kept; /* stream, file count: file i at [i % count] */
	unsigned part_win;	    /* flight: windows in each file of the ring */
	unsigned lead;		    /* stream: the warm ring's lead packet's bytes (0: none) */
	uint32_t sid;		    /* its stream's stream_instance_id (one per stream) */
};

/* A warm ring's lead packet, at its start (recorder/stream.h). */
#define TP__SINK_LEAD(n) ((struct trace_packet *)(void *)(n)->map)

/* Slot j of node n's ring: where its packet begins (after the lead packet
 * of a warm ring; recorder/stream.h). */
#define TP__SINK_SLOT(n, j)                                                                    \
	((struct trace_packet *)(void *)((n)->map + (n)->lead + (size_t)(j) * (n)->window))

/* Flight mode: the shape of a ring of `bytes` (TRACEPOINTS_FLIGHT_KB) in
 * windows of `window` bytes (recorder/stream.h, "The flight ring"): the
 * number of files, and in *per the windows in each; at least 2 windows. */
static unsigned tp__sink_flight_shape(size_t bytes, uint64_t window, unsigned *per)
{
	uint64_t want = bytes / window < 2 ? 2 : bytes / window;
	uint64_t p = (want + TP__SINK_FLIGHT_PARTS - 1) / TP__SINK_FLIGHT_PARTS;
	*per = (unsigned)p;
	return (unsigned)((want + p - 1) / p + (p > 1));
}

struct tp__sink_slot_ref {
	const struct tracepoint *tp;
	struct trace_event_sink *slot;
};

struct tp__sink_sink {
	struct trace_sink_base base; /* first: what recorders see */
	pthread_mutex_t lock;	     /* enabling, metadata, trace start; a
					   recording thread only tries it (or, in
					   a forked child, waits a bounded time) */
	pthread_mutex_t msg_lock;    /* the reported-once list */
	pthread_key_t key;	     /* closes a thread's stream when it exits */
	int have_key;		     /* pthread_key_create() succeeded */
	int cpu;		     /* TRACEPOINTS_CPU=1: records hold their CPU */
	struct tp__sink_node *nodes;
	int inited, recording, mode, pid;
	int rootfd, dirfd, metafd, child_pending;
	int child_maker;	      /* the tid making a forked child's trace, or 0 */
	char root[TP__SINK_PATH_MAX]; /* the session directory */
	char dir[TP__SINK_PATH_MAX];  /* this process's trace in it */
	char procname[17];
	uint8_t uuid[16];
	size_t window, flight_bytes;
	uint64_t freq, c0, r0, m0, b0; /* clock: ticks/s; at tick c0, realtime,
					   CLOCK_MONOTONIC and CLOCK_BOOTTIME ns */
	char clock_uuid[40];	       /* the boot's id (as LTTng's clocks), or "" */
	char *events;		       /* the metadata's event blocks */
	size_t events_len, events_cap;
	struct trace_event_sink **slots; /* by id */
	char **slot_names;		 /* "system:event" of each */
	size_t nslots, capslots;
	struct tp__sink_slot_ref *attached;
	size_t nattached, capattached;
	unsigned long long lost;		     /* records with no buffer at all */
	unsigned long long gone_dropped, gone_bytes; /* of exited threads */
	unsigned snapshots;
	uint32_t streams;     /* stream files opened (their stream_instance_id) */
	int errs;	      /* enum tp__sink_err bits already reported */
	int ring_warned;      /* a too small flight ring was reported */
	int closing;	      /* exit() has begun (tp__sink_end) ... */
	unsigned long closer; /* ... in this thread (pthread_self()) */
	int switching;	      /* threads changing a window or closing
					   a stream file (tp__sink_file_begin) */
	char **reported;
	size_t nreported;
	char *env_dir, *env_mode; /* TRACEPOINTS_DIR (NULL: unset or empty) and
					   TRACEPOINTS_MODE at start-up */
	/* bounded disk (recorder/disk.h) */
	int64_t floor_env;		  /* TRACEPOINTS_MIN_FREE_MB in bytes; -1: the default */
	uint64_t disk_inflight;		  /* bytes being handed over now */
	int disk_low;			  /* the last look found less than the floor */
	int64_t disk_budget;		  /* bytes to write before the next look at free space */
	uint64_t disk_granted;		  /* bytes let through by the floor, ever */
	int disk_looking;		  /* a thread refills disk_budget (one at a time) */
	uint64_t file_max;		  /* TRACEPOINTS_FILE_MB in bytes; 0: no rotation */
	uint64_t file_count;		  /* TRACEPOINTS_FILE_COUNT; 0: every file is kept */
	struct tp__sink_layout **layouts; /* by trace id (never freed) */
	size_t nlayouts, caplayouts;
};

static struct tp__sink_sink tp__sink;
static pthread_once_t tp__sink_once = PTHREAD_ONCE_INIT;
static __thread struct tp__sink_node *tp__sink_mine;

/* ---- The recorder's locks, in their one order (docs/design.md#locks) ----
 * 1. the walk guard of the core (modules.h; dl_iterate_phdr()'s lock is
 *    taken inside it), 2. tp__sink.lock, 3. tp__sink.msg_lock, 4. the
 *    control channel's tp__ctl_fds (recorder/ctl_commands.h).  A thread
 *    holding one takes only later ones; the recorder's lock is always taken with the guard,
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
static void tp__sink_msg_once(const char *key, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
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

#endif /* TP__REC_STATE_H */
