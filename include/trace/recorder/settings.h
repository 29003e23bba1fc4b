/* SPDX-License-Identifier: MIT */
/*
 * trace/recorder/settings.h - the recorder's settings and the start of a
 * trace: the one-time initialization (clock, window and ring sizes from
 * the environment, the thread key, the fork handlers), TRACEPOINTS_MODE,
 * and trace_recorder_output, _trace_dir, _flush, _dropped, _buffer_size and
 * _flight_size.
 *
 * Internal: included by trace/sink.h (TRACEPOINT_SINK_MAIN); depends on
 * recorder/state.h, recorder/env.h, recorder/clock.h, recorder/trace_dir.h,
 * recorder/stream.h and recorder/fork.h (the handlers it registers).
 */
#ifndef TP__SINK_DEFINED
#error "trace/recorder/settings.h is internal: #include <trace/sink.h> instead"
#elif !defined(TP__REC_SETTINGS_H)
#define TP__REC_SETTINGS_H

/* ---- Settings, state, flush. ---- */

/* A window size: n rounded up to a power of two, from 4 KiB to 1 GiB. */
static size_t tp__sink_pow2(size_t n)
{
	size_t p = 4096;
	while (p < n && p < TP__SINK_WINDOW_MAX)
		p <<= 1;
	return p;
}

/* A size in KiB from the environment, from 1 KiB to max: its bytes; def if
 * unset, and if not a whole number of KiB in that range (reported). */
static size_t tp__sink_env_kb(const char *var, size_t def, size_t max, const char *what)
{
	const char *v = tp__sink_getenv(var), *p;
	unsigned long long k = 0;
	char shown[48];
	if (!v)
		return def;
	for (p = v; *p >= '0' && *p <= '9'; p++)
		if (k <= max / 1024) /* stops growing once too big */
			k = k * 10 + (unsigned)(*p - '0');
	if (*v && !*p && k > 0 && k <= max / 1024)
		return (size_t)k * 1024;
	if (*v && !*p && k > 0)
		tp__sink_msg("%s=\"%s\" is more than %zu KiB (%zu MiB), the largest %s; using %zu",
			     var, tp__sink_shown(v, shown, sizeof(shown)), max / 1024, max >> 20,
			     what, def / 1024);
	else
		tp__sink_msg(
			"%s=\"%s\" is not a size in KiB (a whole number from 1 to %zu); using %zu",
			var, tp__sink_shown(v, shown, sizeof(shown)), max / 1024, def / 1024);
	return def;
}

/* A whole number from the environment, from lo to hi: def if unset, and
 * if not digits only or out of range (reported). */
static uint64_t tp__sink_env_num(const char *var, uint64_t lo, uint64_t hi, uint64_t def,
				 const char *what)
{
	const char *v = tp__sink_getenv(var), *p;
	uint64_t k = 0;
	char shown[48];
	if (!v)
		return def;
	for (p = v; *p >= '0' && *p <= '9'; p++)
		if (k <= hi) /* stops growing once too big */
			k = k * 10 + (unsigned)(*p - '0');
	if (*v && !*p && k >= lo && k <= hi)
		return k;
	tp__sink_msg("%s=\"%s\" is not %s (a whole number from %llu to %llu); using %s", var,
		     tp__sink_shown(v, shown, sizeof(shown)), what, (unsigned long long)lo,
		     (unsigned long long)hi, def ? "the default" : "none");
	return def;
}

/* The bounded disk's variables (recorder/disk.h). */
static void tp__sink_init_disk(void)
{
	uint64_t mb = tp__sink_env_num("TRACEPOINTS_MIN_FREE_MB", 0, (uint64_t)1 << 40,
				       (uint64_t)-1, "a size in MiB");
	tp__sink.floor_env = mb == (uint64_t)-1 ? -1 : (int64_t)(mb << 20);
	tp__sink.file_max =
		tp__sink_env_num("TRACEPOINTS_FILE_MB", 1, TP__SINK_FILE_MB_MAX, 0, "a size in MiB")
		<< 20;
	tp__sink.file_count = tp__sink_env_num("TRACEPOINTS_FILE_COUNT", 1, TP__SINK_FILE_COUNT_MAX,
					       0, "a file count");
	if (tp__sink.file_count && !tp__sink.file_max) {
		tp__sink_msg("TRACEPOINTS_FILE_COUNT is ignored without TRACEPOINTS_FILE_MB (the "
			     "size at which a thread's stream file is rotated)");
		tp__sink.file_count = 0;
	}
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
	if (tp__sink.file_count) {
		tp__sink_msg("TRACEPOINTS_FILE_COUNT is ignored on a big-endian machine (its "
			     "records are not counted): every rotated file is kept");
		tp__sink.file_count = 0;
	}
#endif
}

static void tp__sink_init_once(void)
{
	const char *clk = tp__sink_getenv("TRACEPOINTS_CLOCK");
	const char *cpu = tp__sink_getenv("TRACEPOINTS_CPU");
	char shown[48];
	int e;
	pthread_mutex_init(&tp__sink.lock, NULL);
	pthread_mutex_init(&tp__sink.msg_lock, NULL);
	e = pthread_key_create(&tp__sink.key, tp__sink_thread_exit);
	tp__sink.have_key = e == 0;
	if (e)
		tp__sink_msg(
			"cannot create a thread-specific key (%s): the stream of an exited thread "
			"is closed when another thread starts recording, or at exit",
			strerror(e));
	pthread_atfork(tp__sink_atfork_prepare, tp__sink_atfork_parent, tp__sink_atfork_child);
	tp__sink.base.thread_buffer = tp__sink_thread_buffer;
	tp__sink.base.next_window = tp__sink_next_window;
	tp__sink.base.clock = tp__sink_counter_ok() ? TRACE_CLOCK_COUNTER : TRACE_CLOCK_MONOTONIC;
	if (clk && strcmp(clk, "monotonic") == 0)
		tp__sink.base.clock = TRACE_CLOCK_MONOTONIC;
	else if (clk && strcmp(clk, "counter") != 0)
		tp__sink_msg("TRACEPOINTS_CLOCK=\"%s\" is neither counter nor monotonic; using %s",
			     tp__sink_shown(clk, shown, sizeof(shown)),
			     tp__sink.base.clock == TRACE_CLOCK_COUNTER ? "counter" : "monotonic");
	/* TRACEPOINTS_CPU=1: each record holds its CPU (record.h) */
	tp__sink.cpu = cpu && strcmp(cpu, "1") == 0;
	if (cpu && strcmp(cpu, "1") != 0 && strcmp(cpu, "0") != 0)
		tp__sink_msg("TRACEPOINTS_CPU=\"%s\" is neither 0 nor 1; the CPUs are not recorded",
			     tp__sink_shown(cpu, shown, sizeof(shown)));
	tp__sink.window = tp__sink_pow2(tp__sink_env_kb("TRACEPOINTS_BUFFER_KB", (size_t)1 << 20,
							TP__SINK_WINDOW_MAX, "window"));
	tp__sink.flight_bytes = tp__sink_env_kb("TRACEPOINTS_FLIGHT_KB", (size_t)4 << 20,
						TP__SINK_RING_MAX, "flight ring");
	tp__sink_init_disk();
	tp__sink.rootfd = tp__sink.dirfd = tp__sink.metafd = -1;
	tp__sink.pid = (int)getpid();
	__atomic_store_n(&tp__sink.inited, 1, __ATOMIC_RELEASE);
}

static void tp__sink_init(void)
{
	pthread_once(&tp__sink_once, tp__sink_init_once);
}

/* The mode TRACEPOINTS_MODE asks for (stream if unset; a value that is
 * neither is reported once, and stream used). */
static int tp__sink_env_mode(void)
{
	const char *m = tp__sink.env_mode;
	char shown[48];
	if (m && strcmp(m, "flight") == 0)
		return TP__SINK_FLIGHT;
	if (m && strcmp(m, "stream") != 0)
		tp__sink_msg_once(
			"env-mode",
			"TRACEPOINTS_MODE=\"%s\" is neither stream nor flight; using stream",
			tp__sink_shown(m, shown, sizeof(shown)));
	return TP__SINK_STREAM;
}

/* Starts the trace where and how the environment says (TRACEPOINTS_DIR,
 * TRACEPOINTS_MODE), lock held: the first trace_recorder_enable() of a program
 * that did not call trace_recorder_output(). */
static int tp__sink_start_env_trace(void)
{
	tp__sink.mode = tp__sink_env_mode();
	return tp__sink_start_trace(tp__sink.env_dir);
}

TRACEPOINT_SINK_API int trace_recorder_output(const char *mode, const char *dir)
{
	int m, e;
	char shown[48];
	if (mode && (strcmp(mode, "text") == 0 || strcmp(mode, "json") == 0)) {
		tp__sink_msg("output \"%s\": traces are recorded to a directory; tracepoint-dump "
			     "--%s DIR "
			     "makes %s from it",
			     mode, mode, mode);
		return -EINVAL;
	}
	if (mode && strcmp(mode, "stream") != 0 && strcmp(mode, "flight") != 0) {
		tp__sink_msg("output mode \"%s\" is neither stream nor flight", mode);
		return -EINVAL;
	}
	tp__sink_init();
	/* What the program leaves open, the environment chooses; what it
	 * chooses against the environment is said (once), not done silently. */
	if (!mode)
		m = tp__sink_env_mode();
	else
		m = mode[0] == 'f' ? TP__SINK_FLIGHT : TP__SINK_STREAM;
	if (mode && tp__sink.env_mode && strcmp(mode, tp__sink.env_mode) != 0 &&
	    (strcmp(tp__sink.env_mode, "stream") == 0 || strcmp(tp__sink.env_mode, "flight") == 0))
		tp__sink_msg_once("env-mode-program",
				  "TRACEPOINTS_MODE=%s is not used: the program chose "
				  "mode %s (tracepoint_output)",
				  tp__sink.env_mode, mode);
	if (!dir)
		dir = tp__sink.env_dir;
	else if (tp__sink.env_dir && strcmp(dir, tp__sink.env_dir) != 0)
		tp__sink_msg_once("env-dir-program",
				  "TRACEPOINTS_DIR=%s is not used: the program chose the "
				  "trace directory %s (tracepoint_output)",
				  tp__sink_shown(tp__sink.env_dir, shown, sizeof(shown)), dir);
	tp__sink_lock();
	if (tp__sink.recording) {
		tp__sink_unlock();
		return -EBUSY;
	}
	tp__sink.mode = m;
	e = tp__sink_start_trace(dir);
	tp__sink_unlock();
	return e;
}

TRACEPOINT_SINK_API const char *trace_recorder_trace_dir(void)
{
	return __atomic_load_n(&tp__sink.recording, __ATOMIC_ACQUIRE) && !tp__sink.child_pending
		       ? tp__sink.dir
		       : NULL;
}

TRACEPOINT_SINK_API long trace_recorder_flush(void)
{
	struct tp__sink_node *n;
	long e = 0;
	if (!__atomic_load_n(&tp__sink.recording, __ATOMIC_ACQUIRE))
		return 0;
	for (n = __atomic_load_n(&tp__sink.nodes, __ATOMIC_ACQUIRE); n; n = n->next) {
		int fd = __atomic_load_n(&n->fd, __ATOMIC_RELAXED);
		int rfd = __atomic_load_n(&n->ring_fd, __ATOMIC_RELAXED);
		int st = __atomic_load_n(&n->state, __ATOMIC_ACQUIRE);
		if ((st == TP__SINK_OWNED || st == TP__SINK_LATE) && fd >= 0 &&
		    fdatasync(fd) != 0 && errno != EBADF && errno != EINVAL && !e)
			e = -errno;
		/* flight mode: the ring's other files (recorder/stream.h) */
		if ((st == TP__SINK_OWNED || st == TP__SINK_LATE) && fd >= 0 &&
		    tp__sink.mode == TP__SINK_FLIGHT && n->map &&
		    msync(n->map, n->map_len, MS_SYNC) != 0 && errno != ENOMEM && !e)
			e = -errno;
		/* stream mode: the records not yet handed off are in the warm ring */
		if ((st == TP__SINK_OWNED || st == TP__SINK_LATE) && rfd >= 0 &&
		    fdatasync(rfd) != 0 && errno != EBADF && errno != EINVAL && !e)
			e = -errno;
	}
	if (tp__sink.metafd >= 0 && fdatasync(tp__sink.metafd) != 0 && !e)
		e = -errno;
	return e;
}

TRACEPOINT_SINK_API unsigned long long trace_recorder_dropped(void)
{
	struct tp__sink_node *n;
	unsigned long long d = __atomic_load_n(&tp__sink.lost, __ATOMIC_RELAXED) +
			       __atomic_load_n(&tp__sink.gone_dropped, __ATOMIC_RELAXED);
	for (n = __atomic_load_n(&tp__sink.nodes, __ATOMIC_ACQUIRE); n; n = n->next)
		if (__atomic_load_n(&n->state, __ATOMIC_ACQUIRE) != TP__SINK_FREE)
			d += __atomic_load_n(&n->b.dropped, __ATOMIC_RELAXED);
	return d;
}

TRACEPOINT_SINK_API void trace_recorder_buffer_size(size_t bytes)
{
	tp__sink_init();
	tp__sink_lock();
	tp__sink.window = tp__sink_pow2(bytes);
	tp__sink_unlock();
}

TRACEPOINT_SINK_API void trace_recorder_flight_size(size_t bytes)
{
	tp__sink_init();
	tp__sink_lock();
	tp__sink.flight_bytes = bytes < TP__SINK_RING_MAX ? bytes : TP__SINK_RING_MAX;
	tp__sink_unlock();
}

#endif /* TP__REC_SETTINGS_H */
