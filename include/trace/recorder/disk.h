/* SPDX-License-Identifier: MIT */
/*
 * trace/recorder/disk.h - a bounded disk: the free-space floor below which
 * stream mode stops writing (TRACEPOINTS_MIN_FREE_MB, by default 5 % of
 * the file system or 1 GiB, whichever is smaller), and the rotation of a
 * thread's stream file (TRACEPOINTS_FILE_MB, TRACEPOINTS_FILE_COUNT: as
 * LTTng's tracefile-size and tracefile-count), the oldest file removed
 * and its records counted as dropped.
 *
 * Why a file: a hot tracepoint left enabled filled a disk (20 GB in 100 s);
 * both limits are checked where a thread hands its warm ring to its
 * stream file (recorder/stream.h), never per record, and each thread
 * rotates its own files: no lock and no helper thread.  Counting the
 * records of a removed file exactly needs each packet's records counted
 * as they are handed over (a walk by the events' layouts, kept here in a
 * table the recording threads read without a lock); only with a file
 * count, so the default recording path is unchanged.
 *
 * Internal: included by trace/sink.h (TRACEPOINT_SINK_MAIN); depends on
 * recorder/libc.h, recorder/state.h and recorder/env.h.  Used by
 * recorder/stream.h (the hand-over), recorder/enable.h (a new event's
 * layout) and recorder/settings.h (the variables).
 */
#ifndef TP__SINK_DEFINED
#error "trace/recorder/disk.h is internal: #include <trace/sink.h> instead"
#elif !defined(TP__REC_DISK_H)
#define TP__REC_DISK_H

/* ---- The free-space floor ----
 * Before a hand-over writes len bytes, the bytes the process may still
 * write without looking (tp__sink.disk_budget, shared by its threads: an
 * atomic, no lock) shrink by len; once they are used up, fstatvfs() on the
 * stream file gives the free space again, less what the process's other
 * hand-overs are writing at that moment (tp__sink.disk_inflight) and what
 * was let through while it looked (tp__sink.disk_granted), and the budget
 * becomes half of what is left above the floor (other processes write
 * too), at most TP__SINK_FLOOR_LOOK bytes.  One thread at a time refills
 * it (tp__sink.disk_looking): two refills from looks at the same free
 * space would let twice as much through (a process of 4 recording threads
 * under load once ended 212 KiB below the floor, t_disk_bound.sh).  So far
 * from the floor a look costs one system call per 64 MiB written, near it
 * one per hand-over; once below, each thread looks again after
 * TP__SINK_RETRY_DROPS dropped records.  A new thread's first files (its
 * warm ring, or its flight ring) are not made below the floor either;
 * below it, a thread's exit leaves its warm ring as it is (a stream of its
 * own) rather than copy it into its stream file first, and exit() leaves
 * the other threads' rings as they are. */

/* The floor of the file system that fd is on, in bytes: the one the
 * environment set, else 5 % of its size, at most 1 GiB. */
static uint64_t tp__sink_floor_of(const struct statvfs *v)
{
	uint64_t size = (uint64_t)v->f_blocks * v->f_frsize, f;
	if (tp__sink.floor_env >= 0)
		return (uint64_t)tp__sink.floor_env;
	f = size / 100u * TP__SINK_FLOOR_PERCENT;
	return f < TP__SINK_FLOOR_MAX ? f : TP__SINK_FLOOR_MAX;
}

/* May len more bytes be written to the file system of fd (the trace
 * directory, a stream file)?  0 yes (then tp__sink_floor_done(len) once
 * written, or not); -1 no: its free space would fall below the floor
 * (said once). */
static int tp__sink_floor_ok(int fd, uint64_t len)
{
	struct statvfs v;
	uint64_t freeb, floor, room, others, g0, g1, g2;
	int looker = 0;
	if (tp__sink.floor_env == 0)
		return 0;
	others = __atomic_fetch_add(&tp__sink.disk_inflight, len, __ATOMIC_SEQ_CST);
	if (__atomic_sub_fetch(&tp__sink.disk_budget, (int64_t)len, __ATOMIC_RELAXED) >= 0) {
		__atomic_add_fetch(&tp__sink.disk_granted, len, __ATOMIC_SEQ_CST);
		return 0;
	}
	/* What free space does not show yet: the hand-overs under way, and
	 * those let through while it is looked at (counted twice at worst). */
	g0 = __atomic_load_n(&tp__sink.disk_granted, __ATOMIC_SEQ_CST);
	if (fstatvfs(fd, &v) != 0) {
		__atomic_add_fetch(&tp__sink.disk_granted, len, __ATOMIC_SEQ_CST);
		return 0; /* cannot tell: the write itself says ENOSPC */
	}
	freeb = (uint64_t)v.f_bavail * v.f_frsize;
	g1 = __atomic_load_n(&tp__sink.disk_granted, __ATOMIC_SEQ_CST);
	others += g1 - g0;
	freeb = freeb > others ? freeb - others : 0;
	floor = tp__sink_floor_of(&v);
	/* One thread at a time refills the budget (two refills from one look
	 * would let twice through); the others only decide for themselves. */
	looker = !__atomic_exchange_n(&tp__sink.disk_looking, 1, __ATOMIC_ACQUIRE);
	if (freeb >= floor + len) {
		__atomic_add_fetch(&tp__sink.disk_granted, len, __ATOMIC_SEQ_CST);
		if (looker) {
			room = (freeb - floor - len) / 2u;
			if (room > TP__SINK_FLOOR_LOOK)
				room = TP__SINK_FLOOR_LOOK;
			g2 = __atomic_load_n(&tp__sink.disk_granted, __ATOMIC_SEQ_CST) - len;
			room = room > g2 - g1 ? room - (g2 - g1) : 0; /* let through meanwhile */
			__atomic_store_n(&tp__sink.disk_budget, (int64_t)room, __ATOMIC_RELAXED);
			__atomic_store_n(&tp__sink.disk_low, 0, __ATOMIC_RELAXED);
			__atomic_store_n(&tp__sink.disk_looking, 0, __ATOMIC_RELEASE);
		}
		return 0;
	}
	__atomic_sub_fetch(&tp__sink.disk_inflight, len, __ATOMIC_SEQ_CST);
	if (looker) {
		__atomic_store_n(&tp__sink.disk_budget, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&tp__sink.disk_looking, 0, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&tp__sink.disk_low, 1, __ATOMIC_RELAXED);
	tp__sink_err_once(TP__SINK_ERR_FLOOR,
			  "%s: %llu KiB free, and %llu KiB more would leave less than the "
			  "%llu KiB floor (TRACEPOINTS_MIN_FREE_MB): stream files stop "
			  "growing and no new ones are made; records are dropped (and "
			  "counted) until there is room",
			  tp__sink.dir, (unsigned long long)(freeb >> 10),
			  (unsigned long long)(len >> 10), (unsigned long long)(floor >> 10));
	return -1;
}

/* A hand-over that tp__sink_floor_ok let through is over. */
static void tp__sink_floor_done(uint64_t len)
{
	if (tp__sink.floor_env != 0)
		__atomic_sub_fetch(&tp__sink.disk_inflight, len, __ATOMIC_SEQ_CST);
}

/* Is the file system below the floor (as last seen)? */
static int tp__sink_disk_low(void)
{
	return __atomic_load_n(&tp__sink.disk_low, __ATOMIC_RELAXED);
}

/* ---- Event layouts, for counting the records of a packet ----
 * Each event's fixed size and variable parts, by trace id, made when the
 * event gets its id (lock held).  The table grows by copying: the old one
 * is kept, never freed, so that a recording thread that read its address
 * may go on reading it (a few bytes per event, once). */
struct tp__sink_var {
	uint16_t off;	    /* a __dynamic_array's count in the entry */
	uint16_t size;	    /* its element's size */
	unsigned char kind; /* TRACE_FIELD_STRING or TRACE_FIELD_DYNAMIC */
};

struct tp__sink_layout {
	uint32_t fixed; /* entry_size */
	uint32_t nvar;
	struct tp__sink_var var[1]; /* nvar of them (at least one allocated) */
};

/* Records the layout of event ev, trace id `id` (the next one).  Lock
 * held.  0, or -1 (out of memory: rotation then cannot count, and says
 * so when it would). */
static int tp__sink_layout_add(const struct trace_event *ev, uint32_t id)
{
	unsigned nf = 0, i, nv = 0;
	const struct trace_event_field *f = ev->cls->fields(&nf);
	struct tp__sink_layout *l;
	struct tp__sink_layout **t = tp__sink.layouts;
	for (i = 0; i < nf; i++)
		nv += f[i].kind == TRACE_FIELD_STRING || f[i].kind == TRACE_FIELD_DYNAMIC;
	l = (struct tp__sink_layout *)calloc(1, sizeof(*l) + nv * sizeof(l->var[0]));
	if (!l)
		return -1;
	l->fixed = ev->cls->entry_size;
	for (i = 0; i < nf; i++) {
		if (f[i].kind != TRACE_FIELD_STRING && f[i].kind != TRACE_FIELD_DYNAMIC)
			continue;
		l->var[l->nvar].kind = f[i].kind;
		l->var[l->nvar].off = f[i].offset;
		l->var[l->nvar++].size = f[i].size;
	}
	if (id >= tp__sink.caplayouts) {
		size_t nc = tp__sink.caplayouts ? tp__sink.caplayouts * 2 : 16;
		t = (struct tp__sink_layout **)calloc(nc, sizeof(*t));
		if (!t) {
			free(l);
			return -1;
		}
		if (tp__sink.nlayouts)
			memcpy((void *)t, (void *)tp__sink.layouts,
			       tp__sink.nlayouts * sizeof(*t)); /* the old table stays */
		tp__sink.caplayouts = nc;
		__atomic_store_n(&tp__sink.layouts, t, __ATOMIC_RELEASE);
	}
	t[id] = l;
	__atomic_store_n(&tp__sink.nlayouts, (size_t)id + 1, __ATOMIC_RELEASE);
	return 0;
}

/* The records in len bytes of records at p (a packet's content after its
 * header); (uint64_t)-1 if one of them cannot be read (an id without a
 * layout). */
static uint64_t tp__sink_count_records(const unsigned char *p, size_t len)
{
	size_t nl = __atomic_load_n(&tp__sink.nlayouts, __ATOMIC_ACQUIRE);
	struct tp__sink_layout *const *t = __atomic_load_n(&tp__sink.layouts, __ATOMIC_ACQUIRE);
	const unsigned char *end = p + len;
	uint64_t c = 0;
	while (p < end) {
		const struct tp__sink_layout *l;
		const unsigned char *e;
		uint32_t w, id;
		unsigned k;
		if ((size_t)(end - p) < TRACE_HEADER_COMPACT_SIZE)
			return (uint64_t)-1;
		memcpy(&w, p, sizeof(w));
		id = w & ((1u << TRACE_HEADER_ID_BITS) - 1u);
		if (id == TRACE_HEADER_EXTENDED) {
			if ((size_t)(end - p) < TRACE_HEADER_EXTENDED_SIZE)
				return (uint64_t)-1;
			memcpy(&id, p + TRACE_HEADER_EXTENDED_OFF_ID, sizeof(id));
			p += TRACE_HEADER_EXTENDED_SIZE;
		} else {
			p += TRACE_HEADER_COMPACT_SIZE;
		}
		if (id >= nl || !(l = t[id]) || (size_t)(end - p) < l->fixed)
			return (uint64_t)-1;
		e = p; /* the entry */
		p += l->fixed;
		for (k = 0; k < l->nvar; k++) {
			if (l->var[k].kind == TRACE_FIELD_STRING) {
				const unsigned char *nul =
					(const unsigned char *)memchr(p, '\0', (size_t)(end - p));
				if (!nul)
					return (uint64_t)-1;
				p = nul + 1;
			} else {
				uint32_t cnt;
				memcpy(&cnt, e + l->var[k].off, sizeof(cnt));
				if ((uint64_t)cnt * l->var[k].size > (uint64_t)(end - p))
					return (uint64_t)-1;
				p += (size_t)cnt * l->var[k].size;
			}
		}
		c++;
	}
	return c;
}

/* The records of the packet at pkt (content_size as it is). */
static uint64_t tp__sink_packet_records(const struct trace_packet *pkt)
{
	uint64_t used = __atomic_load_n(&pkt->content_size, __ATOMIC_ACQUIRE) / 8u;
	if (used <= (uint64_t)TP__SINK_PACKET)
		return 0;
	return tp__sink_count_records((const unsigned char *)pkt + TP__SINK_PACKET,
				      (size_t)(used - TP__SINK_PACKET));
}

/* ---- Rotation ----
 * A thread's stream file stops at TRACEPOINTS_FILE_MB: the hand-over that
 * would take it past the limit goes to the next file instead, "<stream>_1",
 * "<stream>_2"... (the first keeps its name; each is a CTF stream of its
 * own, which babeltrace2 and tracepoint-dump merge by time), and the warm
 * ring is renamed after it.  With TRACEPOINTS_FILE_COUNT = k, opening
 * file k+1 removes the oldest one; its records (counted as they were
 * handed over) and the drops its packets counted go to the drop count of
 * the newest file, so that each reader's total stays exact.  Each file's
 * packets count the drops since the file began (as any stream file's). */

/* The name of rotation file i of node n. */
static void tp__sink_file_name(const struct tp__sink_node *n, uint64_t i, char *buf, size_t len)
{
	if (i)
		snprintf(buf, len, "%s_%llu", n->sname, (unsigned long long)i);
	else
		snprintf(buf, len, "%s", n->sname);
}

/* Sets the drop count of node n's packets not yet in its stream file
 * (ring slots handed..seq-1) and of the thread to what it is less `less`
 * plus `more` (a new file begins its count; a removed file's go to the
 * newest). */
static void tp__sink_recount(struct tp__sink_node *n, uint64_t less, uint64_t more)
{
	uint64_t q;
	for (q = n->handed; q < n->seq; q++) {
		struct trace_packet *p = TP__SINK_SLOT(n, q % n->nwin);
		uint64_t d = __atomic_load_n(&p->events_discarded, __ATOMIC_RELAXED);
		__atomic_store_n(&p->events_discarded, d - less + more, __ATOMIC_RELAXED);
	}
	__atomic_store_n(&n->b.dropped, n->b.dropped - less + more, __ATOMIC_RELAXED);
}

/* Node n's stream goes on in a new file, a stream of its own for a
 * reader (its drop count starts again): the packets not handed over yet
 * take a new stream_instance_id, then the ring's lead packet (whose id
 * makes the ring part of a stream for a reader), and the lead's number
 * becomes the one before the new file's first packet.  (A process ending
 * between these two stores leaves a ring whose lead is numbered 0 in the
 * new stream: a reader counts the old file's packets as discarded.) */
static void tp__sink_new_stream_id(struct tp__sink_node *n)
{
	struct trace_packet *l = TP__SINK_LEAD(n);
	uint64_t q;
	n->sid = __atomic_add_fetch(&tp__sink.streams, 1, __ATOMIC_RELAXED);
	for (q = n->handed; q < n->seq; q++)
		TP__SINK_SLOT(n, q % n->nwin)->stream_instance_id = n->sid;
	if (n->lead) {
		__atomic_store_n(&l->stream_instance_id, n->sid, __ATOMIC_RELEASE);
		__atomic_store_n(&l->packet_seq_num, n->handed, __ATOMIC_RELEASE);
	}
}

/* Before node n hands len more bytes to its stream file: the next file if
 * the limit is reached (and, past the count, the oldest one removed).
 * 0 (rotated or not needed), or -1 (the next file could not be made;
 * said once). */
static int tp__sink_rotate(struct tp__sink_node *n, uint64_t len)
{
	char name[64], ring[sizeof(n->ring_name)];
	struct tp__sink_kept *k;
	int fd, st = __atomic_load_n(&n->state, __ATOMIC_ACQUIRE);
	if (!tp__sink.file_max || !n->file_off || n->file_off + len <= tp__sink.file_max ||
	    !n->sname[0] || !n->map)
		return 0;
	/* Only the thread itself, or whoever closes the stream of a thread
	 * gone: exit() in another thread leaves the file one ring longer. */
	if (n != tp__sink_mine && (st == TP__SINK_OWNED || st == TP__SINK_LATE))
		return 0;
	if (tp__sink.file_count && !n->kept) {
		void *m = mmap(NULL, tp__sink.file_count * sizeof(*n->kept), PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED)
			return -1;
		n->kept = (struct tp__sink_kept *)m;
	}
	tp__sink_file_name(n, n->file_idx + 1, name, sizeof(name));
	fd = openat(tp__sink.dirfd, name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0) {
		tp__sink_err_once(TP__SINK_ERR_STREAM, "cannot create %s/%s: %s", tp__sink.dir,
				  name, strerror(errno));
		return -1;
	}
	/* the ring's packets go to the new file: the ring is named after it */
	if (n->ring_shown) {
		snprintf(ring, sizeof(ring), "%s.ring", name);
		if (renameat(tp__sink.dirfd, n->ring_name, tp__sink.dirfd, ring) == 0)
			memcpy(n->ring_name, ring, sizeof(ring));
	}
	if (tp__sink.file_count) {
		k = &n->kept[n->file_idx % tp__sink.file_count];
		k->records = n->file_records;
		k->dropped = n->file_disc;
		k->bytes = n->file_off;
	}
	/* the old file keeps its count; the new one counts from there */
	__atomic_add_fetch(&tp__sink.gone_dropped, n->file_disc, __ATOMIC_RELAXED);
	tp__sink_recount(n, n->file_disc, 0);
	tp__sink_new_stream_id(n);
	close(n->fd);
	__atomic_store_n(&n->fd, fd, __ATOMIC_RELAXED); /* tracepoint_flush() reads it */
	n->file_idx++;
	n->file_off = 0;
	n->file_records = 0;
	n->file_disc = 0;
	if (tp__sink.file_count && n->file_idx - n->first_idx >= tp__sink.file_count) {
		k = &n->kept[n->first_idx % tp__sink.file_count];
		tp__sink_file_name(n, n->first_idx, name, sizeof(name));
		if (k->records == (uint64_t)-1)
			tp__sink_err_once(TP__SINK_ERR_COUNT,
					  "%s/%s removed (TRACEPOINTS_FILE_COUNT) without "
					  "knowing how many records it held: the drop counts "
					  "are short",
					  tp__sink.dir, name);
		if (unlinkat(tp__sink.dirfd, name, 0) == 0 || errno == ENOENT) {
			/* its records are lost; its drops were counted in it (and in
			 * gone_dropped): both now in the newest file's count */
			__atomic_sub_fetch(&tp__sink.gone_dropped, k->dropped, __ATOMIC_RELAXED);
			tp__sink_recount(
				n, 0, k->dropped + (k->records == (uint64_t)-1 ? 0 : k->records));
			n->bytes -= k->bytes; /* the trace's size, said at exit */
			n->first_idx++;
		}
	}
	return 0;
}

/* After a hand-over to the current file: with a file count, its records
 * (c closed packets from ring slot `from` on, then the open packet `open`
 * if not NULL) are counted; the file's drop count is the last packet's. */
static void tp__sink_count_handed(struct tp__sink_node *n, uint64_t from, uint64_t c,
				  const struct trace_packet *open, uint64_t disc)
{
	uint64_t i, r;
	n->file_disc = disc;
	if (!tp__sink.file_count || n->file_records == (uint64_t)-1)
		return;
	for (i = 0; i < c; i++) {
		r = tp__sink_packet_records(TP__SINK_SLOT(n, (from + i) % n->nwin));
		if (r == (uint64_t)-1) {
			n->file_records = (uint64_t)-1;
			return;
		}
		n->file_records += r;
	}
	if (open) {
		r = tp__sink_packet_records(open);
		n->file_records = r == (uint64_t)-1 ? r : n->file_records + r;
	}
}

#endif /* TP__REC_DISK_H */
