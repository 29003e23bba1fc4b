/* memtrace: records every malloc/calloc/realloc/free of any program (and
 * posix_memalign, aligned_alloc, memalign, valloc, pvalloc), as a
 * preloaded library.  A real tool in one file: the events, the recorder
 * (the library holds it: it is the program's only user of tracepoints),
 * and the wrappers.
 *
 *   cc -O2 -fPIC -shared -Iinclude -Iexamples -DCONFIG_MEMTRACE examples/memtrace/memtrace.c \
 *      -o libmemtrace.so -lpthread -ldl
 *   TRACEPOINTS='mem:*' LD_PRELOAD=$PWD/libmemtrace.so PYTHONMALLOC=malloc /usr/bin/python3 -c 'print(sum(range(10**6)))'
 *   tracepoint-dump --summary trace-python3-<pid>
 * (An absolute path: a relative one is looked up from each process's own
 * directory.  A shell script in front of the program, such as pyenv's
 * python3, is traced too, in a directory of its own.)
 *
 * A block allocated before recording began and freed after it shows as a
 * mem:free without its mem:malloc: the recorder's own setup leaves a few
 * (6 in a program whose main() returns at once), and the heap counter
 * starts from what it sees.  Under valgrind, preloading it in valgrind's
 * environment traces valgrind's launcher too (two small directories);
 * the program's trace is named after valgrind's tool (none-amd64-linu-PID).
 *
 * With MEMTRACE_COUNT=1 it also counts the calls it made while recording
 * and says so at exit, to check that the trace lost none.
 *
 * Beyond instants: mem:heap_bytes is a counter (net bytes allocated, each
 * time it moved by 64 KiB; each thread adds its bytes every 4 KiB) and
 * mem:gc_begin/gc_end a slice that a Python program opens and closes
 * around each garbage collection through memtrace_gc.py (ctypes:
 * memtrace_gc_begin/memtrace_gc_end below).
 *   tracepoint-dump --perfetto trace-python3-<pid> -o py.pftrace   (ui.perfetto.dev) */
#include <dlfcn.h>
#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CREATE_TRACE_POINTS
#include "mem_events.h"
#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>

/* glibc's allocator under its own names: no dlsym() needed. */
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);

/* Per thread, the calls counted and the heap bytes seen but not yet added
 * to the process's totals: a wrapper adds to them with plain stores, and
 * only every HEAP_SLACK bytes (or MEMTRACE_COUNT's CALLS_SLACK calls) with
 * an atomic operation on a variable shared with the other threads, rather
 * than a locked instruction per call (docs/bench.md, "a real program").
 * So a thread's heap_bytes lag its own calls by less than HEAP_SLACK, and
 * other threads' by less than HEAP_SLACK each; a thread's remainders go to
 * the totals when it ends.  Initial-exec: no call to reach them (a
 * preloaded library is in the static TLS). */
#define MEMTRACE_TLS __thread __attribute__((tls_model("initial-exec")))
struct mine {
	long heap;	     /* bytes not yet in `heap` */
	unsigned long calls; /* calls not yet in `calls` */
	int keyed;	     /* flush_mine() is this thread's key destructor */
};
static MEMTRACE_TLS struct mine mine;
enum { HEAP_SLACK = 4096, CALLS_SLACK = 4096 };

static unsigned long calls;
static int counting = -1;
/* Net bytes allocated since recording began, and the value last shown. */
static long heap, heap_shown;
enum { HEAP_STEP = 64 * 1024 };
static pthread_key_t key;
static int have_key;

static void heap_flush(long d)
{
	long now = __atomic_add_fetch(&heap, d, __ATOMIC_RELAXED);
	long shown = __atomic_load_n(&heap_shown, __ATOMIC_RELAXED);
	if ((now - shown >= HEAP_STEP || shown - now >= HEAP_STEP) &&
	    __atomic_compare_exchange_n(&heap_shown, &shown, now, 0, __ATOMIC_RELAXED,
					__ATOMIC_RELAXED))
		trace_heap_bytes(now);
}

/* A thread's remainders into the totals: when it ends (its key's
 * destructor), and for the thread that reports them at exit. */
static void flush_mine(void *unused)
{
	(void)unused;
	if (mine.calls)
		__atomic_add_fetch(&calls, mine.calls, __ATOMIC_RELAXED);
	if (mine.heap)
		heap_flush(mine.heap);
	mine.calls = 0;
	mine.heap = 0;
}

/* Once per thread, at a flush once the key exists: its remainders go to
 * the totals when it ends.  (pthread_setspecific may allocate: keyed is
 * set first, so that the wrappers it enters do not come back here.) */
static void keyed(void)
{
	if (!__atomic_load_n(&have_key, __ATOMIC_ACQUIRE))
		return;
	mine.keyed = 1;
	pthread_setspecific(key, &mine);
}

/* The slow halves of count() and heap_add(), out of line: the wrappers
 * keep only a test, an add and a store. */
static __attribute__((noinline)) void count_more(void)
{
	if (counting < 0) {
		counting = getenv("MEMTRACE_COUNT") != NULL;
		if (!counting)
			return;
		mine.calls++;
	}
	if (mine.calls >= CALLS_SLACK) {
		if (!mine.keyed)
			keyed();
		__atomic_add_fetch(&calls, mine.calls, __ATOMIC_RELAXED);
		mine.calls = 0;
	}
}

static __attribute__((noinline)) void heap_more(long m)
{
	if (!mine.keyed)
		keyed();
	mine.heap = 0;
	heap_flush(m);
}

static inline void count(void)
{
	if (counting > 0 && ++mine.calls < CALLS_SLACK)
		return;
	if (counting)
		count_more();
}

static inline void heap_add(long d)
{
	long m = mine.heap + d;
	if (__builtin_expect(m < HEAP_SLACK && m > -HEAP_SLACK, 1))
		mine.heap = m;
	else
		heap_more(m);
}

__attribute__((constructor)) static void make_key(void)
{
	if (pthread_key_create(&key, flush_mine) == 0)
		__atomic_store_n(&have_key, 1, __ATOMIC_RELEASE);
}

/* The end of an allocation (p: the block, or NULL; size: the bytes asked
 * for): its bytes in the heap counter, its mem:malloc. */
static inline __attribute__((always_inline)) void *got(void *p, size_t size)
{
	if (p && trace_heap_bytes_enabled())
		heap_add((long)malloc_usable_size(p));
	if (trace_malloc_enabled()) {
		trace_malloc(size, p);
		count();
	}
	return p;
}

void *malloc(size_t size)
{
	return got(__libc_malloc(size), size);
}

void *calloc(size_t n, size_t size)
{
	return got(__libc_calloc(n, size), n * size);
}

void *realloc(void *old, size_t size)
{
	int counted = trace_heap_bytes_enabled();
	long before = counted && old ? (long)malloc_usable_size(old) : 0;
	void *p = __libc_realloc(old, size);
	if (counted && (p || !size))
		heap_add((p ? (long)malloc_usable_size(p) : 0) - before);
	if (trace_realloc_enabled()) {
		trace_realloc(old, size, p);
		count();
	}
	return p;
}

void free(void *ptr)
{
	if (ptr && trace_heap_bytes_enabled())
		heap_add(-(long)malloc_usable_size(ptr));
	if (trace_free_enabled()) {
		trace_free(ptr);
		count();
	}
	__libc_free(ptr);
}

/* The aligned allocators, recorded as mem:malloc (the size asked for):
 * their blocks are freed by free() like any other, so a trace without
 * them would show frees of blocks it never saw.  Each calls the C
 * library's own (dlsym(RTLD_NEXT), once), so that its checks and errors
 * stay the library's: posix_memalign's EINVAL, aligned_alloc's rules.
 * (glibc's reallocarray calls realloc, recorded above.) */
/* The C library's function `name` (cached in *cache), or NULL. */
static void *next_fn(void **cache, const char *name)
{
	void *f = __atomic_load_n(cache, __ATOMIC_ACQUIRE);
	if (!f) {
		f = dlsym(RTLD_NEXT, name);
		__atomic_store_n(cache, f, __ATOMIC_RELEASE);
	}
	return f;
}
typedef int posix_memalign_fn(void **, size_t, size_t);
typedef void *align_fn(size_t, size_t);
typedef void *size_fn(size_t);
static void *next_posix_memalign, *next_aligned_alloc, *next_memalign, *next_valloc, *next_pvalloc;

int posix_memalign(void **out, size_t align, size_t size)
{
	posix_memalign_fn *next;
	int r;
	*(void **)&next = next_fn(&next_posix_memalign, "posix_memalign");
	if (!next)
		return ENOMEM;
	r = next(out, align, size);
	if (r == 0)
		got(*out, size);
	return r;
}

static void *aligned(void **cache, const char *name, size_t align, size_t size)
{
	align_fn *next;
	*(void **)&next = next_fn(cache, name);
	if (!next) {
		errno = ENOMEM;
		return NULL;
	}
	return got(next(align, size), size);
}

void *aligned_alloc(size_t align, size_t size)
{
	return aligned(&next_aligned_alloc, "aligned_alloc", align, size);
}

void *memalign(size_t align, size_t size)
{
	return aligned(&next_memalign, "memalign", align, size);
}

static void *paged(void **cache, const char *name, size_t size)
{
	size_fn *next;
	*(void **)&next = next_fn(cache, name);
	if (!next) {
		errno = ENOMEM;
		return NULL;
	}
	return got(next(size), size);
}

void *valloc(size_t size)
{
	return paged(&next_valloc, "valloc", size);
}

void *pvalloc(size_t size)
{
	return paged(&next_pvalloc, "pvalloc", size);
}

/* For the interpreter's gc.callbacks (memtrace_gc.py): a collection of
 * `generation` starts; it ends, having collected `collected` objects. */
void memtrace_gc_begin(int generation);
void memtrace_gc_end(int generation, long collected);
void memtrace_gc_begin(int generation)
{
	trace_gc_begin(generation, 0);
}

void memtrace_gc_end(int generation, long collected)
{
	trace_gc_end(generation, collected);
}

__attribute__((destructor(101))) static void report(void)
{
	flush_mine(NULL);
	if (counting > 0)
		fprintf(stderr, "memtrace: %lu calls recorded\n",
			__atomic_load_n(&calls, __ATOMIC_RELAXED));
}
