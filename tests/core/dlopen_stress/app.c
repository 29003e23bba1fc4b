/* dlopen -> attach probes by name -> fire -> detach -> dlclose, N times
 * (argv[2]: path of the library, argv[1]: rounds).  Each round checks that
 * the probes fired exactly once per call with the right arguments, and that
 * after dlclose the walk no longer shows the library's tracepoints.  The
 * executable's own tracepoint keeps working throughout.  Exits non-zero with
 * a message on the first failure. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dls_events.h"

DECLARE_TRACE(dls_exe, TP_PROTO(int n), TP_ARGS(n));
DEFINE_TRACE(dls_exe);

static long work_hits, other_hits, exe_hits;
static int last_n;

static void probe_work(int n, void *data)
{
	(void)data;
	work_hits++;
	last_n = n;
}

static void probe_other(int n, const char *what, void *data)
{
	(void)data;
	if (strcmp(what, "other") == 0 && n == last_n)
		other_hits++;
}

static void probe_exe(int n, void *data)
{
	(void)data;
	(void)n;
	exe_hits++;
}

static int count_lib_tps(struct tracepoint *tp, void *priv)
{
	if (strncmp(tp->name, "dls_", 4) == 0 && strcmp(tp->name, "dls_exe") != 0)
		++*(int *)priv;
	return 0;
}

/* The process's address space in KiB (VmSize), or -1. */
static long vm_kib(void)
{
	char line[256];
	long kib = -1;
	FILE *f = fopen("/proc/self/status", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmSize: %ld", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

#define FAIL(...) do { fprintf(stderr, "round %ld: ", r); fprintf(stderr, __VA_ARGS__); \
		       fputc('\n', stderr); return 1; } while (0)

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 1000, r = 0;
	const char *lib = argc > 2 ? argv[2] : "./libdls.so";
	int ctx, n;
	long vm0 = -1;

	if (register_trace_dls_exe(probe_exe, &ctx) != 0)
		FAIL("register on the executable's tracepoint");
	for (r = 0; r < rounds; r++) {
		void *h;
		int (*call)(int);
		long w0 = work_hits, o0 = other_hits, e0 = exe_hits;

		if (r == 10)
			vm0 = vm_kib();

		n = 0;
		tracepoint_for_each(count_lib_tps, &n);
		if (n != 0)
			FAIL("before dlopen the walk shows %d library tracepoints", n);
		if (tracepoint_find("dls_work"))
			FAIL("tracepoint_find sees dls_work before dlopen");
		if (tracepoint_probe_register_name("dls_work", TRACEPOINT_FUNC(probe_work), &ctx,
						   10) != -ENOENT)
			FAIL("register_name before dlopen did not say -ENOENT");
		h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
		if (!h)
			FAIL("dlopen: %s", dlerror());
		*(void **)&call = dlsym(h, "dls_call");
		if (!call)
			FAIL("dlsym: %s", dlerror());
		n = 0;
		tracepoint_for_each(count_lib_tps, &n);
		if (n != 2)
			FAIL("after dlopen the walk shows %d library tracepoints, want 2", n);
		call(-1); /* nothing attached yet */
		if (work_hits != w0)
			FAIL("a probe fired before it was attached");
		if (tracepoint_probe_register_name("dls_work", TRACEPOINT_FUNC(probe_work), &ctx,
						   10) != 0 ||
		    tracepoint_probe_register_name("dls_other", TRACEPOINT_FUNC(probe_other), &ctx,
						   (int)(r % 3)) != 0)
			FAIL("register_name");
		for (int i = 0; i < 3; i++) {
			if (call((int)r + i) != (int)r + i + 1)
				FAIL("dls_call returned a wrong value");
			trace_dls_exe(i);
		}
		if (work_hits != w0 + 3 || other_hits != o0 + 3 || exe_hits != e0 + 3)
			FAIL("probes fired %ld/%ld/%ld times, want 3 each", work_hits - w0,
			     other_hits - o0, exe_hits - e0);
		if (tracepoint_probe_unregister_name("dls_work", TRACEPOINT_FUNC(probe_work),
						     &ctx) != 0 ||
		    tracepoint_probe_unregister_name("dls_other", TRACEPOINT_FUNC(probe_other),
						     &ctx) != 0)
			FAIL("unregister_name");
		tracepoint_synchronize_unregister();
		call(0);
		if (work_hits != w0 + 3 || other_hits != o0 + 3)
			FAIL("a probe fired after unregister + synchronize");
		if (dlclose(h) != 0)
			FAIL("dlclose: %s", dlerror());
		n = 0;
		tracepoint_for_each(count_lib_tps, &n);
		if (n != 0)
			FAIL("after dlclose the walk still shows %d library tracepoints", n);
		if (tracepoint_find("dls_other"))
			FAIL("tracepoint_find still sees dls_other after dlclose");
		tracepoint_synchronize_unregister(); /* must not touch the closed library */
	}
	trace_dls_exe(0);
	if (unregister_trace_dls_exe(probe_exe, &ctx) != 0)
		FAIL("unregister on the executable's tracepoint");
	tracepoint_synchronize_unregister();
	printf("%ld rounds: %ld work, %ld other, %ld exe probe calls\n", rounds, work_hits,
	       other_hits, exe_hits);
	if (vm0 >= 0 && vm_kib() >= 0)
		printf("address space after round 10: %+ld KiB over %ld rounds\n", vm_kib() - vm0,
		       rounds - 10);
	return 0;
}
