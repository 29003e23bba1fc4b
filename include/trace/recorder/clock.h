/* SPDX-License-Identifier: MIT */
/*
 * trace/recorder/clock.h - the clock of the records: the CPU's counter
 * where it is usable (rdtsc, cntvct_el0), else CLOCK_MONOTONIC, and the
 * counter's frequency, measured against CLOCK_MONOTONIC.
 *
 * Internal: included by trace/sink.h (TRACEPOINT_SINK_MAIN); depends on
 * recorder/state.h (tp__sink_ns, the anchor in tp__sink).
 */
#ifndef TP__SINK_DEFINED
#error "trace/recorder/clock.h is internal: #include <trace/sink.h> instead"
#elif !defined(TP__REC_CLOCK_H)
#define TP__REC_CLOCK_H

/* ---- The clock. ---- */

/* Is the cycle counter a usable clock?  x86-64: constant and nonstop TSC;
 * aarch64: always (the generic timer). */
static int tp__sink_counter_ok(void)
{
#if defined(__x86_64__)
	char line[4096];
	int ok = 0;
	FILE *f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5) != 0)
			continue;
		ok = strstr(line, " constant_tsc") && strstr(line, " nonstop_tsc");
		break;
	}
	fclose(f);
	return ok;
#elif defined(__aarch64__)
	return 1;
#else
	return 0;
#endif
}

/* A (counter, CLOCK_MONOTONIC) pair read as close together as possible:
 * the best of a few tries (a VM may be descheduled between two reads). */
static void tp__sink_clock_pair(uint64_t *c, uint64_t *m)
{
	uint64_t best = ~(uint64_t)0;
	int i;
	for (i = 0; i < 8; i++) {
		uint64_t t1 = tp__ev_clock(tp__sink.base.clock),
			 mm = tp__sink_ns(TP__EV_CLOCK_MONOTONIC);
		uint64_t t2 = tp__ev_clock(tp__sink.base.clock);
		if (t2 - t1 < best) {
			best = t2 - t1;
			*c = t1 + (t2 - t1) / 2;
			*m = mm;
		}
	}
}

/* The counter's frequency against CLOCK_MONOTONIC from the anchor
 * (c0, m0) to now, at least `at_least_ns` after it. */
static uint64_t tp__sink_measure_freq(uint64_t c0, uint64_t m0, uint64_t at_least_ns)
{
	uint64_t c1, m1;
	if (tp__sink.base.clock != TRACE_CLOCK_COUNTER)
		return 1000000000u;
	while ((m1 = tp__sink_ns(TP__EV_CLOCK_MONOTONIC)) - m0 < at_least_ns) {
		struct timespec ts;
		ts.tv_sec = 0;
		ts.tv_nsec = (long)(at_least_ns - (m1 - m0));
		nanosleep(&ts, NULL);
	}
	tp__sink_clock_pair(&c1, &m1);
	if (m1 == m0 || c1 <= c0)
		return 1000000000u;
	return (uint64_t)((tp__sink_u128)(c1 - c0) * 1000000000u / (m1 - m0));
}

/* The clock's uuid: the kernel's boot id, as LTTng names its clocks, so
 * that a reader can tell clocks of the same boot; "" where it cannot be
 * read (the metadata then carries none). */
static void tp__sink_clock_uuid(void)
{
	char u[40];
	size_t i;
	int fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
	ssize_t r = fd >= 0 ? read(fd, u, sizeof(u) - 1) : -1;
	if (fd >= 0)
		close(fd);
	tp__sink.clock_uuid[0] = '\0';
	if (r < 36 || (r > 36 && u[36] != '\n'))
		return;
	for (i = 0; i < 36; i++)
		if (!((i == 8 || i == 13 || i == 18 || i == 23)
			      ? u[i] == '-'
			      : (u[i] >= '0' && u[i] <= '9') || (u[i] >= 'a' && u[i] <= 'f')))
			return;
	memcpy(tp__sink.clock_uuid, u, 36);
	tp__sink.clock_uuid[36] = '\0';
}

/* Clock id's reading at the instant CLOCK_MONOTONIC read m (m in the
 * past): the best of a few (monotonic, id, monotonic) reads. */
static uint64_t tp__sink_clock_at(clockid_t id, uint64_t m)
{
	uint64_t best = ~(uint64_t)0, at = 0;
	int i;
	for (i = 0; i < 4; i++) {
		uint64_t m1 = tp__sink_ns(TP__EV_CLOCK_MONOTONIC), x = tp__sink_ns(id);
		uint64_t m2 = tp__sink_ns(TP__EV_CLOCK_MONOTONIC);
		if (m2 - m1 < best) {
			best = m2 - m1;
			at = x - (m1 + (m2 - m1) / 2 - m);
		}
	}
	return at;
}

/* The anchor: the counter, CLOCK_MONOTONIC, the realtime clock and
 * CLOCK_BOOTTIME at one instant (the metadata's offset and its env's
 * clock_*_ns, which let a reader put the trace on any of them). */
static void tp__sink_clock_start(void)
{
	uint64_t m;
	tp__sink_clock_uuid();
	tp__sink_clock_pair(&tp__sink.c0, &m);
	tp__sink.m0 = m;
	tp__sink.r0 = tp__sink_clock_at(CLOCK_REALTIME, m); /* realtime at the anchor */
	tp__sink.b0 = tp__sink_clock_at(CLOCK_BOOTTIME, m);
	tp__sink.freq = tp__sink_measure_freq(tp__sink.c0, m, 5000000u);
}

#endif /* TP__REC_CLOCK_H */
