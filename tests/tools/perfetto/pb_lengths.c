/* tests/tools/t_perfetto.sh: tools/dump/protobuf.h's nested messages at
 * every size of their length (1 to 4 bytes), nested three deep, decoded
 * here by hand: each length must equal its message's bytes and the
 * payloads must come out unchanged.  Exit 0 when all do. */
#include <stdio.h>
#include <stdlib.h>

#include "../../../tools/dump/protobuf.h"

static void oom(void)
{
	fputs("pb_lengths: out of memory\n", stderr);
	exit(2);
}

/* Reads a varint at *q; advances *q. */
static uint64_t rd_varint(const unsigned char **q)
{
	uint64_t v = 0;
	unsigned s = 0;
	while (**q & 0x80) {
		v |= (uint64_t)(**q & 0x7f) << s;
		s += 7;
		(*q)++;
	}
	v |= (uint64_t) * *q << s;
	(*q)++;
	return v;
}

int main(void)
{
	static const size_t sizes[] = { 0, 1, 100, 127, 128, 200, 16383, 16384, 20000, 2100000 };
	unsigned i, bad = 0;
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct pb p = { NULL, 0, 0, { 0 }, 0, oom };
		const unsigned char *q, *end;
		unsigned char *payload = malloc(sizes[i] + 1);
		uint64_t outer, mid, inner, n;
		size_t k;
		if (!payload)
			oom();
		for (k = 0; k < sizes[i]; k++)
			payload[k] = (unsigned char)(k * 7 + 3);
		pb_open(&p, 1);
		pb_open(&p, 2);
		pb_uint(&p, 3, 300);
		pb_bytes(&p, 4, payload, sizes[i]);
		pb_close(&p);
		pb_uint(&p, 5, 5);
		pb_close(&p);
		q = p.b;
		end = p.b + p.n;
		/* 1: { 2: { 3: 300, 4: payload }, 5: 5 } */
		if (rd_varint(&q) != (1 << 3 | PB_LEN) ||
		    (outer = rd_varint(&q)) != (uint64_t)(end - q) ||
		    rd_varint(&q) != (2 << 3 | PB_LEN) ||
		    (mid = rd_varint(&q)) > (uint64_t)(end - q) ||
		    rd_varint(&q) != (3 << 3 | PB_VARINT) || rd_varint(&q) != 300 ||
		    rd_varint(&q) != (4 << 3 | PB_LEN) || (inner = rd_varint(&q)) != sizes[i] ||
		    memcmp(q, payload, sizes[i]) != 0 ||
		    (q += inner, rd_varint(&q) != (5 << 3 | PB_VARINT)) || rd_varint(&q) != 5 ||
		    q != end) {
			printf("pb_lengths: a payload of %zu bytes is encoded wrong\n", sizes[i]);
			bad++;
		}
		n = p.n;
		free(p.b);
		free(payload);
		printf("payload %zu: %llu bytes\n", sizes[i], (unsigned long long)n);
	}
	return bad != 0;
}
