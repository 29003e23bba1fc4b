/* Fires the kp events (kp_events.h, next to this file) with the values
 * tests/events/t_event_kprint.sh looks for, records them (TRACEPOINTS,
 * TRACEPOINTS_DIR), then reads its own trace back and prints each record
 * as the in-process formatter makes it ("kp:name text" lines; in this
 * process, where %ps finds the symbols), for the script to compare with
 * tracepoint-dump and with the kernel's text. */
#include <stdio.h>
#include <string.h>

#define CREATE_TRACE_POINTS
#include "kp_events.h"
#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>
#include "trace_read.h"

void kp_handler(void)
{
}

static void print_rec(const struct tr_rec *r, void *priv)
{
	char text[4096];
	(void)priv;
	r->ev->cls->format(text, sizeof(text), (void *)(uintptr_t)r->payload, r->size);
	printf("%s:%s %s\n", r->ev->cls->system, r->ev->name, text);
}

int main(int argc, char **argv)
{
	static const unsigned char bytes[20] = { 0xca, 0xfe, 0x07, 'h',	 'i',  0x00, 0x41,
						 0x42, 0x43, 0x7f, 0x20, 0x31, 0x32, 0x33,
						 0x34, 0x35, 0x36, 0x37, 0x38, 0x39 };
	static const unsigned words[3] = { 1, 0x20, 0xdeadbeef };
	const char *dir;
	(void)argc;
	(void)argv;
	trace_kp_sched(42, 120, 5000, KP_RUNNING, 0);
	trace_kp_sched(7, 90, 1024, 0x100 | KP_BLOCKED, -5);
	trace_kp_sched(8, 100, 0, 0, 1);
	trace_kp_sched(9, 100, 0, 9, 1);
	trace_kp_call((void *)kp_handler, KP_F_READ | KP_F_SYNC);
	trace_kp_call((void *)kp_handler, KP_F_WRITE);
	trace_kp_buf(bytes, 3, words);
	trace_kp_buf(bytes, 20, words);
	trace_kp_wide(0x100000000ULL, 0x8000000000000001ULL, 3000000123ULL);
	trace_kp_wide(5, 6, 999);
	if (trace_recorder_flush() < 0 || !(dir = trace_recorder_trace_dir()))
		return 2;
	if (tr_load_metadata(dir) != 0)
		return 3;
	return tr_read(dir, print_rec, NULL) < 0 ? 4 : 0;
}
