/*
 * tools/dump/ring.c - a stream-mode thread's warm ring (stream-<tid>.ring),
 * joined to its stream file.
 *
 * Why a file: the recorder (include/trace/recorder/stream.h) writes each
 * thread's records into a ring file and hands it to the stream file whole;
 * a process that ended meanwhile leaves the newest packets in the ring.
 * This part finds them and puts them after the stream file's, so that the
 * rest of the reader sees one stream.  Who uses it: reader.c (read_trace),
 * for every stream file of a stream-mode trace.  Depends on dump.h and
 * <trace/wire.h> only (docs/trace-format.md#the-warm-ring-stream-mode).
 */
#include <string.h>
#include <sys/mman.h>

#include "dump.h"

#ifndef MAP_ANONYMOUS
#define MAP_ANONYMOUS 0x20 /* Linux's; hidden by strict C99 */
#endif

/* Stream mode: a thread's warm ring, "<stream>.ring", holds the packets
 * the thread had not handed to its stream file yet (it records into the
 * ring and hands it over whole; a process that ended meanwhile leaves it,
 * and exit() leaves each thread's open packet there).  In file order: a
 * first packet that may be empty (it covers what was handed over), then
 * packets in sequence, the last one covering the rest of the file.  The
 * packets of the ring that hold records are read after the stream file's
 * packets that come before the first of them (the stream file may hold
 * copies of the ring's first ones, the last perhaps cut short: dropped).
 * The two are joined in one private mapping: the stream file's part mapped,
 * the ring's copied after it.  fd: the stream file's, rfd: the ring's (of
 * rsize bytes), named rname.  Returns 1 (the stream has a ring). */
int join_ring(struct stream *st, int fd, int rfd, uint64_t rsize, const char *rname)
{
	const struct trace *tr = st->tr;
	int sw = tr->swap;
	uint64_t off, first = 0, cut = 0, total, nd = 0;
	const u8 *r;
	u8 *m;
	r = rsize && (uint64_t)(size_t)rsize == rsize
		    ? (const u8 *)mmap(NULL, (size_t)rsize, PROT_READ, MAP_PRIVATE, rfd, 0)
		    : (const u8 *)MAP_FAILED;
	if (r == (const u8 *)MAP_FAILED)
		return 1;
	/* the ring's packets that hold records: how many bytes, the first's number */
	for (off = 0, total = 0; rsize - off >= PACKET_HDR;) {
		const u8 *h = r + off;
		uint64_t cs = ld(h + TRACE_PACKET_OFF_CONTENT_SIZE, 8, sw),
			 ps = ld(h + TRACE_PACKET_OFF_PACKET_SIZE, 8, sw);
		if (ld(h, 4, sw) != TRACE_PACKET_MAGIC ||
		    (tr->has_uuid &&
		     memcmp(h + TRACE_PACKET_OFF_UUID, tr->uuid, TRACE_PACKET_UUID_SIZE)) ||
		    cs % 8 || ps % 8 || cs < PACKET_HDR * 8 || cs > ps || ps / 8 > rsize - off)
			break;
		if (cs > PACKET_HDR * 8) {
			if (!nd++)
				first = ld(h + TRACE_PACKET_OFF_SEQ_NUM, 8, sw);
			total += ps / 8;
		}
		off += ps / 8;
	}
	if (!nd) {
		munmap((void *)(uintptr_t)r, (size_t)rsize);
		return 1;
	}
	/* the stream file's packets before the ring's first */
	while (st->size - cut >= PACKET_HDR) {
		const u8 *h = st->map + cut;
		uint64_t ps = ld(h + TRACE_PACKET_OFF_PACKET_SIZE, 8, sw);
		if (ld(h, 4, sw) != TRACE_PACKET_MAGIC || ps % 8 || ps / 8 < PACKET_HDR ||
		    ps / 8 > st->size - cut || ld(h + TRACE_PACKET_OFF_SEQ_NUM, 8, sw) >= first)
			break;
		cut += ps / 8;
	}
	total += cut;
	m = (uint64_t)(size_t)total == total
		    ? (u8 *)mmap(NULL, (size_t)total, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
		    : (u8 *)MAP_FAILED;
	if (m != (u8 *)MAP_FAILED && cut &&
	    mmap(m, (size_t)cut, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED, fd, 0) ==
		    MAP_FAILED) {
		munmap(m, (size_t)total);
		m = (u8 *)MAP_FAILED;
	}
	if (m == (u8 *)MAP_FAILED) {
		note(tr->dx, 1, st->path, -1, "cannot join its ring %s: %s", rname,
		     strerror(errno));
		munmap((void *)(uintptr_t)r, (size_t)rsize);
		return 1;
	}
	for (off = 0, total = cut; rsize - off >= PACKET_HDR;) {
		const u8 *h = r + off;
		uint64_t cs = ld(h + TRACE_PACKET_OFF_CONTENT_SIZE, 8, sw),
			 ps = ld(h + TRACE_PACKET_OFF_PACKET_SIZE, 8, sw);
		if (ld(h, 4, sw) != TRACE_PACKET_MAGIC || cs % 8 || ps % 8 || cs < PACKET_HDR * 8 ||
		    cs > ps || ps / 8 > rsize - off)
			break;
		if (cs > PACKET_HDR * 8) {
			memcpy(m + total, h, (size_t)(ps / 8));
			total += ps / 8;
		}
		off += ps / 8;
	}
	munmap((void *)(uintptr_t)r, (size_t)rsize);
	if (st->map)
		munmap(st->map, (size_t)st->size);
	st->map = m;
	st->size = total;
	return 1;
}

/* Is entry i of ds the warm ring of another entry ("<that>.ring")? */
int ring_of(const struct dent *ds, size_t nd, size_t i)
{
	size_t len = strlen(ds[i].name), k;
	if (len <= 5 || strcmp(ds[i].name + len - 5, ".ring") != 0)
		return 0;
	for (k = 0; k < nd; k++)
		if (strlen(ds[k].name) == len - 5 && !strncmp(ds[k].name, ds[i].name, len - 5))
			return 1;
	return 0;
}
