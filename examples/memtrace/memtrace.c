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
 * and says so at exit, to check that the trace lost none. */
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

void *malloc(size_t size)
{
	void *p = __libc_malloc(size);
	if (trace_malloc_enabled()) {
		trace_malloc(size, p);
		count();
	}
	return p;
}

void *calloc(size_t n, size_t size)
{
	void *p = __libc_calloc(n, size);
	if (trace_malloc_enabled()) {
		trace_malloc(n * size, p);
		count();
	}
	return p;
}

void *realloc(void *old, size_t size)
{
	void *p = __libc_realloc(old, size);
	if (trace_realloc_enabled()) {
		trace_realloc(old, size, p);
		count();
	}
	return p;
}

void free(void *ptr)
{
	if (trace_free_enabled()) {
		trace_free(ptr);
		count();
	}
	__libc_free(ptr);
}

__attribute__((destructor(101))) static void report(void)
{
	if (counting > 0)
		fprintf(stderr, "memtrace: %lu calls recorded\n", __atomic_load_n(&calls, __ATOMIC_RELAXED));
}
