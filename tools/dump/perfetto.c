/* SPDX-License-Identifier: MIT */
/*
 * tools/dump/perfetto.c - tracepoint-dump's the Perfetto protobuf output
 * (--perfetto): a track per thread, slices, counters and flows; strings
 * interned.
 *
 * Part of tracepoint-dump (dump.h has the map of its parts).
 */
#include "dump.h"
/* The protocol buffers encoder (static functions, this part only). */
#include "protobuf.h"

/* ------------------------------------------------------------------ */
/* Perfetto protobuf output (--perfetto)                              */
/* ------------------------------------------------------------------ */

/*
 * A Perfetto trace (protos/perfetto/trace/trace.proto) as one packet
 * sequence: a Trace is its TracePackets, each a length-delimited field 1.
 * Every thread gets a thread track, every process a process track, every
 * numeric field of a counter event a counter track below its process;
 * event names, systems (categories) and field names (debug annotation
 * names) are interned.  The field numbers are Perfetto's; the part used
 * here is tests/perfetto/perfetto_min.proto.
 */
enum {
	PF_TRACE_PACKET = 1,
	/* TracePacket */
	PF_TIMESTAMP = 8,
	PF_SEQ_ID = 10,
	PF_TRACK_EVENT = 11,
	PF_INTERNED = 12,
	PF_SEQ_FLAGS = 13,
	PF_TRACK_DESCRIPTOR = 60,
	PF_FIRST_ON_SEQ = 87,
	PF_CLOCK_SNAPSHOT = 6,
	PF_DEFAULTS = 59,
	/* ClockSnapshot, ClockSnapshot.Clock, TracePacketDefaults */
	PF_CS_CLOCKS = 1,
	PF_CS_PRIMARY = 2,
	PF_CLK_ID = 1,
	PF_CLK_TS = 2,
	PF_CLK_INCREMENTAL = 3,
	PF_DEF_CLOCK = 58,
	PF_DEF_TRACK_EVENT = 11, /* TracePacketDefaults.track_event_defaults */
	PF_TS_CLOCK = 58,	 /* TracePacket.timestamp_clock_id */
	/* clock ids: Perfetto's builtin clocks (BuiltinClock); 64-127 are
	 * the sequence's own */
	PF_CLOCK_REALTIME = 1,
	PF_CLOCK_MONOTONIC = 3,
	PF_CLOCK_BOOTTIME = 6,
	PF_CLOCK_DELTA = 64,
	/* TracePacket.SequenceFlags */
	PF_SEQ_CLEARED = 1,
	/* TrackDescriptor, ProcessDescriptor, ThreadDescriptor */
	PF_TD_UUID = 1,
	PF_TD_NAME = 2,
	PF_TD_PROCESS = 3,
	PF_TD_THREAD = 4,
	PF_TD_PARENT = 5,
	PF_TD_COUNTER = 8,
	PF_PD_PID = 1,
	PF_PD_NAME = 6,
	PF_THD_PID = 1,
	PF_THD_TID = 2,
	PF_THD_NAME = 5,
	/* TrackEvent */
	PF_TE_CATEGORY_IIDS = 3,
	PF_TE_ANNOTATIONS = 4,
	PF_TE_TYPE = 9,
	PF_TE_NAME_IID = 10,
	PF_TE_TRACK = 11,
	PF_TE_COUNTER = 30,
	PF_TE_DCOUNTER = 44,
	PF_TE_FLOW_IDS = 47,
	/* TrackEvent.Type */
	PF_SLICE_BEGIN = 1,
	PF_SLICE_END = 2,
	PF_INSTANT = 3,
	PF_COUNTER = 4,
	/* DebugAnnotation */
	PF_DA_NAME_IID = 1,
	PF_DA_UINT = 3,
	PF_DA_INT = 4,
	PF_DA_DOUBLE = 5,
	PF_DA_STRING = 6,
	PF_DA_POINTER = 7,
	PF_DA_ARRAY = 12,
	/* InternedData; EventCategory, EventName, DebugAnnotationName: iid 1, name 2 */
	PF_IN_CATEGORIES = 1,
	PF_IN_NAMES = 2,
	PF_IN_KEYS = 3,
	PF_IID = 1,
	PF_INAME = 2
};
/* Tracks: kind << 56 | number (pid, tid, counter number), mapped to small
 * uuids (1, 2, ...: one-byte varints) in order of appearance.  Each thread
 * is a packet sequence of its own (as each thread's writer in Perfetto's
 * SDK): its trusted_packet_sequence_id is its track's uuid, and its
 * events need no track_uuid (the sequence's default). */
enum { PF_UUID_PROCESS = 1, PF_UUID_THREAD = 2, PF_UUID_COUNTER = 3 };

enum { PF_TAB_NAMES, PF_TAB_CATS, PF_TAB_KEYS, PF_NTAB };
struct pf_tab {
	char **s; /* interned strings; iid = index + 1 */
	size_t n, cap;
};

enum { PF_CACHE = 64 }; /* entries of the caches below (a power of 2) */

/* A thread's sequence: the time of its previous packet (its clock counts
 * from there), the strings (table << 32 | iid) it has sent, and a cache of
 * event types whose strings it has all had (most events then skip the
 * interning). */
struct pf_seq {
	uint64_t last_ns;
	struct u64set sent;
	const struct event *has_all[PF_CACHE];
	int has_cpu_key; /* the annotation name "cpu" sent (TRACEPOINTS_CPU=1) */
};

/* The thread tracks last looked up, by tid: pid << 32 | tid and uuid. */
struct pf_tcache {
	uint64_t key, uuid;
};

/* What --perfetto keeps while it writes. */
struct pf_state {
	struct pb pb;
	struct pf_tab tab[PF_NTAB];
	uint64_t *key, *uuid; /* track key -> uuid (open addressing) */
	size_t ntrack, captrack;
	struct pf_seq **seq; /* by uuid (thread tracks only) */
	size_t capseq;
	uint64_t counters; /* counter tracks made */
	uint64_t events;   /* TrackEvents written */
	uint64_t *need;	   /* the strings the packet being written uses */
	size_t nneed, capneed;
	int primary_sent; /* the trace's clock said (first snapshot) */
	struct pf_tcache tcache[PF_CACHE];
	uint64_t cpu_key; /* the interned name "cpu" (0: not yet) */
};

/* Perfetto's id of each CLK_* (the trace's times are on dump.clock). */
static const unsigned pf_clock_id[3] = { PF_CLOCK_REALTIME, PF_CLOCK_MONOTONIC, PF_CLOCK_BOOTTIME };

/* The state of a --perfetto run, made before its first event. */
void pf_start(struct dump *dx)
{
	dx->pf = (struct pf_state *)xcalloc(1, sizeof(*dx->pf));
}

static size_t pf_slot(uint64_t key, size_t cap)
{
	return (size_t)(key * 0x9E3779B97F4A7C15u >> 20) & (cap - 1);
}

/* The uuid of a track; *is_new: 1 the first time (describe it then). */
static uint64_t pf_uuid(struct dump *dx, unsigned kind, uint64_t n, int *is_new)
{
	uint64_t key = (uint64_t)kind << 56 | (n & (((uint64_t)1 << 56) - 1));
	size_t i, m;
	if (2 * (dx->pf->ntrack + 1) > dx->pf->captrack) {
		uint64_t *k = dx->pf->key, *u = dx->pf->uuid;
		size_t cap = dx->pf->captrack;
		dx->pf->captrack = cap ? 2 * cap : 256;
		dx->pf->key = (uint64_t *)xcalloc(dx->pf->captrack, sizeof(uint64_t));
		dx->pf->uuid = (uint64_t *)xcalloc(dx->pf->captrack, sizeof(uint64_t));
		for (i = 0; i < cap; i++) {
			if (!k[i])
				continue;
			for (m = pf_slot(k[i], dx->pf->captrack); dx->pf->key[m];
			     m = (m + 1) & (dx->pf->captrack - 1))
				;
			dx->pf->key[m] = k[i];
			dx->pf->uuid[m] = u[i];
		}
		free(k);
		free(u);
	}
	for (m = pf_slot(key, dx->pf->captrack); dx->pf->key[m];
	     m = (m + 1) & (dx->pf->captrack - 1))
		if (dx->pf->key[m] == key) {
			*is_new = 0;
			return dx->pf->uuid[m];
		}
	dx->pf->key[m] = key;
	dx->pf->uuid[m] = ++dx->pf->ntrack;
	*is_new = 1;
	return dx->pf->ntrack;
}

/* The iid of s in table t (interned on first use; a linear search, once per
 * event type and field, cached by the callers). */
static uint64_t pf_intern(struct dump *dx, unsigned t, const char *s)
{
	struct pf_tab *tb = &dx->pf->tab[t];
	size_t i;
	for (i = 0; i < tb->n; i++)
		if (!strcmp(tb->s[i], s))
			return i + 1;
	GROW(tb->s, tb->n, tb->cap);
	tb->s[tb->n++] = xstrdup(s);
	return tb->n;
}

/* The next packet uses string iid of table t. */
static void pf_need(struct dump *dx, unsigned t, uint64_t iid)
{
	GROW(dx->pf->need, dx->pf->nneed, dx->pf->capneed);
	dx->pf->need[dx->pf->nneed++] = (uint64_t)t << 32 | iid;
}

static void pf_flush(struct dump *dx)
{
	char *o;
	if (!dx->pf->pb.n)
		return; /* (nothing written yet: no buffer either) */
	o = ob_need(dx, dx->pf->pb.n);
	memcpy(o, dx->pf->pb.b, dx->pf->pb.n);
	ob_done(dx, o + dx->pf->pb.n);
	dx->pf->pb.n = 0;
}

static void pf_packet_open(struct dump *dx, uint64_t seq)
{
	pb_open(&dx->pf->pb, PF_TRACE_PACKET);
	pb_uint(&dx->pf->pb, PF_SEQ_ID, seq);
}

static void pf_packet_close(struct dump *dx)
{
	pb_close(&dx->pf->pb);
	if (dx->pf->pb.n >= 1 << 16)
		pf_flush(dx);
}

/* The strings of dx->pf->need that sequence s has not had yet, as the
 * packet's InternedData. */
static void pf_interned(struct dump *dx, struct pf_seq *s)
{
	static const unsigned field[PF_NTAB] = { PF_IN_NAMES, PF_IN_CATEGORIES, PF_IN_KEYS };
	unsigned t;
	size_t i;
	int open = 0;
	for (t = 0; t < PF_NTAB; t++)
		for (i = 0; i < dx->pf->nneed; i++) {
			uint64_t iid = dx->pf->need[i] & 0xffffffffu;
			if (dx->pf->need[i] >> 32 != t || u64set_add(&s->sent, dx->pf->need[i]))
				continue;
			if (!open)
				pb_open(&dx->pf->pb, PF_INTERNED);
			open = 1;
			pb_open(&dx->pf->pb, field[t]);
			pb_uint(&dx->pf->pb, PF_IID, iid);
			pb_str(&dx->pf->pb, PF_INAME, dx->pf->tab[t].s[iid - 1]);
			pb_close(&dx->pf->pb);
		}
	if (open)
		pb_close(&dx->pf->pb);
	dx->pf->nneed = 0;
}

void pf_finish(struct dump *dx)
{
	unsigned t;
	size_t i;
	pf_flush(dx);
	for (t = 0; t < PF_NTAB; t++) {
		for (i = 0; i < dx->pf->tab[t].n; i++)
			free(dx->pf->tab[t].s[i]);
		free(dx->pf->tab[t].s);
	}
	for (i = 0; i < dx->pf->capseq; i++)
		if (dx->pf->seq[i]) {
			free(dx->pf->seq[i]->sent.v);
			free(dx->pf->seq[i]);
		}
	free(dx->pf->seq);
	free(dx->pf->need);
	free(dx->pf->key);
	free(dx->pf->uuid);
	free(dx->pf->pb.b);
	free(dx->pf);
	dx->pf = NULL;
}

/* A thread's sequence starts with cleared incremental state, its track as
 * the default of its events, and a clock of its own whose timestamps are
 * deltas to the previous packet's, counted from ns (the first event) on
 * the clock of the times (dump.clock: BOOTTIME unless --clock or an old
 * trace says otherwise): a timestamp takes one to three bytes, not nine.
 * Its snapshot also gives the other builtin clocks at that instant where
 * the trace has their readings, and the first one names the trace's clock
 * (primary_trace_clock), so that a reader lines these times up with a
 * Perfetto system trace or perf data of the same run. */
static void pf_seq_start(struct dump *dx, const struct trace *tr, uint64_t tu, uint64_t ns)
{
	struct pb *p = &dx->pf->pb;
	unsigned k;
	if (tu >= dx->pf->capseq) {
		size_t cap = dx->pf->capseq;
		dx->pf->capseq = 2 * tu + 16;
		dx->pf->seq = (struct pf_seq **)xrealloc(dx->pf->seq,
							 dx->pf->capseq * sizeof(*dx->pf->seq));
		memset(dx->pf->seq + cap, 0, (dx->pf->capseq - cap) * sizeof(*dx->pf->seq));
	}
	dx->pf->seq[tu] = (struct pf_seq *)xcalloc(1, sizeof(struct pf_seq));
	dx->pf->seq[tu]->last_ns = ns;
	pf_packet_open(dx, tu);
	pb_uint(p, PF_SEQ_FLAGS, PF_SEQ_CLEARED);
	pb_uint(p, PF_FIRST_ON_SEQ, 1);
	pb_open(p, PF_CLOCK_SNAPSHOT);
	for (k = 0; k < 3; k++) {
		int64_t d = (int64_t)(tr->clk_at[k] - tr->clk_at[dx->clock]);
		if (k != (unsigned)dx->clock && ((tr->has_clk_at & (1u << k | 1u << dx->clock)) !=
							 (1u << k | 1u << dx->clock) ||
						 (d < 0 && (uint64_t)-d > ns)))
			continue;
		pb_open(p, PF_CS_CLOCKS);
		pb_uint(p, PF_CLK_ID, pf_clock_id[k]);
		pb_uint(p, PF_CLK_TS, k == (unsigned)dx->clock ? ns : ns + (uint64_t)d);
		pb_close(p);
	}
	pb_open(p, PF_CS_CLOCKS);
	pb_uint(p, PF_CLK_ID, PF_CLOCK_DELTA);
	pb_uint(p, PF_CLK_TS, ns);
	pb_uint(p, PF_CLK_INCREMENTAL, 1);
	pb_close(p);
	if (!dx->pf->primary_sent) {
		pb_uint(p, PF_CS_PRIMARY, pf_clock_id[dx->clock]);
		dx->pf->primary_sent = 1;
	}
	pb_close(p);
	pb_open(p, PF_DEFAULTS);
	pb_uint(p, PF_DEF_CLOCK, PF_CLOCK_DELTA);
	pb_open(p, PF_DEF_TRACK_EVENT);
	pb_uint(p, PF_TE_TRACK, tu);
	pb_close(p);
	pb_close(p);
	pf_packet_close(dx);
}

/* The process and thread tracks of c's thread, described once: the uuid of
 * the thread's track (and sequence). */
static uint64_t pf_thread_track(struct dump *dx, const struct cursor *c)
{
	int newp, newt;
	struct pf_tcache *tc = &dx->pf->tcache[c->tid & (PF_CACHE - 1)];
	uint64_t pu, tu, key = (uint64_t)c->pid << 32 | c->tid;
	if (tc->uuid && tc->key == key)
		return tc->uuid;
	pu = pf_uuid(dx, PF_UUID_PROCESS, c->pid, &newp);
	tu = pf_uuid(dx, PF_UUID_THREAD, c->tid, &newt);
	tc->key = key;
	tc->uuid = tu;
	if (newt)
		pf_seq_start(dx, c->tr, tu, c->ns);
	if (newp) {
		pf_packet_open(dx, tu);
		pb_open(&dx->pf->pb, PF_TRACK_DESCRIPTOR);
		pb_uint(&dx->pf->pb, PF_TD_UUID, pu);
		pb_open(&dx->pf->pb, PF_TD_PROCESS);
		pb_uint(&dx->pf->pb, PF_PD_PID, c->pid);
		if (c->tr->procname)
			pb_str(&dx->pf->pb, PF_PD_NAME, c->tr->procname);
		pb_close(&dx->pf->pb);
		pb_close(&dx->pf->pb);
		pf_packet_close(dx);
	}
	if (newt) {
		const struct packet *k = &c->st->pk[c->pk ? c->pk - 1 : 0];
		pf_packet_open(dx, tu);
		pb_open(&dx->pf->pb, PF_TRACK_DESCRIPTOR);
		pb_uint(&dx->pf->pb, PF_TD_UUID, tu);
		pb_uint(&dx->pf->pb, PF_TD_PARENT, pu);
		pb_open(&dx->pf->pb, PF_TD_THREAD);
		pb_uint(&dx->pf->pb, PF_THD_PID, c->pid);
		pb_uint(&dx->pf->pb, PF_THD_TID, c->tid);
		if (c->st->npk)
			pb_str(&dx->pf->pb, PF_THD_NAME, k->comm);
		pb_close(&dx->pf->pb);
		pb_close(&dx->pf->pb);
		pf_packet_close(dx);
	}
	return tu;
}

/* A counter event's numbers: integer and float scalars (not pointers). */
static int pf_is_number(const struct field *f)
{
	return (f->t.kind == FT_INT || f->t.kind == FT_FLOAT) && !f->count && !f->t.bad &&
	       f->t.base != 16;
}

/* Counter field fi of a counter event: its track below the process,
 * described once, named after the event (event.field when the event has
 * several numbers). */
static uint64_t pf_counter_track(struct dump *dx, const struct cursor *c, uint64_t seq, unsigned fi)
{
	struct event *ev = (struct event *)c->ev;
	unsigned i, nnum = 0;
	char *name;
	int is_new;
	if (!ev->pf_ctr)
		ev->pf_ctr = (uint64_t *)xcalloc(ev->nf + 1, sizeof(uint64_t));
	if (ev->pf_ctr[fi])
		return ev->pf_ctr[fi];
	for (i = 0; i < ev->nf; i++)
		nnum += (unsigned)pf_is_number(&ev->f[i]);
	ev->pf_ctr[fi] = pf_uuid(dx, PF_UUID_COUNTER, ++dx->pf->counters, &is_new);
	name = nnum > 1 ? xasprintf("%s.%s", ev->ename, ev->f[fi].name) : xstrdup(ev->ename);
	pf_packet_open(dx, seq);
	pb_open(&dx->pf->pb, PF_TRACK_DESCRIPTOR);
	pb_uint(&dx->pf->pb, PF_TD_UUID, ev->pf_ctr[fi]);
	pb_uint(&dx->pf->pb, PF_TD_PARENT, pf_uuid(dx, PF_UUID_PROCESS, c->pid, &is_new));
	pb_str(&dx->pf->pb, PF_TD_NAME, name);
	pb_open(&dx->pf->pb, PF_TD_COUNTER);
	pb_close(&dx->pf->pb);
	pb_close(&dx->pf->pb);
	pf_packet_close(dx);
	free(name);
	return ev->pf_ctr[fi];
}

/* One element of field i as a DebugAnnotation value, written at o (room
 * for PF_SCALAR_MAX bytes); returns the end. */
enum { PF_SCALAR_MAX = 1 + PB_VARINT_MAX };
static unsigned char *pf_scalar(unsigned char *o, const struct cursor *c, unsigned i, unsigned idx)
{
	const struct field *f = &c->ev->f[i];
	double d;
	uint64_t v;
	if (f->t.kind == FT_FLOAT) {
		d = get_float(c, (int)i, idx);
		memcpy(&v, &d, sizeof(v));
		return pb_w_fixed64(o, PF_DA_DOUBLE, v);
	}
	if (f->t.base == 16)
		return pb_w_uint(o, PF_DA_POINTER, get_int(c, (int)i, idx));
	return pb_w_uint(o, f->t.sgn ? PF_DA_INT : PF_DA_UINT, get_int(c, (int)i, idx));
}

/* The fields as debug annotations: integers int/uint, pointers pointer,
 * floats double, strings and char arrays string, arrays (dynamic ones too)
 * array_values; a __print_symbolic/__print_flags field the string its text
 * shows (a value without a label stays a number); a dynamic array's length
 * field is left out. */
static void pf_annotations(struct dump *dx, const struct cursor *c)
{
	const struct event *ev = c->ev;
	unsigned i, k;
	for (i = 0; i < ev->nf; i++) {
		const struct field *f = &ev->f[i];
		unsigned cnt = f->seq ? c->slen[i] : f->count;
		const char *name = NULL;
		size_t nn = 0;
		if (f->t.bad || f->hidden)
			continue;
		if (!f->t.sym && !f->count && !f->seq && f->t.kind != FT_STR && !f->is_text) {
			/* a number, the most common field: one write, its length
			 * known to take one byte */
			unsigned char *o = pb_at(&dx->pf->pb,
						 2 + 1 + PB_VARINT_MAX + PF_SCALAR_MAX),
				      *len;
			o = pb_w_key(o, PF_TE_ANNOTATIONS, PB_LEN);
			len = o++;
			o = pb_w_uint(o, PF_DA_NAME_IID, ev->pf_key[i]);
			o = pf_scalar(o, c, i, 0);
			*len = (unsigned char)(o - len - 1);
			pb_done(&dx->pf->pb, o);
			continue;
		}
		pb_open(&dx->pf->pb, PF_TE_ANNOTATIONS);
		pb_uint(&dx->pf->pb, PF_DA_NAME_IID, ev->pf_key[i]);
		if (f->t.sym && !f->count && !f->seq) {
			uint64_t v = get_int(c, (int)i, 0);
			if (f->fdelim)
				name = flags_text(dx, f, v, &nn);
			else if ((name = sym_name(f, v)) != NULL)
				nn = strlen(name);
		}
		if (name) {
			pb_bytes(&dx->pf->pb, PF_DA_STRING, (const u8 *)name, nn);
		} else if (f->t.kind == FT_STR || f->is_text) {
			size_t n;
			const u8 *t = get_text(c, (int)i, &n);
			pb_bytes(&dx->pf->pb, PF_DA_STRING, t, n);
		} else if (!f->count && !f->seq) {
			pb_done(&dx->pf->pb, pf_scalar(pb_at(&dx->pf->pb, PF_SCALAR_MAX), c, i, 0));
		} else {
			for (k = 0; k < cnt; k++) {
				pb_open(&dx->pf->pb, PF_DA_ARRAY);
				pb_done(&dx->pf->pb,
					pf_scalar(pb_at(&dx->pf->pb, PF_SCALAR_MAX), c, i, k));
				pb_close(&dx->pf->pb);
			}
		}
		pb_close(&dx->pf->pb);
	}
}

/* Opens the packet of a TrackEvent at c's time on sequence seq (its
 * interned data first); track 0: the sequence's own. */
static void pf_event_open(struct dump *dx, const struct cursor *c, uint64_t seq, uint64_t track,
			  unsigned type, uint64_t name, uint64_t cat)
{
	struct pf_seq *s = dx->pf->seq[seq];
	unsigned char *o;
	pf_packet_open(dx, seq);
	o = pb_at(&dx->pf->pb, 4 * (2 + PB_VARINT_MAX));
	if (c->ns >= s->last_ns) {
		o = pb_w_uint(o, PF_TIMESTAMP, c->ns - s->last_ns);
		s->last_ns = c->ns;
	} else { /* time never goes back within a thread; kept exact all the same */
		o = pb_w_uint(o, PF_TIMESTAMP, c->ns);
		o = pb_w_uint(o, PF_TS_CLOCK, pf_clock_id[dx->clock]);
	}
	pb_done(&dx->pf->pb, o);
	/* No SEQ_NEEDS_INCREMENTAL_STATE: that flag only lets a reader drop
	 * packets after a loss within the sequence, and a file written in one
	 * go has none; 2 bytes an event less. */
	if (dx->pf->nneed)
		pf_interned(dx, s);
	pb_open(&dx->pf->pb, PF_TRACK_EVENT);
	o = pb_at(&dx->pf->pb, 4 * (2 + PB_VARINT_MAX));
	o = pb_w_uint(o, PF_TE_TYPE, type);
	if (track)
		o = pb_w_uint(o, PF_TE_TRACK, track);
	if (name)
		o = pb_w_uint(o, PF_TE_NAME_IID, name);
	if (cat)
		o = pb_w_uint(o, PF_TE_CATEGORY_IIDS, cat);
	pb_done(&dx->pf->pb, o);
	dx->pf->events++;
}

static void pf_event_close(struct dump *dx)
{
	pb_close(&dx->pf->pb);
	pf_packet_close(dx);
}

void emit_pftrace(struct dump *dx, struct cursor *c)
{
	struct event *ev = (struct event *)c->ev;
	uint64_t seq = pf_thread_track(dx, c), id;
	const struct event **has_all;
	unsigned i;
	int numbers, seen;
	if (c->kind == K_DROP) {
		uint64_t name = pf_intern(dx, PF_TAB_NAMES, "events dropped");
		uint64_t cat = pf_intern(dx, PF_TAB_CATS, "tracepoints"),
			 key = pf_intern(dx, PF_TAB_KEYS, "dropped");
		pf_need(dx, PF_TAB_NAMES, name);
		pf_need(dx, PF_TAB_CATS, cat);
		pf_need(dx, PF_TAB_KEYS, key);
		pf_event_open(dx, c, seq, 0, PF_INSTANT, name, cat);
		pb_open(&dx->pf->pb, PF_TE_ANNOTATIONS);
		pb_uint(&dx->pf->pb, PF_DA_NAME_IID, key);
		pb_uint(&dx->pf->pb, PF_DA_UINT, c->dropn);
		pb_close(&dx->pf->pb);
		pf_event_close(dx);
		return;
	}
	if (!ev->pf_name) { /* interned once per event type */
		char *sn = xstrndup(ev->ename, slice_name_len(ev));
		ev->pf_name = pf_intern(dx, PF_TAB_NAMES, sn);
		free(sn);
		ev->pf_cat = pf_intern(dx, PF_TAB_CATS, ev->sys);
		ev->pf_key = (uint64_t *)xcalloc(ev->nf + 1, sizeof(uint64_t));
		for (i = 0; i < ev->nf; i++)
			ev->pf_key[i] = pf_intern(dx, PF_TAB_KEYS, ev->f[i].name);
	}
	for (i = 0, numbers = 0; i < ev->nf && (ev->kind & EK_BASE) == EK_COUNTER; i++)
		numbers += pf_is_number(&ev->f[i]);
	if (numbers) { /* a counter: a value on each number's track */
		for (i = 0; i < ev->nf; i++) {
			const struct field *f = &ev->f[i];
			uint64_t ct;
			if (!pf_is_number(f))
				continue;
			ct = pf_counter_track(dx, c, seq, i);
			pf_event_open(dx, c, seq, ct, PF_COUNTER, 0, 0);
			if (f->t.kind == FT_FLOAT)
				pb_double(&dx->pf->pb, PF_TE_DCOUNTER, get_float(c, (int)i, 0));
			else
				pb_uint(&dx->pf->pb, PF_TE_COUNTER, get_int(c, (int)i, 0));
			pf_event_close(dx);
		}
		return;
	}
	has_all = &dx->pf->seq[seq]->has_all[((uintptr_t)ev >> 4) & (PF_CACHE - 1)];
	if (*has_all != ev) { /* this sequence may not have all its strings */
		if ((ev->kind & EK_BASE) != EK_END) { /* an end's name is its begin's */
			pf_need(dx, PF_TAB_NAMES, ev->pf_name);
			pf_need(dx, PF_TAB_CATS, ev->pf_cat);
		}
		for (i = 0; i < ev->nf; i++)
			pf_need(dx, PF_TAB_KEYS, ev->pf_key[i]);
		*has_all = ev; /* they go with this event's packet */
	}
	if (c->cpu != TRACE_CPU_UNKNOWN && !dx->pf->seq[seq]->has_cpu_key) {
		/* TRACEPOINTS_CPU=1: an annotation "cpu", its name sent once
		 * per sequence */
		if (!dx->pf->cpu_key)
			dx->pf->cpu_key = pf_intern(dx, PF_TAB_KEYS, "cpu");
		pf_need(dx, PF_TAB_KEYS, dx->pf->cpu_key);
		dx->pf->seq[seq]->has_cpu_key = 1;
	}
	switch (ev->kind & EK_BASE) { /* a counter without numbers: an instant */
	case EK_BEGIN:
		pf_event_open(dx, c, seq, 0, PF_SLICE_BEGIN, ev->pf_name, ev->pf_cat);
		break;
	case EK_END:
		pf_event_open(dx, c, seq, 0, PF_SLICE_END, 0, 0);
		break;
	default:
		pf_event_open(dx, c, seq, 0, PF_INSTANT, ev->pf_name, ev->pf_cat);
		break;
	}
	pf_annotations(dx, c);
	if (c->cpu != TRACE_CPU_UNKNOWN) {
		pb_open(&dx->pf->pb, PF_TE_ANNOTATIONS);
		pb_uint(&dx->pf->pb, PF_DA_NAME_IID, dx->pf->cpu_key);
		pb_uint(&dx->pf->pb, PF_DA_UINT, c->cpu);
		pb_close(&dx->pf->pb);
	}
	if ((ev->kind & EK_FLOW) && (id = flow_out(dx, c, &seen)) != 0)
		pb_fixed64(&dx->pf->pb, PF_TE_FLOW_IDS, id);
	pf_event_close(dx);
}
