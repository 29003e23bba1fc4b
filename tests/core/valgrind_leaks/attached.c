/* For tests/core/t_valgrind_leaks.sh: a program that exits with probes still
 * attached (one tracepoint with one probe, one with three), after having
 * replaced and detached others, as a program that traces until it ends
 * does.  Every probe list it leaves must be reachable for a leak checker,
 * not "possibly lost". */
#include <stdio.h>
#include "events/tp_test.h"
DEFINE_TRACE(tp_test_int);
DEFINE_TRACE(tp_test_args);

static long hits;

static void probe_a(int v, void *data)
{
	(void)data;
	hits += v;
}

static void probe_b(int v, void *data)
{
	(void)data;
	hits += 2 * v;
}

static void args_probe(int i, long long ll, const char *s, double d, void *p, void *data)
{
	(void)i;
	(void)ll;
	(void)s;
	(void)d;
	(void)p;
	hits += (long)(data != NULL);
}

int main(void)
{
	static int ctx[3];
	if (register_trace_tp_test_int(probe_a, NULL) != 0 ||
	    register_trace_tp_test_int(probe_b, NULL) != 0 ||
	    unregister_trace_tp_test_int(probe_b, NULL) != 0)
		return 1;
	tracepoint_synchronize_unregister();
	for (int i = 0; i < 3; i++)
		if (register_trace_tp_test_args(args_probe, &ctx[i]) != 0)
			return 1;
	trace_tp_test_int(1);
	trace_tp_test_args(1, 2, "x", 3.0, NULL);
	printf("hits=%ld\n", hits);
	return 0; /* tp_test_int keeps probe_a, tp_test_args three probes */
}
