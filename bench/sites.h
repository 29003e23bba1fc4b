/*
 * sites.h - prelude of the generated size-test files (build/bench/gen/sites_*.c).
 * Each generated file is a list of S(i, tp) lines: 100 functions, each doing a
 * little work and firing tracepoint tp with three arguments.  Flavours:
 *   -DF_OURS -DF_LTTNG -DF_USDT -DF_USDT_SEM   which tracepoint kind
 *   -DNOFIRE                                    same file, calls left out
 */
#if defined(F_OURS)
#include "ours_ev.h"
#define FIRE(tp, a, b, p) trace_##tp(a, b, p)
#elif defined(F_LTTNG)
#include "lttng_tp100.h"
#define FIRE(tp, a, b, p) lttng_ust_tracepoint(bench_prov, tp, a, b, p)
#elif defined(F_USDT)
#include <sys/sdt.h>
#define FIRE(tp, a, b, p) DTRACE_PROBE3(bench, tp, a, b, p)
#elif defined(F_USDT_SEM)
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>
#include "sem_decl.h"
#define FIRE(tp, a, b, p)                                                      \
	do {                                                                   \
		if (__builtin_expect(bench_##tp##_semaphore, 0))               \
			DTRACE_PROBE3(bench, tp, a, b, p);                      \
	} while (0)
#else
#error "pick a flavour"
#endif
#ifdef NOFIRE
#undef FIRE
#define FIRE(tp, a, b, p) ((void)(p))
#endif

extern long site_sink;
#define S(i, tp)                                                               \
	void site_##i(int a, long b, const void *p);                           \
	void site_##i(int a, long b, const void *p)                            \
	{                                                                      \
		site_sink += a ^ (b * i);                                      \
		FIRE(tp, a, b, p);                                             \
	}
