/* Linked against the library: attaches typed probes to its tracepoints,
 * calls it, checks what the probes saw; also checks name lookup and the walk
 * for both the library's and the executable's own tracepoints. */
#include <stdio.h>
#include <string.h>
#include "shlib_events.h"
#include "exe_events.h"
DEFINE_TRACE(shexe_tp);

int shlib_work(int n);
int shlib_work2(int n);

static int failures;
#define CHECK(cond)                                                           \
	do {                                                                  \
		if (cond)                                                     \
			printf("ok: %s\n", #cond);                            \
		else {                                                        \
			printf("FAILED: %s (line %d)\n", #cond, __LINE__);    \
			failures++;                                           \
		}                                                             \
	} while (0)

struct ctx {
	int hits, gpl_hits, exe_hits, last_n, last_x;
	long last_v;
	char last_what[16];
};

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
	struct ctx *c = (struct ctx *)data;
	c->exe_hits++;
	c->last_x = x;
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

int main(void)
{
	struct ctx c;
	struct census s;

	memset(&c, 0, sizeof(c));
	memset(&s, 0, sizeof(s));

	CHECK(tracepoint_for_each(count, &s) == 0);
	CHECK(s.shlib_tp == 1 && s.shlib_gpl_tp == 1 && s.shexe_tp == 1);
	CHECK(tracepoint_find("shlib_tp") == &__tracepoint_shlib_tp);
	CHECK(tracepoint_find("shlib_gpl_tp") == &__tracepoint_shlib_gpl_tp);
	CHECK(tracepoint_find("shexe_tp") == &__tracepoint_shexe_tp);

	CHECK(shlib_work(1) == 2 && c.hits == 0);
	CHECK(register_trace_shlib_tp(on_shlib, &c) == 0);
	CHECK(register_trace_shlib_gpl_tp(on_gpl, &c) == 0);
	CHECK(register_trace_shexe_tp(on_exe, &c) == 0);
	CHECK(trace_shlib_tp_enabled() && tracepoint_enabled(tracepoint_find("shlib_tp")));

	CHECK(shlib_work(7) == 8);
	CHECK(c.hits == 1 && c.last_n == 7 && !strcmp(c.last_what, "work"));
	CHECK(c.gpl_hits == 1 && c.last_v == 14);
	CHECK(shlib_work2(3) == 2);
	CHECK(c.hits == 2 && c.last_n == 3 && !strcmp(c.last_what, "work2"));
	trace_shlib_tp(11, "app"); /* the executable fires the library's tracepoint */
	CHECK(c.hits == 3 && c.last_n == 11 && !strcmp(c.last_what, "app"));
	trace_shexe_tp(5);
	CHECK(c.exe_hits == 1 && c.last_x == 5);

	/* by name, untyped, on both modules */
	CHECK(unregister_trace_shlib_tp(on_shlib, &c) == 0);
	CHECK(tracepoint_probe_register_name("shlib_tp", TRACEPOINT_FUNC(on_shlib), &c, 10) == 0);
	CHECK(tracepoint_probe_register_name("shexe_tp", TRACEPOINT_FUNC(on_exe), &s, 10) == 0);
	CHECK(tracepoint_probe_register_name("no_such_tp", TRACEPOINT_FUNC(on_exe), &s, 10) ==
	      -ENOENT);
	CHECK(shlib_work(4) == 5 && c.hits == 4 && c.last_n == 4);
	CHECK(tracepoint_probe_unregister_name("shlib_tp", TRACEPOINT_FUNC(on_shlib), &c) == 0);
	CHECK(tracepoint_probe_unregister_name("shexe_tp", TRACEPOINT_FUNC(on_exe), &s) == 0);

	CHECK(unregister_trace_shlib_gpl_tp(on_gpl, &c) == 0);
	CHECK(unregister_trace_shexe_tp(on_exe, &c) == 0);
	tracepoint_synchronize_unregister();
	CHECK(shlib_work(9) == 10 && c.hits == 4 && c.gpl_hits == 2);
	CHECK(!trace_shlib_tp_enabled() && !trace_shexe_tp_enabled());

	printf("%s\n", failures ? "app_linked: FAILED" : "app_linked: all checks passed");
	return failures != 0;
}
