/* SPDX-License-Identifier: MIT */
/*
 * trace/recorder/metadata.h - the trace's CTF 1.8 metadata (TSDL): its
 * header (trace, clock, packet and event headers) and one block per
 * enabled event, with its fields, enumerations and flags, written before
 * the event is attached.
 *
 * Internal: included by trace/sink.h (TRACEPOINT_SINK_MAIN); depends on
 * recorder/state.h (the clock's frequency and anchor are in tp__sink) and
 * trace/trace_events.h (the event and field descriptions).  docs/trace-format.md is what it writes.
 */
#ifndef TP__SINK_DEFINED
#error "trace/recorder/metadata.h is internal: #include <trace/sink.h> instead"
#elif !defined(TP__REC_METADATA_H)
#define TP__REC_METADATA_H

/* ---- Metadata (CTF 1.8 TSDL). ---- */

static void tp__sink_uuid_str(const uint8_t *u, char *out)
{
	static const char hex[] = "0123456789abcdef";
	int i, k = 0;
	for (i = 0; i < 16; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			out[k++] = '-';
		out[k++] = hex[u[i] >> 4];
		out[k++] = hex[u[i] & 15];
	}
	out[k] = '\0';
}

static void tp__sink_new_uuid(uint8_t *u)
{
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	uint64_t x = tp__ev_clock(tp__sink.base.clock) ^ ((uint64_t)getpid() << 32), y;
	if (fd < 0 || read(fd, u, 16) != 16) {
		y = tp__sink_ns(CLOCK_REALTIME) * 0x9e3779b97f4a7c15ull;
		memcpy(u, &x, 8);
		memcpy(u + 8, &y, 8);
	}
	if (fd >= 0)
		close(fd);
	u[6] = (uint8_t)((u[6] & 0x0f) | 0x40); /* version 4 */
	u[8] = (uint8_t)((u[8] & 0x3f) | 0x80);
}

/* Copies s into a TSDL string literal's body (quotes and backslashes escaped). */
static void tp__sink_tsdl_str(char *out, size_t len, const char *s)
{
	size_t k = 0;
	for (; *s && k + 3 < len; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			out[k++] = '\\';
		out[k++] = c < 0x20 ? '?' : (char)c;
	}
	out[k] = '\0';
}

/* Renders the metadata's fixed part for a trace with this uuid into buf
 * (no allocation: used in a forked child and by snapshots); its length. */
static size_t tp__sink_meta_header(char *buf, size_t len, const uint8_t *uuid, const char *mode)
{
	char u[40], host[256] = "", proc[64], hostq[512], cu[60] = "", ver[80] = "", ctx[120] = "";
	const char *clk = tp__sink.base.clock == TRACE_CLOCK_COUNTER ? "tsc" : "monotonic";
	uint64_t ns_at_c0 = (uint64_t)((tp__sink_u128)tp__sink.c0 * 1000000000u / tp__sink.freq);
	uint64_t t0 = tp__sink.r0 - ns_at_c0; /* realtime ns at tick 0 */
	uint64_t off_s = t0 / 1000000000u;
	uint64_t off = (uint64_t)((tp__sink_u128)(t0 % 1000000000u) * tp__sink.freq / 1000000000u);
	int n;
	tp__sink_uuid_str(uuid, u);
	if (tp__sink.clock_uuid[0])
		snprintf(cu, sizeof(cu), "\tuuid = \"%s\";\n", tp__sink.clock_uuid);
	if (!strcmp(mode, "flight")) { /* each ring: this many files, each in time order */
		unsigned per;
		snprintf(ver, sizeof(ver), "\tflight_files = %u;\n",
			 tp__sink_flight_shape(tp__sink.flight_bytes, tp__sink.window, &per));
	}
	if (tp__sink.cpu) { /* <trace/wire.h>: record version 2, the CPU */
		snprintf(ver + strlen(ver), sizeof(ver) - strlen(ver), "\trecord_version = %d;\n",
			 (int)TRACE_RECORD_VERSION);
		snprintf(ctx, sizeof(ctx),
			 "\tevent.context := struct {\n\t\tinteger { size = %d; align = 8; "
			 "signed = false; } cpu_id;\n\t};\n",
			 8 * (int)TRACE_EVENT_CONTEXT_SIZE);
	}
	gethostname(host, sizeof(host) - 1);
	tp__sink_tsdl_str(hostq, sizeof(hostq), host);
	tp__sink_tsdl_str(proc, sizeof(proc), tp__sink.procname);
	n = snprintf(
		buf, len,
		"/* CTF 1.8 */\n"
		"/* Written by tracepoint.h's recorder; see docs/trace-format.md. */\n\n"
		"typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
		"typealias integer { size = 32; align = 32; signed = false; } := uint32_t;\n"
		"typealias integer { size = 64; align = 64; signed = false; } := uint64_t;\n\n"
		"trace {\n\tmajor = 1;\n\tminor = 8;\n\tuuid = \"%s\";\n\tbyte_order = %s;\n"
		"\tpacket.header := struct {\n\t\tuint32_t magic;\n\t\tuint8_t "
		"uuid[16];\n%s\t};\n};\n\n"
		"env {\n\ttracer_name = \"tracepoint.h\";\n\thostname = \"%s\";\n"
		"\tprocname = \"%s\";\n\tvpid = %d;\n\tmode = \"%s\";\n"
		"\tclock_realtime_ns = %llu;\n\tclock_monotonic_ns = %llu;\n\tclock_boottime_ns = "
		"%llu;\n%s};\n\n"
		"clock {\n\tname = \"%s\";\n%s\tfreq = %llu;\n\toffset_s = %llu;\n\toffset = "
		"%llu;\n"
		"\tabsolute = TRUE;\n};\n\n"
		"typealias integer { size = 64; align = 64; signed = false; map = clock.%s.value; "
		"} "
		":= uint64_clock_t;\n\n"
		"stream {\n"
		"\tpacket.context := struct {\n"
		"\t\tuint64_clock_t timestamp_begin;\n\t\tuint64_clock_t timestamp_end;\n"
		"\t\tuint64_t content_size;\n\t\tuint64_t packet_size;\n"
		"\t\tuint64_t packet_seq_num;\n\t\tuint64_t events_discarded;\n"
		"\t\tuint32_t tid;\n\t\tuint32_t pid;\n"
		"\t\tinteger { size = 8; align = 8; signed = false; encoding = UTF8; } comm[16];\n"
		"\t};\n"
		"\tevent.header := struct {\n"
		"\t\tenum : integer { size = 6; align = 8; signed = false; } "
		"{ compact = 0 ... 62, extended = 63 } id;\n"
		"\t\tvariant <id> {\n"
		"\t\t\tstruct {\n\t\t\t\tinteger { size = 26; align = 1; signed = false; "
		"map = clock.%s.value; } timestamp;\n\t\t\t} compact;\n"
		"\t\t\tstruct {\n\t\t\t\tinteger { size = 32; align = 8; signed = false; } id;\n"
		"\t\t\t\tinteger { size = 64; align = 8; signed = false; map = clock.%s.value; } "
		"timestamp;\n\t\t\t} extended;\n"
		"\t\t} v;\n"
		"\t} align(8);\n%s};\n\n",
		u,
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		"be",
#else
		"le",
#endif
		/* stream mode: a thread's stream file and warm ring are one
		 * stream (recorder/stream.h, "The warm ring") */
		strcmp(mode, "flight") ? "\t\tuint32_t stream_instance_id;\n" : "", hostq, proc,
		(int)getpid(), mode, (unsigned long long)tp__sink.r0,
		(unsigned long long)tp__sink.m0, (unsigned long long)tp__sink.b0, ver, clk, cu,
		(unsigned long long)tp__sink.freq, (unsigned long long)off_s,
		(unsigned long long)off, clk, clk, clk, ctx);
	return n < 0 ? 0 : (size_t)n < len ? (size_t)n : len - 1;
}

/* Appends text to the event blocks (lock held). */
static int tp__sink_events_append(const char *s, size_t n)
{
	if (tp__sink.events_len + n + 1 > tp__sink.events_cap) {
		size_t cap = tp__sink.events_cap ? tp__sink.events_cap : 4096;
		char *e;
		while (cap < tp__sink.events_len + n + 1)
			cap *= 2;
		e = (char *)realloc(tp__sink.events, cap);
		if (!e)
			return -ENOMEM;
		tp__sink.events = e;
		tp__sink.events_cap = cap;
	}
	memcpy(tp__sink.events + tp__sink.events_len, s, n);
	tp__sink.events_len += n;
	tp__sink.events[tp__sink.events_len] = '\0';
	return 0;
}

/* One field's TSDL declaration. */
static int tp__sink_field_tsdl(char *out, size_t len, const struct trace_event_field *f)
{
	unsigned n = f->array_len ? f->array_len : 1, es = f->size / (n ? n : 1);
	char dim[24] = "";
	int nl = tp__ev_name_len(f->name);
	if (f->array_len)
		snprintf(dim, sizeof(dim), "[%u]", f->array_len);
	if (f->kind == TRACE_FIELD_STRING)
		return snprintf(out, len, "\t\tstring _%.*s;\n", nl, f->name);
	if (f->kind == TRACE_FIELD_FLOAT && (es == 4 || es == 8))
		return snprintf(
			out, len,
			"\t\tfloating_point { exp_dig = %u; mant_dig = %u; align = 8; } _%.*s%s;\n",
			es == 4 ? 8u : 11u, es == 4 ? 24u : 53u, nl, f->name, dim);
	if ((f->kind == TRACE_FIELD_INT || f->kind == TRACE_FIELD_PTR) &&
	    (es == 1 || es == 2 || es == 4 || es == 8)) {
		int is_char = f->kind == TRACE_FIELD_INT && es == 1 && f->array_len &&
			      (strcmp(f->type, "char") == 0 || strcmp(f->type, "const char") == 0);
		return snprintf(out, len,
				"\t\tinteger { size = %u; align = 8; signed = %s;%s base = %d; } "
				"_%.*s%s;\n",
				es * 8, f->is_signed ? "true" : "false",
				is_char ? " encoding = UTF8;" : "",
				f->kind == TRACE_FIELD_PTR ? 16 : 10, nl, f->name, dim);
	}
	/* Anything else: its bytes. */
	return snprintf(
		out, len,
		"\t\tinteger { size = 8; align = 8; signed = false; base = 16; } _%.*s[%u];\n", nl,
		f->name, (unsigned)f->size);
}

/* A __dynamic_array's two TSDL declarations: its element count, in the
 * fixed part (pass 0), or its elements, after it (pass 1). */
static int tp__sink_dyn_tsdl(char *out, size_t len, const struct trace_event_field *f, int pass)
{
	struct trace_event_field e = *f;
	int k;
	if (pass == 0)
		return snprintf(out, len,
				"\t\tinteger { size = 32; align = 8; signed = false; base = 10; } "
				"__len_%s;\n",
				f->name);
	e.kind = (unsigned char)f->array_len;
	e.array_len = 0;
	k = tp__sink_field_tsdl(out, len, &e);
	if (k < 3 || (size_t)k >= len)
		return -1;
	return k - 2 + snprintf(out + k - 2, len - (size_t)(k - 2), "[__len_%s];\n", f->name);
}

/* The __print_symbolic/__print_flags tables of a class, by field: the
 * tables whose value is a plain __entry->field make that (integer) field
 * a CTF enumeration, so that readers show the names; a field with both
 * kinds gets its __print_symbolic table. */
struct tp__sink_syms {
	const struct trace_event_field *f;
	unsigned n;
	const struct trace_print_flags *tab[64];
	const char *delim[64];
};

static void tp__sink_syms_cb(void *priv, const char *expr, const struct trace_print_flags *t,
			     const char *delim)
{
	struct tp__sink_syms *sy = (struct tp__sink_syms *)priv;
	size_t n = 0;
	const char *id = tp__ev_sym_field(expr, &n);
	unsigned i;
	if (!id)
		return; /* an expression: printed by the formatter only */
	for (i = 0; i < sy->n && i < 64; i++)
		if (sy->f[i].kind == TRACE_FIELD_INT && !sy->f[i].array_len &&
		    strlen(sy->f[i].name) == n && strncmp(sy->f[i].name, id, n) == 0 &&
		    (!sy->tab[i] || (sy->delim[i] && !delim))) {
			/* a field with both: the __print_symbolic table, whose
			 * labels name values (the readers print both from the
			 * TP_printk text) */
			sy->tab[i] = t;
			sy->delim[i] = delim;
		}
}

/* A field with a table, as a TSDL enumeration (its integer's declaration
 * from tp__sink_field_tsdl, then the labels). */
static int tp__sink_enum_tsdl(char *out, size_t len, const struct trace_event_field *f,
			      const struct trace_print_flags *t)
{
	char tmp[256], q[256];
	const char *body;
	size_t used;
	int k = tp__sink_field_tsdl(tmp, sizeof(tmp), f);
	long long lo = !f->is_signed  ? 0
		       : f->size >= 8 ? INT64_MIN
				      : -((long long)1 << (f->size * 8 - 1));
	unsigned long long hi =
		f->size >= 8
			? (f->is_signed ? (unsigned long long)INT64_MAX : UINT64_MAX)
			: ((unsigned long long)1 << (f->size * 8 - (f->is_signed ? 1 : 0))) - 1;
	const struct trace_print_flags *e;
	for (e = t; e->name; e++) /* CTF readers refuse an enumeration without labels */
		if (f->is_signed
			    ? !(e->mask < lo || (e->mask > 0 && (unsigned long long)e->mask > hi))
			    : !(e->mask < 0 || (unsigned long long)e->mask > hi))
			break;
	if (!e->name || k <= 0 || (size_t)k >= sizeof(tmp) || strncmp(tmp, "\t\tinteger", 9) != 0)
		return tp__sink_field_tsdl(out, len, f);
	body = strchr(tmp, '}'); /* "integer { ... }" ends there */
	if (!body)
		return tp__sink_field_tsdl(out, len, f);
	k = snprintf(out, len, "\t\tenum : %.*s {", (int)(body + 1 - (tmp + 2)), tmp + 2);
	if (k < 0 || (size_t)k >= len)
		return -1;
	used = (size_t)k;
	for (; t->name; t++) {
		int first = used == (size_t)k;
		if (f->is_signed ? t->mask < lo || (t->mask > 0 && (unsigned long long)t->mask > hi)
				 : t->mask < 0 || (unsigned long long)t->mask > hi)
			continue; /* does not fit the field: left to the formatter */
		tp__sink_tsdl_str(q, sizeof(q), t->name);
		k = snprintf(out + used, len - used, "%s \"%s\" = %lld", first ? "" : ",", q,
			     t->mask);
		if (k < 0 || (size_t)k >= len - used)
			return -1;
		used += (size_t)k;
	}
	k = snprintf(out + used, len - used, " } _%s;\n", f->name);
	if (k < 0 || (size_t)k >= len - used)
		return -1;
	return (int)(used + (size_t)k);
}

/* The event block of an event with this id, appended to the event blocks
 * and to the metadata file (lock held). */
enum { TP__SINK_BLOCK = 65536, TP__SINK_BLOCK_FIELDS = 8192 };

static int tp__sink_describe_in(char *buf, const struct trace_event *ev, uint32_t id);

static int tp__sink_describe(const struct trace_event *ev, uint32_t id)
{
	char *buf = (char *)malloc(TP__SINK_BLOCK);
	int e;
	if (!buf)
		return -ENOMEM;
	e = tp__sink_describe_in(buf, ev, id);
	free(buf);
	return e;
}

/* Moves *p past the k bytes an snprintf into *left bytes at *p wrote:
 * 0, or -ENAMETOOLONG (nothing moved) if they did not fit. */
static int tp__sink_took(char **p, size_t *left, int k)
{
	if (k < 0 || (size_t)k >= *left)
		return -ENAMETOOLONG;
	*p += k;
	*left -= (size_t)k;
	return 0;
}

/* The event block, in buf (TP__SINK_BLOCK bytes): the printk comment may
 * take all but TP__SINK_BLOCK_FIELDS of it (a longer one is cut: readers
 * then print name=value pairs), the fields the rest. */
static int tp__sink_describe_in(char *buf, const struct trace_event *ev, uint32_t id)
{
	char *p = buf;
	size_t left = TP__SINK_BLOCK;
	unsigned n = 0, i, pass;
	struct tp__sink_syms sy;
	const struct trace_event_field *f = ev->cls->fields(&n);
	/* the format as the readers get it: TRACE_DEFINE_ENUM names as values */
	const struct trace_event_class *cls = ev->cls;
	size_t flen =
		tp__ev_eval_subst(cls->evals, cls->evals_end, cls->system, cls->print_fmt, NULL, 0);
	char *fbuf = (char *)malloc(flen + 1);
	const char *fmt = fbuf;
	int k;
	if (!fbuf)
		return -ENOMEM;
	tp__ev_eval_subst(cls->evals, cls->evals_end, cls->system, cls->print_fmt, fbuf, flen + 1);
	k = snprintf(p, left,
		     "event {\n\tname = \"%s:%s\";\n\tid = %u;\n\t/* printk: ", ev->cls->system,
		     ev->name, (unsigned)id);
	if (k < 0 || (size_t)k >= left / 2) {
		free(fbuf);
		return -ENAMETOOLONG;
	}
	p += k;
	left -= (size_t)k;
	for (; *fmt && left > TP__SINK_BLOCK_FIELDS;
	     fmt++) { /* the format, with "*" "/" kept apart */
		*p++ = *fmt == '\n' ? ' ' : *fmt;
		left--;
		if (fmt[0] == '*' && fmt[1] == '/') {
			*p++ = '\\';
			left--;
		}
	}
	free(fbuf);
	if (ev->kind != TRACE_KIND_INSTANT) { /* <trace/event_kinds.h>: for readers */
		static const char *const base[] = { "instant", "slice_begin", "slice_end",
						    "counter" };
		unsigned b = ev->kind & TRACE_KIND_BASE_MASK;
		k = snprintf(p, left, " */\n\t/* kind: %s%s%s", b < 4 ? base[b] : "instant",
			     ev->kind & TRACE_KIND_FLOW ? " flow" : "",
			     (ev->kind & TRACE_KIND_FLOW) && (ev->kind & TRACE_KIND_FLOW_GLOBAL)
				     ? " global"
				     : "");
		if (tp__sink_took(&p, &left, k) != 0)
			return -ENAMETOOLONG;
	}
	k = snprintf(p, left, " */\n\tfields := struct {\n");
	if (tp__sink_took(&p, &left, k) != 0)
		return -ENAMETOOLONG;
	memset(&sy, 0, sizeof(sy));
	sy.f = f;
	sy.n = n;
	if (ev->cls->symbols)
		ev->cls->symbols(tp__sink_syms_cb, &sy);
	for (pass = 0; pass < 2; pass++) { /* fixed fields first, then strings and arrays */
		for (i = 0; i < n; i++) {  /* one that does not fit: ENAMETOOLONG below */
			if (f[i].kind == TRACE_FIELD_DYNAMIC)
				k = tp__sink_dyn_tsdl(p, left, &f[i], (int)pass);
			else if ((f[i].kind == TRACE_FIELD_STRING) != (pass == 1))
				continue;
			else if (i < 64 && sy.tab[i] &&
				 (k = tp__sink_enum_tsdl(p, left, &f[i], sy.tab[i])) >= 0 &&
				 (size_t)k + 2048 < left) {
				/* an enumeration; a table too big for the block: the plain integer */
			} else {
				k = tp__sink_field_tsdl(p, left, &f[i]);
			}
			if (tp__sink_took(&p, &left, k) != 0)
				return -ENAMETOOLONG;
		}
	}
	k = snprintf(p, left, "\t};\n};\n\n");
	if (tp__sink_took(&p, &left, k) != 0)
		return -ENAMETOOLONG;
	if (tp__sink_events_append(buf, (size_t)(p - buf)) != 0)
		return -ENOMEM;
	if (tp__sink.metafd >= 0 &&
	    write(tp__sink.metafd, buf, (size_t)(p - buf)) != (ssize_t)(p - buf)) {
		int e = errno;
		tp__sink_err_once(TP__SINK_ERR_META, "cannot write %s/metadata: %s", tp__sink.dir,
				  strerror(e));
		return -e;
	}
	return 0;
}

/* The "objects" comment: the process's executable file mappings, one
 * line each ("\tSTART END OFFSET PATH", hex, from /proc/self/maps), so
 * that tracepoint-dump can name the addresses %ps/%pS print from the
 * files' symbol tables (docs/trace-format.md).  Its length in out (len
 * bytes; what does not fit is left out); 0 if there is nothing. */
static size_t tp__sink_objects(char *out, size_t len)
{
	char maps[8192], *line, *nl;
	size_t have = 0, n = 0;
	int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	ssize_t r;
	int k = snprintf(out, len, "/* objects:\n");
	if (fd < 0 || k < 0 || (size_t)k >= len)
		goto none;
	n = (size_t)k;
	for (;;) { /* a window of the file at a time, whole lines */
		r = read(fd, maps + have, sizeof(maps) - 1 - have);
		if (r <= 0)
			break;
		have += (size_t)r;
		maps[have] = '\0';
		for (line = maps; (nl = strchr(line, '\n')) != NULL; line = nl + 1) {
			unsigned long long lo, hi, off;
			char perm[8];
			int at = 0;
			*nl = '\0';
			if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &lo, &hi, perm, &off,
				   &at) < 4 ||
			    !at || strlen(perm) < 3 || perm[2] != 'x' || line[at] != '/' ||
			    strstr(line + at, "*/"))
				continue;
			k = snprintf(out + n, len - n, "\t%llx %llx %llx %s\n", lo, hi, off,
				     line + at);
			if (k > 0 && (size_t)k + 4 < len - n)
				n += (size_t)k;
		}
		have = (size_t)(maps + have - line);
		memmove(maps, line, have);
		if (have == sizeof(maps) - 1)
			have = 0; /* a line longer than the window: dropped */
	}
	close(fd);
	k = snprintf(out + n, len - n, "*/\n");
	if (k > 0 && (size_t)k < len - n)
		return n + (size_t)k;
none:
	if (fd >= 0)
		close(fd);
	return 0;
}

/* Writes a whole metadata file (header + event blocks) into dirfd as
 * `name`, through a dot-file renamed into place.  No allocation. */
static int tp__sink_write_metadata(int dirfd, const char *name, const uint8_t *uuid)
{
	char head[8192], objs[8192];
	size_t n = tp__sink_meta_header(head, sizeof(head), uuid,
					tp__sink.mode == TP__SINK_FLIGHT ? "flight" : "stream");
	size_t on = tp__sink_objects(objs, sizeof(objs));
	int fd = openat(dirfd, ".metadata.tmp",
			O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
	int ok;
	if (fd < 0)
		return -errno;
	ok = write(fd, head, n) == (ssize_t)n && (!on || write(fd, objs, on) == (ssize_t)on) &&
	     (tp__sink.events_len == 0 ||
	      write(fd, tp__sink.events, tp__sink.events_len) == (ssize_t)tp__sink.events_len);
	if (!ok || close(fd) != 0) {
		int e = errno ? errno : EIO;
		unlinkat(dirfd, ".metadata.tmp", 0);
		return -e;
	}
	if (renameat(dirfd, ".metadata.tmp", dirfd, name) != 0)
		return -errno;
	return 0;
}

#endif /* TP__REC_METADATA_H */
