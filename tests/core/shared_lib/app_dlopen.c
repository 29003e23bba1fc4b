/* Not linked against the library: finds its tracepoints only by name after
 * dlopen(RTLD_NOW | RTLD_LOCAL), and checks they are gone after dlclose,
 * 50 times over.  Its own tracepoint must stay visible throughout. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include "exe_events.h"
DEFINE_TRACE(shexe_tp);

#define ROUNDS 50

static int failures;
static int verbose = 1; /* first round prints every check, later ones only failures */
#define CHECK(cond)                                                           \
	do {                                                                  \
		if (cond) {                                                   \
			if (verbose)                                          \
				printf("ok: %s\n", #cond);                    \
		} else {                                                      \
			printf("FAILED: %s (line %d)\n", #cond, __LINE__);    \
			failures++;                                           \
		}                                                             \
	} while (0)

struct ctx {
	int hits, gpl_hits, exe_hits, last_n;
	long last_v;
	char last_what[16];
};

/* Untyped probes: the library's prototypes are known by convention only. */
static void on_shlib(int n, const char *what, void *data)
{
	struct ctx *c = (struct ctx *)data;
	c->hits++;
	c->last_n = n;
	snprintf(c->last_what, sizeof(c->last_what), "%s", what);
}

static void on_gpl(long v, void *data)
{
	struct ctx *c = (struct ctx *)data;
	c->gpl_hits++;
	c->last_v = v;
}

static void on_exe(int x, void *data)
{
	(void)x;
	((struct ctx *)data)->exe_hits++;
}

struct census {
	int shlib_tp, shlib_gpl_tp, shexe_tp;
};

static int count(struct tracepoint *tp, void *priv)
{
	struct census *s = (struct census *)priv;
	if (!strcmp(tp->name, "shlib_tp"))
		s->shlib_tp++;
	else if (!strcmp(tp->name, "shlib_gpl_tp"))
		s->shlib_gpl_tp++;
	else if (!strcmp(tp->name, "shexe_tp"))
		s->shexe_tp++;
	return 0;
}

typedef int (*work_fn)(int);

int main(int argc, char **argv)
{
	struct ctx c;
	struct census s;
	int round;

	if (argc != 2) {
		fprintf(stderr, "usage: %s path/to/lib.so\n", argv[0]);
		return 2;
	}
	memset(&c, 0, sizeof(c));
	CHECK(register_trace_shexe_tp(on_exe, &c) == 0);

	memset(&s, 0, sizeof(s));
	CHECK(tracepoint_find("shlib_tp") == NULL);
	CHECK(tracepoint_find("shlib_gpl_tp") == NULL);
	CHECK(tracepoint_find("shexe_tp") == &__tracepoint_shexe_tp);
	CHECK(tracepoint_for_each(count, &s) == 0);
	CHECK(s.shlib_tp == 0 && s.shlib_gpl_tp == 0 && s.shexe_tp == 1);
	CHECK(tracepoint_probe_register_name("shlib_tp", TRACEPOINT_FUNC(on_shlib), &c, 10) ==
	      -ENOENT);

	for (round = 1; round <= ROUNDS; round++) {
		void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
		work_fn work, work2;
		struct tracepoint *tp;
		int hits, exe_hits;

		if (!h) {
			printf("FAILED: dlopen: %s\n", dlerror());
			return 1;
		}
		work = (work_fn)(size_t)dlsym(h, "shlib_work");
		work2 = (work_fn)(size_t)dlsym(h, "shlib_work2");
		CHECK(work != NULL && work2 != NULL);
		if (!work || !work2)
			return 1;

		memset(&s, 0, sizeof(s));
		CHECK(tracepoint_for_each(count, &s) == 0);
		CHECK(s.shlib_tp == 1 && s.shlib_gpl_tp == 1 && s.shexe_tp == 1);
		tp = tracepoint_find("shlib_tp");
		CHECK(tp != NULL && !strcmp(tp->name, "shlib_tp") && !tracepoint_enabled(tp));
		CHECK(tracepoint_find("shexe_tp") == &__tracepoint_shexe_tp);

		hits = c.hits;
		CHECK(work(round) == round + 1 && c.hits == hits); /* nothing attached yet */
		CHECK(tracepoint_probe_register_name("shlib_tp", TRACEPOINT_FUNC(on_shlib), &c,
						     10) == 0);
		CHECK(tracepoint_probe_register_name("shlib_gpl_tp", TRACEPOINT_FUNC(on_gpl), &c,
						     10) == 0);
		CHECK(tp != NULL && tracepoint_enabled(tp));
		CHECK(work(round) == round + 1);
		CHECK(c.hits == hits + 1 && c.last_n == round && !strcmp(c.last_what, "work"));
		CHECK(c.last_v == 2L * round);
		CHECK(work2(round) == round - 1);
		CHECK(c.hits == hits + 2 && !strcmp(c.last_what, "work2"));

		exe_hits = c.exe_hits;
		trace_shexe_tp(round);
		CHECK(c.exe_hits == exe_hits + 1);

		CHECK(tracepoint_probe_unregister_name("shlib_tp", TRACEPOINT_FUNC(on_shlib), &c) ==
		      0);
		CHECK(tracepoint_probe_unregister_name("shlib_gpl_tp", TRACEPOINT_FUNC(on_gpl),
						       &c) == 0);
		CHECK(work(round) == round + 1 && c.hits == hits + 2);
		tracepoint_synchronize_unregister();
		CHECK(dlclose(h) == 0);
		CHECK(dlopen(argv[1], RTLD_NOW | RTLD_NOLOAD) == NULL); /* really unloaded */

		memset(&s, 0, sizeof(s));
		CHECK(tracepoint_find("shlib_tp") == NULL);
		CHECK(tracepoint_find("shlib_gpl_tp") == NULL);
		CHECK(tracepoint_for_each(count, &s) == 0);
		CHECK(s.shlib_tp == 0 && s.shlib_gpl_tp == 0 && s.shexe_tp == 1);
		trace_shexe_tp(round);
		CHECK(c.exe_hits == exe_hits + 2);
		if (verbose)
			printf("-- round 1 done; rounds 2..%d print failures only\n", ROUNDS);
		verbose = 0;
		if (failures)
			break;
	}
	verbose = 1;
	CHECK(c.hits == 2 * ROUNDS && c.gpl_hits == ROUNDS && c.exe_hits == 2 * ROUNDS);
	CHECK(unregister_trace_shexe_tp(on_exe, &c) == 0);
	printf("%s (%d dlopen/dlclose rounds)\n",
	       failures ? "app_dlopen: FAILED" : "app_dlopen: all checks passed", round - 1);
	return failures != 0;
}
