/* SPDX-License-Identifier: MIT */
/*
 * tools/dump/reader.c - tracepoint-dump's loading a trace: the files of its
 * directory (never following links), the metadata, the stream files mapped
 * and indexed (packets, checked against the file size), cursors that walk
 * each stream record by record, and the k-way merge of the cursors in time
 * order.
 *
 * Part of tracepoint-dump (dump.h has the map of its parts).
 */
#include "dump.h"

/* ------------------------------------------------------------------ */
/* Loading a trace                                                    */
/* ------------------------------------------------------------------ */

static int cmp_ev_id(const void *a, const void *b)
{
	const struct event *x = (const struct event *)a, *y = (const struct event *)b;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* The length of the name a slice shows: a begin event's name without its
 * "_begin" (TRACE_SLICE(gc, ...) makes gc_begin and gc_end: the slice is
 * "gc"); any other event's whole name. */
size_t slice_name_len(const struct event *ev)
{
	size_t n = strlen(ev->ename);
	if ((ev->kind & EK_BASE) == EK_BEGIN && n > 6 && !strcmp(ev->ename + n - 6, "_begin"))
		return n - 6;
	return n;
}

/* The Chrome JSON phase of an event kind: slices B/E, counters C, the
 * rest thread-scoped instants. */
static const char *json_phase(unsigned kind)
{
	switch (kind & EK_BASE) {
	case EK_BEGIN:
		return "\"B\"";
	case EK_END:
		return "\"E\"";
	case EK_COUNTER:
		return "\"C\"";
	default:
		return "\"i\",\"s\":\"t\"";
	}
}

/* --summary: what an event of a kind other than instant stands for. */
const char *kind_note(unsigned kind)
{
	static const char *const note[][3] = {
		{ "", " (flow)", " (global flow)" },
		{ " (slice begin)", " (slice begin, flow)", " (slice begin, global flow)" },
		{ " (slice end)", " (slice end, flow)", " (slice end, global flow)" },
		{ " (counter)", " (counter, flow)", " (counter, global flow)" }
	};
	unsigned b = kind & EK_BASE;
	unsigned f = !(kind & EK_FLOW) ? 0 : !(kind & EK_GLOBAL) ? 1 : 2;
	return b < 4 ? note[b][f] : "";
}

static void prepare_events(struct dump *dx, struct trace *tr)
{
	size_t i, k;
	for (i = 0; i < tr->nal; i++)
		free(tr->al[i].name);
	free(tr->al);
	tr->al = NULL;
	tr->nal = tr->capal = 0;
	if (tr->nev)
		qsort(tr->ev, tr->nev, sizeof(*tr->ev), cmp_ev_id);
	for (i = 0; i < tr->nev; i++) {
		struct event *ev = &tr->ev[i];
		const char *colon = strchr(ev->name, ':');
		size_t n1, n2;
		char *js, *jn, *o;
		uint32_t off = 0;
		int seen_str = 0;
		if (i > 0 && tr->ev[i - 1].id == ev->id)
			note(dx, 1, tr->dir, -1,
			     "metadata: two events with id %llu (%s, %s); using the first",
			     (unsigned long long)ev->id, tr->ev[i - 1].name, ev->name);
		ev->name = (char *)xrealloc(ev->name, ev->namelen + 33); /* read by cpy_padded */
		memset(ev->name + ev->namelen, 0, 33);
		colon = strchr(ev->name, ':');
		ev->sys = colon ? xstrndup(ev->name, (size_t)(colon - ev->name)) : xstrdup("");
		ev->ename = xstrdup(colon ? colon + 1 : ev->name);
		js = json_str_dup(ev->sys, strlen(ev->sys), &n1);
		jn = json_str_dup(ev->ename, slice_name_len(ev), &n2);
		ev->jpre = (char *)xcalloc(n1 + n2 + 64 + 32, 1); /* + 32: read by cpy_padded */
		o = ev->jpre;
		o += sprintf(o, "{\"name\":%s,\"cat\":%s,\"ph\":%s,\"ts\":", jn, js,
			     json_phase(ev->kind));
		ev->jprelen = (size_t)(o - ev->jpre);
		free(js);
		free(jn);
		{ /* the name as text and --summary print it (JSON has its own) */
			char *t = text_dup(ev->name);
			size_t tn = strlen(t);
			ev->name = (char *)xrealloc(ev->name, tn + 33); /* read by cpy_padded */
			memcpy(ev->name, t, tn);
			memset(ev->name + tn, 0, 33);
			ev->namelen = tn;
			free(t);
		}
		if (ev->nf > tr->maxnf)
			tr->maxnf = ev->nf;
		ev->packed = 1;
		ev->fixoffs = (uint32_t *)xcalloc(ev->nf + 1, sizeof(uint32_t));
		for (k = 0; k < ev->nf; k++) {
			struct field *f = &ev->f[k];
			char *jk;
			size_t jl;
			f->t.swap =
				(unsigned char)((f->t.bo == BO_TRACE ? tr->be : f->t.bo == BO_BE) !=
						host_be());
			f->is_text = f->count && f->t.kind == FT_INT && f->t.size == 1 && f->t.enc;
			jk = json_str_dup(f->name, strlen(f->name), &jl);
			f->jkey = (char *)xcalloc(jl + 2 + 32, 1); /* + 32: read by cpy_padded */
			memcpy(f->jkey, jk, jl);
			f->jkey[jl] = ':';
			f->jkey[jl + 1] = '\0';
			f->jkeylen = jl + 1;
			free(jk);
			if (f->t.kind == FT_STR || f->seq) {
				ev->nstr++;
				seen_str = 1;
				f->is_text =
					f->seq && f->t.kind == FT_INT && f->t.size == 1 && f->t.enc;
				continue;
			}
			if (f->t.align > 1 || seen_str)
				ev->packed = 0;
			f->fixoff = off;
			ev->fixoffs[k] = off;
			if (!f->t.bad) {
				uint64_t sz = (uint64_t)f->t.size * (f->count ? f->count : 1);
				if (off + sz > 0x7fffffffu)
					ev->bad = "a payload over 2 GiB";
				else
					off += (uint32_t)sz;
			}
		}
		ev->fixsize = off;
		ev->use_printk = compile_printk(ev);
	}
	/* the id lookup table */
	if (tr->nev) {
		uint64_t maxid = tr->ev[tr->nev - 1].id;
		tr->idtab_n = maxid < 65536 ? (size_t)maxid + 1 : 65536;
		tr->idtab = (struct event **)xcalloc(tr->idtab_n, sizeof(*tr->idtab));
		for (i = tr->nev; i-- > 0;)
			if (tr->ev[i].id < tr->idtab_n)
				tr->idtab[tr->ev[i].id] = &tr->ev[i];
	}
}

static const struct event *find_event(const struct trace *tr, uint64_t id)
{
	size_t lo = 0, hi = tr->nev;
	if (id < tr->idtab_n)
		return tr->idtab[id];
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (tr->ev[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < tr->nev && tr->ev[lo].id == id ? &tr->ev[lo] : NULL;
}

char *path_join(const char *a, const char *b)
{
	size_t n = strlen(a);
	return xasprintf("%s%s%s", a, n && a[n - 1] == '/' ? "" : "/", b);
}

static const char *kind_text(mode_t m)
{
	return S_ISLNK(m)    ? "a symbolic link"
	       : S_ISFIFO(m) ? "a FIFO"
	       : S_ISSOCK(m) ? "a socket"
	       : S_ISCHR(m)  ? "a character device"
	       : S_ISBLK(m)  ? "a block device"
			     : "not a regular file";
}

static int cmp_dent(const void *a, const void *b)
{
	return strcmp(((const struct dent *)a)->name, ((const struct dent *)b)->name);
}

void free_dents(struct dent *v, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		free(v[i].name);
	free(v);
}

/* The entries of the directory dfd, sorted, without the names that start
 * with '.'; each with its own type (links not followed).  -1 (errno) if it
 * cannot be listed. */
int list_dir(int dfd, struct dent **out, size_t *n)
{
	int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dent *v = NULL;
	struct dirent *de;
	size_t cap = 0;
	*n = 0;
	*out = NULL;
	if (!d) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		errno = e;
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		struct stat sb;
		if (de->d_name[0] == '.')
			continue;
		if (fstatat(dfd, de->d_name, &sb, AT_SYMLINK_NOFOLLOW) != 0)
			continue; /* gone meanwhile */
		GROW(v, *n, cap);
		v[*n].name = xstrdup(de->d_name);
		v[*n].kind = S_ISREG(sb.st_mode) ? E_REG : S_ISDIR(sb.st_mode) ? E_DIR : E_OTHER;
		v[*n].mode = sb.st_mode;
		(*n)++;
	}
	closedir(d);
	if (*n)
		qsort(v, *n, sizeof(*v), cmp_dent);
	*out = v;
	return 0;
}

/* A real directory (not a link to one) in dfd, or -1 (errno). */
int open_dir_at(int dfd, const char *name)
{
	return openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
}

/* A regular file in dfd, or -1 with *why saying what it is instead (or
 * NULL: errno). */
static int open_file_at(int dfd, const char *name, struct stat *sb, const char **why)
{
	struct stat ls;
	int fd;
	*why = NULL;
	if (fstatat(dfd, name, &ls, AT_SYMLINK_NOFOLLOW) != 0)
		return -1;
	if (!S_ISREG(ls.st_mode)) {
		*why = kind_text(ls.st_mode);
		return -1;
	}
	fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, sb) != 0 || !S_ISREG(sb->st_mode) || sb->st_dev != ls.st_dev ||
	    sb->st_ino != ls.st_ino) {
		close(fd);
		*why = "replaced while being opened";
		return -1;
	}
	return fd;
}

/* Does the directory dfd have a metadata file (of any type: a trace whose
 * metadata is not a regular file is a damaged trace)? */
int has_metadata_at(int dfd)
{
	struct stat sb;
	return fstatat(dfd, "metadata", &sb, AT_SYMLINK_NOFOLLOW) == 0;
}

/* Skipped entries are reported once each (a directory may be listed by
 * --repair, then by the reading that checks it). */

void skip_note(struct dump *dx, int err, const char *path, mode_t mode, const char *what)
{
	size_t i;
	if (dx->quiet) {
		note(dx, err, path, -1, "not read");
		return;
	}
	for (i = 0; i < dx->nskipped; i++)
		if (!strcmp(dx->skipped[i], path)) {
			if (err) {
				dx->status = 1;
				dx->nerrs++;
			}
			return;
		}
	GROW(dx->skipped, dx->nskipped, dx->capskipped);
	dx->skipped[dx->nskipped++] = xstrdup(path);
	note(dx, err, path, -1, "%s: not read (%s)", kind_text(mode), what);
}

/* The metadata file: at most this many bytes. */
#define MAX_METADATA ((size_t)64 << 20)

static int read_fd(int fd, const struct stat *sb, char **out, size_t *len)
{
	char *buf;
	size_t got = 0, cap;
	if ((uint64_t)sb->st_size > MAX_METADATA) {
		errno = EFBIG;
		return -1;
	}
	cap = (size_t)sb->st_size + 1;
	buf = (char *)xmalloc(cap);
	for (;;) {
		ssize_t r;
		if (got + 1 >= cap) {
			if (cap > MAX_METADATA) { /* it grew */
				free(buf);
				errno = EFBIG;
				return -1;
			}
			cap *= 2;
			buf = (char *)xrealloc(buf, cap);
		}
		r = read(fd, buf + got, cap - got - 1);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			free(buf);
			return -1;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	buf[got] = '\0';
	*out = buf;
	*len = got;
	return 0;
}

static void add_packet(struct stream *st, const struct packet *k)
{
	GROW(st->pk, st->npk, st->cappk);
	st->pk[st->npk++] = *k;
}

static int cmp_pk_seq(const void *a, const void *b)
{
	const struct packet *x = (const struct packet *)a, *y = (const struct packet *)b;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

static void snote(struct stream *st, int err, uint64_t off, const char *fmt, ...)
{
	struct dump *dx = st->tr->dx;
	va_list ap;
	char *text;
	if (err)
		dx->status = 1;
	if (++st->nerr > MAX_ERRS_PER_FILE) {
		if (st->nerr == MAX_ERRS_PER_FILE + 1)
			note(dx, err, st->path, -1, "more problems in this file are not shown");
		else if (err)
			dx->nerrs++;
		return;
	}
	va_start(ap, fmt);
	text = xvasprintf(fmt, ap);
	va_end(ap);
	note(dx, err, st->path, (long long)off, "%s", text);
	free(text);
}

/* Is name a rotation file of a thread's stream, "stream-<tid>[.<n>]_<k>"
 * (the recorder's TRACEPOINTS_FILE_MB: docs/recording.md)? */
static int rotated_name(const char *name)
{
	const char *u = strrchr(name, '_');
	if (strncmp(name, "stream-", 7) != 0 || !u || !u[1])
		return 0;
	for (u++; *u; u++)
		if (*u < '0' || *u > '9')
			return 0;
	return 1;
}

/* Packets missing from a stream: packet_seq_num goes 1, 2, 3... in a
 * stream file (0, 1, 2... before recorders gave a stream its
 * stream_instance_id: packet 0 is now its warm ring's lead packet, which
 * is never handed over; a rotation file: from where the file before it
 * ended), and by one from packet to packet in a flight ring (oldest first,
 * wherever it starts). */
static void check_missing(struct stream *st)
{
	size_t i;
	for (i = 0; i < st->npk; i++) {
		const struct packet *k = &st->pk[i];
		uint64_t want = i ? st->pk[i - 1].seq + 1
				: st->tr->flight || st->rotated
					? k->seq
					: ld(st->map + k->off + TRACE_PACKET_OFF_STREAM_INSTANCE_ID,
					     4, st->tr->swap) != 0;
		if (k->seq <= want)
			continue;
		st->tr->dx->nmissing++;
		if (i == 0)
			snote(st, 1, k->off,
			      "packets 0..%llu missing: the stream starts at packet_seq_num %llu",
			      (unsigned long long)(k->seq - 1), (unsigned long long)k->seq);
		else if (k->seq - want == 1)
			snote(st, 1, k->off,
			      "packet %llu missing: packet_seq_num %llu follows %llu",
			      (unsigned long long)want, (unsigned long long)k->seq,
			      (unsigned long long)(want - 1));
		else
			snote(st, 1, k->off,
			      "packets %llu..%llu missing: packet_seq_num %llu follows %llu",
			      (unsigned long long)want, (unsigned long long)(k->seq - 1),
			      (unsigned long long)k->seq, (unsigned long long)(want - 1));
	}
}

/* A stream file's packets must come in packet_seq_num order, each once
 * (the recorder appends them so); if not, they are read in that order and
 * a packet seen twice is read once. */
static void check_order(struct stream *st)
{
	size_t i, n = 0;
	for (i = 1; i < st->npk && st->pk[i].seq > st->pk[i - 1].seq; i++)
		;
	if (i >= st->npk)
		return;
	snote(st, 1, st->pk[i].off,
	      "packet_seq_num %llu after %llu: packets duplicated or out of order; read "
	      "in packet_seq_num order, each once",
	      (unsigned long long)st->pk[i].seq, (unsigned long long)st->pk[i - 1].seq);
	st->reordered = 1;
	qsort(st->pk, st->npk, sizeof(*st->pk), cmp_pk_seq);
	for (i = 0; i < st->npk; i++) {
		const struct packet *k = &st->pk[i], *prev = n ? &st->pk[n - 1] : NULL;
		if (prev && k->seq == prev->seq) {
			uint64_t len = prev->cend - prev->off;
			int same = k->psz == prev->psz && k->cend - k->off == len &&
				   !memcmp(st->map + k->off, st->map + prev->off, (size_t)len);
			if (same)
				snote(st, 1, k->off,
				      "a copy of the packet at byte %llu (packet_seq_num %llu); "
				      "ignored",
				      (unsigned long long)prev->off, (unsigned long long)k->seq);
			else
				snote(st, 1, k->off,
				      "a second packet with packet_seq_num %llu, not the same as "
				      "the "
				      "one at byte %llu; ignored",
				      (unsigned long long)k->seq, (unsigned long long)prev->off);
			st->ndup++;
			continue;
		}
		st->pk[n++] = *k;
	}
	st->npk = n;
}

/* Sparse files: where the file system keeps no data (a hole) the bytes are
 * zeros, known without reading (or mapping) them.  <unistd.h> names these
 * whence values only with _GNU_SOURCE; where lseek does not know them, it
 * fails and every byte counts as data. */
#if defined(__linux__) && !defined(SEEK_DATA)
#define SEEK_DATA 3
#define SEEK_HOLE 4
#endif

/* The first offset in [off, end) that may hold data; end if none does. */
static uint64_t next_data(const struct stream *st, uint64_t off, uint64_t end)
{
#ifdef SEEK_DATA
	if (st->fd >= 0 && off < end) {
		off_t d = lseek(st->fd, (off_t)off, SEEK_DATA);
		if (d < 0)
			return errno == ENXIO ? end : off;
		return (uint64_t)d < end ? (uint64_t)d : end;
	}
#endif
	(void)st;
	return off < end ? off : end;
}

/* The first offset in [off, end) in a hole; end if none is. */
static uint64_t next_hole(const struct stream *st, uint64_t off, uint64_t end)
{
#ifdef SEEK_HOLE
	if (st->fd >= 0 && off < end) {
		off_t h = lseek(st->fd, (off_t)off, SEEK_HOLE);
		if (h < 0 || (uint64_t)h < off)
			return end;
		return (uint64_t)h < end ? (uint64_t)h : end;
	}
#endif
	(void)st;
	(void)off;
	return end;
}

/* Are the bytes [off, off + n) of the stream all zeros?  Holes are not read. */
static int zero_range(const struct stream *st, uint64_t off, uint64_t n)
{
	uint64_t end = off + n;
	while (off < end) {
		uint64_t d = next_data(st, off, end), h;
		if (d >= end)
			return 1;
		h = next_hole(st, d, end);
		if (h <= d)
			h = end;
		if (!all_zero(st->map + d, h - d))
			return 0;
		off = h;
	}
	return 1;
}

/* The largest window the recorder makes: a crashed writer leaves at most
 * one window of zeros at the end of a stream. */
#define MAX_WINDOW TRACE_WINDOW_MAX

/* Finds the packets of a stream file (checking every header against the
 * file); flight rings come out in packet_seq_num order. */
static void index_stream(struct stream *st)
{
	const struct trace *tr = st->tr;
	uint64_t size = st->size, off = 0, W = 0, maxps = 0;
	int sw = tr->swap;
	st->stop = size;
	while (off < size) {
		const u8 *h = st->map + off;
		uint64_t left = size - off;
		struct packet k;
		int slot = tr->flight && W && off % W == 0 && left >= W;
		uint64_t cs, ps;
		const char *why = NULL;
		if (slot && all_zero(h, PACKET_HDR)) {
			/* ring slots never written (a hole): skipped without reading them */
			uint64_t d = next_data(st, off, size);
			if (d >= off + W) {
				uint64_t nslot = (d - off) / W;
				st->nunused += (unsigned)nslot;
				off += nslot * W;
				continue;
			}
		}
		if (left < PACKET_HDR) {
			if (all_zero(h, left)) {
				st->stop_why = "zero-filled trailing bytes";
				if (!tr->flight)
					snote(st, 0, off,
					      "%llu zero bytes at the end (a crashed writer's "
					      "leftover; "
					      "--repair removes them)",
					      (unsigned long long)left);
			} else {
				st->stop_why = "truncated packet header";
				st->stop_err = 1;
				snote(st, 1, off, "truncated packet header (%llu of %u bytes)",
				      (unsigned long long)left, PACKET_HDR);
			}
			st->stop = off;
			break;
		}
		memset(&k, 0, sizeof(k));
		k.off = off;
		cs = ld(h + TRACE_PACKET_OFF_CONTENT_SIZE, 8, sw);
		ps = ld(h + TRACE_PACKET_OFF_PACKET_SIZE, 8, sw);
		if (ld(h, 4, sw) != TRACE_PACKET_MAGIC)
			why = "bad packet magic";
		else if (tr->has_uuid &&
			 memcmp(h + TRACE_PACKET_OFF_UUID, tr->uuid, TRACE_PACKET_UUID_SIZE))
			why = "packet uuid differs from the metadata's";
		else if (cs % 8 || ps % 8 || cs < PACKET_HDR * 8 || cs > ps)
			why = "bad content_size/packet_size";
		if (why) {
			/* A packet being opened: nothing after its header yet.  At the
			 * end of a stream, at most one window of zeros (the largest
			 * packet before, else the recorder's largest window); more is
			 * not a crashed writer's leftover, whatever it holds (not read:
			 * a sparse file's gigabytes of holes are not mapped in). */
			uint64_t lim = slot ? W : maxps ? maxps : MAX_WINDOW;
			int big = !slot && left > lim;
			int opening =
				!big &&
				(ld(h, 4, sw) != TRACE_PACKET_MAGIC || cs <= PACKET_HDR * 8) &&
				zero_range(st, off + PACKET_HDR, (slot ? W : left) - PACKET_HDR);
			if (slot) {
				if (opening) {
					st->nunused++;
				} else {
					st->nbadslot++;
					snote(st, 1, off,
					      "%s (magic 0x%08llx) in a ring slot; slot skipped",
					      why, (unsigned long long)ld(h, 4, sw));
				}
				off += W;
				continue;
			}
			st->stop = off;
			if (opening) {
				st->stop_why = "incomplete trailing packet (header not completely "
					       "written)";
				if (!tr->flight)
					snote(st, 0, off,
					      "incomplete trailing packet (a crashed writer's "
					      "leftover; --repair removes it)");
			} else if (big && all_zero(h, PACKET_HDR)) {
				st->stop_why = "zeros at the end, more than one window";
				st->stop_err = 1;
				snote(st, 1, off,
				      "a packet header of zeros, and %llu bytes to the end of the "
				      "file: more "
				      "than one window (%llu bytes), not a crashed writer's "
				      "leftover",
				      (unsigned long long)left, (unsigned long long)lim);
			} else {
				st->stop_why = why;
				st->stop_err = 1;
				snote(st, 1, off,
				      "%s (magic 0x%08llx, content_size %llu, packet_size %llu "
				      "bits)",
				      why, (unsigned long long)ld(h, 4, sw), (unsigned long long)cs,
				      (unsigned long long)ps);
			}
			break;
		}
		k.psz = ps / 8;
		k.cend = off + cs / 8;
		k.tsb = ld(h + TRACE_PACKET_OFF_TIMESTAMP_BEGIN, 8, sw);
		k.tse = ld(h + TRACE_PACKET_OFF_TIMESTAMP_END, 8, sw);
		k.seq = ld(h + TRACE_PACKET_OFF_SEQ_NUM, 8, sw);
		k.disc = ld(h + TRACE_PACKET_OFF_EVENTS_DISCARDED, 8, sw);
		k.tid = (uint32_t)ld(h + TRACE_PACKET_OFF_TID, 4, sw);
		k.pid = (uint32_t)ld(h + TRACE_PACKET_OFF_PID, 4, sw);
		memcpy(k.comm, h + TRACE_PACKET_OFF_COMM, TRACE_PACKET_COMM_SIZE);
		k.comm[16] = '\0';
		if (tr->flight && !tr->flight_files && !W && off == 0)
			W = k.psz; /* one file a ring: slots of the first packet's size */
		if (k.psz > maxps)
			maxps = k.psz;
		{
			/* the recorder writes every byte of a packet's content: a hole
			 * there (never written) is not a trace's */
			uint64_t ce = k.cend < size ? k.cend : size,
				 hole = next_hole(st, off + PACKET_HDR, ce);
			if (hole < ce) {
				snote(st, 1, hole,
				      "a hole (bytes never written) in the content of the packet "
				      "at byte "
				      "%llu; the packet is read up to it",
				      (unsigned long long)off);
				k.cend = hole;
			}
		}
		if (k.psz > left) {
			st->ntrunc++;
			st->stop = off;
			st->stop_why = "file shorter than its packet_size";
			st->stop_err = 1;
			snote(st, 1, off,
			      "truncated packet: packet_size %llu bytes, %llu in the file",
			      (unsigned long long)k.psz, (unsigned long long)left);
			if (k.cend > size)
				k.cend = size; /* what is there; the cut event is reported */
			add_packet(st, &k);
			break;
		}
		add_packet(st, &k);
		off += k.psz;
	}
	st->slot = W;
	if (tr->flight && !tr->flight_files && st->npk) {
		size_t i, n = 0;
		const struct packet *prev = NULL;
		qsort(st->pk, st->npk, sizeof(*st->pk), cmp_pk_seq);
		for (i = 0; i < st->npk; i++) {
			struct packet k = st->pk[i];
			if (prev && k.seq == prev->seq) {
				snote(st, 1, k.off,
				      "a second packet with packet_seq_num %llu; ignored",
				      (unsigned long long)k.seq);
				continue;
			}
			if (k.tse < k.tsb || (prev && k.tsb < prev->tse)) {
				/* the oldest slot, caught being reused */
				st->nover++;
				if (k.cend - k.off > PACKET_HDR)
					snote(st, 0, k.off,
					      "packet %llu was being overwritten; ignored",
					      (unsigned long long)k.seq);
				continue;
			}
			st->pk[n++] = k;
			prev = &st->pk[n - 1];
		}
		st->npk = n;
	}
	if ((!tr->flight || tr->flight_files) && st->npk) {
		size_t i;
		check_order(st);
		for (i = 0; i < st->npk; i++) {
			const struct packet *k = &st->pk[i];
			if (k->tse < k->tsb)
				snote(st, 1, k->off,
				      "timestamp_end before timestamp_begin (%llu < %llu)",
				      (unsigned long long)k->tse, (unsigned long long)k->tsb);
			else if (i && k->tsb < st->pk[i - 1].tse)
				snote(st, 1, k->off,
				      "timestamp_begin %llu before the previous packet's "
				      "timestamp_end %llu",
				      (unsigned long long)k->tsb,
				      (unsigned long long)st->pk[i - 1].tse);
		}
	}
	check_missing(st);
}

/* free() of each pointer given, in order. */
static void free_each(void *const *p, size_t n)
{
	while (n--)
		free(*p++);
}
#define FREE_ALL(...) free_each((void *const[]){__VA_ARGS__}, sizeof((void *const[]){__VA_ARGS__}) / sizeof(void *))

void free_trace(struct trace *tr)
{
	size_t i, k;
	if (!tr)
		return;
	for (i = 0; i < tr->nst; i++) {
		if (tr->st[i].map && tr->st[i].size)
			munmap(tr->st[i].map, (size_t)tr->st[i].size);
		free(tr->st[i].path);
		free(tr->st[i].pk);
	}
	free(tr->st);
	for (i = 0; i < tr->nev; i++) {
		struct event *ev = &tr->ev[i];
		for (k = 0; k < ev->nf; k++) {
			unsigned y;
			for (y = 0; y < ev->f[k].t.nsym; y++)
				free(ev->f[k].t.sym[y].name);
			free(ev->f[k].t.sym);
			free(ev->f[k].fdelim);
			free(ev->f[k].name);
			free(ev->f[k].jkey);
		}
		for (k = 0; k < ev->nxp; k++)
			expr_free(&ev->xp[k]);
		free(ev->xp);
		FREE_ALL(ev->f, ev->name, ev->sys, ev->ename, ev->fixoffs, ev->printk, ev->pf_key,
			 ev->pf_ctr, ev->fmtbuf, ev->seg, ev->jpre);
	}
	free(tr->ev);
	objects_free(tr);
	for (i = 0; i < tr->nal; i++)
		free(tr->al[i].name);
	FREE_ALL(tr->al, tr->idtab, tr->procname, tr->hostname, tr->mode, tr->clk_name,
		 tr->clk_uuid, tr->snapinfo, tr->dir, tr);
}

/* The metadata's fixed part as the recorder writes it (tp__sink_meta_header
 * in include/trace/recorder/metadata.h), comments left out: ANY_STR and ANY_NUM stand for
 * any string and number, BO for le or be, CLK for the clock's name, BOOL
 * for TRUE or FALSE, OPT_UUID for `uuid = "...";` or nothing, OPT_CLOCKS
 * for the three `clock_*_ns = N;` or nothing (recorders before 7 December
 * 2026 wrote neither, and `absolute = FALSE;`), OPT_FLIGHT for
 * `flight_files = N;` or nothing (flight rings of several files, each in
 * time order: recorders since 7 December 2026), OPT_SID for
 * `uint32_t stream_instance_id;` or nothing (stream mode: recorders since
 * 7 December 2026, evening), OPT_VERSION for
 * `record_version = N;` or nothing, OPT_CONTEXT for the CPU's
 * event.context (ctx_fixed) or nothing (both: TRACEPOINTS_CPU=1). */
static const char meta_fixed[] =
	"typealias integer { size = 8; align = 8; signed = false; } := uint8_t;"
	"typealias integer { size = 32; align = 32; signed = false; } := uint32_t;"
	"typealias integer { size = 64; align = 64; signed = false; } := uint64_t;"
	"trace { major = 1; minor = 8; uuid = ANY_STR; byte_order = BO;"
	" packet.header := struct { uint32_t magic; uint8_t uuid[16]; OPT_SID }; };"
	"env { tracer_name = \"tracepoint.h\"; hostname = ANY_STR; procname = ANY_STR; vpid = "
	"ANY_NUM;"
	" mode = ANY_STR; OPT_CLOCKS OPT_FLIGHT OPT_VERSION };"
	"clock { name = ANY_STR; OPT_UUID freq = ANY_NUM; offset_s = ANY_NUM; offset = ANY_NUM; "
	"absolute = BOOL; };"
	"typealias integer { size = 64; align = 64; signed = false; map = clock.CLK.value; } := "
	"uint64_clock_t;"
	"stream { packet.context := struct { uint64_clock_t timestamp_begin; uint64_clock_t "
	"timestamp_end;"
	" uint64_t content_size; uint64_t packet_size; uint64_t packet_seq_num; uint64_t "
	"events_discarded;"
	" uint32_t tid; uint32_t pid; integer { size = 8; align = 8; signed = false; encoding = "
	"UTF8; } comm[16]; };"
	" event.header := struct { enum : integer { size = 6; align = 8; signed = false; }"
	" { compact = 0 ... 62, extended = 63 } id;"
	" variant <id> { struct { integer { size = 26; align = 1; signed = false; map = "
	"clock.CLK.value; }"
	" timestamp; } compact; struct { integer { size = 32; align = 8; signed = false; } id;"
	" integer { size = 64; align = 8; signed = false; map = clock.CLK.value; } timestamp; } "
	"extended; }"
	" v; } align(8); OPT_CONTEXT };";

/* The event context of record version 2 (<trace/wire.h>): the CPU. */
static const char ctx_fixed[] =
	"event.context := struct { integer { size = 16; align = 8; signed = false; } cpu_id; };";

/* Are tokens i, i+1, i+2 of P (before `end`) the packet header's
 * `uint32_t stream_instance_id;` (OPT_SID)? */
static int sid_decl_at(const struct parser *P, size_t i, size_t end)
{
	return i + 2 < end && tok_is(&P->t[i], TK_ID, "uint32_t") &&
	       tok_is(&P->t[i + 1], TK_ID, "stream_instance_id") &&
	       tok_is(&P->t[i + 2], TK_PUNCT, ";");
}

/* --repair's check of a parsed metadata: is it what the recorder writes
 * (its fixed part, then event blocks of name, id and fields of types this
 * reader knows), so that other readers take it too?  -1 (P->err) if not. */
static int strict_metadata(struct parser *P)
{
	struct parser T;
	size_t i = 0, j, k;
	int r = 0;
	memset(&T, 0, sizeof(T));
	if (lex(&T, meta_fixed, sizeof(meta_fixed) - 1))
		abort(); /* the template is this file's */
	for (j = 0; j < T.n && !r; j++, i++) {
		const struct tok *t = &T.t[j], *a;
		int same;
		while (i < P->n && P->t[i].type == TK_COMMENT)
			i++;
		if (i >= P->n) {
			r = perr(P, P->n ? P->t[P->n - 1].line : 1, "it ends in its fixed part");
			break;
		}
		a = &P->t[i];
		if (tok_is(t, TK_ID, "OPT_CLOCKS")) {
			static const char *const names[3] = { "clock_realtime_ns",
							      "clock_monotonic_ns",
							      "clock_boottime_ns" };
			size_t k;
			for (k = 0; k < 3 && i + 3 < P->n; k++) {
				const struct tok *e = &P->t[i];
				if (!(e->type == TK_ID && e->n == strlen(names[k]) &&
				      !memcmp(e->s, names[k], e->n) &&
				      tok_is(&P->t[i + 1], TK_PUNCT, "=") &&
				      P->t[i + 2].type == TK_NUM &&
				      tok_is(&P->t[i + 3], TK_PUNCT, ";")))
					break;
				i += 4;
			}
			i--; /* the template's next token meets this one */
			continue;
		}
		if (tok_is(t, TK_ID, "OPT_VERSION") || tok_is(t, TK_ID, "OPT_FLIGHT")) {
			const char *key =
				tok_is(t, TK_ID, "OPT_FLIGHT") ? "flight_files" : "record_version";
			if (tok_is(a, TK_ID, key) && i + 3 < P->n &&
			    tok_is(&P->t[i + 1], TK_PUNCT, "=") && P->t[i + 2].type == TK_NUM &&
			    tok_is(&P->t[i + 3], TK_PUNCT, ";"))
				i += 4;
			i--; /* the template's next token meets this one */
			continue;
		}
		if (tok_is(t, TK_ID, "OPT_CONTEXT")) {
			struct parser C;
			size_t m;
			memset(&C, 0, sizeof(C));
			if (lex(&C, ctx_fixed, sizeof(ctx_fixed) - 1))
				abort(); /* the template is this file's */
			if (tok_is(a, TK_ID, "event")) {
				for (m = 0; m < C.n && i + m < P->n; m++)
					if (C.t[m].type != P->t[i + m].type ||
					    C.t[m].n != P->t[i + m].n ||
					    memcmp(C.t[m].s, P->t[i + m].s, C.t[m].n))
						break;
				if (m == C.n)
					i += m;
			}
			free(C.t);
			i--; /* the template's next token meets this one */
			continue;
		}
		if (tok_is(t, TK_ID, "OPT_SID")) {
			if (sid_decl_at(P, i, P->n))
				i += 3;
			i--; /* the template's next token meets this one */
			continue;
		}
		if (tok_is(t, TK_ID, "OPT_UUID")) {
			if (tok_is(a, TK_ID, "uuid") && i + 3 < P->n &&
			    tok_is(&P->t[i + 1], TK_PUNCT, "=") && P->t[i + 2].type == TK_STR &&
			    tok_is(&P->t[i + 3], TK_PUNCT, ";"))
				i += 4;
			i--; /* the template's next token meets this one */
			continue;
		}
		if (tok_is(t, TK_ID, "ANY_STR"))
			same = a->type == TK_STR;
		else if (tok_is(t, TK_ID, "ANY_NUM"))
			same = a->type == TK_NUM;
		else if (tok_is(t, TK_ID, "BOOL"))
			same = tok_is(a, TK_ID, "TRUE") || tok_is(a, TK_ID, "FALSE");
		else if (tok_is(t, TK_ID, "BO"))
			same = tok_is(a, TK_ID, "le") || tok_is(a, TK_ID, "be");
		else if (tok_is(t, TK_ID, "CLK"))
			same = a->type == TK_ID && P->tr->clk_name &&
			       strlen(P->tr->clk_name) == a->n &&
			       !memcmp(a->s, P->tr->clk_name, a->n);
		else
			same = a->type == t->type && a->n == t->n && !memcmp(a->s, t->s, a->n);
		if (!same)
			r = perr(P, a->line, "'%.*s' where the recorder writes '%.*s'",
				 (int)(a->n > 40 ? 40 : a->n), a->s, (int)t->n, t->s);
	}
	free(T.t);
	/* then event blocks only (parse_metadata checked their braces and ';') */
	while (!r && i < P->n) {
		size_t e, se;
		if (P->t[i].type == TK_COMMENT) {
			i++;
			continue;
		}
		if (!tok_is(&P->t[i], TK_ID, "event") || i + 1 >= P->n ||
		    !(e = match_close(P, i + 1, P->n))) {
			r = perr(P, P->t[i].line,
				 "'%.*s' where the recorder writes only event blocks",
				 (int)(P->t[i].n > 40 ? 40 : P->t[i].n), P->t[i].s);
			break;
		}
		for (k = i + 2; k < e && !r; k = se + 1) {
			const struct tok *a;
			while (k < e && P->t[k].type == TK_COMMENT)
				k++;
			if (k >= e || !(se = stmt_end(P, k, e)))
				break;
			a = &P->t[k];
			if (!(k + 1 < se &&
			      ((tok_is(a, TK_ID, "name") && tok_is(&P->t[k + 1], TK_PUNCT, "=")) ||
			       (tok_is(a, TK_ID, "id") && tok_is(&P->t[k + 1], TK_PUNCT, "=")) ||
			       (tok_is(a, TK_ID, "fields") &&
				tok_is(&P->t[k + 1], TK_PUNCT, ":=")))))
				r = perr(P, a->line, "'%.*s' in an event block",
					 (int)(a->n > 40 ? 40 : a->n), a->s);
		}
		i = e + 2;
	}
	for (k = 0; !r && k < P->tr->nev; k++) {
		const struct event *ev = &P->tr->ev[k];
		for (j = 0; j < ev->nf; j++)
			if (ev->f[j].t.bad) {
				r = perr(P, 1, "event %s: field %s has %s", ev->name, ev->f[j].name,
					 ev->f[j].t.bad);
				break;
			}
	}
	return r;
}

/* Where the tokens of s (lexed) start in P's t[from, lim), comments
 * skipped between them; lim if nowhere. */
static size_t find_toks(const struct parser *P, size_t from, size_t lim, const struct parser *S)
{
	size_t i, j, k;
	for (i = from; i < lim; i++) {
		for (j = 0, k = i; j < S->n && k < lim; j++, k++) {
			while (k < lim && P->t[k].type == TK_COMMENT)
				k++;
			if (k >= lim || P->t[k].type != S->t[j].type || P->t[k].n != S->t[j].n ||
			    memcmp(P->t[k].s, S->t[j].s, S->t[j].n))
				break;
		}
		if (j == S->n)
			return i;
	}
	return lim;
}

/* Is the statement of P at i the template's at ti (to their ';'), the
 * template's CLK standing for any clock name, comments skipped? */
static int same_stmt(struct parser *P, size_t i, struct parser *T, size_t ti)
{
	size_t pe = stmt_end(P, i, P->n), te = stmt_end(T, ti, T->n);
	if (!pe || !te)
		return 0;
	for (; ti <= te; ti++, i++) {
		while (i <= pe && P->t[i].type == TK_COMMENT)
			i++;
		if (i > pe)
			return 0;
		if (tok_is(&T->t[ti], TK_ID, "OPT_SID")) { /* the field, or nothing */
			if (sid_decl_at(P, i, pe + 1))
				i += 2;
			else
				i--;
			continue;
		}
		if (tok_is(&T->t[ti], TK_ID, "CLK")
			    ? P->t[i].type != TK_ID
			    : P->t[i].type != T->t[ti].type || P->t[i].n != T->t[ti].n ||
				      memcmp(P->t[i].s, T->t[ti].s, P->t[i].n))
			return 0;
	}
	return i == pe + 1;
}

/* The layout of packets and records this tool decodes without reading it
 * from the metadata: the packet header and context, and the event context
 * (if any), must be declared as the recorder declares them (meta_fixed,
 * ctx_fixed).  A valid CTF trace of another writer (an LTTng trace,
 * babeltrace2 --output-format=ctf of one of ours) lays its packets out
 * otherwise: refused (P->err), never decoded as garbage.  -1 if so.  (The
 * event header is left to --repair's check: a damaged declaration of it
 * in one of our traces is still read, tests/tools/t_dump_hostile.sh.) */
static int layout_metadata(struct parser *P)
{
	static const char *const what[] = { "packet.header", "packet.context", "event.context" };
	struct parser T, K;
	size_t w;
	int r = 0;
	memset(&T, 0, sizeof(T));
	if (lex(&T, meta_fixed, sizeof(meta_fixed) - 1))
		abort(); /* the template is this file's */
	for (w = 0; w < sizeof(what) / sizeof(what[0]) && !r; w++) {
		size_t at, tat;
		memset(&K, 0, sizeof(K));
		if (lex(&K, what[w], strlen(what[w])))
			abort();
		at = find_toks(P, 0, P->n, &K);
		if (w == 2) { /* the event context: none, or the CPU's */
			free(T.t);
			memset(&T, 0, sizeof(T));
			if (lex(&T, ctx_fixed, sizeof(ctx_fixed) - 1))
				abort();
			if (at == P->n) {
				free(K.t);
				break;
			}
		}
		tat = find_toks(&T, 0, T.n, &K);
		if (at == P->n || tat == T.n || !same_stmt(P, at, &T, tat))
			r = perr(
				P, at < P->n ? P->t[at].line : 1,
				"its %s is not the one tracepoint.h's recorder writes: a CTF trace "
				"of another writer (such as babeltrace2 --output-format=ctf), "
				"which this tool does not read; babeltrace2 reads it",
				what[w]);
		free(K.t);
	}
	free(T.t);
	return r;
}

/* Loads the trace in the directory dfd (named dir in messages): metadata,
 * and the stream files mapped and indexed.  NULL (reported) if the
 * metadata cannot be used. */
struct trace *load_trace(struct dump *dx, int dfd, const char *dir)
{
	struct trace *tr = (struct trace *)xcalloc(1, sizeof(*tr));
	char *mpath = path_join(dir, "metadata"), *text = NULL;
	size_t len, capst = 0, nd, i;
	struct parser P;
	struct dent *ds;
	struct stat sb;
	const char *why;
	int fd, foreign = 0;
	tr->dx = dx;
	tr->dir = xstrdup(dir);
	tr->freq = 1000000000u;
	tr->be = host_be();
	fd = open_file_at(dfd, "metadata", &sb, &why);
	if (fd < 0 || read_fd(fd, &sb, &text, &len) != 0) {
		if (why)
			note(dx, 1, mpath, -1, "cannot read: %s, not a regular file", why);
		else if (errno == EFBIG)
			note(dx, 1, mpath, -1, "cannot read: larger than %zu MiB",
			     MAX_METADATA >> 20);
		else
			note(dx, 1, mpath, -1, "cannot read: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		free(mpath);
		free_trace(tr);
		return NULL;
	}
	close(fd);
	objects_parse(tr, text, len);
	memset(&P, 0, sizeof(P));
	P.path = mpath;
	P.tr = tr;
	if (len >= 4 && ((const u8 *)text)[0] == 0x57 && ((const u8 *)text)[1] == 0x1d &&
	    ((const u8 *)text)[2] == 0xd1 && ((const u8 *)text)[3] == 0x75) {
		snprintf(P.err, sizeof(P.err), "packetized metadata is not supported");
	} else if (memchr(text, '\0', len)) {
		snprintf(P.err, sizeof(P.err), "a NUL byte at offset %zu: not a text file",
			 (size_t)((char *)memchr(text, '\0', len) - text));
	} else if (len < 10 || memcmp(text, "/* CTF 1.", 9) != 0) {
		snprintf(P.err, sizeof(P.err), "does not start with \"/* CTF 1.8\"");
	} else {
		P.strict = dx->strict;
		if (parse_metadata(&P, text, len) == 0) {
			if (P.strict)
				strict_metadata(&P);
			else if (layout_metadata(&P) != 0)
				foreign = 1;
		}
	}
	free(P.t);
	if (P.err[0]) {
		note(dx, 1, mpath, -1, "%s: %s",
		     P.strict  ? "not as the recorder writes it (other readers may refuse it)"
		     : foreign ? "not a trace of tracepoint.h's recorder"
			       : "cannot parse the metadata",
		     P.err);
		free(text);
		free(mpath);
		free_trace(tr);
		return NULL;
	}
	free(text);
	free(mpath);
	tr->swap = tr->be != host_be();
	tr->flight = tr->mode && !strcmp(tr->mode, "flight");
	prepare_events(dx, tr);
	/* the stream files: every regular file but metadata and dot files
	 * (subdirectories are nested traces; anything else is not read) */
	if (list_dir(dfd, &ds, &nd) != 0) {
		note(dx, 1, dir, -1, "cannot list: %s", strerror(errno));
		free_trace(tr);
		return NULL;
	}
	for (i = 0; i < nd; i++) {
		char *p;
		struct stream *st;
		if (ds[i].kind == E_DIR || !strcmp(ds[i].name, "metadata"))
			continue;
		if (ring_of(ds, nd, i))
			continue; /* read with its stream (join_ring) */
		p = path_join(dir, ds[i].name);
		if (ds[i].kind == E_OTHER) {
			/* a stream's name: a part of the trace is missing */
			int err = !strncmp(ds[i].name, "stream-", 7);
			skip_note(dx, err, p, ds[i].mode,
				  "a trace holds only regular files and directories");
			free(p);
			continue;
		}
		GROW(tr->st, tr->nst, capst);
		st = &tr->st[tr->nst++];
		memset(st, 0, sizeof(*st));
		st->tr = tr;
		st->path = p;
		st->name = strrchr(p, '/') + 1;
		st->fd = -1;
		st->rotated = rotated_name(st->name);
		fd = open_file_at(dfd, ds[i].name, &sb, &why);
		if (fd < 0) {
			if (why)
				note(dx, 1, p, -1, "cannot open: %s", why);
			else
				note(dx, 1, p, -1, "cannot open: %s", strerror(errno));
			continue;
		}
		st->dev = sb.st_dev;
		st->ino = sb.st_ino;
		st->mode = sb.st_mode;
		st->size = (uint64_t)sb.st_size;
		if (st->size) {
			void *m = (uint64_t)(size_t)st->size == st->size
					  ? mmap(NULL, (size_t)st->size, PROT_READ, MAP_PRIVATE, fd,
						 0)
					  : MAP_FAILED;
			if (m == MAP_FAILED) {
				note(dx, 1, p, -1, "cannot map: %s", strerror(errno));
				st->size = 0;
			} else {
				st->map = (u8 *)m;
			}
		}
		st->fd = fd;
		if (!tr->flight) {
			/* stream mode: the thread's warm ring, if it left one (ring.c) */
			char *rname = xasprintf("%s.ring", ds[i].name);
			size_t k;
			for (k = 0; k < nd; k++) {
				struct stat rsb;
				const char *rwhy;
				int rfd;
				if (strcmp(ds[k].name, rname) != 0 || ds[k].kind != E_REG)
					continue;
				rfd = open_file_at(dfd, rname, &rsb, &rwhy);
				if (rfd >= 0) {
					st->ring = join_ring(st, fd, rfd, (uint64_t)rsb.st_size,
							     rname);
					close(rfd);
				}
			}
			free(rname);
		}
		index_stream(st);
		st->fd = -1;
		close(fd);
	}
	free_dents(ds, nd);
	tr->ok = 1;
	return tr;
}

/* ------------------------------------------------------------------ */
/* Cursors: one per stream, positioned on its next item               */
/* ------------------------------------------------------------------ */

/* Cycles of a clock of frequency f in ns, rounded as babeltrace2 2.0
 * rounds them: in double precision, then down (offset_ns() and cur_ns()
 * add the offset and the value so converted).  Two readers of one trace
 * must print the same times, and merge several traces in the same order:
 * one exact conversion of offset + value put 2,011 of 3,000 events 1 ns
 * after babeltrace2's times (two roundings down against one, and the
 * double's error on values of 10^13 ns), enough to swap two events of two
 * traces. */
static uint64_t cycles_ns(uint64_t f, uint64_t v)
{
	double d;
	if (f == 1000000000u)
		return v;
	d = 1e9 * (double)v / (double)f;
	return d >= 18446744073709551616.0 ? UINT64_MAX : (uint64_t)d;
}

/* The clock's offset in ns, as babeltrace2 takes it: its seconds, then
 * its cycles (less than a second once the whole seconds are moved out)
 * converted on their own. */
static i128 offset_ns(const struct trace *tr)
{
	return (i128)tr->off_s * 1000000000 + (i128)(tr->off_c / tr->freq) * 1000000000 +
	       (i128)cycles_ns(tr->freq, tr->off_c % tr->freq) + tr->shift;
}

/* ts of a clock of frequency f whose offset is base ns, in ns (0 to
 * UINT64_MAX). */
static inline uint64_t ns_at(i128 base, uint64_t f, uint64_t ts)
{
	i128 ns = base + (i128)cycles_ns(f, ts);
	if (ns < 0)
		return 0;
	if (ns > (i128)UINT64_MAX)
		return UINT64_MAX;
	return (uint64_t)ns;
}

static inline uint64_t cur_ns(const struct cursor *c, uint64_t ts)
{
	return ns_at(c->base_ns, c->freq, ts);
}

uint64_t trace_ns(const struct trace *tr, uint64_t ts)
{
	return ns_at(offset_ns(tr), tr->freq, ts);
}

void cur_init(struct cursor *c, struct stream *st, size_t idx)
{
	memset(c, 0, sizeof(*c));
	c->st = st;
	c->tr = st->tr;
	c->idx = idx;
	c->freq = st->tr->freq;
	c->base_ns = offset_ns(st->tr);
	c->offbuf = (uint32_t *)xcalloc(st->tr->maxnf + 1, sizeof(uint32_t));
	c->slen = (uint32_t *)xcalloc(st->tr->maxnf + 1, sizeof(uint32_t));
}

void cur_free(struct cursor *c)
{
	free(c->offbuf);
	free(c->slen);
}

static void cur_set_tid(struct cursor *c, uint32_t tid, uint32_t pid)
{
	const struct trace *tr = c->tr;
	uint32_t p = tr->has_vpid ? (uint32_t)tr->vpid : pid;
	char *o;
	c->have_tid = 1;
	c->tid = tid;
	c->rawpid = pid;
	c->pid = p;
	o = put_u64(c->tidstr, tid);
	c->tidlen = (size_t)(o - c->tidstr);
	o = c->jtail;
	memcpy(o, ",\"pid\":", 7);
	o = put_u64(o + 7, p);
	memcpy(o, ",\"tid\":", 7);
	o = put_u64(o + 7, tid);
	memcpy(o, ",\"args\":{", 9);
	o += 9;
	c->jtaillen = (size_t)(o - c->jtail);
}

/* Decodes the record at c->p; 0 (reported) if it is damaged. */
#define ID_MASK ((1u << TRACE_HEADER_ID_BITS) - 1)
#define TS_MASK (((uint64_t)1 << TRACE_HEADER_TS_BITS) - 1)

static int decode_record(struct cursor *c)
{
	const struct trace *tr = c->tr;
	const u8 *p = c->p, *end = c->end, *pl, *pos;
	size_t left = (size_t)(end - p);
	uint64_t id, ts;
	const struct event *ev;
	unsigned hl;
	int ext;
	/* the id's bits: the low ones of the first word, its first byte's low
	 * bits (little-endian) or high bits (big-endian) */
	ext = (tr->be ? p[0] >> (8 - TRACE_HEADER_ID_BITS) : p[0] & ID_MASK) ==
	      TRACE_HEADER_EXTENDED;
	if (!ext) {
		uint64_t w, low;
		if (left < TRACE_HEADER_COMPACT_SIZE)
			goto cut;
		w = ld(p, 4, tr->swap);
		if (tr->be) {
			id = w >> TRACE_HEADER_TS_BITS;
			low = w & TS_MASK;
		} else {
			id = w & ID_MASK;
			low = w >> TRACE_HEADER_ID_BITS;
		}
		ts = c->last_ts + ((low - c->last_ts) & TS_MASK);
		hl = TRACE_HEADER_COMPACT_SIZE;
	} else {
		if (left < TRACE_HEADER_EXTENDED_SIZE)
			goto cut;
		id = ld(p + TRACE_HEADER_EXTENDED_OFF_ID, 4, tr->swap);
		ts = ld(p + TRACE_HEADER_EXTENDED_OFF_TS, 8, tr->swap);
		hl = TRACE_HEADER_EXTENDED_SIZE;
		if (ts < c->last_ts) {
			snote(c->st, 1, (uint64_t)(p - c->st->map),
			      "event timestamp goes back (%llu < %llu); rest of the packet skipped",
			      (unsigned long long)ts, (unsigned long long)c->last_ts);
			return 0;
		}
	}
	ev = find_event(tr, id);
	if (!ev) {
		snote(c->st, 1, (uint64_t)(p - c->st->map),
		      "event id %llu is not in the metadata; rest of the packet skipped",
		      (unsigned long long)id);
		return 0;
	}
	if (ev->bad) {
		snote(c->st, 1, (uint64_t)(p - c->st->map),
		      "event %s has %s, which this tool cannot read; "
		      "rest of the packet skipped",
		      ev->name, ev->bad);
		return 0;
	}
	if (ts > c->pk_end) {
		/* every event of a packet is before its timestamp_end (stored first at
		 * each commit); readers that merge streams in time go back here */
		snote(c->st, 1, (uint64_t)(p - c->st->map),
		      "event timestamp after the packet's timestamp_end (%llu > %llu); rest of the "
		      "packet skipped",
		      (unsigned long long)ts, (unsigned long long)c->pk_end);
		return 0;
	}
	c->cpu = TRACE_CPU_UNKNOWN;
	if (tr->ctx) { /* the event context: the CPU */
		if (left < hl + tr->ctx)
			goto cut;
		c->cpu = (uint32_t)ld(p + hl, TRACE_EVENT_CONTEXT_SIZE, tr->swap);
		hl += tr->ctx;
	}
	pl = p + hl;
	if (ev->packed && !ev->nstr) {
		if ((size_t)(end - pl) < ev->fixsize)
			goto cut;
		c->off = ev->fixoffs;
		c->p = pl + ev->fixsize;
	} else {
		unsigned i;
		pos = pl;
		for (i = 0; i < ev->nf; i++) {
			const struct field *f = &ev->f[i];
			if (f->t.kind == FT_STR) {
				const u8 *z = (const u8 *)memchr(pos, 0, (size_t)(end - pos));
				if (!z)
					goto cut;
				c->offbuf[i] = (uint32_t)(pos - pl);
				c->slen[i] = (uint32_t)(z - pos);
				pos = z + 1;
			} else if (f->seq) {
				const struct field *lf = &ev->f[f->seq - 1];
				uint64_t n = ld(pl + c->offbuf[f->seq - 1], lf->t.size, lf->t.swap);
				if (f->t.align > 1)
					goto cut; /* the recorder writes packed sequences only */
				if (n > (uint64_t)(end - pos) / f->t.size)
					goto cut;
				c->offbuf[i] = (uint32_t)(pos - pl);
				c->slen[i] = (uint32_t)n;
				pos += n * f->t.size;
			} else {
				size_t need = (size_t)f->t.size * (f->count ? f->count : 1);
				if (f->t.align > 1) {
					size_t rel = (size_t)(pos - c->pkt), a = f->t.align;
					rel = (rel + a - 1) / a * a;
					if (rel > (size_t)(end - c->pkt))
						goto cut;
					pos = c->pkt + rel;
				}
				if ((size_t)(end - pos) < need)
					goto cut;
				c->offbuf[i] = (uint32_t)(pos - pl);
				pos += need;
			}
		}
		c->off = c->offbuf;
		c->p = pos;
	}
	c->kind = K_EVENT;
	c->ev = ev;
	c->pl = pl;
	c->ts = ts;
	c->last_ts = ts;
	c->ns = cur_ns(c, ts);
	return 1;
cut:
	snote(c->st, 1, (uint64_t)(p - c->st->map),
	      "event runs past the packet's content (%llu bytes left)", (unsigned long long)left);
	return 0;
}

/* Moves c to its stream's next item; 0 at the end. */
int cur_next(struct cursor *c)
{
	struct stream *st = c->st;
	for (;;) {
		const struct packet *k;
		uint64_t base;
		if (c->p && c->p < c->end) {
			if (decode_record(c))
				return 1;
			c->p = c->end; /* damaged: skip the rest of the packet */
			continue;
		}
		if (c->pk >= st->npk)
			return 0;
		k = &st->pk[c->pk];
		c->pkt = st->map + k->off;
		c->p = c->pkt + PACKET_HDR;
		c->end = st->map + k->cend;
		c->last_ts = k->tsb;
		c->pk_end = k->tse;
		if (!c->have_tid || k->tid != c->tid || k->pid != c->rawpid)
			cur_set_tid(c, k->tid, k->pid);
		base = c->pk == 0 ? (k->seq == 0 ? 0 : k->disc) : c->prev_disc;
		c->pk++;
		c->prev_disc = k->disc > base ? k->disc : base;
		if (k->disc > base) {
			c->kind = K_DROP;
			c->dropn = k->disc - base;
			c->ts = k->tsb;
			c->ns = cur_ns(c, k->tsb);
			return 1;
		}
	}
}

/* ------------------------------------------------------------------ */
/* The merge                                                          */
/* ------------------------------------------------------------------ */

static inline int cur_less(const struct cursor *a, const struct cursor *b)
{
	return a->ns < b->ns || (a->ns == b->ns && a->idx < b->idx);
}

static void sift_down(struct cursor **h, size_t n, size_t i)
{
	struct cursor *x = h[i];
	for (;;) {
		size_t l = 2 * i + 1, m;
		if (l >= n)
			break;
		m = l + 1 < n && cur_less(h[l + 1], h[l]) ? l + 1 : l;
		if (!cur_less(h[m], x))
			break;
		h[i] = h[m];
		i = m;
	}
	h[i] = x;
}

/* The order of traces for events of the same time: by uuid, then
 * directory, whatever the order they were named in. */
static int trace_rank_cmp(const void *a, const void *b)
{
	const struct trace *x = *(const struct trace *const *)a,
			   *y = *(const struct trace *const *)b;
	int c = x->has_uuid != y->has_uuid ? x->has_uuid - y->has_uuid
		: x->has_uuid		   ? memcmp(x->uuid, y->uuid, sizeof(x->uuid))
					   : 0;
	return c ? c : strcmp(x->dir, y->dir);
}

/* Every item of these traces' streams in time order (events of the same
 * time: by trace, trace_rank_cmp, then in the order of the trace's
 * streams). */
void merge(struct dump *dx, struct trace **trs, size_t ntr,
	   void (*emit)(struct dump *, struct cursor *))
{
	size_t i, j, n = 0, ncur = 0;
	struct cursor *cs, **h;
	struct trace **by = (struct trace **)xcalloc(ntr ? ntr : 1, sizeof(*by));
	for (i = 0; i < ntr; i++)
		ncur += trs[i]->nst;
	if (ntr) {
		memcpy(by, trs, ntr * sizeof(*by));
		qsort(by, ntr, sizeof(*by), trace_rank_cmp);
	}
	cs = (struct cursor *)xcalloc(ncur, sizeof(*cs));
	h = (struct cursor **)xcalloc(ncur, sizeof(*h));
	ncur = 0;
	for (i = 0; i < ntr; i++)
		for (j = 0; j < by[i]->nst; j++) {
			struct cursor *c = &cs[ncur];
			cur_init(c, &by[i]->st[j], ncur);
			ncur++;
			if (cur_next(c))
				h[n++] = c;
		}
	for (i = n / 2; i-- > 0;)
		sift_down(h, n, i);
	while (n) {
		struct cursor *c = h[0];
		emit(dx, c);
		if (!cur_next(c))
			h[0] = h[--n];
		if (n)
			sift_down(h, n, 0);
	}
	for (i = 0; i < ncur; i++)
		cur_free(&cs[i]);
	free(cs);
	free(h);
	free(by);
}
