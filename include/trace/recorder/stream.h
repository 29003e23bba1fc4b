/* SPDX-License-Identifier: MIT */
/*
 * trace/recorder/stream.h - the stream writer: each thread's node, its stream
 * file and the window of it mapped MAP_SHARED (the next window when one
 * is full), the flight ring's packets, and the changes to a stream file
 * that exit() must not see half done; a thread's exit closes its stream.
 *
 * Why a file: this is the recording threads' side (trace_sink_base's
 * thread_buffer and next_window); no lock is shared between them here.
 *
 * Internal: included by trace/sink.h (TRACEPOINT_SINK_MAIN); depends on
 * recorder/libc.h, recorder/state.h and recorder/trace_dir.h (a forked
 * child's trace, made at its first record).
 */
#ifndef TP__SINK_DEFINED
#error "trace/recorder/stream.h is internal: #include <trace/sink.h> instead"
#elif !defined(TP__REC_STREAM_H)
#define TP__REC_STREAM_H

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

#endif /* TP__REC_STREAM_H */
