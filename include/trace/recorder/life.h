/* SPDX-License-Identifier: MIT */
/*
 * trace/recorder/life.h - the start and end of the program: the constructor
 * (from .preinit_array in an executable) that reads TRACEPOINTS and
 * starts recording, and the destructor that, at exit(), settles the
 * stream files, completes the metadata and says where the trace is.
 *
 * Internal: included by trace/sink.h (TRACEPOINT_SINK_MAIN), after the
 * other parts of the recorder (before the control channel's); depends on
 * recorder/state.h, recorder/env.h, recorder/clock.h, recorder/metadata.h,
 * recorder/stream.h, recorder/flight.h, recorder/settings.h,
 * recorder/enable.h, recorder/filters.h, recorder/hist_spec.h (a trigger's
 * check), recorder/list.h and trace/pattern.h.
 */
#ifndef TP__SINK_DEFINED
#error "trace/recorder/life.h is internal: #include <trace/sink.h> instead"
#elif !defined(TP__REC_LIFE_H)
#define TP__REC_LIFE_H

/* ---- Start and end of the program. ---- */

static int tp__sink_signal_number(const char *v)
{
	static const struct {
		const char *name;
		int sig;
	} names[] = { { "USR1", SIGUSR1 }, { "USR2", SIGUSR2 },	 { "HUP", SIGHUP },
		      { "INT", SIGINT },   { "QUIT", SIGQUIT },	 { "TERM", SIGTERM },
		      { "PWR", SIGPWR },   { "WINCH", SIGWINCH } };
	size_t i;
	char *end;
	long n;
	if (strncmp(v, "SIG", 3) == 0)
		v += 3;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(v, names[i].name) == 0)
			return names[i].sig;
	n = strtol(v, &end, 10);
	return *v && !*end && n > 0 && n < 65 && n != SIGKILL && n != SIGSTOP ? (int)n : -1;
}

/* Runs before the executable's other constructors, so that their events
 * are recorded too; in an executable, from .preinit_array (below), before
 * the constructors of the libraries it links, so that the events those
 * fire are recorded as well.  Once, whichever runs first. */
static int tp__sink_started;
__attribute__((constructor(101))) static void tp__sink_start(void)
{
	const char *tp, *mode, *sig, *dir;
	char shown[48];
	if (__atomic_exchange_n(&tp__sink_started, 1, __ATOMIC_RELAXED))
		return;
	tp = tp__sink_getenv("TRACEPOINTS");
	mode = tp__sink_getenv("TRACEPOINTS_MODE");
	sig = tp__sink_getenv("TRACEPOINTS_SNAPSHOT_SIGNAL");
	dir = tp__sink_getenv("TRACEPOINTS_DIR");
	tp__sink_env_check();
	/* Where and how a trace goes, whoever starts it: this, the program's
	 * own trace_recorder_enable() or trace_recorder_output(mode or dir NULL), or
	 * the control channel. */
	if (dir && *dir)
		tp__sink.env_dir = strdup(dir);
	if (mode)
		tp__sink.env_mode = strdup(mode);
	if (!tp || tp__spec_blank(tp))
		return; /* unset, empty groups only, or ignored (a set-user-ID program...): silently */
	if (strcmp(tp, "list") == 0 || strcmp(tp, "list-format") == 0) {
		if (tp[4])
			trace_recorder_format_print(stdout);
		else
			trace_recorder_list_print(stdout);
		fflush(stdout);
		exit(0);
	}
	tp__sink_init();
	{
		size_t pos;
		const char *why;
		/* a hist trigger's group is checked (and reported) by its own
		 * checker; the other specs by trace_recorder_enable() */
		if (tp__hist_spec_has(tp)) {
			if (tp__hist_check(tp) != 0)
				return; /* reported; no trace is started */
		} else if (trace_spec_is_plain(tp) ? trace_pattern_check(tp, &pos, &why) != 0
						   : tp__sink_spec_check(tp, 0, 1) != 0) {
			trace_recorder_enable(tp); /* reports it; no trace is started */
			return;
		}
	}
	if (tp__sink_getenv("TRACEPOINTS_OUTPUT") || tp__sink_getenv("TRACEPOINTS_FILE"))
		tp__sink_msg("TRACEPOINTS_OUTPUT and TRACEPOINTS_FILE are no longer read: the "
			     "trace is a "
			     "directory (TRACEPOINTS_DIR); tracepoint-dump --text or --json DIR "
			     "formats it");
	/* TRACEPOINTS_DIR and TRACEPOINTS_MODE (a bad mode reported there) */
	if (trace_recorder_output(NULL, NULL) != 0)
		return; /* reported; nothing is recorded */
	if (sig) {
		int s = tp__sink_signal_number(sig);
		if (s < 0 || tp__sink.mode != TP__SINK_FLIGHT) {
			tp__sink_msg("TRACEPOINTS_SNAPSHOT_SIGNAL=\"%s\" ignored: %s",
				     tp__sink_shown(sig, shown, sizeof(shown)),
				     s < 0 ? "not a signal name or number"
					   : "snapshots need TRACEPOINTS_MODE=flight");
		} else {
			tp__sink_signal(s, tp__sink_snapshot_signal);
		}
	}
	trace_recorder_enable(tp);
}

/* exit() has begun in this thread: from now on only this thread changes
 * stream files (tp__sink_file_begin); waits, for at most a second, until
 * no other thread is in the middle of such a change.  1 if none is. */
static int tp__sink_settle(void)
{
	int i;
	__atomic_store_n(&tp__sink.closer, tp__self(), __ATOMIC_RELAXED);
	__atomic_store_n(&tp__sink.closing, 1, __ATOMIC_SEQ_CST);
	for (i = 0; __atomic_load_n(&tp__sink.switching, __ATOMIC_SEQ_CST) != 0; i++) {
		struct timespec ts = { 0, TP__SINK_SETTLE_WAIT_NS };
		if (i >= TP__SINK_SETTLE_WAITS)
			return 0; /* a thread stopped in the middle (SIGSTOP, a hung disk) */
		nanosleep(&ts, NULL);
	}
	return 1;
}

/* The dynamic linker runs an executable's .preinit_array before any
 * library's constructor (ELF; a shared object may not have one: where this
 * file is not built for an executable - -fPIC without -fPIE, a preloaded
 * recorder - the constructor above starts the recorder, after the
 * constructors of the libraries loaded before it). */
#if defined(__PIE__) || !defined(__PIC__)
/* Called with the process's arguments and environment: the C library sets
 * environ (to the same envp) only in its own initializer, which runs after
 * this one (tp__sink_environ: environ, recorder/env.h). */
static void tp__sink_preinit_fn(int argc, char **argv, char **envp)
{
	(void)argc;
	(void)argv;
	if (!tp__sink_environ)
		tp__sink_environ = envp;
	tp__sink_start();
}
__attribute__((section(".preinit_array"),
	       used)) static void (*tp__sink_preinit)(int, char **, char **) = tp__sink_preinit_fn;
#endif

/* At a normal exit: the clock's frequency measured over the whole run
 * goes into the metadata, and a summary to stderr.  Threads (this one
 * included) keep recording afterwards: other destructors' and atexit
 * handlers' events are kept too, in the windows the threads have (only
 * this thread maps new ones: tp__sink_file_begin). */
__attribute__((destructor(101))) static void tp__sink_end(void)
{
	struct tp__sink_node *n;
	unsigned long long d, bytes;
	int e, settled;
	if (!__atomic_load_n(&tp__sink.inited, __ATOMIC_ACQUIRE) ||
	    !__atomic_load_n(&tp__sink.recording, __ATOMIC_ACQUIRE))
		return;
	settled = tp__sink_settle();
	tp__sink_lock();
	if (tp__sink.dirfd < 0) { /* a forked child that recorded nothing */
		tp__sink_unlock();
		return;
	}
	if (tp__sink.nslots == 0) {
		/* No event was ever enabled (e.g. a misspelt TRACEPOINTS, reported
		 * at start): leave no empty trace behind. */
		unlinkat(tp__sink.dirfd, "metadata", 0);
		if (unlinkat(tp__sink.rootfd, tp__sink.dir + strlen(tp__sink.root) + 1,
			     AT_REMOVEDIR) == 0)
			rmdir(tp__sink.root); /* only if that left it empty */
		tp__sink_unlock();
		return;
	}
	if (tp__sink.base.clock == TRACE_CLOCK_COUNTER) {
		uint64_t f = tp__sink_measure_freq(tp__sink.c0, tp__sink.m0, 0);
		if (f > tp__sink.freq / 2 && f < tp__sink.freq * 2)
			tp__sink.freq = f;
	}
	e = tp__sink_write_metadata(tp__sink.dirfd, "metadata", tp__sink.uuid);
	if (e == 0) {
		if (tp__sink.metafd >= 0)
			close(tp__sink.metafd);
		tp__sink.metafd = openat(tp__sink.dirfd, "metadata",
					 O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW);
	} else {
		tp__sink_err_once(TP__SINK_ERR_META, "cannot write %s/metadata: %s", tp__sink.dir,
				  strerror(-e));
	}
	tp__sink_unlock();
	/* streams left open by threads gone (events after their exit handler) */
	for (n = __atomic_load_n(&tp__sink.nodes, __ATOMIC_ACQUIRE); n; n = n->next)
		tp__sink_reap_node(n, (int)getpid());
	bytes = __atomic_load_n(&tp__sink.gone_bytes, __ATOMIC_RELAXED);
	for (n = __atomic_load_n(&tp__sink.nodes, __ATOMIC_ACQUIRE); n; n = n->next) {
		int st;
		/* as a snapshot does: an exiting thread's ring stays mapped meanwhile */
		__atomic_add_fetch(&n->snap_busy, 1, __ATOMIC_SEQ_CST);
		st = __atomic_load_n(&n->state, __ATOMIC_SEQ_CST);
		/* Another thread's ring is read only once no thread changes
		 * files any more (settled); else its handed-off packets only.
		 * Stream mode: this thread's warm ring goes to its stream file
		 * whole (tp__sink_go_direct); each other thread's closed packets
		 * do, its open packet staying in its ring, a stream of its own
		 * (the thread may record more into it). */
		if ((st == TP__SINK_OWNED || st == TP__SINK_LATE) && n->fd >= 0) {
			int own = n == tp__sink_mine;
			if (n->b.pkt && (settled || own) && tp__sink.mode == TP__SINK_STREAM &&
			    n->map && !n->direct) {
				if (tp__sink_file_begin()) {
					if (own) {
						n->b.busy =
							1; /* a signal handler's record is dropped meanwhile */
						tp__sink_go_direct(n);
						n->b.busy = 0;
					} else {
						tp__sink_hand_closed(n);
					}
				}
				tp__sink_file_end();
			}
			bytes += n->bytes;
			if (n->b.pkt && (settled || own))
				bytes +=
					__atomic_load_n(&n->b.pkt->content_size, __ATOMIC_ACQUIRE) /
					8u;
		}
		__atomic_sub_fetch(&n->snap_busy, 1, __ATOMIC_SEQ_CST);
	}
	d = trace_recorder_dropped();
	if (__atomic_load_n(&tp__sink.errs, __ATOMIC_RELAXED))
		tp__sink_msg(
			"the trace in %s is incomplete (see the errors above); %llu record(s) lost",
			tp__sink.dir, d);
	else
		tp__sink_msg("trace in %s (%.1f KiB%s); read it with: tracepoint-dump %s",
			     tp__sink.dir, (double)bytes / 1024,
			     d ? ", some records dropped: see below" : "", tp__sink.root);
	if (d)
		tp__sink_msg("%llu record(s) dropped (counted in the trace)", d);
}

#endif /* TP__REC_LIFE_H */
