/* SPDX-License-Identifier: MIT */
/*
 * trace/recorder/flight.h - flight-recorder snapshots: a ring per thread
 * copied, oldest packet first, into <dir>/snapshot-<n>, a trace of its own
 * (trace_recorder_snapshot, async-signal-safe, and its signal handler).
 *
 * Internal: included by trace/sink.h (TRACEPOINT_SINK_MAIN); depends on
 * recorder/state.h (the thread nodes) and recorder/metadata.h.
 */
#ifndef TP__SINK_DEFINED
#error "trace/recorder/flight.h is internal: #include <trace/sink.h> instead"
#elif !defined(TP__REC_FLIGHT_H)
#define TP__REC_FLIGHT_H

/* ---- Flight recorder snapshots. ---- */

/* Copies node n's ring into fd, oldest packet first; bytes written. */
static uint64_t tp__sink_copy_ring(struct tp__sink_node *n, int fd, const uint8_t *uuid)
{
	uint64_t end = __atomic_load_n(&n->seq, __ATOMIC_ACQUIRE), q, written = 0;
	uint64_t first = end > n->nwin ? end - n->nwin : 0;
	for (q = first; q < end; q++) {
		const struct trace_packet *p = TP__SINK_SLOT(n, q % n->nwin);
		struct trace_packet h;
		uint64_t used;
		if (__atomic_load_n(&p->packet_seq_num, __ATOMIC_ACQUIRE) != q)
			continue;
		used = __atomic_load_n(&p->content_size, __ATOMIC_ACQUIRE) / 8u;
		if (used < sizeof(h) || used > n->window)
			continue;
		h.magic = p->magic;
		memcpy(h.uuid, uuid, sizeof(h.uuid));
		h.stream_instance_id = 0;
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
		if (__atomic_fetch_add((uint64_t *)(uintptr_t)&p->packet_seq_num, 0,
				       __ATOMIC_ACQ_REL) != q) {
			/* overwritten while being copied: not part of the snapshot */
			if (ftruncate(fd, (off_t)written) != 0 ||
			    lseek(fd, (off_t)written, SEEK_SET) < 0)
				break;
			continue;
		}
		written += used;
	}
	return written;
}

TRACEPOINT_SINK_API int trace_recorder_snapshot(void)
{
	struct tp__sink_node *n;
	char name[32];
	uint8_t uuid[16];
	int sd, e;
	unsigned k;
	if (!__atomic_load_n(&tp__sink.recording, __ATOMIC_ACQUIRE) ||
	    tp__sink.mode != TP__SINK_FLIGHT)
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
	    (sd = openat(tp__sink.dirfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW)) <
		    0) {
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
			fd = openat(sd, sname, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
				    0644);
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
	k = trace_recorder_snapshot();
	if (k > 0)
		tp__sink_msg("snapshot %d in %s/snapshot-%d", k, tp__sink.dir, k);
	else
		tp__sink_msg("snapshot failed: %s", strerror(-k));
	errno = e;
}

#endif /* TP__REC_FLIGHT_H */
