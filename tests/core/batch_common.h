/* What test_batch.c and test_batch_threads.c share: three tracepoints of
 * events/tp_stress.h defined here, a counting probe, functions that fire
 * them and a check of the code's page protection.  Include once, after any
 * TRACEPOINT_MPROTECT override. */
#ifndef BATCH_COMMON_H
#define BATCH_COMMON_H

#include "test_common.h"

#define CONFIG_TP_STRESS 1
#include "events/tp_stress.h"

DEFINE_TRACE(tp_stress_hot);
DEFINE_TRACE(tp_stress_0);
DEFINE_TRACE(tp_stress_1);

#include "patch_common.h"

static int hits;
static void probe(int v, void *data)
{
	(void)data;
	(void)v;
	__atomic_fetch_add(&hits, 1, __ATOMIC_RELAXED);
}

__attribute__((noinline)) static void fire_hot(int v)
{
	trace_tp_stress_hot(v);
}
__attribute__((noinline, unused)) static void fire_0(int v)
{
	trace_tp_stress_0(v);
}
__attribute__((noinline, unused)) static void fire_1(int v)
{
	trace_tp_stress_1(v);
}

/* The protection of the page that holds fire_hot's site, as /proc/self/maps
 * spells it ("r-xp"). */
static void assert_code_perms(const char *want)
{
	char perms[5];
	assert_true(mapping_perms((const void *)(uintptr_t)fire_hot, perms));
	assert_string_equal(perms, want);
}

#endif /* BATCH_COMMON_H */
