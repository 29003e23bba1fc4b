/* SPDX-License-Identifier: MIT */
/*
 * trace/control.h - the recorder's control channel: tracepoint-ctl lists,
 * enables and disables events, takes snapshots and flushes the trace of a
 * running program, over a unix socket of that process.
 *
 * Included by <trace/sink.h>, after its declarations.  This file is the
 * channel's public API only; the channel itself (trace/recorder/
 * ctl_commands.h, ctl_server.h) is compiled, like the rest of the
 * recorder, in the TRACEPOINT_SINK_MAIN translation unit only, from
 * <trace/sink.h>.  The protocol's constants are in <trace/wire.h>, which
 * tools/tracepoint-ctl.c includes.
 *
 * Opt-in only
 * -----------
 *   A program gets a channel when it opts in: TRACEPOINTS_CONTROL=1 in its
 *   environment at start-up, or a call to trace_recorder_control_start().
 *   Otherwise nothing exists: no thread, no descriptor, no file, no fork or
 *   exit handler.  Never in a process with AT_SECURE (set-user-ID,
 *   set-group-ID, file capabilities): the variable is ignored there and
 *   trace_recorder_control_start() returns -EPERM.
 *
 * Where, and who may connect
 * --------------------------
 *   The socket is DIR/<pid>.sock, DIR being $XDG_RUNTIME_DIR/tracepoints
 *   when XDG_RUNTIME_DIR is an absolute path to a directory, else
 *   /tmp/tracepoints-<euid>.  DIR is made mode 0700 if missing and used
 *   only if it is a directory (not a symbolic link) owned by the process's
 *   effective uid with no group or other permission; the socket is mode
 *   0600.  Another user cannot deny the channel by taking the /tmp name
 *   first (a directory, link or file of theirs there): the program then
 *   uses /tmp/tracepoints-<euid>-XXXXXX, a directory of its user's own
 *   whose name nobody can predict (one made before by that user, 0700, or
 *   a new one from mkdtemp), and says so on stderr; tracepoint-ctl PID
 *   looks there too.  Every connection is checked again with SO_PEERCRED: a peer of
 *   another uid than the process's effective uid (root included) is
 *   refused.
 *
 * The thread
 * ----------
 *   One thread, "tp-control", with every signal blocked, serves up to
 *   TP__CTL_CLIENTS connections at once with poll(): a connection that
 *   makes no progress for TP__CTL_IDLE_MS is closed, and when all slots
 *   are taken a new connection replaces the one idle longest, so neither a
 *   half-open connection nor a flood keeps a good client out.  fork(): the
 *   child has no channel (it closes the inherited descriptors; it may call
 *   trace_recorder_control_start() for one of its own); exec(): the
 *   descriptors are O_CLOEXEC; exit(): the thread is stopped and the
 *   socket unlinked (not after _exit() or a fatal signal: the next process
 *   with that pid, or tracepoint-ctl's message, deals with the stale file).
 *
 * Protocol (docs/reference.md#control-protocol)
 * ---------------------------------------------
 *   Request: one line of printable ASCII (0x20-0x7e) ending in '\n', at
 *   most TP__CTL_REQUEST_MAX bytes with the newline:
 *       list | enable PATTERNS | disable PATTERNS | snapshot | flush
 *   (one space between the command and its argument).  Reply: a header
 *   line, then exactly LEN bytes of text (lines ending in '\n'):
 *       ok RESULT LEN\n      RESULT >= 0 (events matched, snapshot number...)
 *       err ERRNO LEN\n      ERRNO > 0 (EINVAL, ENOENT, EMSGSIZE, EACCES...)
 *   Several requests may follow each other on one connection; a request
 *   that cannot be parsed (a byte outside 0x20-0x7e, no newline within the
 *   limit, an end of file in the middle of a line) gets an err reply and
 *   the connection is closed.
 */
#ifndef TRACE_CONTROL_H_INCLUDED
#define TRACE_CONTROL_H_INCLUDED

#ifndef TRACEPOINT_SINK_API
#define TRACEPOINT_SINK_API __attribute__((visibility("default")))
#endif

/* The protocol's limits and places are <trace/wire.h>'s (shared with
 * tools/tracepoint-ctl.c); the names used below are aliases of them. */
#include <trace/wire.h>
#define TP__CTL_REQUEST_MAX TRACE_CTL_REQUEST_MAX
#define TP__CTL_HEADER_MAX TRACE_CTL_HEADER_MAX
#define TP__CTL_REPLY_MAX TRACE_CTL_REPLY_MAX
#define TP__CTL_CLIENTS TRACE_CTL_CLIENTS
#define TP__CTL_IDLE_MS TRACE_CTL_IDLE_MS
#define TP__CTL_XDG_SUBDIR TRACE_CTL_XDG_SUBDIR
#define TP__CTL_TMP_PREFIX TRACE_CTL_TMP_PREFIX
#define TP__CTL_SOCKET_FMT TRACE_CTL_SOCKET_FMT

/* With -DCONFIG_TRACEPOINTS_OFF, <trace/sink.h> holds the functions
 * below as empty inlines (trace/recorder/off.h). */
#ifdef CONFIG_TRACEPOINTS_OFF
#include <trace/sink.h>
#endif
#ifndef TP__REC_OFF_H

#ifdef __cplusplus
extern "C" {
#endif

/* Opens this process's control channel (what TRACEPOINTS_CONTROL=1 does at
 * start-up): 0, also if it is open already; -EPERM in a process with
 * AT_SECURE; -errno if the directory or the socket cannot be made or used,
 * or the thread cannot be started (reported on stderr with the path). */
TRACEPOINT_SINK_API int trace_recorder_control_start(void);
/* Closes it: stops the thread (a command under way finishes first),
 * unlinks the socket.  0, also when there is none.  Must not be called
 * from a signal handler. */
TRACEPOINT_SINK_API int trace_recorder_control_stop(void);
/* The socket's path while the channel is open, else NULL. */
TRACEPOINT_SINK_API const char *trace_recorder_control_path(void);

/* Old names, kept (as in <trace/sink.h>): the same functions, called
 * tracepoint_control_* before (recorder/old_names.h). */
TRACEPOINT_SINK_API int tracepoint_control_start(void);
TRACEPOINT_SINK_API int tracepoint_control_stop(void);
TRACEPOINT_SINK_API const char *tracepoint_control_path(void);

#ifdef __cplusplus
}
#endif

#endif /* !TP__REC_OFF_H */

#endif /* TRACE_CONTROL_H_INCLUDED */
