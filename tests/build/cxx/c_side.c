/* C half: defines cx_c_ev, fires it and the C++-defined cx_cpp_ev, and
 * attaches a C probe to the C++-defined tracepoint. */
#include "ev_c.h"
DEFINE_TRACE(cx_c_ev);
#include "ev_cpp.h"
#include "c_side.h"

static int c_seen;
static long c_last_n;

static void c_probe(double d, long n, void *data)
{
	(void)d;
	c_seen += *(const int *)data;
	c_last_n = n;
}

static const int one = 1;

void c_fire_own(int a, const char *s)
{
	trace_cx_c_ev(a, s);
}

void c_fire_cpp(double d, long n)
{
	trace_cx_cpp_ev(d, n);
	trace_cx_cpp_tick();
}

int c_register_on_cpp(void)
{
	return register_trace_cx_cpp_ev(c_probe, (void *)(size_t)&one);
}

int c_unregister_on_cpp(void)
{
	return unregister_trace_cx_cpp_ev(c_probe, (void *)(size_t)&one);
}

int c_probe_seen(long *last_n)
{
	*last_n = c_last_n;
	return c_seen;
}

struct tracepoint *c_addr_of_cpp_ev(void)
{
	return &__tracepoint_cx_cpp_ev;
}

static int c_only_sum;

static void c_only_probe(int v, void *data)
{
	(void)data;
	c_only_sum += v;
}

/* Fires cx_cpp_c_only, which main.cpp defines and no C++ file fires, with
 * a probe attached: what the probe saw, or -1. */
int c_fire_cpp_only(void)
{
	if (register_trace_cx_cpp_c_only(c_only_probe, NULL) != 0)
		return -1;
	trace_cx_cpp_c_only(5);
	trace_cx_cpp_c_only(37);
	if (unregister_trace_cx_cpp_c_only(c_only_probe, NULL) != 0)
		return -1;
	return c_only_sum;
}
