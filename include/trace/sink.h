/* SPDX-License-Identifier: MIT */
/*
 * trace/sink.h - the built-in sink: runtime control by pattern or by the
 * TRACEPOINTS environment variable, per-thread binary buffers, and text or
 * Chrome Trace Event JSON output.
 *
 * Where the once-per-program state lives
 * --------------------------------------
 *   Exactly one translation unit of the program (normally the one with
 *   main()) does
 *
 *       #define TRACEPOINT_SINK_MAIN
 *       #include <trace/sink.h>
 *
 *   That file holds the sink: its output, its list of per-thread buffers,
 *   its constructor (reads TRACEPOINTS*) and destructor (final flush), and
 *   the definitions, with default visibility, of the functions declared
 *   below.  Every other file that includes <trace/sink.h> only gets the
 *   declarations.  Recorders need no global symbol at all: the sink hands
 *   its state to each recorder probe as the probe's `void *data` (a struct
 *   trace_sink_base, whose thread_buffer() callback gives the calling
 *   thread its buffer), so the events of any module - the executable, a
 *   linked library, a library dlopen()ed later - are recorded into the same
 *   buffers.  Enabling walks every loaded module (tracepoint_for_each), so
 *   a dlopen()ed library's events are reachable by pattern as soon as it is
 *   loaded: call tracepoint_enable() after dlopen() (the TRACEPOINTS
 *   variable is applied once, at start-up).  A library that calls these
 *   functions resolves them in the executable (link it normally; a
 *   dlopen()ed one needs the executable linked with -rdynamic).
 *
 * Environment (read by the constructor of the TRACEPOINT_SINK_MAIN file)
 * ---------------------------------------------------------------------
 *   TRACEPOINTS=list                 print every tracepoint and exit(0)
 *   TRACEPOINTS="kmem:*,timer:timer_start"   enable these (trace/pattern.h)
 *   TRACEPOINTS_OUTPUT=text|json     default text
 *   TRACEPOINTS_FILE=path            default: text to stderr, json to
 *                                    trace-<pid>.json
 *   TRACEPOINTS_BUFFER_KB=n          per-thread buffer, default 1024
 *   TRACEPOINTS_CLOCK=counter|monotonic  default counter where usable
 *
 * Costs: recording writes a binary record (24-byte header: event, raw
 * timestamp, size, cpu; then the entry) into the calling thread's ring,
 * without a lock.  Text and JSON are produced only by tracepoint_flush()
 * and at exit, merged across threads in timestamp order.  A full ring
 * drops the new record and counts it; drops appear in the output and are
 * summed up on stderr at exit.
 */
#ifndef TRACE_SINK_H_INCLUDED
#define TRACE_SINK_H_INCLUDED

#include <trace/trace_events.h>
#include <trace/pattern.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What tracepoint_list() reports for each tracepoint. */
struct tracepoint_info {
	struct tracepoint *tp;
	const struct trace_event *event; /* NULL: plain DECLARE_TRACE, not recordable */
	const char *system;              /* "" for a plain tracepoint */
	const char *name;
	int enabled;                     /* the sink's recorder is attached */
};

#define TRACEPOINT_SINK_API __attribute__((visibility("default")))

/* Attach (detach) the sink's recorder to every event matching the pattern
 * list.  Returns how many events matched (0: none, reported on stderr), or
 * -EINVAL for a malformed list (reported with its position, nothing
 * changed), or the first registration error. */
TRACEPOINT_SINK_API int tracepoint_enable(const char *patterns);
TRACEPOINT_SINK_API int tracepoint_disable(const char *patterns);
/* Formats and writes every buffered record now; returns how many. */
TRACEPOINT_SINK_API long tracepoint_flush(void);
/* Chooses the output: format "text" or "json", path NULL for the default
 * (text: stderr, json: trace-<pid>.json).  Pending records go to the old
 * output first.  0, -EINVAL (unknown format) or -errno (cannot open). */
TRACEPOINT_SINK_API int tracepoint_output(const char *format, const char *path);
/* Records dropped so far because a thread's buffer was full. */
TRACEPOINT_SINK_API unsigned long long tracepoint_dropped(void);
/* Calls fn for every tracepoint of the running program; a non-zero return
 * stops the walk and is returned.  fn must not dlopen/dlclose. */
TRACEPOINT_SINK_API int tracepoint_list(int (*fn)(const struct tracepoint_info *info, void *priv),
					void *priv);
/* Prints "system:event (fields...)" lines, one per tracepoint. */
TRACEPOINT_SINK_API void tracepoint_list_print(FILE *out);
/* Bytes per thread buffer for threads that record their first event from
 * now on (rounded up to a power of two, at least 4096). */
TRACEPOINT_SINK_API void tracepoint_buffer_size(size_t bytes);

#ifdef __cplusplus
}
#endif

/* ======================================================================== */
/* The sink itself: only in the one TRACEPOINT_SINK_MAIN translation unit.   */
/* ======================================================================== */
#ifdef TRACEPOINT_SINK_MAIN
#ifdef __TPS_DEFINED
#error "TRACEPOINT_SINK_MAIN: the sink is defined once per translation unit"
#endif
#define __TPS_DEFINED

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef __cplusplus
extern long syscall(long, ...);
extern FILE *fdopen(int, const char *);
extern char *strdup(const char *);
extern int pthread_atfork(void (*)(void), void (*)(void), void (*)(void));
#endif

struct __tps_sink {
	struct trace_sink_base base;    /* first: what recorders see */
	pthread_mutex_t lock;           /* buffers, output, flushing */
	pthread_mutex_t msg_lock;       /* the reported-once list */
	pthread_key_t key;              /* marks a buffer when its thread exits */
	struct trace_buffer *buffers;
	FILE *out;
	int own_out;
	int json;
	unsigned long json_count;       /* events written to the JSON array */
	char *path;
	size_t bufsize;
	uint64_t clk0, ns0, clk1, ns1;  /* counter calibration */
	unsigned long long written, dropped_reported;
	char **reported;
	size_t nreported;
	int inited, closed;
	int pid;
	/* Tracepoints the sink's recorder is attached to (compared, never
	 * dereferenced: tracepoint.h has no public "is this probe attached?"). */
	const struct tracepoint **attached;
	size_t nattached, capattached;
};

static struct __tps_sink __tps;
static pthread_once_t __tps_once = PTHREAD_ONCE_INIT;
static __thread struct trace_buffer *__tps_mine;

static int __tps_gettid(void)
{
	return (int)syscall(__NR_gettid);
}

static uint64_t __tps_now_ns(void)
{
	struct timespec ts;
	clock_gettime(__TPE_CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void __tps_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void __tps_msg(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("tracepoints: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

/* Prints a message the first time it is seen (key identifies it). */
static void __tps_msg_once(const char *key, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void __tps_msg_once(const char *key, const char *fmt, ...)
{
	size_t i;
	va_list ap;
	char **n;
	pthread_mutex_lock(&__tps.msg_lock);
	for (i = 0; i < __tps.nreported; i++) {
		if (strcmp(__tps.reported[i], key) == 0) {
			pthread_mutex_unlock(&__tps.msg_lock);
			return;
		}
	}
	n = (char **)realloc(__tps.reported, (__tps.nreported + 1) * sizeof(*n));
	if (n) {
		__tps.reported = n;
		if ((n[__tps.nreported] = strdup(key)) != NULL)
			__tps.nreported++;
	}
	va_start(ap, fmt);
	fputs("tracepoints: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	pthread_mutex_unlock(&__tps.msg_lock);
}

static uint64_t __tps_raw_clock(void)
{
	uint32_t cpu;
	return __tpe_clock(__tps.base.clock, &cpu);
}

/* Is the cycle counter a usable clock?  x86-64: constant and nonstop TSC
 * with rdtscp; aarch64: always (the generic timer). */
static int __tps_counter_ok(void)
{
#if defined(__x86_64__)
	char line[4096];
	int flags = 0;
	FILE *f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5) != 0)
			continue;
		flags = strstr(line, " constant_tsc") && strstr(line, " nonstop_tsc") &&
			strstr(line, " rdtscp");
		break;
	}
	fclose(f);
	return flags;
#elif defined(__aarch64__)
	return 1;
#else
	return 0;
#endif
}

static uint64_t __tps_to_ns(uint64_t raw)
{
	double r;
	if (__tps.base.clock != TRACE_CLOCK_COUNTER)
		return raw;
	if (__tps.clk1 == __tps.clk0)
		return __tps.ns0;
	r = (double)(__tps.ns1 - __tps.ns0) / (double)(__tps.clk1 - __tps.clk0);
	return __tps.ns0 + (uint64_t)(int64_t)((double)(int64_t)(raw - __tps.clk0) * r);
}

static void __tps_calibrate(void)
{
	uint64_t ns = __tps_now_ns();
	if (__tps.base.clock != TRACE_CLOCK_COUNTER)
		return;
	if (ns - __tps.ns0 < 2000000u) { /* give the ratio 2 ms of baseline */
		struct timespec ts;
		ts.tv_sec = 0;
		ts.tv_nsec = (long)(2000000u - (ns - __tps.ns0));
		nanosleep(&ts, NULL);
	}
	__tps.clk1 = __tps_raw_clock();
	__tps.ns1 = __tps_now_ns();
}

static struct trace_buffer *__tps_thread_buffer(struct trace_sink_base *s);

static void __tps_thread_exit(void *p)
{
	struct trace_buffer *b = (struct trace_buffer *)p;
	__atomic_store_n(&b->exited, 1, __ATOMIC_RELEASE);
}

static void __tps_atfork_child(void)
{
	struct trace_buffer *b;
	/* The parent writes out what was buffered before the fork. */
	for (b = __tps.buffers; b; b = b->next) {
		b->tail = b->head;
		b->dropped = 0; /* and reports its drops; the child counts its own */
		b->dropped_seen = 0;
		b->exited = (b != __tps_mine);
	}
	__tps.dropped_reported = 0;
	if (__tps_mine)
		__tps_mine->tid = __tps_gettid();
	__tps.pid = (int)getpid();
	pthread_mutex_init(&__tps.lock, NULL);
	pthread_mutex_init(&__tps.msg_lock, NULL);
	if (__tps.json) { /* one JSON file cannot take two writers */
		__tps.out = NULL;
		__tps.closed = 1;
	}
}

static size_t __tps_pow2(size_t n)
{
	size_t p = 4096;
	while (p < n && p < ((size_t)1 << 40))
		p <<= 1;
	return p;
}

static void __tps_init_once(void)
{
	const char *clk = getenv("TRACEPOINTS_CLOCK");
	const char *kb = getenv("TRACEPOINTS_BUFFER_KB");
	pthread_mutex_init(&__tps.lock, NULL);
	pthread_mutex_init(&__tps.msg_lock, NULL);
	pthread_key_create(&__tps.key, __tps_thread_exit);
	pthread_atfork(NULL, NULL, __tps_atfork_child);
	__tps.base.thread_buffer = __tps_thread_buffer;
	__tps.base.clock = __tps_counter_ok() ? TRACE_CLOCK_COUNTER : TRACE_CLOCK_MONOTONIC;
	if (clk && strcmp(clk, "monotonic") == 0)
		__tps.base.clock = TRACE_CLOCK_MONOTONIC;
	else if (clk && strcmp(clk, "counter") != 0)
		__tps_msg("TRACEPOINTS_CLOCK=\"%s\" is neither counter nor monotonic; using %s",
			  clk, __tps.base.clock == TRACE_CLOCK_COUNTER ? "counter" : "monotonic");
	__tps.clk0 = __tps_raw_clock();
	__tps.ns0 = __tps_now_ns();
	__tps.clk1 = __tps.clk0;
	__tps.ns1 = __tps.ns0;
	__tps.bufsize = (size_t)1 << 20;
	if (kb) {
		char *end;
		unsigned long v = strtoul(kb, &end, 10);
		if (*kb && !*end && v > 0 && v <= (1ul << 30))
			__tps.bufsize = __tps_pow2((size_t)v * 1024);
		else
			__tps_msg("TRACEPOINTS_BUFFER_KB=\"%s\" is not a size in KiB; using %zu",
				  kb, __tps.bufsize / 1024);
	}
	__tps.out = stderr;
	__tps.pid = (int)getpid();
	__atomic_store_n(&__tps.inited, 1, __ATOMIC_RELEASE);
}

static void __tps_init(void)
{
	pthread_once(&__tps_once, __tps_init_once);
}

static struct trace_buffer *__tps_thread_buffer(struct trace_sink_base *s)
{
	struct trace_buffer *b = __tps_mine;
	(void)s;
	if (b)
		return b;
	b = (struct trace_buffer *)calloc(1, sizeof(*b));
	if (!b)
		return NULL;
	pthread_mutex_lock(&__tps.lock);
	b->data = (unsigned char *)malloc(__tps.bufsize);
	if (!b->data) {
		pthread_mutex_unlock(&__tps.lock);
		free(b);
		return NULL;
	}
	b->mask = __tps.bufsize - 1;
	b->sink = &__tps.base;
	b->tid = __tps_gettid();
	prctl(PR_GET_NAME, (unsigned long)b->comm, 0, 0, 0);
	b->next = __tps.buffers;
	__tps.buffers = b;
	pthread_mutex_unlock(&__tps.lock);
	pthread_setspecific(__tps.key, b);
	__tps_mine = b;
	return b;
}

/* ---- Output. ---- */

static void __tps_json_str(FILE *f, const char *s, size_t max)
{
	size_t i;
	fputc('"', f);
	for (i = 0; i < max && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void __tps_json_scalar(FILE *f, const unsigned char *p, unsigned kind, unsigned size,
			      unsigned is_signed)
{
	if (kind == TRACE_FIELD_INT && size <= 8) {
		if (is_signed) {
			long long v = size == 1 ? (long long)*(const signed char *)p : 0;
			if (size == 2) { int16_t x; memcpy(&x, p, 2); v = x; }
			if (size == 4) { int32_t x; memcpy(&x, p, 4); v = x; }
			if (size == 8) { int64_t x; memcpy(&x, p, 8); v = x; }
			fprintf(f, "%lld", v);
		} else {
			unsigned long long v = size == 1 ? (unsigned long long)*p : 0;
			if (size == 2) { uint16_t x; memcpy(&x, p, 2); v = x; }
			if (size == 4) { uint32_t x; memcpy(&x, p, 4); v = x; }
			if (size == 8) { uint64_t x; memcpy(&x, p, 8); v = x; }
			fprintf(f, "%llu", v);
		}
	} else if (kind == TRACE_FIELD_FLOAT) {
		long double v;
		char tmp[64];
		if (size == sizeof(float)) { float x; memcpy(&x, p, sizeof(x)); v = x; }
		else if (size == sizeof(double)) { double x; memcpy(&x, p, sizeof(x)); v = x; }
		else { memcpy(&v, p, sizeof(v) < size ? sizeof(v) : size); }
		snprintf(tmp, sizeof(tmp), "%.17Lg", v);
		if (strchr(tmp, 'n') || strchr(tmp, 'N'))
			fprintf(f, "\"%s\"", tmp); /* nan, inf: not JSON numbers */
		else
			fputs(tmp, f);
	} else if (kind == TRACE_FIELD_PTR && size == sizeof(void *)) {
		uintptr_t v;
		memcpy(&v, p, sizeof(v));
		fprintf(f, "\"0x%llx\"", (unsigned long long)v);
	} else {
		unsigned i;
		fputs("\"0x", f);
		for (i = 0; i < size; i++)
			fprintf(f, "%02x", p[i]);
		fputc('"', f);
	}
}

static void __tps_json_args(FILE *f, const struct trace_event *ev, void *entry, size_t size)
{
	unsigned n = 0, i;
	const struct trace_event_field *fl = ev->cls->fields(&n);
	const unsigned char *e = (const unsigned char *)entry;
	fputc('{', f);
	for (i = 0; i < n; i++) {
		const struct trace_event_field *d = &fl[i];
		if (i)
			fputc(',', f);
		__tps_json_str(f, d->name, (size_t)-1);
		fputc(':', f);
		if (d->kind == TRACE_FIELD_STRING) {
			uint32_t loc;
			memcpy(&loc, e + d->offset, sizeof(loc));
			__tps_json_str(f, __tpe_get_str(entry, loc, size), (size_t)-1);
		} else if (d->array_len && d->kind == TRACE_FIELD_INT &&
			   d->size == d->array_len &&
			   (strcmp(d->type, "char") == 0 || strcmp(d->type, "const char") == 0)) {
			__tps_json_str(f, (const char *)e + d->offset, d->array_len);
		} else if (d->array_len) {
			unsigned k, es = d->size / d->array_len;
			fputc('[', f);
			for (k = 0; k < d->array_len; k++) {
				if (k)
					fputc(',', f);
				__tps_json_scalar(f, e + d->offset + k * es, d->kind, es, d->is_signed);
			}
			fputc(']', f);
		} else {
			__tps_json_scalar(f, e + d->offset, d->kind, d->size, d->is_signed);
		}
	}
	fputc('}', f);
}

static void __tps_json_sep(void)
{
	fputs(__tps.json_count++ ? ",\n" : "\n", __tps.out);
}

static void __tps_json_begin(void)
{
	char comm[17] = "";
	FILE *f = fopen("/proc/self/comm", "r");
	if (f) {
		if (fgets(comm, sizeof(comm), f))
			comm[strcspn(comm, "\n")] = '\0';
		fclose(f);
	}
	fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[", __tps.out);
	__tps.json_count = 0;
	__tps_json_sep();
	fprintf(__tps.out, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":",
		__tps.pid, __tps.pid);
	__tps_json_str(__tps.out, comm, sizeof(comm));
	fputs("}}", __tps.out);
}

static void __tps_json_end(void)
{
	fputs("\n]}\n", __tps.out);
}

struct __tps_item {
	uint64_t ts;
	uint64_t seq;
	const struct trace_record *rec;
	struct trace_buffer *b;
};

static int __tps_item_cmp(const void *a, const void *b)
{
	const struct __tps_item *x = (const struct __tps_item *)a, *y = (const struct __tps_item *)b;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void __tps_write_record(const struct __tps_item *it, char *line, size_t linesz)
{
	const struct trace_event *ev = it->rec->event;
	void *entry = (void *)(uintptr_t)(it->rec + 1);
	size_t size = it->rec->size - sizeof(struct trace_record);
	uint64_t ns = __tps_to_ns(it->ts);
	FILE *f = __tps.out;

	if (!__tps.json) {
		int n = ev->cls->format(line, linesz, entry, size);
		(void)n;
		fprintf(f, "%llu.%09llu %u %d %s:%s %s\n", (unsigned long long)(ns / 1000000000u),
			(unsigned long long)(ns % 1000000000u), (unsigned)it->rec->cpu, it->b->tid,
			ev->cls->system, ev->name, line);
		return;
	}
	if (!it->b->named) { /* the thread's track gets its name */
		it->b->named = 1;
		__tps_json_sep();
		fprintf(f, "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":",
			__tps.pid, it->b->tid);
		__tps_json_str(f, it->b->comm, sizeof(it->b->comm));
		fputs("}}", f);
	}
	__tps_json_sep();
	fputs("{\"name\":", f);
	__tps_json_str(f, ev->name, (size_t)-1);
	fputs(",\"cat\":", f);
	__tps_json_str(f, ev->cls->system, (size_t)-1);
	fprintf(f, ",\"ph\":\"i\",\"s\":\"t\",\"ts\":%llu.%03llu,\"pid\":%d,\"tid\":%d,\"args\":",
		(unsigned long long)(ns / 1000u), (unsigned long long)(ns % 1000u), __tps.pid,
		it->b->tid);
	__tps_json_args(f, ev, entry, size);
	fputc('}', f);
}

static void __tps_write_drops(struct trace_buffer *b, unsigned long long n)
{
	uint64_t ns = __tps_to_ns(__tps_raw_clock());
	if (!__tps.json) {
		fprintf(__tps.out, "# %llu event(s) of thread %d dropped: its buffer (%zu KiB) was full\n",
			n, b->tid, (size_t)(b->mask + 1) / 1024);
		return;
	}
	__tps_json_sep();
	fprintf(__tps.out, "{\"name\":\"events dropped\",\"cat\":\"tracepoints\",\"ph\":\"i\",\"s\":\"t\","
		"\"ts\":%llu.%03llu,\"pid\":%d,\"tid\":%d,\"args\":{\"dropped\":%llu}}",
		(unsigned long long)(ns / 1000u), (unsigned long long)(ns % 1000u), __tps.pid, b->tid, n);
}

/* Called with the lock held. */
static long __tps_flush_locked(void)
{
	struct trace_buffer *b, **pb;
	struct __tps_item *items = NULL;
	size_t n = 0, cap = 0, i;
	uint64_t seq = 0;
	static char line[8192];

	if (!__tps.inited)
		return 0;
	__tps_calibrate();
	for (b = __tps.buffers; b; b = b->next) {
		uint64_t t = b->tail, h = __atomic_load_n(&b->head, __ATOMIC_ACQUIRE);
		uint64_t capb = b->mask + 1;
		while (t < h) {
			uint64_t off = t & b->mask;
			const struct trace_record *r;
			if (capb - off < sizeof(*r)) {
				t += capb - off;
				continue;
			}
			r = (const struct trace_record *)(const void *)(b->data + off);
			if (r->size < sizeof(*r) || r->size > capb - off)
				break; /* cannot happen; never loop on garbage */
			if (r->event && !__tps.closed) {
				if (n == cap) {
					size_t nc = cap ? cap * 2 : 1024;
					struct __tps_item *ni = (struct __tps_item *)realloc(items, nc * sizeof(*ni));
					if (!ni)
						break;
					items = ni;
					cap = nc;
				}
				items[n].ts = r->ts;
				items[n].seq = seq++;
				items[n].rec = r;
				items[n].b = b;
				n++;
			}
			t += r->size;
		}
		b->flush_to = t; /* where this flush stops in this buffer */
	}
	if (n > 1)
		qsort(items, n, sizeof(*items), __tps_item_cmp);
	if (__tps.out && !__tps.closed)
		for (i = 0; i < n; i++)
			__tps_write_record(&items[i], line, sizeof(line));
	__tps.written += n;
	free(items);
	for (pb = &__tps.buffers; (b = *pb) != NULL;) {
		uint64_t t = b->flush_to, d;
		__atomic_store_n(&b->tail, t, __ATOMIC_RELEASE);
		d = __atomic_load_n(&b->dropped, __ATOMIC_RELAXED);
		if (d > b->dropped_seen) {
			if (__tps.out && !__tps.closed)
				__tps_write_drops(b, (unsigned long long)(d - b->dropped_seen));
			b->dropped_seen = d;
		}
		if (__atomic_load_n(&b->exited, __ATOMIC_ACQUIRE) &&
		    __atomic_load_n(&b->head, __ATOMIC_ACQUIRE) == t) {
			*pb = b->next; /* its thread is gone and so is its data */
			__tps.dropped_reported += b->dropped;
			free(b->data);
			free(b);
			continue;
		}
		pb = &b->next;
	}
	if (__tps.out)
		fflush(__tps.out);
	return (long)n;
}

TRACEPOINT_SINK_API long tracepoint_flush(void)
{
	long n;
	__tps_init();
	pthread_mutex_lock(&__tps.lock);
	n = __tps_flush_locked();
	pthread_mutex_unlock(&__tps.lock);
	return n;
}

static void __tps_close_locked(void)
{
	if (__tps.out && __tps.json)
		__tps_json_end();
	if (__tps.out && __tps.own_out)
		fclose(__tps.out);
	else if (__tps.out)
		fflush(__tps.out);
	__tps.out = NULL;
	__tps.own_out = 0;
}

TRACEPOINT_SINK_API int tracepoint_output(const char *format, const char *path)
{
	int json;
	FILE *f;
	char def[64];
	if (!format || (strcmp(format, "text") != 0 && strcmp(format, "json") != 0)) {
		__tps_msg("output format \"%s\" is neither text nor json", format ? format : "(null)");
		return -EINVAL;
	}
	json = format[0] == 'j';
	__tps_init();
	if (json && !path) {
		snprintf(def, sizeof(def), "trace-%d.json", (int)getpid());
		path = def;
	}
	if (path) {
		f = fopen(path, "w");
		if (!f) {
			int e = errno;
			__tps_msg("cannot open \"%s\" for writing: %s", path, strerror(e));
			return -e;
		}
	} else {
		f = stderr;
	}
	pthread_mutex_lock(&__tps.lock);
	__tps_flush_locked();
	__tps_close_locked();
	free(__tps.path);
	__tps.path = path ? strdup(path) : NULL;
	__tps.out = f;
	__tps.own_out = f != stderr;
	__tps.json = json;
	__tps.closed = 0;
	__tps.written = 0;
	if (json) {
		struct trace_buffer *b;
		for (b = __tps.buffers; b; b = b->next)
			b->named = 0;
		__tps_json_begin();
	}
	pthread_mutex_unlock(&__tps.lock);
	return 0;
}

TRACEPOINT_SINK_API unsigned long long tracepoint_dropped(void)
{
	struct trace_buffer *b;
	unsigned long long d;
	__tps_init();
	pthread_mutex_lock(&__tps.lock);
	d = __tps.dropped_reported;
	for (b = __tps.buffers; b; b = b->next)
		d += __atomic_load_n(&b->dropped, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&__tps.lock);
	return d;
}

TRACEPOINT_SINK_API void tracepoint_buffer_size(size_t bytes)
{
	__tps_init();
	pthread_mutex_lock(&__tps.lock);
	__tps.bufsize = __tps_pow2(bytes);
	pthread_mutex_unlock(&__tps.lock);
}

/* ---- Enabling by pattern. ---- */

/* op 0: is tp in the attached set; 1: add it; 2: remove it. */
static int __tps_attached(const struct tracepoint *tp, int op)
{
	size_t i;
	int found = 0;
	pthread_mutex_lock(&__tps.msg_lock);
	for (i = 0; i < __tps.nattached; i++) {
		if (__tps.attached[i] == tp) {
			found = 1;
			if (op == 2)
				__tps.attached[i] = __tps.attached[--__tps.nattached];
			break;
		}
	}
	if (op == 1 && !found) {
		if (__tps.nattached == __tps.capattached) {
			size_t nc = __tps.capattached ? __tps.capattached * 2 : 16;
			const struct tracepoint **n = (const struct tracepoint **)realloc(
				(void *)__tps.attached, nc * sizeof(*n));
			if (n) {
				__tps.attached = n;
				__tps.capattached = nc;
			}
		}
		if (__tps.nattached < __tps.capattached)
			__tps.attached[__tps.nattached++] = tp;
	}
	pthread_mutex_unlock(&__tps.msg_lock);
	return found;
}

struct __tps_pat {
	const char *list;
	size_t nitems;
	const char *item[64]; /* items beyond 64 are handled in further walks */
	size_t len[64];
	unsigned long hits[64];
	int attach;
	int err;
	int matched;
};

static int __tps_pat_collect(const char *item, size_t len, void *priv)
{
	struct __tps_pat *p = (struct __tps_pat *)priv;
	if (p->nitems == 64)
		return 1;
	p->item[p->nitems] = item;
	p->len[p->nitems] = len;
	p->hits[p->nitems] = 0;
	p->nitems++;
	return 0;
}

static int __tps_pat_walk(struct tracepoint *tp, void *priv)
{
	struct __tps_pat *p = (struct __tps_pat *)priv;
	const struct trace_event *ev = trace_event_of(tp);
	size_t i;
	int hit = 0;
	for (i = 0; i < p->nitems; i++) {
		if (ev ? trace_pattern_match(p->item[i], p->len[i], ev->cls->system, ev->name)
		       : (!trace_pattern_is_glob(p->item[i], p->len[i]) &&
			  trace_pattern_match(p->item[i], p->len[i], "", tp->name))) {
			p->hits[i]++;
			hit = 1;
		}
	}
	if (!hit)
		return 0;
	if (!ev) {
		__tps_msg_once(tp->name, "%s is a plain tracepoint (DECLARE_TRACE, no fields): "
			       "the sink cannot record it; make it a TRACE_EVENT", tp->name);
		return 0;
	}
	p->matched++;
	if (p->attach) {
		int r = tracepoint_probe_register(tp, ev->probe, &__tps.base);
		if (r && r != -EEXIST) {
			__tps_msg("cannot enable %s:%s: %s", ev->cls->system, ev->name, strerror(-r));
			if (!p->err)
				p->err = r;
		} else {
			__tps_attached(tp, 1);
		}
	} else {
		tracepoint_probe_unregister(tp, ev->probe, &__tps.base);
		__tps_attached(tp, 2);
	}
	return 0;
}

static int __tps_apply(const char *list, int attach)
{
	struct __tps_pat p;
	size_t pos = 0, i, done = 0;
	const char *why = NULL;
	int total = 0, err = 0;

	if (trace_pattern_check(list, &pos, &why) != 0) {
		/* Shown with unprintable bytes as '?', so the caret lines up. */
		char *shown = strdup(list ? list : "");
		for (i = 0; shown && shown[i]; i++)
			if ((unsigned char)shown[i] < 0x20 || (unsigned char)shown[i] >= 0x7f)
				shown[i] = '?';
		__tps_msg("malformed pattern list \"%s\": %s at position %zu\n  %s\n  %*s^",
			  list ? (shown ? shown : "") : "(null)", why, pos + 1,
			  shown ? shown : "", (int)pos, "");
		free(shown);
		return -EINVAL;
	}
	__tps_init();
	for (;;) {
		/* Items from the done-th on (64 per walk). */
		memset(&p, 0, sizeof(p));
		p.list = list;
		p.attach = attach;
		{
			struct __tps_pat all;
			size_t k;
			memset(&all, 0, sizeof(all));
			(void)all;
			/* collect: skip the first `done` items */
			trace_pattern_for_each(list, __tps_pat_collect, &p);
			if (done) {
				/* re-collect skipping `done` items */
				size_t skip = done;
				const char *s = list;
				while (skip && (s = strchr(s, ',')) != NULL) {
					s++;
					skip--;
				}
				memset(&p, 0, sizeof(p));
				p.list = list;
				p.attach = attach;
				if (s)
					trace_pattern_for_each(s, __tps_pat_collect, &p);
			}
			for (k = 0; k < p.nitems; k++)
				p.hits[k] = 0;
		}
		if (p.nitems == 0)
			break;
		tracepoint_for_each(__tps_pat_walk, &p);
		for (i = 0; i < p.nitems; i++) {
			if (p.hits[i])
				continue;
			{
				char key[TRACE_PATTERN_MAX + 16];
				snprintf(key, sizeof(key), "nomatch:%.*s", (int)p.len[i], p.item[i]);
				if (trace_pattern_is_glob(p.item[i], p.len[i]))
					__tps_msg_once(key, "pattern \"%.*s\" matches no event of this program "
						       "(TRACEPOINTS=list shows them)", (int)p.len[i], p.item[i]);
				else
					__tps_msg_once(key, "unknown event \"%.*s\" (TRACEPOINTS=list shows "
						       "the events of this program)", (int)p.len[i], p.item[i]);
			}
		}
		total += p.matched;
		if (p.err && !err)
			err = p.err;
		done += p.nitems;
		if (p.nitems < 64)
			break;
	}
	return err ? err : total;
}

TRACEPOINT_SINK_API int tracepoint_enable(const char *patterns)
{
	return __tps_apply(patterns, 1);
}

TRACEPOINT_SINK_API int tracepoint_disable(const char *patterns)
{
	return __tps_apply(patterns, 0);
}

/* ---- Listing. ---- */

struct __tps_list {
	int (*fn)(const struct tracepoint_info *info, void *priv);
	void *priv;
};

static int __tps_list_cb(struct tracepoint *tp, void *priv)
{
	struct __tps_list *l = (struct __tps_list *)priv;
	struct tracepoint_info info;
	info.tp = tp;
	info.event = trace_event_of(tp);
	info.system = info.event ? info.event->cls->system : "";
	info.name = tp->name;
	info.enabled = 0;
	if (info.event && tracepoint_enabled(tp))
		info.enabled = __tps_attached(tp, 0);
	return l->fn(&info, l->priv);
}

TRACEPOINT_SINK_API int tracepoint_list(int (*fn)(const struct tracepoint_info *info, void *priv),
					void *priv)
{
	struct __tps_list l;
	if (!fn)
		return -EINVAL;
	l.fn = fn;
	l.priv = priv;
	return tracepoint_for_each(__tps_list_cb, &l);
}

static int __tps_print_cb(const struct tracepoint_info *info, void *priv)
{
	FILE *out = (FILE *)priv;
	unsigned n = 0, i;
	const struct trace_event_field *f;
	if (!info->event) {
		fprintf(out, "%s (plain tracepoint, no fields)\n", info->name);
		return 0;
	}
	fprintf(out, "%s:%s (", info->system, info->name);
	f = info->event->cls->fields(&n);
	for (i = 0; i < n; i++) {
		if (f[i].kind == TRACE_FIELD_STRING)
			fprintf(out, "%sstring %s", i ? ", " : "", f[i].name);
		else if (f[i].array_len)
			fprintf(out, "%s%s %s[%u]", i ? ", " : "", f[i].type, f[i].name, f[i].array_len);
		else
			fprintf(out, "%s%s %s", i ? ", " : "", f[i].type, f[i].name);
	}
	fprintf(out, ")%s\n", info->enabled ? " enabled" : "");
	return 0;
}

TRACEPOINT_SINK_API void tracepoint_list_print(FILE *out)
{
	tracepoint_list(__tps_print_cb, out ? out : stdout);
}

/* ---- Start and end of the program. ---- */

__attribute__((constructor)) static void __tps_start(void)
{
	const char *tp = getenv("TRACEPOINTS");
	const char *fmt = getenv("TRACEPOINTS_OUTPUT");
	const char *file = getenv("TRACEPOINTS_FILE");
	if (!tp || !*tp)
		return;
	if (strcmp(tp, "list") == 0) {
		tracepoint_list_print(stdout);
		fflush(stdout);
		exit(0);
	}
	__tps_init();
	if (fmt && strcmp(fmt, "text") != 0 && strcmp(fmt, "json") != 0) {
		__tps_msg("TRACEPOINTS_OUTPUT=\"%s\" is neither text nor json; using text", fmt);
		fmt = "text";
	}
	if (fmt || file) {
		if (tracepoint_output(fmt ? fmt : "text", file) != 0 && (!fmt || fmt[0] == 'j' || file))
			tracepoint_output("text", NULL);
	}
	tracepoint_enable(tp);
}

__attribute__((destructor)) static void __tps_end(void)
{
	unsigned long long d;
	const char *path;
	if (!__atomic_load_n(&__tps.inited, __ATOMIC_ACQUIRE))
		return;
	pthread_mutex_lock(&__tps.lock);
	__tps_flush_locked();
	path = __tps.path;
	if (__tps.json && __tps.out && path)
		__tps_msg("wrote %llu event(s) to %s (open it in https://ui.perfetto.dev or chrome://tracing)",
			  __tps.written, path);
	__tps_close_locked();
	__tps.closed = 1;
	pthread_mutex_unlock(&__tps.lock);
	d = tracepoint_dropped();
	if (d)
		__tps_msg("%llu event(s) dropped because a thread's buffer was full "
			  "(TRACEPOINTS_BUFFER_KB=%zu; raise it, or call tracepoint_flush() more often)",
			  d, __tps.bufsize / 1024);
}

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TRACEPOINT_SINK_MAIN */

#endif /* TRACE_SINK_H_INCLUDED */
