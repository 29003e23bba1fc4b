/* memtrace: records every malloc/calloc/realloc/free of any program, as a
 * preloaded library.  A real tool in 60 lines: the events, the recorder
 * (the library holds it: it is the program's only user of tracepoints),
 * and the wrappers.
 *
 *   cc -O2 -fPIC -shared -Iinclude -Iexamples -DCONFIG_MEMTRACE examples/memtrace/memtrace.c \
 *      -o libmemtrace.so -lpthread -ldl
 *   TRACEPOINTS='mem:*' LD_PRELOAD=./libmemtrace.so PYTHONMALLOC=malloc python3 -c 'print(sum(range(10**6)))'
 *   tracepoint-dump --summary trace-python3-<pid>
 *
 * With MEMTRACE_COUNT=1 it also counts the calls it made while recording
 * and says so at exit, to check that the trace lost none.
 *
 * Beyond instants: mem:heap_bytes is a counter (net bytes allocated, each
 * time it moved by 64 KiB) and mem:gc_begin/gc_end a slice that a Python
 * program opens and closes around each garbage collection through
 * memtrace_gc.py (ctypes: memtrace_gc_begin/memtrace_gc_end below).
 *   tracepoint-dump --perfetto trace-python3-<pid> -o py.pftrace   (ui.perfetto.dev) */
#include <malloc.h>
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

static unsigned long calls;
static int counting = -1;

static void count(void)
{
	if (counting < 0)
		counting = getenv("MEMTRACE_COUNT") != NULL;
	if (counting)
		__atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED);
}

/* Net bytes allocated since recording began, and the value last shown. */
static long heap, heap_shown;
enum { HEAP_STEP = 64 * 1024 };

static void heap_add(long d)
{
	long now = __atomic_add_fetch(&heap, d, __ATOMIC_RELAXED);
	long shown = __atomic_load_n(&heap_shown, __ATOMIC_RELAXED);
	if ((now - shown >= HEAP_STEP || shown - now >= HEAP_STEP) &&
	    __atomic_compare_exchange_n(&heap_shown, &shown, now, 0, __ATOMIC_RELAXED,
					__ATOMIC_RELAXED))
		trace_heap_bytes(now);
}

void *malloc(size_t size)
{
	void *p = __libc_malloc(size);
	if (p && trace_heap_bytes_enabled())
		heap_add((long)malloc_usable_size(p));
	if (trace_malloc_enabled()) {
		trace_malloc(size, p);
		count();
	}
	return p;
}

void *calloc(size_t n, size_t size)
{
	void *p = __libc_calloc(n, size);
	if (p && trace_heap_bytes_enabled())
		heap_add((long)malloc_usable_size(p));
	if (trace_malloc_enabled()) {
		trace_malloc(n * size, p);
		count();
	}
	return p;
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
	if (counting > 0)
		fprintf(stderr, "memtrace: %lu calls recorded\n",
			__atomic_load_n(&calls, __ATOMIC_RELAXED));
}
