/* SPDX-License-Identifier: MIT */
/*
 * tools/dump/json.c - tracepoint-dump's Chrome Trace Event JSON (--json):
 * slices, counters, flows and the process and thread names.
 *
 * Part of tracepoint-dump (dump.h has the map of its parts).
 */
#include "dump.h"

/* ------------------------------------------------------------------ */
/* JSON helpers                                                       */
/* ------------------------------------------------------------------ */

/* A JSON string (with quotes); needs 6 * n + 2 bytes. */
char *put_json_str(char *o, const u8 *s, size_t n)
{
	size_t i = 0;
	*o++ = '"';
	while (i < n) {
		u8 c = s[i];
		if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
			*o++ = (char)c;
			i++;
			continue;
		}
		if (c == '"' || c == '\\') {
			*o++ = '\\';
			*o++ = (char)c;
			i++;
			continue;
		}
		if (c >= 0x80) {
			size_t k = utf8_len(s + i, n - i);
			if (k) {
				memcpy(o, s + i, k);
				o += k;
				i += k;
				continue;
			}
		}
		memcpy(o, "\\u00", 4);
		o[4] = "0123456789abcdef"[c >> 4];
		o[5] = "0123456789abcdef"[c & 15];
		o += 6;
		i++;
	}
	*o++ = '"';
	return o;
}

char *json_str_dup(const char *s, size_t n, size_t *len)
{
	char *d = (char *)xmalloc(6 * n + 3), *o = put_json_str(d, (const u8 *)s, n);
	*o = '\0';
	*len = (size_t)(o - d);
	return d;
}

/* ------------------------------------------------------------------ */
/* JSON output                                                        */
/* ------------------------------------------------------------------ */

static char *put_json_ts(struct dump *dx, char *o, uint64_t ns)
{
	uint64_t rel;
	unsigned frac;
	if (ns < dx->origin) {
		*o++ = '-';
		rel = dx->origin - ns;
	} else {
		rel = ns - dx->origin;
	}
	o = put_u64(o, rel / 1000);
	frac = (unsigned)(rel % 1000);
	*o++ = '.';
	*o++ = (char)('0' + frac / 100);
	memcpy(o, d2 + 2 * (frac % 100), 2);
	return o + 2;
}

static void json_sep(struct dump *dx)
{
	char *o = ob_need(dx, 2);
	if (!dx->jfirst)
		*o++ = ',';
	*o++ = '\n';
	dx->jfirst = 0;
	ob_done(dx, o);
}

/* Adds x; 1 if it was there already. */
int u64set_add(struct u64set *s, uint64_t x)
{
	size_t i;
	if (!x) {
		int had = s->has0;
		s->has0 = 1;
		return had;
	}
	if (2 * (s->n + 1) > s->cap) {
		struct u64set t = { NULL, 0, s->cap ? 2 * s->cap : 1024, s->has0 };
		t.v = (uint64_t *)xcalloc(t.cap, sizeof(*t.v));
		for (i = 0; i < s->cap; i++)
			if (s->v[i])
				u64set_add(&t, s->v[i]);
		free(s->v);
		*s = t;
	}
	for (i = (size_t)(x * 0x9E3779B97F4A7C15u >> 20) & (s->cap - 1); s->v[i];
	     i = (i + 1) & (s->cap - 1))
		if (s->v[i] == x)
			return 1;
	s->v[i] = x;
	s->n++;
	return 0;
}

/* The flow id of an event of a flow kind: its first field, an integer. */
int flow_id(const struct cursor *c, uint64_t *id)
{
	const struct field *f = c->ev->nf ? &c->ev->f[0] : NULL;
	if (!f || f->t.kind != FT_INT || f->count || f->t.bad)
		return 0;
	*id = get_int(c, 0, 0);
	return 1;
}

static size_t flow_slot(const struct flow *f)
{
	uint64_t h = f->id * 0x9E3779B97F4A7C15u;
	h ^= ((uint64_t)(uintptr_t)f->tr + f->pid) * 0xC2B2AE3D27D4EB4Fu;
	return (size_t)(h >> 17);
}

/* The id written for the flow of a flow event (0: it has none): one per
 * id in each process (TRACE_FLOW), or one per id in the whole output
 * (TRACE_FLOW_GLOBAL), numbered 1, 2, ... in order of first appearance,
 * so that two processes using the same ids are not linked.  *seen: the
 * flow had an event before this one. */
uint64_t flow_out(struct dump *dx, const struct cursor *c, int *seen)
{
	struct flowmap *m = &dx->flows;
	struct flow k;
	size_t i;
	*seen = 0;
	if (!flow_id(c, &k.id))
		return 0;
	k.tr = (c->ev->kind & EK_GLOBAL) ? NULL : c->tr;
	k.pid = (c->ev->kind & EK_GLOBAL) ? 0 : c->pid;
	if (2 * (m->n + 1) > m->cap) {
		struct flowmap t = { NULL, 0, m->cap ? 2 * m->cap : 256 };
		t.v = (struct flow *)xcalloc(t.cap, sizeof(*t.v));
		for (i = 0; i < m->cap; i++)
			if (m->v[i].out) {
				size_t j = flow_slot(&m->v[i]) & (t.cap - 1);
				while (t.v[j].out)
					j = (j + 1) & (t.cap - 1);
				t.v[j] = m->v[i];
			}
		t.n = m->n;
		free(m->v);
		*m = t;
	}
	for (i = flow_slot(&k) & (m->cap - 1); m->v[i].out; i = (i + 1) & (m->cap - 1))
		if (m->v[i].id == k.id && m->v[i].tr == k.tr && m->v[i].pid == k.pid) {
			*seen = 1;
			return m->v[i].out;
		}
	k.out = ++m->n;
	m->v[i] = k;
	return k.out;
}

/* Closes the args of a flow event and binds it to its flow (Chrome JSON
 * flow v2, as Perfetto reads it: the first event of an id starts the flow,
 * each later one continues it). */
static void json_flow(struct dump *dx, const struct cursor *c)
{
	char *o = ob_need(dx, 96);
	int seen;
	uint64_t id = flow_out(dx, c, &seen);
	*o++ = '}';
	if (id) {
		memcpy(o, ",\"bind_id\":\"0x", 14);
		o = put_hex(o + 14, id, 0);
		memcpy(o, "\",\"flow_out\":true", 17);
		o += 17;
		if (seen) {
			memcpy(o, ",\"flow_in\":true", 15);
			o += 15;
		}
	}
	*o++ = '}';
	ob_done(dx, o);
}

void emit_json(struct dump *dx, struct cursor *c)
{
	const struct event *ev = c->ev;
	char *o;
	unsigned i;
	int jfirst = 1;
	json_sep(dx);
	if (c->kind == K_DROP) {
		o = ob_need(dx, 200);
		o += sprintf(o,
			     "{\"name\":\"events "
			     "dropped\",\"cat\":\"tracepoints\",\"ph\":\"i\",\"s\":\"t\",\"ts\":");
		o = put_json_ts(dx, o, c->ns);
		memcpy(o, c->jtail, c->jtaillen);
		o += c->jtaillen;
		memcpy(o, "\"dropped\":", 10);
		o = put_u64(o + 10, c->dropn);
		memcpy(o, "}}", 2);
		ob_done(dx, o + 2);
		return;
	}
	o = ob_need(dx, ev->jprelen + 180);
	o = cpy_padded(o, ev->jpre, ev->jprelen);
	o = put_json_ts(dx, o, c->ns);
	if (c->cpu != TRACE_CPU_UNKNOWN) { /* TRACEPOINTS_CPU=1 */
		memcpy(o, ",\"cpu\":", 7);
		o = put_u64(o + 7, c->cpu);
	}
	memcpy(o, c->jtail, sizeof(c->jtail));
	ob_done(dx, o + c->jtaillen);
	for (i = 0; i < ev->nf; i++) {
		const struct field *f = &ev->f[i];
		if (f->hidden)
			continue;
		o = ob_need(dx, f->jkeylen + 40 + field_room(c, i));
		if (!jfirst)
			*o++ = ',';
		jfirst = 0;
		o = cpy_padded(o, f->jkey, f->jkeylen);
		ob_done(dx, put_value(dx, o, c, i, 1));
	}
	if (ev->kind & EK_FLOW) {
		json_flow(dx, c);
		return;
	}
	o = ob_need(dx, 2);
	memcpy(o, "}}", 2);
	ob_done(dx, o + 2);
}

static void json_str_out(struct dump *dx, const char *s)
{
	size_t n = strlen(s);
	char *o = ob_need(dx, 6 * n + 2);
	ob_done(dx, put_json_str(o, (const u8 *)s, n));
}

uint32_t trace_pid(const struct trace *tr)
{
	size_t i;
	if (tr->has_vpid)
		return (uint32_t)tr->vpid;
	for (i = 0; i < tr->nst; i++)
		if (tr->st[i].npk)
			return tr->st[i].pk[0].pid;
	return 0;
}

void json_meta(struct dump *dx, const struct trace *tr)
{
	uint32_t pid = trace_pid(tr);
	size_t i, j;
	json_sep(dx);
	ob_printf(
		dx,
		"{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%u,\"tid\":%u,\"args\":{\"name\":",
		pid, pid);
	json_str_out(dx, tr->procname ? tr->procname : "");
	ob_puts(dx, "}}", 2);
	for (i = 0; i < tr->nst; i++) {
		const struct stream *st = &tr->st[i];
		const struct packet *k;
		if (!st->npk)
			continue;
		k = &st->pk[st->npk - 1];
		for (j = i + 1; j < tr->nst; j++) /* a later stream of the same tid names it */
			if (tr->st[j].npk && tr->st[j].pk[0].tid == k->tid)
				break;
		if (j < tr->nst)
			continue;
		json_sep(dx);
		ob_printf(dx,
			  "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%u,\"tid\":%u,\"args\":{"
			  "\"name\":",
			  pid, k->tid);
		json_str_out(dx, k->comm);
		ob_puts(dx, "}}", 2);
	}
}
