/* Test helper: reads back a trace directory written by <trace/sink.h>
 * (docs/trace-format.md), decoding each record with the recording
 * program's own event descriptors.  Independent of tools/tracepoint-dump,
 * so that tests of the recorder and of the reader check each other.
 *
 *   tr_read(dir, fn, priv): calls fn(&rec, priv) for every record of every
 *   stream file of the trace dir, each stream in its order (or of every
 *   trace in dir, if dir is a session directory); returns the number of records, or -1 for a damaged trace (with
 *   a message on stderr).  Packets of a flight ring are taken in
 *   packet_seq_num order, across its files ("stream-<tid>", then
 *   "stream-<tid>-1"...); in stream mode, the packets of a thread's warm
 *   ring ("stream-<tid>.ring") that its stream file does not hold yet
 *   come after the stream file's. */
#ifndef TRACE_READ_H
#define TRACE_READ_H
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <trace/trace_events.h>

struct tr_rec {
	const char *file; /* stream file name */
	uint32_t tid;
	uint64_t ts;	    /* full clock value */
	uint64_t seq;	    /* packet sequence number */
	uint64_t discarded; /* the packet's events_discarded */
	const struct trace_event *ev;
	const unsigned char *payload;
	size_t size; /* payload bytes (fixed part + strings) */
};

#define TR_MAX_EVENTS 256
static const struct trace_event *tr_events[TR_MAX_EVENTS];

struct tr_find {
	const char *name;
	const struct trace_event *ev;
};

static inline int tr_find_cb(struct tracepoint *tp, void *priv)
{
	struct tr_find *f = (struct tr_find *)priv;
	const struct trace_event *ev = trace_event_of(tp);
	char full[256];
	if (!ev)
		return 0;
	snprintf(full, sizeof(full), "%s:%s", ev->cls->system, ev->name);
	if (strcmp(full, f->name) == 0) {
		f->ev = ev;
		return 1;
	}
	return 0;
}

/* Maps the metadata's event ids to this program's events. */
static inline int tr_load_metadata(const char *dir)
{
	char path[4096], line[4096], name[256] = "";
	FILE *m;
	snprintf(path, sizeof(path), "%s/metadata", dir);
	m = fopen(path, "r");
	if (!m) {
		fprintf(stderr, "tr_read: no %s\n", path);
		return -1;
	}
	memset(tr_events, 0, sizeof(tr_events));
	while (fgets(line, sizeof(line), m)) {
		unsigned id;
		if (sscanf(line, " name = \"%255[^\"]\";", name) == 1)
			continue;
		if (name[0] && sscanf(line, " id = %u;", &id) == 1 && id < TR_MAX_EVENTS) {
			struct tr_find f = { name, NULL };
			tracepoint_for_each(tr_find_cb, &f);
			tr_events[id] = f.ev;
			name[0] = '\0';
		}
	}
	fclose(m);
	return 0;
}

/* The payload size of a record of ev at p (fixed part + strings), or 0. */
/* The payload's size: the fixed part, then the strings and dynamic
 * arrays in declaration order; (size_t)-1 if it overruns `left`. */
static inline size_t tr_payload_size(const struct trace_event *ev, const unsigned char *p,
				     size_t left)
{
	unsigned n = 0, i;
	const struct trace_event_field *f = ev->cls->fields(&n);
	size_t sz = ev->cls->entry_size;
	if (sz > left)
		return (size_t)-1;
	for (i = 0; i < n; i++) {
		const unsigned char *nul;
		if (f[i].kind == TRACE_FIELD_DYNAMIC) {
			uint32_t cnt;
			memcpy(&cnt, p + f[i].offset, sizeof(cnt));
			if ((size_t)cnt * f[i].size > left - sz)
				return (size_t)-1;
			sz += (size_t)cnt * f[i].size;
			continue;
		}
		if (f[i].kind != TRACE_FIELD_STRING)
			continue;
		nul = (const unsigned char *)memchr(p + sz, 0, left - sz);
		if (!nul)
			return (size_t)-1;
		sz = (size_t)(nul - p) + 1;
	}
	return sz;
}

typedef void (*tr_fn)(const struct tr_rec *r, void *priv);

static inline long tr_packet(const char *file, const unsigned char *pk, size_t avail, tr_fn fn,
			     void *priv)
{
	struct trace_packet h;
	const unsigned char *p, *end;
	uint64_t ts;
	long n = 0;
	memcpy(&h, pk, sizeof(h));
	if (h.magic != TRACE_PACKET_MAGIC || h.content_size / 8 > avail ||
	    h.content_size / 8 < sizeof(h)) {
		fprintf(stderr, "tr_read: %s: bad packet header\n", file);
		return -1;
	}
	p = pk + sizeof(h);
	end = pk + h.content_size / 8;
	ts = h.timestamp_begin;
	while (p < end) {
		struct tr_rec r;
		uint32_t w, id;
		size_t sz;
		if (end - p < 4)
			return -1;
		memcpy(&w, p, 4);
		id = w & 63u;
		if (id == TRACE_HEADER_EXTENDED) {
			if (end - p < TRACE_HEADER_EXTENDED_SIZE)
				return -1;
			memcpy(&id, p + 1, 4);
			memcpy(&ts, p + 5, 8);
			p += TRACE_HEADER_EXTENDED_SIZE;
		} else {
			uint64_t low = w >> 6, mask = ((uint64_t)1 << 26) - 1;
			uint64_t t = (ts & ~mask) | low;
			if (t < ts)
				t += mask + 1;
			ts = t;
			p += TRACE_HEADER_COMPACT_SIZE;
		}
		if (id >= TR_MAX_EVENTS || !tr_events[id]) {
			fprintf(stderr, "tr_read: %s: unknown event id %u\n", file, id);
			return -1;
		}
		sz = tr_payload_size(tr_events[id], p, (size_t)(end - p));
		if (sz == (size_t)-1) {
			fprintf(stderr, "tr_read: %s: record overruns its packet\n", file);
			return -1;
		}
		r.file = file;
		r.tid = h.tid;
		r.ts = ts;
		r.seq = h.packet_seq_num;
		r.discarded = h.events_discarded;
		r.ev = tr_events[id];
		r.payload = p;
		r.size = sz;
		if (fn)
			fn(&r, priv);
		p += sz;
		n++;
	}
	return n;
}

/* A packet of a stream file or of its warm ring. */
struct tr_pk {
	uint64_t seq;
	const unsigned char *p;
	size_t len;
};

/* Maps dir/name (NULL if missing or empty; its size in *size). */
static inline unsigned char *tr_map(const char *dir, const char *name, size_t *size)
{
	char path[4096];
	struct stat st;
	unsigned char *m;
	int fd;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) != 0 || st.st_size == 0) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	m = (unsigned char *)mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return NULL;
	*size = (size_t)st.st_size;
	return m;
}

/* The packets of a mapped file, in file order; ring: a warm ring's (only
 * those that hold records, each whole). */
static inline size_t tr_packets(const unsigned char *m, size_t size, int ring, struct tr_pk *pk,
				size_t npk, size_t max)
{
	size_t off = 0;
	while (m && off + sizeof(struct trace_packet) <= size && npk < max) {
		struct trace_packet h;
		memcpy(&h, m + off, sizeof(h));
		if (h.magic != TRACE_PACKET_MAGIC || h.packet_size / 8 < sizeof(h))
			break; /* an unused ring slot, or the end */
		if (!ring || (h.content_size / 8 > sizeof(h) && h.content_size <= h.packet_size &&
			      h.packet_size / 8 <= size - off)) {
			pk[npk].seq = h.packet_seq_num;
			pk[npk].p = m + off;
			pk[npk].len =
				size - off < h.packet_size / 8 ? size - off : h.packet_size / 8;
			npk++;
		}
		off += h.packet_size / 8;
	}
	return npk;
}

static inline void tr_sort_pk(struct tr_pk *pk, size_t npk)
{
	size_t i;
	for (i = 1; i < npk; i++) { /* by sequence number (flight rings: one rotation) */
		size_t k = i;
		while (k > 0 && pk[k - 1].seq > pk[k].seq) {
			struct tr_pk t = pk[k];
			pk[k] = pk[k - 1];
			pk[k - 1] = t;
			k--;
		}
	}
}

/* The most files a flight ring has (TP__SINK_FLIGHT_PARTS + 1). */
#define TR_RING_FILES_MAX 8

/* Is name one of a flight ring's other files, "stream-<tid>[.<n>]-<k>"? */
static inline int tr_ring_part(const char *name)
{
	const char *d = strrchr(name, '-');
	if (strncmp(name, "stream-", 7) != 0 || d == name + 6 || !d[1])
		return 0;
	for (d++; *d; d++)
		if (*d < '0' || *d > '9')
			return 0;
	return 1;
}

/* A stream file's records.  In stream mode the newest packets may be in
 * the thread's warm ring, "<name>.ring" (a process that ended before the
 * thread handed them over): the ring's packets that hold records are taken
 * after the stream file's packets that come before them. */
static inline long tr_stream(const char *dir, const char *name, tr_fn fn, void *priv)
{
	char rname[300];
	unsigned char *m, *r;
	size_t size = 0, rsize = 0, npk, nr, i, max;
	long total = 0;
	struct tr_pk *pk, *rk;
	unsigned char *parts[TR_RING_FILES_MAX] = { NULL };
	size_t psizes[TR_RING_FILES_MAX] = { 0 };
	unsigned k, nparts;
	size_t pmax;
	m = tr_map(dir, name, &size);
	snprintf(rname, sizeof(rname), "%s.ring", name);
	r = tr_map(dir, rname, &rsize);
	max = (size + rsize) / sizeof(struct trace_packet) + 1; /* packets are at least a header */
	pk = (struct tr_pk *)calloc(max, sizeof(*pk));
	rk = (struct tr_pk *)calloc(max, sizeof(*rk));
	if (!pk || !rk) {
		free(pk);
		free(rk);
		return -1;
	}
	npk = tr_packets(m, size, 0, pk, 0, max);
	pmax = max;
	/* a flight ring's other files, "<name>-1", "<name>-2"... (each in
	 * time order; the thread's packets in sequence order across them) */
	for (k = 1; k < TR_RING_FILES_MAX; k++) {
		char pname[300];
		size_t psize = 0;
		struct tr_pk *more;
		snprintf(pname, sizeof(pname), "%s-%u", name, k);
		if (!(parts[k] = tr_map(dir, pname, &psize)))
			break;
		psizes[k] = psize;
		pmax += psize / sizeof(struct trace_packet) + 1;
		if (!(more = (struct tr_pk *)realloc(pk, pmax * sizeof(*pk)))) {
			k++;
			break;
		}
		pk = more;
		npk = tr_packets(parts[k], psize, 0, pk, npk, pmax);
	}
	nparts = k;
	tr_sort_pk(pk, npk);
	nr = tr_packets(r, rsize, 1, rk, 0, max);
	tr_sort_pk(rk, nr);
	if (nr) {
		size_t first = nr - 1;
		while (first > 0 && rk[first - 1].seq + 1 == rk[first].seq)
			first--;
		while (npk > 0 && pk[npk - 1].seq >= rk[first].seq)
			npk--;
		for (i = first; i < nr; i++)
			pk[npk++] = rk[i];
	}
	for (i = 0; i < npk; i++) {
		long n = tr_packet(name, pk[i].p, pk[i].len, fn, priv);
		if (n < 0) {
			total = -1;
			break;
		}
		total += n;
	}
	if (m)
		munmap(m, size);
	if (r)
		munmap(r, rsize);
	for (k = 1; k < nparts; k++)
		if (parts[k])
			munmap(parts[k], psizes[k]);
	free(pk);
	free(rk);
	return total;
}

static inline long tr_read(const char *dir, tr_fn fn, void *priv);

/* Sums what each entry of dir gives: in a session directory, every trace
 * in it (tr_read); in a trace, every stream file (tr_stream). */
static inline long tr_each(const char *dir, int session, tr_fn fn, void *priv)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	long total = 0;
	if (!d)
		return -1;
	while ((e = readdir(d)) != NULL) {
		char path[4096];
		struct stat st;
		long n;
		if (session) {
			snprintf(path, sizeof(path), "%s/%s/metadata", dir, e->d_name);
			if (e->d_name[0] == '.' || stat(path, &st) != 0)
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			n = tr_read(path, fn, priv);
		} else {
			size_t len = strlen(e->d_name);
			if (strncmp(e->d_name, "stream-", 7) != 0 ||
			    (len > 5 && strcmp(e->d_name + len - 5, ".ring") == 0) ||
			    tr_ring_part(e->d_name))
				continue; /* a ring: read with its stream (tr_stream) */
			n = tr_stream(dir, e->d_name, fn, priv);
		}
		if (n < 0) {
			total = -1;
			break;
		}
		total += n;
	}
	closedir(d);
	return total;
}

static inline long tr_read(const char *dir, tr_fn fn, void *priv)
{
	char path[4096];
	struct stat st;
	snprintf(path, sizeof(path), "%s/metadata", dir);
	if (stat(path, &st) != 0) /* a session directory: each process's trace in it */
		return tr_each(dir, 1, fn, priv);
	if (tr_load_metadata(dir) != 0)
		return -1;
	return tr_each(dir, 0, fn, priv);
}

/* A field of a record's fixed part, by name (NULL if absent). */
static inline const void *tr_field(const struct tr_rec *r, const char *name)
{
	unsigned n = 0, i;
	const struct trace_event_field *f = r->ev->cls->fields(&n);
	for (i = 0; i < n; i++)
		if (f[i].kind != TRACE_FIELD_STRING && strcmp(f[i].name, name) == 0)
			return r->payload + f[i].offset;
	return NULL;
}

/* The elements of the dynamic array `name` of a record (NULL if it has
 * none), their number in *count. */
static inline const void *tr_dyn(const struct tr_rec *r, const char *name, uint32_t *count)
{
	unsigned n = 0, i;
	const struct trace_event_field *f = r->ev->cls->fields(&n);
	const unsigned char *p = r->payload + r->ev->cls->entry_size;
	for (i = 0; i < n; i++) {
		uint32_t cnt = 0;
		if (f[i].kind == TRACE_FIELD_STRING) {
			p += strlen((const char *)p) + 1;
			continue;
		}
		if (f[i].kind != TRACE_FIELD_DYNAMIC)
			continue;
		memcpy(&cnt, r->payload + f[i].offset, sizeof(cnt));
		if (strcmp(f[i].name, name) == 0) {
			*count = cnt;
			return p;
		}
		p += (size_t)cnt * f[i].size;
	}
	*count = 0;
	return NULL;
}

/* The k-th string (0-based, declaration order) of a record. */
static inline const char *tr_string(const struct tr_rec *r, unsigned k)
{
	const char *s = (const char *)r->payload + r->ev->cls->entry_size;
	while (k--)
		s += strlen(s) + 1;
	return s;
}

/* rm -rf of a trace directory made by a test. */
static inline void tr_remove(const char *dir)
{
	char cmd[4200];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "tr_remove: %s failed\n", cmd);
}
#endif
