/* SPDX-License-Identifier: MIT */
/*
 * trace/recorder/fork.h - fork(): the recorder's fork handlers, which take
 * every lock of the recorder in its one order, and the child's reset, after
 * which the child records into a trace of its own.
 *
 * Internal: included by trace/sink.h (TRACEPOINT_SINK_MAIN); depends on
 * recorder/state.h and recorder/stream.h, and the core's fork hooks
 * (tp__fork_prepare, _parent, _child: tracepoint/process.h).  The control channel's handlers, called last,
 * are declared ahead here: they are defined in recorder/ctl_server.h,
 * which comes after the recorder (it calls the recorder's functions).
 */
#ifndef TP__SINK_DEFINED
#error "trace/recorder/fork.h is internal: #include <trace/sink.h> instead"
#elif !defined(TP__REC_FORK_H)
#define TP__REC_FORK_H

/* ---- fork(): the child records into a trace of its own. ----
 * One set of handlers takes every lock of the recorder, the core's walk
 * guard first, in the order of recorder/state.h: whether the core's own
 * handlers (the guard alone) run before or after these, the guard is taken
 * first and once per handler (it nests), so a fork never waits for a lock
 * while holding a later one.  The control channel's lock is the last. */
static void tp__ctl_atfork_prepare(void); /* recorder/ctl_server.h */
static void tp__ctl_atfork_parent(void);
static void tp__ctl_atfork_child(void);

static void tp__sink_child_reset(void)
{
	struct tp__sink_node *n;
	if (!tp__sink.recording)
		return;
	/* Writes the parent had under way are not the child's (recorder/disk.h). */
	tp__sink.disk_inflight = 0;
	tp__sink.disk_budget = 0;
	tp__sink.disk_looking = 0;
	/* The parent's windows stay the parent's: unmap them untouched. */
	for (n = tp__sink.nodes; n; n = n->next) {
		if (n->map)
			munmap(n->map, n->map_len);
		if (n->fd >= 0)
			close(n->fd);
		if (n->ring_fd >= 0)
			close(n->ring_fd);
		if (n->kept)
			munmap(n->kept, tp__sink.file_count * sizeof(*n->kept));
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

#endif /* TP__REC_FORK_H */
