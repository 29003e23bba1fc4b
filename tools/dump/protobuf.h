/* SPDX-License-Identifier: MIT */
/*
 * tools/dump/protobuf.h - the smallest protocol buffers encoder that
 * tracepoint-dump's --perfetto output needs: varints, fixed64, doubles,
 * strings and nested messages, appended to one growing buffer.  libc only;
 * included by tools/dump/perfetto.c (its functions are static).
 *
 * Wire format (developers.google.com/protocol-buffers/docs/encoding): a
 * field is a key, (field number << 3) | wire type, as a varint, then its
 * value: a varint (type 0), 8 little-endian bytes (type 1), or a varint
 * length and that many bytes (type 2: strings, bytes, nested messages).
 *
 * A nested message is opened with pb_open(), which leaves one byte for its
 * length, and closed with pb_close(), which writes the length there: most
 * messages (an event, its annotations) are shorter than 128 bytes and
 * stay where they were written; a longer one moves right by the length's
 * extra bytes, so lengths stay minimal without a sizing pass.
 */
#ifndef TP_TOOLS_PROTOBUF_H
#define TP_TOOLS_PROTOBUF_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum pb_wire { PB_VARINT = 0, PB_FIXED64 = 1, PB_LEN = 2 };
enum { PB_MAX_DEPTH = 16, PB_VARINT_MAX = 10 };

struct pb {
	unsigned char *b;
	size_t n, cap;
	size_t open[PB_MAX_DEPTH]; /* where each open message's bytes start */
	unsigned depth;
	void (*oom)(void); /* called when memory runs out; must not return */
};

static void pb_grow(struct pb *p, size_t k)
{
	while (p->cap - p->n < k)
		p->cap = p->cap ? 2 * p->cap : 4096;
	p->b = (unsigned char *)realloc(p->b, p->cap);
	if (!p->b)
		p->oom();
}

/* Makes room for k more bytes (the test inline: it runs for every field). */
static inline void pb_room(struct pb *p, size_t k)
{
	if (p->cap - p->n < k)
		pb_grow(p, k);
}

static unsigned pb_varint_size(uint64_t v)
{
	unsigned k = 1;
	while (v >= 0x80) {
		v >>= 7;
		k++;
	}
	return k;
}

static unsigned char *pb_put_varint(unsigned char *o, uint64_t v)
{
	while (v >= 0x80) {
		*o++ = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	*o++ = (unsigned char)v;
	return o;
}

static inline void pb_varint(struct pb *p, uint64_t v)
{
	pb_room(p, PB_VARINT_MAX);
	if (v < 0x80) /* keys, small numbers, short lengths: most varints */
		p->b[p->n++] = (unsigned char)v;
	else
		p->n = (size_t)(pb_put_varint(p->b + p->n, v) - p->b);
}

static inline void pb_key(struct pb *p, unsigned field, enum pb_wire w)
{
	pb_varint(p, (uint64_t)field << 3 | (unsigned)w);
}

/* uint32/uint64/int32/int64/bool/enum fields (negative ints: 10 bytes). */
static inline void pb_uint(struct pb *p, unsigned field, uint64_t v)
{
	pb_key(p, field, PB_VARINT);
	pb_varint(p, v);
}

static void pb_fixed64(struct pb *p, unsigned field, uint64_t v)
{
	unsigned i;
	pb_key(p, field, PB_FIXED64);
	pb_room(p, 8);
	for (i = 0; i < 8; i++)
		p->b[p->n++] = (unsigned char)(v >> (8 * i));
}

static void pb_double(struct pb *p, unsigned field, double d)
{
	uint64_t v;
	memcpy(&v, &d, sizeof(v));
	pb_fixed64(p, field, v);
}

static void pb_bytes(struct pb *p, unsigned field, const void *s, size_t n)
{
	pb_key(p, field, PB_LEN);
	pb_varint(p, n);
	pb_room(p, n);
	if (n)
		memcpy(p->b + p->n, s, n);
	p->n += n;
}

static void pb_str(struct pb *p, unsigned field, const char *s)
{
	pb_bytes(p, field, s, strlen(s));
}

/* Opens a nested message (field of wire type 2), its length's first byte
 * left free; pb_close() ends it. */
static inline void pb_open(struct pb *p, unsigned field)
{
	pb_key(p, field, PB_LEN);
	if (p->depth == PB_MAX_DEPTH)
		abort(); /* a bug of the caller: messages nest at most 16 deep */
	pb_room(p, 1);
	p->open[p->depth++] = ++p->n;
}

/* Writes the length of the innermost open message into the byte left for
 * it, moving the message right when the length needs more bytes. */
static void pb_close_long(struct pb *p, size_t start, size_t len)
{
	unsigned k = pb_varint_size(len);
	pb_room(p, k - 1);
	memmove(p->b + start + k - 1, p->b + start, len);
	pb_put_varint(p->b + start - 1, len);
	p->n += k - 1;
}

static inline void pb_close(struct pb *p)
{
	size_t start = p->open[--p->depth], len = p->n - start;
	if (len < 0x80)
		p->b[start - 1] = (unsigned char)len;
	else
		pb_close_long(p, start, len);
}

/*
 * The same encoding through a local pointer, for a writer's hot path: a
 * store through p->b may alias p->n (unsigned char aliases everything), so
 * each call above reloads the buffer's state; these keep it in a register.
 * pb_at() makes room for k bytes and gives where to write; each pb_w_*
 * returns the end of what it wrote; pb_done() says where writing stopped.
 */
static inline unsigned char *pb_at(struct pb *p, size_t k)
{
	pb_room(p, k);
	return p->b + p->n;
}

static inline void pb_done(struct pb *p, unsigned char *o)
{
	p->n = (size_t)(o - p->b);
}

static inline unsigned char *pb_w_varint(unsigned char *o, uint64_t v)
{
	if (v < 0x80) {
		*o = (unsigned char)v;
		return o + 1;
	}
	return pb_put_varint(o, v);
}

/* A key of a field numbered below 16 (one byte). */
static inline unsigned char *pb_w_key(unsigned char *o, unsigned field, enum pb_wire w)
{
	*o = (unsigned char)(field << 3 | (unsigned)w);
	return o + 1;
}

static inline unsigned char *pb_w_uint(unsigned char *o, unsigned field, uint64_t v)
{
	return pb_w_varint(pb_w_varint(o, (uint64_t)field << 3 | PB_VARINT), v);
}

static inline unsigned char *pb_w_fixed64(unsigned char *o, unsigned field, uint64_t v)
{
	unsigned i;
	o = pb_w_varint(o, (uint64_t)field << 3 | PB_FIXED64);
	for (i = 0; i < 8; i++)
		*o++ = (unsigned char)(v >> (8 * i));
	return o;
}

#endif /* TP_TOOLS_PROTOBUF_H */
