/* SPDX-License-Identifier: MIT */
/*
 * trace/wire.h - the bytes that cross between a traced program and the
 * tools: the layout of a trace's packets and records (docs/trace-format.md)
 * and the constants of the control protocol (docs/reference.md#control-protocol).
 *
 * Why it exists: the recorder writes these bytes and the tools read them;
 * each number here (the packet magic, the 96-byte packet header and where
 * each of its fields sits, the compact header's 6-bit id and its 63, the
 * record versions and the CPU's event context, the control channel's
 * limits and paths) is written once, here, so that the
 * writer and the readers cannot drift apart.
 *
 * Who includes it: <trace/trace_events.h> (the event layer's record
 * writer, hence the recorder), tools/tracepoint-dump (tools/dump/dump.h)
 * and tools/tracepoint-ctl.c.  It is C99, standalone and libc-only: it
 * depends on <stdint.h> and <stddef.h> and nothing of this library, so a
 * tool (or another language's binding) can take it alone.  Macros,
 * enums and one struct: no code, no object, no byte in a program.
 */
#ifndef TRACE_WIRE_H_INCLUDED
#define TRACE_WIRE_H_INCLUDED

#include <stddef.h>
#include <stdint.h>

/* ---- Packets ----------------------------------------------------------
 *
 * A stream file is a sequence of packets (CTF 1.8); each thread writes its
 * records into one packet (a "window") at a time.  A packet starts with the
 * packet header and context below (naturally aligned, 96 bytes; the CTF
 * metadata describes exactly this), then the records, packed back to back.
 * Sizes in the header are in bits, as CTF wants them.
 */
#define TRACE_PACKET_MAGIC 0xC1FC1FC1u

struct trace_packet {
	uint32_t magic;		     /* TRACE_PACKET_MAGIC */
	uint8_t uuid[16];	     /* the trace's */
	uint32_t stream_instance_id; /* stream mode: one per stream (its files) */
	uint64_t timestamp_begin;    /* clock at open, <= the first event */
	uint64_t timestamp_end;	     /* clock of the last committed event */
	uint64_t content_size;	     /* bits in use (header + committed events) */
	uint64_t packet_size;	     /* bits of the packet in the file */
	uint64_t packet_seq_num;
	uint64_t events_discarded; /* the thread's drops so far */
	uint32_t tid, pid;
	char comm[16];
};

/* Where each field of struct trace_packet is, in bytes, for a reader that
 * takes them from a mapped file (in the trace's byte order). */
enum trace_packet_layout {
	TRACE_PACKET_OFF_MAGIC = 0,
	TRACE_PACKET_OFF_UUID = 4,
	TRACE_PACKET_UUID_SIZE = 16,
	TRACE_PACKET_OFF_STREAM_INSTANCE_ID = 20,
	TRACE_PACKET_OFF_TIMESTAMP_BEGIN = 24,
	TRACE_PACKET_OFF_TIMESTAMP_END = 32,
	TRACE_PACKET_OFF_CONTENT_SIZE = 40,
	TRACE_PACKET_OFF_PACKET_SIZE = 48,
	TRACE_PACKET_OFF_SEQ_NUM = 56,
	TRACE_PACKET_OFF_EVENTS_DISCARDED = 64,
	TRACE_PACKET_OFF_TID = 72,
	TRACE_PACKET_OFF_PID = 76,
	TRACE_PACKET_OFF_COMM = 80,
	TRACE_PACKET_COMM_SIZE = 16,
	TRACE_PACKET_HEADER_SIZE = 96 /* header + context, bytes */
};

/* The compiler checks the enum against the struct (C99: a negative array
 * size is an error). */
#define TRACE_WIRE__CHECK(name, cond) typedef char trace_wire__check_##name[(cond) ? 1 : -1]
TRACE_WIRE__CHECK(magic, offsetof(struct trace_packet, magic) == TRACE_PACKET_OFF_MAGIC);
TRACE_WIRE__CHECK(uuid, offsetof(struct trace_packet, uuid) == TRACE_PACKET_OFF_UUID);
TRACE_WIRE__CHECK(sid, offsetof(struct trace_packet, stream_instance_id) ==
			       TRACE_PACKET_OFF_STREAM_INSTANCE_ID);
TRACE_WIRE__CHECK(tsb, offsetof(struct trace_packet, timestamp_begin) ==
			       TRACE_PACKET_OFF_TIMESTAMP_BEGIN);
TRACE_WIRE__CHECK(tse,
		  offsetof(struct trace_packet, timestamp_end) == TRACE_PACKET_OFF_TIMESTAMP_END);
TRACE_WIRE__CHECK(cs, offsetof(struct trace_packet, content_size) == TRACE_PACKET_OFF_CONTENT_SIZE);
TRACE_WIRE__CHECK(ps, offsetof(struct trace_packet, packet_size) == TRACE_PACKET_OFF_PACKET_SIZE);
TRACE_WIRE__CHECK(seq, offsetof(struct trace_packet, packet_seq_num) == TRACE_PACKET_OFF_SEQ_NUM);
TRACE_WIRE__CHECK(disc, offsetof(struct trace_packet, events_discarded) ==
				TRACE_PACKET_OFF_EVENTS_DISCARDED);
TRACE_WIRE__CHECK(tid, offsetof(struct trace_packet, tid) == TRACE_PACKET_OFF_TID);
TRACE_WIRE__CHECK(pid, offsetof(struct trace_packet, pid) == TRACE_PACKET_OFF_PID);
TRACE_WIRE__CHECK(comm, offsetof(struct trace_packet, comm) == TRACE_PACKET_OFF_COMM);
TRACE_WIRE__CHECK(size, sizeof(struct trace_packet) == TRACE_PACKET_HEADER_SIZE);
#undef TRACE_WIRE__CHECK

/* The largest window (packet) the recorder makes: a crashed writer leaves
 * at most one window of zeros at the end of a stream.  1 GiB. */
#define TRACE_WINDOW_MAX ((uint64_t)1 << 30)

/* ---- Records ----------------------------------------------------------
 *
 * A record, packed (no alignment) after the previous one in the packet:
 *
 *   event header        compact, 4 bytes: one 32-bit word in the trace's
 *                       byte order, the id in its low 6 bits and the low
 *                       26 bits of the time above (big-endian: the id in
 *                       the top 6 bits); or extended, 13 bytes: one byte
 *                       TRACE_HEADER_EXTENDED (63) in the id's bits, the
 *                       32-bit id, the 64-bit time
 *   the entry           the class's fixed fields as TP_fast_assign wrote them
 *   the variable parts  in declaration order: each __string() NUL-terminated,
 *                       each __dynamic_array() as its elements
 *
 * Ids 0-62 fit a compact header when the time moved by less than 2^26
 * since the record before; anything else is extended.
 */
enum trace_header_form {
	TRACE_HEADER_ID_BITS = 6,
	TRACE_HEADER_EXTENDED = 63, /* id field value: 32-bit id + 64-bit time follow */
	TRACE_HEADER_TS_BITS = 26,  /* compact: low bits of the timestamp */
	TRACE_HEADER_COMPACT_SIZE = 4,
	TRACE_HEADER_EXTENDED_SIZE = 13,
	/* extended: where the id and the time are, bytes after the header's start */
	TRACE_HEADER_EXTENDED_OFF_ID = 1,
	TRACE_HEADER_EXTENDED_OFF_TS = 5
};

/* ---- The event context: the CPU of each record -------------------------
 *
 * Record version 2 (recorders since 7 December 2026): right after its
 * event header (compact or extended), each record holds the CPU the
 * thread ran on when it wrote it, 2 bytes in the trace's byte order
 * (TRACE_CPU_UNKNOWN where the recorder cannot tell: no rseq area), then
 * the entry.  The metadata says so twice: `record_version = 2;` in its
 * env and `event.context := struct { ... cpu_id; }` in its stream block
 * (the name babeltrace2 and LTTng give it).  Version 1 (no env line, no
 * event.context) has no context: the entry follows the header.
 */
enum trace_record_version {
	TRACE_RECORD_VERSION_NO_CPU = 1, /* the header, then the entry */
	TRACE_RECORD_VERSION = 2	 /* the header, the CPU, then the entry */
};
enum trace_event_context {
	TRACE_EVENT_CONTEXT_SIZE = 2, /* bytes: the CPU number */
	TRACE_CPU_UNKNOWN = 0xffff    /* the CPU could not be read */
};

/* ---- The control protocol ---------------------------------------------
 *
 * Request: one line of printable ASCII (0x20-0x7e) ending in '\n', at most
 * TRACE_CTL_REQUEST_MAX bytes with the newline.  Reply: a header line of at
 * most TRACE_CTL_HEADER_MAX bytes ("ok RESULT LEN" or "err ERRNO LEN"),
 * then LEN <= TRACE_CTL_REPLY_MAX bytes of text.  The socket is
 * DIR/<pid>.sock, DIR being $XDG_RUNTIME_DIR/tracepoints or
 * /tmp/tracepoints-<euid>; <trace/control.h> has the whole story.
 */
enum trace_ctl_limits {
	TRACE_CTL_REQUEST_MAX = 4096,	/* bytes in a request, its newline included */
	TRACE_CTL_HEADER_MAX = 64,	/* bytes in a reply's header line */
	TRACE_CTL_REPLY_MAX = 64 << 20, /* bytes in a reply's text */
	TRACE_CTL_CLIENTS = 16,		/* connections served at once */
	TRACE_CTL_IDLE_MS = 5000	/* a connection without progress is closed */
};
#define TRACE_CTL_XDG_SUBDIR "tracepoints"       /* $XDG_RUNTIME_DIR/tracepoints */
#define TRACE_CTL_TMP_PREFIX "/tmp/tracepoints-" /* /tmp/tracepoints-<euid> */
#define TRACE_CTL_SOCKET_FMT "%s/%d.sock"        /* DIR/<pid>.sock */

#endif /* TRACE_WIRE_H_INCLUDED */
