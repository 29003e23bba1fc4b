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
 * A nested message is opened with pb_open() and closed with pb_close(),
 * which writes its length in front of it: its bytes move right by the
 * length's size (one byte below 128 bytes, two below 16 KiB), so lengths
 * stay minimal without a sizing pass.
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

static void pb_room(struct pb *p, size_t k)
{
	if (p->cap - p->n >= k)
		return;
	while (p->cap - p->n < k)
		p->cap = p->cap ? 2 * p->cap : 4096;
	p->b = (unsigned char *)realloc(p->b, p->cap);
	if (!p->b)
		p->oom();
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

static void pb_varint(struct pb *p, uint64_t v)
{
	pb_room(p, PB_VARINT_MAX);
	p->n = (size_t)(pb_put_varint(p->b + p->n, v) - p->b);
}

static void pb_key(struct pb *p, unsigned field, enum pb_wire w)
{
	pb_varint(p, (uint64_t)field << 3 | (unsigned)w);
}

/* uint32/uint64/int32/int64/bool/enum fields (negative ints: 10 bytes). */
static void pb_uint(struct pb *p, unsigned field, uint64_t v)
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

/* Opens a nested message (field of wire type 2); pb_close() ends it. */
static void pb_open(struct pb *p, unsigned field)
{
	pb_key(p, field, PB_LEN);
	if (p->depth == PB_MAX_DEPTH)
		abort(); /* a bug of the caller: messages nest at most 16 deep */
	p->open[p->depth++] = p->n;
}

static void pb_close(struct pb *p)
{
	size_t start = p->open[--p->depth], len = p->n - start;
	unsigned k = pb_varint_size(len);
	pb_room(p, k);
	memmove(p->b + start + k, p->b + start, len);
	pb_put_varint(p->b + start, len);
	p->n += k;
}

#endif /* TP_TOOLS_PROTOBUF_H */
