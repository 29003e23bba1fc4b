/* A toy mark-and-sweep collector that records its phases (gc_events.h).
 *   cc -Iinclude -Iexamples -DCONFIG_GCTRACE examples/gc/gc.c -o gc -lpthread -ldl
 *   TRACEPOINTS='gc:*' ./gc && tracepoint-dump --text <the directory it names>
 * Without -DCONFIG_GCTRACE the events leave no byte behind. */
#include <stdio.h>
#include <string.h>

#define CREATE_TRACE_POINTS
#include "gc/gc_events.h"
#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>

enum { NOBJ = 8 };
static size_t obj_bytes[NOBJ] = { 16, 4096, 64, 2048, 32, 128, 8192, 24 };
static int obj_live[NOBJ], obj_marked[NOBJ];
static const int obj_next[NOBJ] = { 2, -1, 5, -1, -1, -1, -1, -1 }; /* one reference each */

static size_t heap(void)
{
	size_t n = 0;
	int i;
	for (i = 0; i < NOBJ; i++)
		n += obj_live[i] ? obj_bytes[i] : 0;
	return n;
}

static void collect(unsigned reasons, const unsigned *roots, unsigned nroots)
{
	unsigned r;
	int i;
	trace_gc_phase(GC_MARK, reasons, heap());
	trace_gc_roots(roots, nroots);
	memset(obj_marked, 0, sizeof(obj_marked));
	for (r = 0; r < nroots; r++)
		for (i = (int)roots[r]; i >= 0 && !obj_marked[i]; i = obj_next[i])
			obj_marked[i] = 1;
	trace_gc_phase(GC_SWEEP, reasons, heap());
	for (i = 0; i < NOBJ; i++)
		if (obj_live[i] && !obj_marked[i]) {
			obj_live[i] = 0;
			trace_gc_free_big((unsigned)i, obj_bytes[i]);
		}
	trace_gc_phase(GC_IDLE, 0, heap());
}

int main(void)
{
	static const unsigned roots1[] = { 0, 3 }, roots2[] = { 0 };
	int i;
	for (i = 0; i < NOBJ; i++)
		obj_live[i] = 1;
	collect(GC_ALLOC_FAILED | GC_LOW_MEMORY, roots1, 2);
	collect(GC_EXPLICIT, roots2, 1);
	printf("gc: heap %zu bytes\n", heap());
	return 0;
}
