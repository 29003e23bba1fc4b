/* The recorder of events with fixed fields only (define_trace.h: assigned
 * on the stack, copied into the window by tp__ev_record_<size class>):
 * payloads of 0 to 100 bytes, through the fast reservation and the full
 * one (first record of a thread, monotonic clock), with compact and
 * extended headers, come out byte for byte after their headers, back to
 * back, and the packet covers exactly them.  So do strings of every
 * length (each branch of their copy), cut at TRACEPOINT_STRING_MAX (before
 * a UTF-8 character that would not fit whole), NULL as "(null)", each
 * followed by a dynamic array, and the formatter reads them back. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_common.h"

#define CONFIG_EVS 1
#define CREATE_TRACE_POINTS
#include "events/ev_sizes.h"
#include <trace/sink.h>

static unsigned char window[65536] __attribute__((aligned(8)));
static struct trace_buffer buf;
static int windows;
static struct trace_buffer *thread_buffer(struct trace_sink_base *s)
{
	(void)s;
	return &buf;
}
static int next_window(struct trace_sink_base *s, struct trace_buffer *b, uint64_t ts, size_t need)
{
	struct trace_packet *p = (struct trace_packet *)(void *)window;
	(void)s;
	if (windows++ || need > sizeof(window) - sizeof(*p))
		return -1; /* one window only */
	memset(window, 0xee, sizeof(window));
	memset(p, 0, sizeof(*p));
	p->content_size = sizeof(*p) * 8;
	b->pkt = p;
	b->pos = window + sizeof(*p);
	b->end = window + sizeof(window);
	b->last_ts = ts;
	return 0;
}
static struct trace_sink_base sink = { thread_buffer, next_window, TRACE_CLOCK_COUNTER };

#define N_EV 15
static const unsigned sizes[N_EV] = { 0, 1, 3, 4, 7, 8, 9, 12, 16, 17, 24, 32, 33, 40, 100 };
static struct tracepoint *const tps[N_EV] = {
	&__tracepoint_evs_0,  &__tracepoint_evs_1,  &__tracepoint_evs_3,  &__tracepoint_evs_4,
	&__tracepoint_evs_7,  &__tracepoint_evs_8,  &__tracepoint_evs_9,  &__tracepoint_evs_12,
	&__tracepoint_evs_16, &__tracepoint_evs_17, &__tracepoint_evs_24, &__tracepoint_evs_32,
	&__tracepoint_evs_33, &__tracepoint_evs_40, &__tracepoint_evs_100
};
static struct trace_event_sink slots[N_EV];

static void fire(unsigned i, const unsigned char *v)
{
	switch (sizes[i]) {
	case 0:
		trace_evs_0(1);
		break;
	case 1:
		trace_evs_1(v);
		break;
	case 3:
		trace_evs_3(v);
		break;
	case 4:
		trace_evs_4(v);
		break;
	case 7:
		trace_evs_7(v);
		break;
	case 8:
		trace_evs_8(v);
		break;
	case 9:
		trace_evs_9(v);
		break;
	case 12:
		trace_evs_12(v);
		break;
	case 16:
		trace_evs_16(v);
		break;
	case 17:
		trace_evs_17(v);
		break;
	case 24:
		trace_evs_24(v);
		break;
	case 32:
		trace_evs_32(v);
		break;
	case 33:
		trace_evs_33(v);
		break;
	case 40:
		trace_evs_40(v);
		break;
	default:
		trace_evs_100(v);
		break;
	}
}

/* Records every event twice (id_base + i), then checks the window. */
static void record_and_check(int clock, uint32_t id_base)
{
	const struct trace_packet *p = (const struct trace_packet *)(const void *)window;
	unsigned char v[100];
	const unsigned char *at = window + sizeof(*p);
	unsigned i, k, round;
	memset(&buf, 0, sizeof(buf));
	buf.sink = &sink;
	windows = 0;
	sink.clock = clock;
	for (i = 0; i < N_EV; i++) {
		const struct trace_event *ev = trace_event_of(tps[i]);
		assert_non_null(ev);
		assert_int_equal(ev->cls->entry_size, sizes[i]);
		slots[i].sink = &sink;
		slots[i].id = id_base + i;
		slots[i].event = ev;
		slots[i].filter = NULL;
		assert_int_equal(tracepoint_probe_register(tps[i], ev->probe, &slots[i]), 0);
	}
	for (round = 0; round < 2; round++)
		for (i = 0; i < N_EV; i++) {
			for (k = 0; k < sizeof(v); k++)
				v[k] = (unsigned char)(i * 16 + k + round);
			fire(i, v);
		}
	for (i = 0; i < N_EV; i++)
		assert_int_equal(tracepoint_probe_unregister(tps[i], trace_event_of(tps[i])->probe,
							     &slots[i]),
				 0);
	tracepoint_synchronize_unregister();
	assert_int_equal(buf.busy, 0);
	assert_int_equal(buf.dropped, 0);
	for (round = 0; round < 2; round++)
		for (i = 0; i < N_EV; i++) {
			uint32_t id;
			if ((at[0] & 63) == TRACE_HEADER_EXTENDED) {
				memcpy(&id, at + 1, 4);
				at += TRACE_HEADER_EXTENDED_SIZE;
			} else {
				memcpy(&id, at, 4);
				id &= 63;
				at += TRACE_HEADER_COMPACT_SIZE;
			}
			assert_int_equal(id, id_base + i);
			for (k = 0; k < sizes[i]; k++)
				if (at[k] != (unsigned char)(i * 16 + k + round))
					fail_msg("evs_%u (round %u): byte %u is %u, not %u",
						 sizes[i], round, k, at[k],
						 (unsigned char)(i * 16 + k + round));
			at += sizes[i];
		}
	assert_int_equal(p->content_size / 8, (size_t)(at - window));
	assert_ptr_equal(buf.pos, at);
	assert_int_equal(*at, 0xee); /* nothing written past the last record */
}

static void fast_reservation_compact_headers(void **state)
{
	(void)state;
	record_and_check(TRACE_CLOCK_COUNTER, 1);
}

static void full_reservation_compact_headers(void **state)
{
	(void)state;
	record_and_check(TRACE_CLOCK_MONOTONIC, 1); /* the fast one gives way */
}

static void extended_headers(void **state)
{
	(void)state;
	record_and_check(TRACE_CLOCK_COUNTER, 70);
	record_and_check(TRACE_CLOCK_MONOTONIC, 70);
}

/* The bytes evs_str keeps of a string of n bytes (utf: it ends in a
 * 2-byte character at TRACEPOINT_STRING_MAX - 1). */
static size_t kept(size_t n, int utf)
{
	if (n <= TRACEPOINT_STRING_MAX)
		return n;
	return utf ? TRACEPOINT_STRING_MAX - 1 : TRACEPOINT_STRING_MAX;
}

static void record_strings(int clock)
{
	static const size_t lens[] = { 0,  1,  2,  3,  4,  5,  7,   8,	  9,	12,   15,  16,
				       17, 24, 31, 32, 33, 40, 100, 1023, 1024, 1025, 2000 };
	enum { N_LEN = sizeof(lens) / sizeof(lens[0]), N_REC = N_LEN + 2 };
	static char text[2100];
	const struct trace_packet *p = (const struct trace_packet *)(const void *)window;
	const struct trace_event *ev = trace_event_of(&__tracepoint_evs_str);
	const unsigned char d[3] = { 0xd0, 0xd1, 0xd2 };
	const unsigned char *at = window + sizeof(*p);
	struct trace_event_sink slot;
	unsigned i;
	memset(&buf, 0, sizeof(buf));
	buf.sink = &sink;
	windows = 0;
	sink.clock = clock;
	assert_non_null(ev);
	slot.sink = &sink;
	slot.id = 3;
	slot.event = ev;
	slot.filter = NULL;
	for (i = 0; i < sizeof(text); i++)
		text[i] = (char)('a' + i % 26);
	assert_int_equal(tracepoint_probe_register(&__tracepoint_evs_str, ev->probe, &slot), 0);
	for (i = 0; i < N_LEN; i++) {
		char c = text[lens[i]];
		text[lens[i]] = '\0';
		trace_evs_str((unsigned char)i, text, d, i % 4);
		text[lens[i]] = c;
	}
	trace_evs_str(200, NULL, d, 1);
	/* a 2-byte character across the limit: cut before it */
	memcpy(text + TRACEPOINT_STRING_MAX - 1, "\xc3\xa9", 2);
	text[TRACEPOINT_STRING_MAX + 10] = '\0';
	trace_evs_str(201, text, d, 0);
	assert_int_equal(tracepoint_probe_unregister(&__tracepoint_evs_str, ev->probe, &slot), 0);
	tracepoint_synchronize_unregister();
	for (i = 0; i < sizeof(text); i++)
		text[i] = (char)('a' + i % 26);
	assert_int_equal(buf.dropped, 0);
	for (i = 0; i < N_REC; i++) {
		const unsigned char *e = at + TRACE_HEADER_COMPACT_SIZE;
		const char *want = i < N_LEN ? text : i == N_LEN ? "(null)" : text;
		size_t n = i < N_LEN ? kept(lens[i], 0) : i == N_LEN ? 6 : kept(2000, 1);
		unsigned nd = i < N_LEN ? i % 4 : i == N_LEN ? 1 : 0;
		uint32_t count;
		char out[4200];
		int len;
		assert_int_equal(at[0] & 63, 3);
		assert_int_equal(e[0], i < N_LEN ? i : 200 + i - N_LEN);
		memcpy(&count, e + 1, 4);
		assert_int_equal(count, nd);
		if (memcmp(e + ev->cls->entry_size, want, n) != 0 ||
		    e[ev->cls->entry_size + n] != 0)
			fail_msg("record %u: the string of %zu bytes differs", i, n);
		assert_memory_equal(e + ev->cls->entry_size + n + 1, d, nd);
		len = ev->cls->format(out, sizeof(out), (void *)(uintptr_t)e,
				      ev->cls->entry_size + n + 1 + nd);
		assert_true(len > 0 && (size_t)len < sizeof(out));
		assert_true(strncmp(out + strlen("x=1 s=") + (e[0] >= 10) + (e[0] >= 100), want,
				    n) == 0);
		assert_non_null(strstr(out, nd == 0   ? " d=0"
					    : nd == 1 ? " d=1"
					    : nd == 2 ? " d=2"
						      : " d=3"));
		at = e + ev->cls->entry_size + n + 1 + nd;
	}
	assert_int_equal(p->content_size / 8, (size_t)(at - window));
	assert_int_equal(*at, 0xee);
}

static void strings_fast_reservation(void **state)
{
	(void)state;
	record_strings(TRACE_CLOCK_COUNTER);
}

static void strings_full_reservation(void **state)
{
	(void)state;
	record_strings(TRACE_CLOCK_MONOTONIC);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fast_reservation_compact_headers),
		cmocka_unit_test(full_reservation_compact_headers),
		cmocka_unit_test(extended_headers),
		cmocka_unit_test(strings_fast_reservation),
		cmocka_unit_test(strings_full_reservation),
	};
	tp_test_watchdog(60);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
