/* SPDX-License-Identifier: MIT */
/*
 * trace/recorder/stream.h - the stream writer: each thread's node, its stream
 * file, the warm ring it records into (stream mode: a file of its own,
 * mapped MAP_SHARED once, handed to the stream file half by half with one
 * pwrite() each) or the flight ring (flight mode: the stream file itself),
 * and the changes to a stream file that exit() must not see half done; a
 * thread's exit closes its stream.
 *
 * Why a file: this is the recording threads' side (trace_sink_base's
 * thread_buffer and next_window); no lock is shared between them here.
 *
 * Why a warm ring: mapping each new window of the stream file made the
 * recording thread fault in fresh page-cache pages as it recorded (3.5 to
 * 4.4 times flight mode's cost per event, on ext4 and tmpfs alike); the
 * ring's pages are faulted in once and stay mapped, and a hand-off copies
 * a half into the page cache in the kernel, a system call per half.
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
			__atomic_compare_exchange_n(&n->state, &st, TP__SINK_FREE, 0,
						    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
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
	__atomic_store_n(&n->ring_fd, -1, __ATOMIC_RELAXED);
	n->map = NULL;
	n->map_len = 0;
	n->nwin = 0;
	n->lead = 0;
	n->sid = 0;
	n->handed = 0;
	n->ring_shown = n->direct = 0;
	n->ring_name[0] = '\0';
	n->file_off = 0;
	__atomic_store_n(&n->seq, 0, __ATOMIC_RELEASE);
	n->retry_at = 0;
	n->bytes = 0;
	n->sname[0] = '\0';
	n->file_idx = n->first_idx = 0;
	n->file_records = n->file_disc = 0;
	n->kept = NULL; /* unmapped by tp__sink_close_stream (or the fork child reset) */
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
	/* TRACEPOINTS_CPU=1: this thread's rseq area (record.h) */
	n->b.cpu = tp__sink.cpu ? tp__ev_cpu_src() : NULL;
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

/* ---- The warm ring (stream mode) ----
 * Each thread records into a ring of packets in a file of its own in the
 * trace, "stream-<tid>.ring" next to its "stream-<tid>", mapped and faulted
 * in once (TP__SINK_WARM bytes, or one window if larger, after a lead
 * packet).  When the ring's last packet is full, the whole ring goes to
 * the stream file in one pwrite(), at the offset it has in the stream, and
 * the ring starts over.
 *
 * The ring file is a stream file that any reader takes as it is, whenever
 * the process ends, and it is the same stream as the stream file: both
 * carry the stream's stream_instance_id, and a CTF reader that merges the
 * files of one stream by time and reads a packet found twice (same size,
 * times and number) once, as babeltrace2 does, reads every record once
 * at any instant:
 *  - the ring begins with its lead packet: empty, packet number 0, its
 *    time a nanosecond before the stream's first record.  It is never handed
 *    over; it covers (its packet_size) the slots whose packets are in the
 *    stream file already, so that they are its padding;
 *  - then the packets not yet handed over, in order, the last one covering
 *    the rest of the file.  A packet opens in the slot after the last one,
 *    covered by it, and only then does the last one shrink to one window;
 *  - a hand-off copies the packets to the stream file as they are, byte
 *    for byte: until the lead covers them (one store), each is in both
 *    files, a copy that a merging reader reads once (tracepoint-dump and
 *    the tests' reader take the ring's packets that hold records after
 *    the stream file's packets numbered below them);
 *  - the packet that opens after a hand-off goes in the first slot, under
 *    the lead, which then shrinks to its header (one store).
 * A thread's exit hands everything to the stream file and removes the
 * ring; exit() hands every thread's closed packets over and leaves each
 * open packet in its ring. */

/* pwrite() of len bytes at off, all of them or none (a partial write is
 * cut off again: off is the end of the file). */
static int tp__sink_pwrite_all(int fd, const unsigned char *b, uint64_t len, uint64_t off)
{
	uint64_t done = 0;
	while (done < len) {
		ssize_t r = pwrite(fd, b + done, (size_t)(len - done), (off_t)(off + done));
		if (r > 0) {
			done += (uint64_t)r;
		} else if (r == 0 || errno != EINTR) {
			int e = r == 0 ? ENOSPC : errno;
			if (ftruncate(fd, (off_t)off) != 0) {
				/* the packet at off says how long it is: a reader stops there */
			}
			errno = e;
			return -1;
		}
	}
	return 0;
}

/* More clock ticks than one nanosecond: two times this far apart differ
 * in nanoseconds too (a reader orders packets by their start in ns). */
static uint64_t tp__sink_ns_ticks(void)
{
	return tp__sink.freq / 1000000000u + 1u;
}

/* The lead packet of node n's warm ring covers its first `slots` slots
 * (their packets are in the stream file), or none (a release: after the
 * packets it shows are whole). */
static void tp__sink_lead_cover(struct tp__sink_node *n, unsigned slots)
{
	struct trace_packet *l = TP__SINK_LEAD(n);
	__atomic_store_n(&l->packet_size, ((uint64_t)n->lead + (uint64_t)slots * n->window) * 8u,
			 __ATOMIC_RELEASE);
}

static void tp__sink_packet_fill(struct tp__sink_node *n, struct trace_packet *p, uint64_t ts,
				 uint64_t size);

/* Closes the open packet at its content before it goes to the stream file:
 * an empty packet is made in its padding, after its last record (8-byte
 * aligned), to cover the rest of the ring, and only then does the open
 * packet shrink to end there; so the ring's copy and the stream file's are
 * the same bytes.  Its bytes, and in *was its size before (to undo it). */
static uint64_t tp__sink_close_open(struct tp__sink_node *n, uint64_t *was)
{
	struct trace_packet *p = n->b.pkt;
	uint64_t size = __atomic_load_n(&p->packet_size, __ATOMIC_RELAXED) / 8u;
	uint64_t keep =
		(__atomic_load_n(&p->content_size, __ATOMIC_ACQUIRE) / 8u + 7u) & ~(uint64_t)7;
	uint64_t end = __atomic_load_n(&p->timestamp_end, __ATOMIC_RELAXED);
	*was = size;
	if (size < keep + TP__SINK_PACKET)
		return size; /* too little room for one: the padding goes along */
	/* after the packet's start, in nanoseconds too: a reader ordering
	 * packets by their start never puts it first */
	if (end < p->timestamp_begin + tp__sink_ns_ticks())
		end = p->timestamp_begin + tp__sink_ns_ticks();
	tp__sink_packet_fill(n, (struct trace_packet *)(void *)((unsigned char *)p + keep), end,
			     size - keep);
	__atomic_store_n(&p->packet_size, keep * 8u, __ATOMIC_RELEASE);
	return keep;
}

/* Hands the ring's closed packets handed..upto-1 to the stream file, and
 * with them (last) the open packet, closed at its content: one pwrite() of
 * the bytes as they are in the ring.  The caller then covers them with the
 * lead.  0, or -1 (errno; the ring keeps them, and they go again). */
static int tp__sink_hand_over(struct tp__sink_node *n, uint64_t upto, int last)
{
	struct trace_packet *open = last ? n->b.pkt : NULL;
	uint64_t c = upto - n->handed, from = n->handed, len = c * n->window, was = 0;
	const unsigned char *run =
		c ? (const unsigned char *)TP__SINK_SLOT(n, from % n->nwin) : (unsigned char *)open;
	if (!c && !last)
		return 0;
	/* past TRACEPOINTS_FILE_MB: the next file (before anything is
	 * written: rotating changes the packets' drop counts and stream id) */
	if (tp__sink_rotate(
		    n, len + (last ? __atomic_load_n(&open->content_size, __ATOMIC_ACQUIRE) / 8u
				   : 0)) != 0)
		return -1;
	if (last)
		len += tp__sink_close_open(n, &was);
	if (tp__sink_pwrite_all(n->fd, run, len, n->file_off) != 0) {
		if (last) /* open as it was (its empty successor is padding again) */
			__atomic_store_n(&open->packet_size, was * 8u, __ATOMIC_RELEASE);
		return -1;
	}
	n->file_off += len;
	n->bytes += len;
	tp__sink_count_handed(n, from, c, open,
			      last ? open->events_discarded
				   : TP__SINK_SLOT(n, (upto - 1) % n->nwin)->events_discarded);
	__atomic_store_n(&n->handed, upto + (last ? 1 : 0), __ATOMIC_RELEASE);
	return 0;
}

static int tp__sink_hand_off(struct tp__sink_node *n, uint64_t upto)
{
	return tp__sink_hand_over(n, upto, 0);
}

/* Everything the ring holds to the stream file, the open packet last,
 * closed at its content (the stream's last packet); then the lead covers
 * the whole ring.  0, or -1 (reported). */
static int tp__sink_hand_all(struct tp__sink_node *n)
{
	if (tp__sink_hand_over(n, n->seq - 1, 1) == 0) {
		tp__sink_lead_cover(n, n->nwin);
		return 0;
	}
	tp__sink_err_once(TP__SINK_ERR_WINDOW,
			  "cannot extend %s/stream-%d: %s; its last records stay in "
			  "%s/%s",
			  tp__sink.dir, n->tid, strerror(errno), tp__sink.dir, n->ring_name);
	return -1;
}

/* exit(): the ring's closed packets to the stream file, and covered by the
 * lead; the open packet stays in the ring (its thread may record more).
 * The ring stays, so the copy adds to the disk: not below the free-space
 * floor (then the ring keeps them all, a stream of its own). */
static void tp__sink_hand_closed(struct tp__sink_node *n)
{
	uint64_t len = (n->seq - 1 - n->handed) * n->window;
	if (!len || tp__sink_disk_low() || tp__sink_floor_ok(n->fd, len) != 0)
		return;
	if (tp__sink_hand_off(n, n->seq - 1) == 0) {
		tp__sink_floor_done(len);
		tp__sink_lead_cover(n, (unsigned)((n->seq - 1) % n->nwin));
	} else {
		tp__sink_floor_done(len);
		tp__sink_err_once(TP__SINK_ERR_WINDOW,
				  "cannot extend %s/stream-%d: %s; its last records stay "
				  "in %s/%s",
				  tp__sink.dir, n->tid, strerror(errno), tp__sink.dir,
				  n->ring_name);
	}
}

/* Makes node n's warm ring for its stream file `sname`: as a dot file,
 * named as the stream's ring once its first packet is open
 * (tp__sink_next_packet).  Its lead packet covers it all until then; ts:
 * the time of the stream's first record. */
static int tp__sink_open_ring(struct tp__sink_node *n, const char *sname, uint64_t ts)
{
	size_t slots = n->window > TP__SINK_WARM ? (size_t)n->window : (size_t)TP__SINK_WARM;
	size_t ring = TP__SINK_PACKET + slots;
	struct trace_packet *l;
	void *m;
	int fd;
	snprintf(n->ring_name, sizeof(n->ring_name), ".%s.ring", sname);
	n->ring_shown = 0;
	fd = openat(tp__sink.dirfd, n->ring_name,
		    O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0) {
		tp__sink_err_once(TP__SINK_ERR_STREAM, "cannot create %s/%s: %s", tp__sink.dir,
				  n->ring_name, strerror(errno));
		n->ring_name[0] = '\0';
		return -1;
	}
	__atomic_store_n(&n->ring_fd, fd, __ATOMIC_RELAXED); /* tracepoint_flush() reads it */
	if ((fallocate(fd, 0, 0, (off_t)ring) != 0 && ftruncate(fd, (off_t)ring) != 0) ||
	    (m = mmap(NULL, ring, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)) == MAP_FAILED) {
		tp__sink_err_once(TP__SINK_ERR_WINDOW, "cannot make the %zu-byte ring %s/%s: %s",
				  slots, tp__sink.dir, n->ring_name, strerror(errno));
		return -1;
	}
	/* Every page faulted in now, in one call (ignored before Linux 5.14). */
	madvise(m, ring, TP__SINK_MADV_POPULATE_WRITE);
	n->map = (unsigned char *)m;
	n->map_len = ring;
	n->nwin = (unsigned)(slots / n->window);
	n->lead = TP__SINK_PACKET;
	l = TP__SINK_LEAD(n);
	tp__sink_packet_fill(n, l, ts > tp__sink_ns_ticks() ? ts - tp__sink_ns_ticks() : 0, ring);
	l->packet_seq_num = 0;
	l->events_discarded = 0;
	return 0;
}

static int tp__sink_open_flight(struct tp__sink_node *n, int fd, const char *name, uint64_t ts);

/* tp__sink_open_stream's files, once the floor let them be made. */
static int tp__sink_open_stream_(struct tp__sink_node *n, uint64_t ts)
{
	char name[sizeof(n->sname)];
	int i, fd = -1;
	for (i = 0; i < 1000 && fd < 0; i++) {
		if (i)
			snprintf(name, sizeof(name), "stream-%d.%d", n->tid, i);
		else
			snprintf(name, sizeof(name), "stream-%d", n->tid);
		fd = openat(tp__sink.dirfd, name,
			    O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0) {
		tp__sink_err_once(TP__SINK_ERR_STREAM, "cannot create a stream file in %s: %s",
				  tp__sink.dir, strerror(errno));
		return -1;
	}
	__atomic_store_n(&n->fd, fd, __ATOMIC_RELAXED);	  /* tracepoint_flush() reads it */
	snprintf(n->sname, sizeof(n->sname), "%s", name); /* rotation names the next ones */
	n->window = tp__sink.window;
	n->file_off = 0;
	n->bytes = 0;
	n->handed = 0;
	__atomic_store_n(&n->seq, 0, __ATOMIC_RELEASE);
	n->sid = __atomic_add_fetch(&tp__sink.streams, 1, __ATOMIC_RELAXED);
	n->lead = 0;
	if (tp__sink.mode == TP__SINK_STREAM)
		return tp__sink_open_ring(n, name, ts);
	return tp__sink_open_flight(n, fd, name, ts);
}

/* Opens the calling thread's stream file in the current trace.  Its ring
 * (stream mode) or flight ring counts as being written until it is
 * allocated: another thread's look at the free space meanwhile would not
 * see it (a process let one ring too many through, 256 KiB below the
 * floor, t_disk_bound.sh). */
static int tp__sink_open_stream(struct tp__sink_node *n, uint64_t ts)
{
	size_t need = tp__sink.mode == TP__SINK_STREAM ? (size_t)TP__SINK_WARM + TP__SINK_PACKET
						       : tp__sink.flight_bytes;
	int r;
	if (tp__sink.child_pending && tp__sink_start_child_trace() != 0)
		return -1;
	/* no new file below the free-space floor (recorder/disk.h) */
	if (tp__sink_floor_ok(tp__sink.dirfd, need) != 0)
		return -1;
	r = tp__sink_open_stream_(n, ts);
	tp__sink_floor_done(need);
	return r;
}

/* Fills a new packet's header at p.  Emptied first, and given its size:
 * a process killed in the middle of this leaves a packet with no events
 * (not the old ones under the new number) that covers what it is to
 * cover (a flight ring's file: the older packets after it).  Then the
 * sequence number (a snapshot copying what was there sees it change),
 * and content_size again last (a release: whoever reads it sees the
 * header whole). */
static void tp__sink_packet_fill(struct tp__sink_node *n, struct trace_packet *p, uint64_t ts,
				 uint64_t size)
{
	__atomic_store_n(&p->content_size, (uint64_t)TP__SINK_PACKET * 8u, __ATOMIC_RELAXED);
	__atomic_store_n(&p->packet_size, size * 8u, __ATOMIC_RELAXED);
	/* An exchange: nothing moves across it (a fence would do, but
	 * ThreadSanitizer does not support fences). */
	__atomic_exchange_n(&p->packet_seq_num, n->seq + (n->lead != 0), __ATOMIC_ACQ_REL);
	p->magic = TRACE_PACKET_MAGIC;
	memcpy(p->uuid, tp__sink.uuid, sizeof(p->uuid));
	p->stream_instance_id = n->sid;
	/* the end first: a reader of a packet being filled never sees it end
	 * before it begins */
	__atomic_store_n(&p->timestamp_end, ts, __ATOMIC_RELAXED);
	p->timestamp_begin = ts;
	__atomic_store_n(&p->events_discarded, n->b.dropped, __ATOMIC_RELAXED);
	p->tid = (uint32_t)n->tid;
	p->pid = (uint32_t)tp__sink.pid;
	memset(p->comm, 0, sizeof(p->comm));
	prctl(PR_GET_NAME, (unsigned long)p->comm, 0, 0, 0);
	__atomic_store_n(&p->content_size, (uint64_t)TP__SINK_PACKET * 8u, __ATOMIC_RELEASE);
}

/* Opens packet n->seq at p, of `size` bytes in its file (records: one
 * window at most). */
static void tp__sink_packet_init(struct tp__sink_node *n, struct trace_packet *p, uint64_t ts,
				 uint64_t size)
{
	tp__sink_packet_fill(n, p, ts, size);
	__atomic_store_n(&n->seq, n->seq + 1, __ATOMIC_RELEASE);
	n->b.pkt = p;
	n->b.pos = (unsigned char *)p + TP__SINK_PACKET;
	n->b.end = (unsigned char *)p + n->window;
	n->b.last_ts = ts;
}

/* ---- The flight ring ----
 * Flight mode: each thread records into a ring of windows that it reuses
 * oldest first, mapped once and never handed over.  The ring is a few
 * files of the trace ("stream-<tid>", "stream-<tid>-1", ...), mapped side
 * by side, so that every file holds its packets in time order whenever
 * the process ends, as a CTF reader (babeltrace2) needs: a file is
 * written from its start to its end, and then the next one.  The packet
 * being written covers the rest of its file (its packet_size reaches the
 * file's end, so the slots after it, unused or holding the file's older
 * packets, are its padding); a packet opens in the slot after it, covered
 * by it, and only then does it shrink to one window.  Going back to a
 * file's first slot hides that file's older packets, so a ring of more
 * than one window a file has one file more than TRACEPOINTS_FLIGHT_KB
 * needs (tp__sink_flight_shape): the newest TRACEPOINTS_FLIGHT_KB are
 * always readable, as they are. */

/* Maps the flight ring of node n, whose first file is `name` (claimed,
 * still empty, as fd).  Each file is made under a dot name, sized,
 * mapped and given an empty packet that covers it (at ts: before any
 * record that will go in it), and only then renamed into place (the
 * first one over the empty file): a process that ends meanwhile leaves
 * an empty file and dot files, which readers skip, never one of zeros. */
static int tp__sink_open_flight(struct tp__sink_node *n, int fd, const char *name, uint64_t ts)
{
	unsigned per, parts = tp__sink_flight_shape(tp__sink.flight_bytes, n->window, &per), s;
	size_t part = (size_t)per * n->window, ring = part * parts;
	unsigned char *m;
	if ((uint64_t)tp__sink.flight_bytes < 2 * n->window &&
	    !__atomic_exchange_n(&tp__sink.ring_warned, 1, __ATOMIC_RELAXED))
		tp__sink_msg("a flight ring of %zu KiB is less than two windows of %zu KiB: using "
			     "%zu KiB (lower TRACEPOINTS_BUFFER_KB for a smaller ring)",
			     tp__sink.flight_bytes / 1024, (size_t)n->window / 1024,
			     (size_t)n->window * 2 / 1024);
	/* one reservation (PROT_NONE: no memory is committed for it), each
	 * file mapped over its part of it */
	m = (unsigned char *)mmap(NULL, ring, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == (unsigned char *)MAP_FAILED) {
		tp__sink_err_once(TP__SINK_ERR_WINDOW, "cannot map a %zu-byte flight ring: %s",
				  ring, strerror(errno));
		return -1;
	}
	n->map = m;
	n->map_len = ring;
	n->nwin = per * parts;
	n->part_win = per;
	for (s = 0; s < parts; s++) {
		char pname[sizeof(n->sname) + 16], dot[sizeof(pname) + 8];
		int pfd;
		if (s)
			snprintf(pname, sizeof(pname), "%s-%u", name, s);
		else
			snprintf(pname, sizeof(pname), "%s", name);
		snprintf(dot, sizeof(dot), ".%s.new", pname);
		unlinkat(tp__sink.dirfd, dot, 0); /* a dead thread's of the same tid */
		pfd = openat(tp__sink.dirfd, dot,
			     O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
		if (pfd < 0 ||
		    (fallocate(pfd, 0, 0, (off_t)part) != 0 && ftruncate(pfd, (off_t)part) != 0) ||
		    mmap(m + s * part, part, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, pfd,
			 0) == MAP_FAILED) {
			tp__sink_err_once(TP__SINK_ERR_WINDOW,
					  "cannot make the %zu-byte flight ring file %s/%s: %s",
					  part, tp__sink.dir, pname, strerror(errno));
			if (pfd >= 0) {
				close(pfd);
				unlinkat(tp__sink.dirfd, dot, 0);
			}
			return -1;
		}
		tp__sink_packet_fill(n, TP__SINK_SLOT(n, s * per), ts, per * n->window);
		if (renameat(tp__sink.dirfd, dot, tp__sink.dirfd, pname) != 0) {
			tp__sink_err_once(TP__SINK_ERR_WINDOW, "cannot rename %s/%s: %s",
					  tp__sink.dir, dot, strerror(errno));
			close(pfd);
			unlinkat(tp__sink.dirfd, dot, 0);
			return -1;
		}
		if (s) {
			close(pfd); /* the mapping keeps it */
		} else {
			__atomic_store_n(&n->fd, pfd, __ATOMIC_RELAXED); /* tracepoint_flush() */
			close(fd);
		}
	}
	return 0;
}

/* Flight mode: packet n->seq opens in its slot, covering the rest of its
 * file, and the packet before it, if in the same file, shrinks to one
 * window (a release: after the new packet's header is whole). */
static void tp__sink_flight_packet(struct tp__sink_node *n, uint64_t ts)
{
	unsigned j = (unsigned)(n->seq % n->nwin), k = j % n->part_win;
	struct trace_packet *prev = n->b.pkt;
	tp__sink_packet_init(n, TP__SINK_SLOT(n, j), ts, (uint64_t)(n->part_win - k) * n->window);
	if (k && prev)
		__atomic_store_n(&prev->packet_size, n->window * 8u, __ATOMIC_RELEASE);
	if (prev) { /* the closed packets' bytes the ring holds (the exit summary) */
		n->bytes += __atomic_load_n(&prev->content_size, __ATOMIC_RELAXED) / 8u;
		if (n->bytes > n->map_len - n->window)
			n->bytes = n->map_len - n->window;
	}
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

/* Closes node n's stream: in stream mode, what its warm ring holds goes
 * to the stream file, the last packet shrunk to its content, and the ring
 * is removed - except by a thread other than exit()'s once exit() has
 * begun (tp__sink_end hands the rings over), and below the free-space
 * floor (recorder/disk.h): then the ring stays as it is, a stream of its
 * own.  Flight mode: the ring is the stream file. */
static void tp__sink_close_stream(struct tp__sink_node *n)
{
	int mine = tp__sink_file_begin(), whole = !n->b.pkt;
	if (n->direct && n->map && n->b.pkt && mine) {
		uint64_t used = __atomic_load_n(&n->b.pkt->content_size, __ATOMIC_ACQUIRE) / 8u;
		n->b.pkt->packet_size = used * 8u;
		if (ftruncate(n->fd, (off_t)(n->file_off - n->window + used)) != 0) {
			/* the packet says its size; the file keeps zeros after it */
		}
		n->bytes += used;
	} else if (n->map && tp__sink.mode == TP__SINK_STREAM && n->b.pkt && mine && n->fd >= 0 &&
		   !tp__sink_disk_low() && tp__sink_hand_all(n) == 0) {
		whole = 1;
	} else if (n->map && tp__sink.mode == TP__SINK_FLIGHT && n->b.pkt) {
		n->bytes += __atomic_load_n(&n->b.pkt->content_size, __ATOMIC_ACQUIRE) / 8u;
	}
	if (n->map)
		munmap(n->map, n->map_len);
	if (n->kept)
		munmap(n->kept, tp__sink.file_count * sizeof(*n->kept));
	if (n->ring_fd >= 0) {
		close(n->ring_fd);
		if (whole && mine && tp__sink.dirfd >= 0 && n->ring_name[0])
			unlinkat(tp__sink.dirfd, n->ring_name, 0);
	}
	if (n->fd >= 0)
		close(n->fd);
	__atomic_add_fetch(&tp__sink.gone_bytes, n->bytes, __ATOMIC_RELAXED);
	tp__sink_node_reset(n);
	tp__sink_file_end();
}

/* The stream file cannot grow (errno e; 0: the free-space floor, said by
 * tp__sink_floor_ok): said once; this record and those after it are
 * dropped and counted, and growing is tried again after
 * TP__SINK_RETRY_DROPS of them. */
static int tp__sink_no_room(struct tp__sink_node *n, int e)
{
	if (e)
		tp__sink_err_once(TP__SINK_ERR_WINDOW,
				  "cannot extend %s/stream-%d: %s; records are dropped "
				  "(and counted) until there is room",
				  tp__sink.dir, n->tid, strerror(e));
	n->retry_at = n->b.dropped + TP__SINK_RETRY_DROPS;
	return tp__sink_drop(n);
}

/* Stream mode: packet q opens in its slot of the warm ring, covered by
 * the packet before it until that one shrinks to a window; in the first
 * slot, once the whole ring is in the stream file and covered. */
static int tp__sink_next_packet(struct tp__sink_node *n, uint64_t ts)
{
	uint64_t q = n->seq;
	unsigned j = (unsigned)(q % n->nwin);
	struct trace_packet *p = TP__SINK_SLOT(n, j), *prev = n->b.pkt;
	if (j == 0 && q) {
		uint64_t len = (q - n->handed) * n->window;
		int r;
		if (tp__sink_floor_ok(n->fd, len) != 0)
			return tp__sink_no_room(n, 0);
		r = tp__sink_hand_off(n, q);
		tp__sink_floor_done(len);
		if (r != 0) {
			/* No room on disk (or no more allowed): the full packet stays
			 * open, and counts the records dropped until there is. */
			return tp__sink_no_room(n, errno);
		}
		tp__sink_lead_cover(n, n->nwin);
	}
	tp__sink_packet_init(n, p, ts, (uint64_t)(n->nwin - j) * n->window);
	if (j)
		__atomic_store_n(&prev->packet_size, n->window * 8u, __ATOMIC_RELEASE);
	else
		tp__sink_lead_cover(n, 0);
	if (!n->ring_shown) {
		/* the ring holds a packet: a stream readers take from now on */
		char shown[sizeof(n->ring_name)];
		memcpy(shown, n->ring_name + 1, sizeof(shown) - 1);
		shown[sizeof(shown) - 1] = '\0';
		if (renameat(tp__sink.dirfd, n->ring_name, tp__sink.dirfd, shown) == 0) {
			memcpy(n->ring_name, shown, sizeof(shown));
			n->ring_shown = 1;
		}
	}
	return 0;
}

/* exit(): the exiting thread's ring goes to its stream file whole, and
 * the ring away; what the thread records afterwards (in later destructors)
 * goes straight into windows of the stream file, mapped MAP_SHARED, so that
 * the stream file is whole whenever the process ends. */
static void tp__sink_go_direct(struct tp__sink_node *n)
{
	if (tp__sink_disk_low() || tp__sink_hand_all(n) != 0)
		return; /* the thread goes on in its ring (below the floor: drops) */
	munmap(n->map, n->map_len);
	close(n->ring_fd);
	__atomic_store_n(&n->ring_fd, -1, __ATOMIC_RELAXED);
	unlinkat(tp__sink.dirfd, n->ring_name, 0);
	n->map = NULL;
	n->map_len = 0;
	n->b.pkt = NULL;
	n->b.pos = n->b.end = NULL;
	n->direct = 1;
}

/* After tp__sink_go_direct: a new window at the end of the stream file.
 * It goes in whole, in one write, its header an empty packet that covers
 * it (from an anonymous mapping: the rest reads as zeros without being
 * stored), and only then is it mapped: a process killed from then on
 * leaves a valid file, as after a hand-off (a write cut short by the kill
 * aside).  A full disk is an error code here, never a SIGBUS later. */
static int tp__sink_direct_window(struct tp__sink_node *n, uint64_t ts)
{
	uint64_t at = n->file_off & ~(uint64_t)4095, delta = n->file_off - at;
	unsigned char *w = (unsigned char *)mmap(NULL, (size_t)n->window, PROT_READ | PROT_WRITE,
						 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	void *m = MAP_FAILED;
	if (w != (unsigned char *)MAP_FAILED) {
		int e;
		tp__sink_packet_fill(n, (struct trace_packet *)(void *)w, ts, n->window);
		if (tp__sink_pwrite_all(n->fd, w, n->window, n->file_off) == 0)
			m = mmap(NULL, (size_t)(delta + n->window), PROT_READ | PROT_WRITE,
				 MAP_SHARED, n->fd, (off_t)at);
		e = errno;
		munmap(w, (size_t)n->window);
		errno = e;
	}
	if (m == MAP_FAILED) {
		int e = errno;
		if (ftruncate(n->fd, (off_t)n->file_off) != 0) {
			/* the file says no more than before */
		}
		return tp__sink_no_room(n, e);
	}
	if (n->map) {
		n->bytes += n->window;
		munmap(n->map, n->map_len);
	}
	n->map = (unsigned char *)m;
	n->map_len = (size_t)(delta + n->window);
	n->file_off += n->window;
	tp__sink_packet_init(n, (struct trace_packet *)(void *)(n->map + delta), ts, n->window);
	return 0;
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
		tp__sink_err_once(TP__SINK_ERR_TOOBIG,
				  "a record of %zu bytes does not fit a window of %zu "
				  "bytes; dropped (raise TRACEPOINTS_BUFFER_KB)",
				  need, tp__sink.window);
		return tp__sink_drop(n);
	}
	if (n->retry_at && b->dropped < n->retry_at)
		return tp__sink_drop(n);
	n->retry_at = 0;
	if (n->fd < 0) {
		if (!__atomic_load_n(&tp__sink.recording, __ATOMIC_ACQUIRE) ||
		    tp__sink_open_stream(n, ts) != 0) {
			if (n->fd >= 0)
				tp__sink_close_stream(n);
			n->retry_at = b->dropped + TP__SINK_RETRY_DROPS;
			return tp__sink_drop(n);
		}
	}
	if (n->direct)
		return tp__sink_direct_window(n, ts);
	if (tp__sink.mode == TP__SINK_STREAM)
		return tp__sink_next_packet(n, ts);
	tp__sink_flight_packet(n, ts);
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
