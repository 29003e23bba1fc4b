/* SPDX-License-Identifier: MIT */
/*
 * tools/dump/repair.c - tracepoint-dump's --repair: makes crashed traces
 * readable by babeltrace2, in place, writing only files it creates.
 *
 * Part of tracepoint-dump (dump.h has the map of its parts).
 */
#include "dump.h"

/* ------------------------------------------------------------------ */
/* --repair                                                           */
/* ------------------------------------------------------------------ */

static int write_all(int fd, const void *p, size_t n)
{
	const char *s = (const char *)p;
	while (n) {
		ssize_t w = write(fd, s, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

/* 64 bits nobody can predict, for a temporary file's name. */
static uint64_t rand64(struct dump *dx)
{
	uint64_t r = 0;
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || read(fd, &r, sizeof(r)) != (ssize_t)sizeof(r)) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		r = ((uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec) ^
		    ((uint64_t)getpid() << 40) ^ (uint64_t)(uintptr_t)&ts;
	}
	if (fd >= 0)
		close(fd);
	dx->tmpctr++;
	return r ^ (dx->tmpctr * 0x9e3779b97f4a7c15u);
}

/* A new file in dfd, ".<base>.repair-<random>", made here (O_EXCL: never
 * a file or link that was there), mode 0600 until it is complete. */
static int make_temp(struct dump *dx, int dfd, const char *base, char **name)
{
	int i;
	for (i = 0; i < 100; i++) {
		int fd;
		*name = xasprintf(".%s.repair-%016llx", base, (unsigned long long)rand64(dx));
		fd = openat(dfd, *name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0)
			return fd;
		free(*name);
		*name = NULL;
		if (errno != EEXIST)
			return -1;
	}
	errno = EEXIST;
	return -1;
}

/* Writes the packets of st (shrink 1: each packet shrunk to its content,
 * with a rewritten header; 2: each packet as it is, in st->pk's order;
 * 0: the first trunc_at bytes) to a new temporary file in the
 * trace directory dfd, renamed over the stream file if that is still the
 * file that was read.  Nothing else is written, and no other file's mode
 * is changed; a stream-mode thread's warm ring, whose packets were read
 * with the stream (ring.c), is removed once they are in it. */
static int rewrite_stream(struct dump *dx, int dfd, struct stream *st, int shrink,
			  uint64_t trunc_at)
{
	char *tmp = NULL;
	int fd = make_temp(dx, dfd, st->name, &tmp), ok = fd >= 0;
	const char *why = NULL;
	struct stat sb;
	size_t i;
	if (ok && !shrink) {
		ok = write_all(fd, st->map, (size_t)trunc_at) == 0;
	} else if (ok && shrink == 2) {
		for (i = 0; ok && i < st->npk; i++)
			ok = write_all(fd, st->map + st->pk[i].off, (size_t)st->pk[i].psz) == 0;
	} else if (ok) {
		for (i = 0; ok && i < st->npk; i++) {
			const struct packet *k = &st->pk[i];
			u8 h[PACKET_HDR];
			uint64_t bits = (k->cend - k->off) * 8;
			memcpy(h, st->map + k->off, PACKET_HDR);
			if (st->tr->swap)
				bits = bswap64(bits);
			memcpy(h + TRACE_PACKET_OFF_CONTENT_SIZE, &bits, 8);
			memcpy(h + TRACE_PACKET_OFF_PACKET_SIZE, &bits, 8);
			ok = write_all(fd, h, PACKET_HDR) == 0 &&
			     write_all(fd, st->map + k->off + PACKET_HDR,
				       (size_t)(k->cend - k->off - PACKET_HDR)) == 0;
		}
	}
	/* the stream's permissions, given to the file made here (its fd) */
	if (ok)
		ok = fchmod(fd, st->mode & 0777) == 0 && fsync(fd) == 0;
	if (fd >= 0 && close(fd) != 0)
		ok = 0;
	if (ok && (fstatat(dfd, st->name, &sb, AT_SYMLINK_NOFOLLOW) != 0 || sb.st_dev != st->dev ||
		   sb.st_ino != st->ino)) {
		why = "replaced since it was read; left as it is";
		ok = 0;
	}
	if (ok)
		ok = renameat(dfd, tmp, dfd, st->name) == 0;
	if (ok && st->ring) {
		/* the stream file now holds the warm ring's packets too: the ring
		 * goes, or other readers would read them twice (ring.c) */
		char *ring = xasprintf("%s.ring", st->name);
		unlinkat(dfd, ring, 0);
		free(ring);
	}
	if (ok)
		(void)fsync(dfd);
	if (!ok) {
		fprintf(stderr, "%s: %s: cannot rewrite: %s\n", prog, st->path,
			why ? why : strerror(errno));
		if (tmp)
			unlinkat(dfd, tmp, 0);
	}
	free(tmp);
	return ok ? 0 : -1;
}

/* Repairs one trace directory (not its subtraces); -1 on failure. */
/* Drops the packets that the end of the file cuts (such a packet can be
 * neither put in order nor shrunk), keeping the others' order; returns
 * how many were dropped. */
static size_t drop_cut_packets(struct stream *st)
{
	size_t k, kept = 0, cut;
	for (k = 0; k < st->npk; k++)
		if (st->pk[k].off + st->pk[k].psz <= st->size)
			st->pk[kept++] = st->pk[k];
	cut = st->npk - kept;
	st->npk = kept;
	return cut;
}

/* The end of the line that says how a stream was rewritten: its damaged
 * tail, if any (or packets cut by the end of the file), and the sizes. */
static void report_end(const struct stream *st, size_t ncut, uint64_t out)
{
	if (ncut || st->stop < st->size)
		fprintf(stderr, ", damaged tail from byte %llu dropped",
			(unsigned long long)st->stop);
	fprintf(stderr, ": %llu -> %llu bytes\n", (unsigned long long)st->size,
		(unsigned long long)out);
}

static int repair_trace(struct dump *dx, int dfd, const char *dir, int *changed)
{
	struct trace *tr;
	size_t i;
	int rc = 0, ring;
	dx->quiet = 1;
	tr = load_trace(dx, dfd, dir);
	dx->quiet = 0;
	if (!tr) {
		/* say why, without the quiet */
		tr = load_trace(dx, dfd, dir);
		free_trace(tr);
		return -1;
	}
	/* a flight ring of one file, in slots (recorders before 7 December
	 * 2026): rewritten oldest first; a ring of several files is streams */
	ring = tr->flight && !tr->flight_files;
	for (i = 0; i < tr->nst; i++) {
		struct stream *st = &tr->st[i];
		if (!ring && st->reordered) {
			uint64_t out = 0;
			size_t k, ncut = drop_cut_packets(st);
			for (k = 0; k < st->npk; k++)
				out += st->pk[k].psz;
			if (rewrite_stream(dx, dfd, st, 2, 0) == 0) {
				fprintf(stderr,
					"%s: %s: %zu packet%s rewritten in packet_seq_num order",
					prog, st->path, st->npk, st->npk == 1 ? "" : "s");
				if (st->ndup)
					fprintf(stderr, ", %u seen twice kept once", st->ndup);
				report_end(st, ncut, out);
				(*changed)++;
			} else {
				rc = -1;
			}
		} else if (!ring) {
			if (st->stop < st->size) {
				const struct packet *k = st->npk ? &st->pk[st->npk - 1] : NULL;
				uint64_t at = st->stop;
				if (k && k->off == at) /* the truncated packet itself */
					at = k->off;
				if (rewrite_stream(dx, dfd, st, 0, at) == 0) {
					fprintf(stderr,
						"%s: %s: truncated at byte %llu, %s: %llu -> %llu "
						"bytes\n",
						prog, st->path, (unsigned long long)at,
						st->stop_why ? st->stop_why : "damaged",
						(unsigned long long)st->size,
						(unsigned long long)at);
					(*changed)++;
				} else {
					rc = -1;
				}
			}
		} else {
			uint64_t out = 0, lo = 0, hi = 0;
			size_t k, ntr = drop_cut_packets(st);
			int linear = 1;
			for (k = 0; k < st->npk; k++) {
				const struct packet *p = &st->pk[k];
				if (p->off != out || p->psz != p->cend - p->off)
					linear = 0;
				out += p->cend - p->off;
			}
			if (linear && out == st->size)
				continue;
			if (st->npk) {
				lo = st->pk[0].seq;
				hi = st->pk[st->npk - 1].seq;
			}
			if (rewrite_stream(dx, dfd, st, 1, 0) == 0) {
				fprintf(stderr,
					"%s: %s: flight ring rewritten oldest first: %zu packet%s",
					prog, st->path, st->npk, st->npk == 1 ? "" : "s");
				if (st->npk)
					fprintf(stderr, " (seq %llu..%llu)", (unsigned long long)lo,
						(unsigned long long)hi);
				fprintf(stderr, " shrunk to their content");
				if (st->nunused)
					fprintf(stderr, ", %u unused slot%s dropped", st->nunused,
						st->nunused == 1 ? "" : "s");
				if (st->nover)
					fprintf(stderr, ", %u packet%s being overwritten dropped",
						st->nover, st->nover == 1 ? "" : "s");
				if (st->nbadslot)
					fprintf(stderr, ", %u damaged slot%s dropped", st->nbadslot,
						st->nbadslot == 1 ? "" : "s");
				report_end(st, ntr, out);
				(*changed)++;
			} else {
				rc = -1;
			}
		}
	}
	free_trace(tr);
	return rc;
}

/* Reads every event of the trace: 0 if nothing is damaged, 1 if only
 * packets are missing, -1 if anything else is wrong. */
static int verify_trace(struct dump *dx, int dfd, const char *dir)
{
	struct trace *tr;
	int before = dx->status, bad;
	unsigned long errs = dx->nerrs, missing = dx->nmissing;
	size_t i;
	dx->status = 0;
	dx->strict = 1;
	tr = load_trace(dx, dfd, dir);
	dx->strict = 0;
	bad = !tr;
	if (tr) {
		for (i = 0; i < tr->nst; i++) {
			struct cursor c;
			cur_init(&c, &tr->st[i], i);
			while (cur_next(&c))
				;
			cur_free(&c);
			if (tr->st[i].stop < tr->st[i].size && !(tr->flight && !tr->flight_files))
				bad = 1; /* babeltrace2 would stop there */
		}
	}
	free_trace(tr);
	missing = dx->nmissing - missing;
	bad |= dx->nerrs - errs > missing;
	dx->status = before;
	return bad ? -1 : missing ? 1 : 0;
}

struct repair_ctx {
	int status;
	size_t found;
};

/* --repair on the trace dfd (path), then on the traces nested in it
 * (snapshots; children in the older layout). */
static void repair_walk(struct dump *dx, int dfd, const char *path, int depth, void *ctx)
{
	struct repair_ctx *rc = (struct repair_ctx *)ctx;
	const char *prev = seen_before(dx, dfd, path);
	char **subs;
	size_t n, k;
	int changed = 0, v;
	rc->found++;
	if (prev) {
		fprintf(stderr, "%s: %s: warning: the same directory as %s: repaired once\n", prog,
			path, prev);
		return;
	}
	if (repair_trace(dx, dfd, path, &changed) != 0)
		rc->status = 1;
	print_notes(dx);
	v = verify_trace(dx, dfd, path);
	if (v < 0) {
		fprintf(stderr, "%s: %s: still damaged after repair:\n", prog, path);
		rc->status = 1;
	} else if (v > 0) {
		/* babeltrace2 reads it: it says which packets it lacks */
		fprintf(stderr, "%s: %s: %s; the trace is readable, but packets are missing:\n",
			prog, path, changed ? "repaired" : "nothing to repair");
		rc->status = 1;
	} else if (!changed) {
		fprintf(stderr, "%s: %s: nothing to repair; the trace is readable\n", prog, path);
	} else {
		fprintf(stderr, "%s: %s: repaired; the trace is readable\n", prog, path);
	}
	print_notes(dx);
	subs = sub_traces(dfd, 1, &n);
	for (k = 0; k < n; k++) {
		char *sub = path_join(path, subs[k]);
		int fd;
		if (depth + 1 >= MAX_DEPTH)
			fprintf(stderr,
				"%s: %s: warning: more than %d directories deep: not repaired\n",
				prog, sub, MAX_DEPTH);
		else if ((fd = open_dir_at(dfd, subs[k])) >= 0) {
			repair_walk(dx, fd, sub, depth + 1, ctx);
			close(fd);
		}
		free(sub);
		free(subs[k]);
	}
	free(subs);
}

int do_repair(struct dump *dx, char **dirs, int ndirs)
{
	int i, status = 0;
	for (i = 0; i < ndirs; i++) {
		struct repair_ctx rc;
		int fd = open_arg_dir(dirs[i]);
		memset(&rc, 0, sizeof(rc));
		if (fd < 0) {
			fprintf(stderr, "%s: %s: %s\n", prog, dirs[i],
				errno == ENOTDIR ? "not a directory" : strerror(errno));
			status = 1;
			continue;
		}
		seen_reset(dx);
		if (has_metadata_at(fd)) {
			repair_walk(dx, fd, dirs[i], 0, &rc);
		} else if (has_streams(fd)) {
			fprintf(stderr,
				"%s: %s: stream files but no metadata file: cannot repair\n", prog,
				dirs[i]);
			status = 1;
			rc.found = 1;
		} else {
			(void)seen_before(dx, fd, dirs[i]);
			find_traces(dx, fd, dirs[i], 0, repair_walk, &rc);
			print_notes(dx);
		}
		close(fd);
		if (!rc.found) {
			fprintf(stderr,
				"%s: %s: not a trace directory (no metadata, no trace below it)\n",
				prog, dirs[i]);
			status = 1;
		}
		status |= rc.status;
	}
	return status;
}
