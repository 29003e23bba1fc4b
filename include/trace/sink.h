/* SPDX-License-Identifier: MIT */
/*
 * trace/sink.h - the built-in recorder: runtime control by pattern or by the
 * TRACEPOINTS environment variable, and traces streamed to disk as CTF.
 *
 * Where the once-per-program state lives
 * --------------------------------------
 *   Exactly one translation unit of the program (normally the one with
 *   main()) does
 *
 *       #define TRACEPOINT_SINK_MAIN
 *       #include <trace/sink.h>
 *
 *   That file holds the recorder's state and the definitions, with default
 *   visibility, of the functions declared below; every other file that
 *   includes <trace/sink.h> only gets the declarations.  Recorders need no
 *   global symbol: the sink hands each recorder probe its state as the
 *   probe's `void *data`, so the events of the executable, of linked
 *   libraries and of libraries dlopen()ed later all go to the same trace.
 *
 * What is recorded, and where (docs/trace-format.md)
 * --------------------------------------------------
 *   TRACEPOINTS_DIR is a session directory holding one trace per process
 *   (forked children and exec()ed programs add theirs).  A trace is a
 *   directory: a CTF `metadata` file (every enabled event with its fields,
 *   written before the event is attached) and one stream file per thread.  Each thread records into a window of its own file, mapped
 *   MAP_SHARED: a record is a few stores, and when the window is full the
 *   thread maps the next one.  Nothing is formatted in the traced process,
 *   no thread is started, and no lock is shared between recording threads.
 *   The pages belong to the file, so a process that dies - killed, crashed,
 *   _exit, exec - leaves every committed record on disk.  Read a trace with
 *   tools/tracepoint-dump (text, Chrome JSON, summary) or babeltrace2.
 *
 *   Flight-recorder mode keeps a fixed ring per thread instead (the last
 *   TRACEPOINTS_FLIGHT_KB of each thread); trace_recorder_snapshot() freezes a
 *   copy that later records cannot overwrite.
 *
 * Environment (read at start-up by the TRACEPOINT_SINK_MAIN file: in an
 * executable before any library's constructor, from .preinit_array;
 * all ignored, silently, in a set-user-ID, set-group-ID or file-capability
 * program: docs/recording.md)
 * ---------------------------------------------------------------------
 *   TRACEPOINTS=list                 print every tracepoint and exit(0)
 *   TRACEPOINTS="kmem:*,timer:timer_start"   record these (trace/pattern.h)
 *   TRACEPOINTS='kmem:kmalloc if bytes_req > 4096; timer:*'   with a field
 *                                    filter (trace/filter.h)
 *   TRACEPOINTS_DIR=path             the session directory (default
 *                                    trace-<comm>-<pid>, made new), also
 *                                    for the program's own trace_recorder_enable();
 *                                    a symbolic link in it that another user
 *                                    could have made is refused, at any
 *                                    component (docs/recording.md)
 *   TRACEPOINTS_MODE=stream|flight   default stream
 *   TRACEPOINTS_BUFFER_KB=n          window (packet) size, default 1024, at most
 *                                    1048576 (1 GiB)
 *   TRACEPOINTS_FLIGHT_KB=n          flight mode: ring per thread, default 4096, at
 *                                    most 4194304 (4 GiB)
 *   TRACEPOINTS_SNAPSHOT_SIGNAL=SIGUSR2   flight mode: snapshot on a signal
 *   TRACEPOINTS_CLOCK=counter|monotonic  default counter where usable
 *   TRACEPOINTS_MIN_FREE_MB=n        stop writing above n MiB free (default
 *                                    5 % of the file system, at most 1024; 0: none)
 *   TRACEPOINTS_FILE_MB=n            rotate each thread's stream file at n MiB
 *   TRACEPOINTS_FILE_COUNT=k         ... keeping its k newest files
 *                                    (recorder/disk.h, docs/recording.md)
 *   TRACEPOINTS_CONTROL=1            open the control channel (trace/control.h)
 * (a TRACEPOINTS-like name not listed here is reported: trace/recorder/env.h)
 */
#ifndef TRACE_SINK_H_INCLUDED
#define TRACE_SINK_H_INCLUDED

#include <trace/trace_events.h>
#include <trace/pattern.h>
#include <trace/filter.h>
#include <trace/hist_core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What trace_recorder_list() reports for each tracepoint. */
struct tracepoint_info {
	struct tracepoint *tp;
	const struct trace_event *event; /* NULL: plain DECLARE_TRACE, not recordable */
	const char *system;		 /* "" for a plain tracepoint */
	const char *name;
	int enabled; /* the recorder is attached */
};

#define TRACEPOINT_SINK_API __attribute__((visibility("default")))

/* With -DCONFIG_TRACEPOINTS_OFF (every subsystem compiled out) there is
 * no recorder, and the functions below, old names included, are empty
 * inlines instead (recorder/off.h, at the end of this list, has what they
 * return). */
#if !TP__IS_ONE(CONFIG_TRACEPOINTS_OFF)

/* Attaches the recorder to every event matching the pattern list; the
 * first call starts the trace, unless trace_recorder_output() did, in
 * TRACEPOINTS_DIR and TRACEPOINTS_MODE (as at start-up; else the default
 * directory and stream mode).  Returns how many events matched (events
 * already recorded count; 0: none, reported on stderr), -EINVAL for a
 * malformed or NULL list (reported with its position, nothing changed), or
 * the first error (starting the trace: -errno, reported with the path;
 * registering: e.g. -ENOMEM, -EPERM, reported with the event). */
TRACEPOINT_SINK_API int trace_recorder_enable(const char *patterns);
/* Detaches the recorder from every event matching the pattern list.
 * Returns how many events matched (0: none, reported), or -EINVAL for a
 * malformed or NULL list (reported, nothing changed). */
TRACEPOINT_SINK_API int trace_recorder_disable(const char *patterns);
/* Sets the field filter (trace/filter.h) of every event matching the
 * pattern list; NULL or "" clears it.  Returns how many events matched
 * (0: none, reported like the errors), -EINVAL for a malformed list or filter, a field an
 * event does not have or a type mismatch (nothing changed; the message,
 * with its position and a caret, goes to err[0..errlen) if err is not
 * NULL, else to stderr), or -ENOMEM. */
TRACEPOINT_SINK_API int trace_recorder_filter(const char *patterns, const char *filter, char *err,
					      size_t errlen);
/* Starts the trace: mode "stream" or "flight" (NULL: TRACEPOINTS_MODE,
 * else stream), dir the session directory (NULL: TRACEPOINTS_DIR, else
 * trace-<comm>-<pid>, made new); a mode or dir that differs from the
 * environment's is used, and said once on stderr.  0, -EINVAL (unknown mode; "text" and
 * "json" are made by tracepoint-dump from a trace), -EBUSY (a trace is
 * already being recorded) or -errno (cannot create it; reported). */
TRACEPOINT_SINK_API int trace_recorder_output(const char *mode, const char *dir);
/* This process's trace directory (SESSION/<comm>-<pid>), or NULL before the
 * trace starts and in a forked child before its first record. */
TRACEPOINT_SINK_API const char *trace_recorder_trace_dir(void);
/* Writes what was recorded so far through to storage (fdatasync of every
 * open stream and of the metadata): 0 (also when nothing is recorded) or
 * the first -errno.  Not needed for a complete trace: the pages are the
 * file's, the kernel writes them back even if the process dies. */
TRACEPOINT_SINK_API long trace_recorder_flush(void);
/* Flight mode: copies the rings as they are now into <dir>/snapshot-<n>
 * (a trace of its own) and returns n (1, 2, ...); -EINVAL in stream mode
 * or when nothing is recorded, -EBUSY if the recorder's lock is held (a
 * snapshot from a signal handler that interrupted trace_recorder_enable), or
 * -errno.  Async-signal-safe. */
TRACEPOINT_SINK_API int trace_recorder_snapshot(void);
/* Records lost so far (cannot fail): a nested record from a signal
 * handler, a window that could not be allocated (disk full), a record
 * bigger than a window. */
TRACEPOINT_SINK_API unsigned long long trace_recorder_dropped(void);
/* Calls fn for every tracepoint of the running program; a non-zero return
 * stops the walk and is returned; 0 after a full walk; -EINVAL for NULL fn.
 * fn must not dlopen/dlclose. */
TRACEPOINT_SINK_API int trace_recorder_list(int (*fn)(const struct tracepoint_info *info,
						      void *priv),
					    void *priv);
/* Prints the TRACEPOINTS=list lines, "system:event (fields...)" and the
 * kind of a slice, counter or flow ("[slice_begin]", "[counter flow]"...),
 * one per tracepoint, to out (NULL: stdout).  No return value. */
TRACEPOINT_SINK_API void trace_recorder_list_print(FILE *out);
/* Prints the format of every event (TRACEPOINTS=list-format) in the
 * layout of the kernel's tracefs "format" files, each after a "system:"
 * line (the kernel's file has it in its path): name, ID (the event's
 * position in this list), one "field:" line per field with its offset in
 * the entry, size and signedness, and "print fmt:".  To out (NULL:
 * stdout); no return value. */
TRACEPOINT_SINK_API void trace_recorder_format_print(FILE *out);
/* Window (packet) size for streams opened from now on: rounded up to a
 * power of two, at least 4096, at most 1 GiB.  No return value: any size
 * is brought into that range. */
TRACEPOINT_SINK_API void trace_recorder_buffer_size(size_t bytes);
/* Flight mode: bytes of ring per thread for streams opened from now on
 * (at least two windows, at most 4 GiB).  No return value: any size is
 * brought into that range. */
TRACEPOINT_SINK_API void trace_recorder_flight_size(size_t bytes);
#endif /* !CONFIG_TRACEPOINTS_OFF */

/* The histograms of the hist triggers ("kmem:kmalloc hist:keys=call_site:
 * vals=bytes_req", added by trace_recorder_enable or TRACEPOINTS) on the
 * events the pattern list selects (NULL or "": all), each in the layout
 * of the kernel's hist file after a "# system:event" line: a malloc()ed
 * text (free it), or NULL when memory runs out.  Readable at any time,
 * from any thread but a signal handler. */
TRACEPOINT_SINK_API char *trace_recorder_hist_text(const char *patterns);
/* The same text written to out (NULL: stderr): 0, -ENOMEM or -EIO. */
TRACEPOINT_SINK_API int trace_recorder_hist_print(const char *patterns, FILE *out);

/* Old names, kept: each function above was called tracepoint_<name>
 * (tracepoint_enable, _disable, _filter, _output, _trace_dir, _flush,
 * _snapshot, _dropped, _list, _list_print, _format_print, _buffer_size,
 * _flight_size), which put tracepoint_enable() one letter from the core's
 * tracepoint_enabled().  They stay exported functions, so that a program
 * or library built against them links and runs as before: declared here
 * from this list of (type, name, parameters, arguments), P for the ones
 * without a value; each calls its trace_recorder_<name>
 * (recorder/old_names.h).  New code uses the new names
 * (docs/reference.md#old-names). */
#define TP__SINK_OLD_NAMES(F, P)                                                              \
	F(int, enable, (const char *patterns), (patterns))                                    \
	F(int, disable, (const char *patterns), (patterns))                                   \
	F(int, filter, (const char *patterns, const char *filter, char *err, size_t errlen),  \
	  (patterns, filter, err, errlen))                                                    \
	F(int, output, (const char *mode, const char *dir), (mode, dir))                      \
	F(const char *, trace_dir, (void), ())                                                \
	F(long, flush, (void), ())                                                            \
	F(int, snapshot, (void), ())                                                          \
	F(unsigned long long, dropped, (void), ())                                            \
	F(int, list, (int (*fn)(const struct tracepoint_info *info, void *priv), void *priv), \
	  (fn, priv))                                                                         \
	P(list_print, (FILE *out), (out))                                                     \
	P(format_print, (FILE *out), (out))                                                   \
	P(buffer_size, (size_t bytes), (bytes))                                               \
	P(flight_size, (size_t bytes), (bytes))
/* tracepoint_<name> calls trace_recorder_<name>, for every old name (the
 * list above, then trace/control.h's three), each with TP__SINK_OLD_STORAGE
 * in front: exported functions (recorder/old_names.h) or, with
 * CONFIG_TRACEPOINTS_OFF, empty inlines (recorder/off.h). */
#define TP__SINK_OLD_WRAP(type, name, params, args)                   \
	TP__SINK_OLD_STORAGE type tracepoint_##name params            \
	{                                                             \
		return trace_recorder_##name args;                    \
	}
#define TP__SINK_OLD_WRAP_VOID(name, params, args)                    \
	TP__SINK_OLD_STORAGE void tracepoint_##name params            \
	{                                                             \
		trace_recorder_##name args;                           \
	}
#define TP__SINK_OLD_WRAPPERS()                                       \
	TP__SINK_OLD_NAMES(TP__SINK_OLD_WRAP, TP__SINK_OLD_WRAP_VOID) \
	TP__SINK_OLD_WRAP(int, control_start, (void), ())             \
	TP__SINK_OLD_WRAP(int, control_stop, (void), ())              \
	TP__SINK_OLD_WRAP(const char *, control_path, (void), ())
#define TP__SINK_OLD_DECLARE(type, name, params, args) \
	TRACEPOINT_SINK_API type tracepoint_##name params;
#define TP__SINK_OLD_DECLARE_VOID(name, params, args) \
	TRACEPOINT_SINK_API void tracepoint_##name params;
#if !TP__IS_ONE(CONFIG_TRACEPOINTS_OFF)
TP__SINK_OLD_NAMES(TP__SINK_OLD_DECLARE, TP__SINK_OLD_DECLARE_VOID)
#else
#include "recorder/off.h"
#endif

#ifdef __cplusplus
}
#endif

#include <trace/control.h> /* the control channel (tracepoint-ctl): its API */

/* ======================================================================== */
/* The recorder itself: only in the one TRACEPOINT_SINK_MAIN translation unit. */
/* ======================================================================== */
#if defined(TRACEPOINT_SINK_MAIN) && !TP__IS_ONE(CONFIG_TRACEPOINTS_OFF)
#ifdef TP__SINK_DEFINED
#error "TRACEPOINT_SINK_MAIN: the sink is defined once per translation unit"
#endif
#define TP__SINK_DEFINED

/* The parts, each using only the ones before it (docs/design.md#files). */
#include "recorder/libc.h" /* libc headers: first, outside extern "C" */

#ifdef __cplusplus
extern "C" {
#endif

#include "recorder/state.h"	   /* the state, its locks, messages */
#include "recorder/env.h"	   /* the variables; misspelt ones said at start-up */
#include "recorder/clock.h"	   /* the clock: counter or CLOCK_MONOTONIC */
#include "recorder/metadata.h"	   /* the CTF metadata */
#include "recorder/trace_dir.h"	   /* the session and trace directories */
#include "recorder/disk.h"	   /* free-space floor, rotation */
#include "recorder/stream.h"	   /* threads, their windows, stream files */
#include "recorder/fork.h"	   /* fork(): the child's own trace */
#include "recorder/flight.h"	   /* flight rings and snapshots */
#include "recorder/settings.h"	   /* settings, trace start, flush */
#include "recorder/enable.h"	   /* enabling by pattern */
#include "recorder/filters.h"	   /* field filters, "patterns if filter" */
#include "recorder/hist.h"	   /* hist triggers: tables, fire path, output */
#include "recorder/hist_vars.h"	   /* their variables, onmatch(), synthetic events */
#include "recorder/hist_spec.h"	   /* hist triggers in TRACEPOINTS */
#include "recorder/list.h"	   /* listing (TRACEPOINTS=list) */
#include "recorder/life.h"	   /* start and end of the program */
#include "recorder/ctl_commands.h" /* the control channel: state, replies, commands */
#include "recorder/ctl_server.h"   /* its thread, connections, start and stop */
#include "recorder/old_names.h"	   /* the functions by their old names */

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TRACEPOINT_SINK_MAIN && !CONFIG_TRACEPOINTS_OFF */

#endif /* TRACE_SINK_H_INCLUDED */
