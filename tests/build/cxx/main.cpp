// C++ half, main TU: includes the event headers normally, defines the C++
// tracepoints, attaches a plain-function probe and a captureless lambda,
// and exercises both directions across the C/C++ boundary.
#include <cstdio>
#include <cstring>
#include <string>

#include "ev_cpp.h"
DEFINE_TRACE(cx_cpp_ev);
DEFINE_TRACE(cx_cpp_tick);
DEFINE_TRACE(cx_cpp_c_only);
#include "ev_c.h"
#include "c_side.h"

int other_run(void); // other.cpp: includes the event headers inside extern "C"

namespace {

int failures;

void check(bool ok, const char *what, int line)
{
	if (ok) {
		std::printf("ok: %s\n", what);
	} else {
		std::printf("FAILED: %s (line %d)\n", what, line);
		failures++;
	}
}
#define CHECK(cond) check((cond), #cond, __LINE__)

struct Ctx {
	int c_hits = 0;
	int cpp_hits = 0;
	int last_a = 0;
	std::string last_s;
	double last_d = 0;
	long last_n = 0;
};

void plain_probe(int a, const char *s, void *data)
{
	Ctx *c = static_cast<Ctx *>(data);
	c->c_hits++;
	c->last_a = a;
	c->last_s = s;
}

int census(struct tracepoint *tp, void *priv)
{
	int *n = static_cast<int *>(priv);
	if (!std::strcmp(tp->name, "cx_c_ev"))
		n[0]++;
	else if (!std::strcmp(tp->name, "cx_cpp_ev"))
		n[1]++;
	else if (!std::strcmp(tp->name, "cx_cpp_tick"))
		n[2]++;
	return 0;
}

} // namespace

int main()
{
	Ctx ctx;
	long n = 0;
	int counts[3] = { 0, 0, 0 };

	auto lambda = [](double d, long nn, void *data) {
		Ctx *c = static_cast<Ctx *>(data);
		c->cpp_hits++;
		c->last_d = d;
		c->last_n = nn;
	};
	void (*lambda_fp)(double, long, void *) = lambda;

	// C++ attaches a plain function to the C-defined tracepoint; C fires it.
	CHECK(register_trace_cx_c_ev(plain_probe, &ctx) == 0);
	c_fire_own(5, "from C");
	CHECK(ctx.c_hits == 1 && ctx.last_a == 5 && ctx.last_s == "from C");
	trace_cx_c_ev(6, "from C++");
	CHECK(ctx.c_hits == 2 && ctx.last_a == 6 && ctx.last_s == "from C++");

	// C++ attaches a lambda (converted to a function pointer) to the
	// C++-defined tracepoint; C fires it.
	CHECK(register_trace_cx_cpp_ev(lambda_fp, &ctx) == 0);
	CHECK(register_trace_cx_cpp_ev(lambda, &ctx) == -EEXIST); // same function, implicit conversion
	c_fire_cpp(1.5, 7);
	CHECK(ctx.cpp_hits == 1 && ctx.last_d == 1.5 && ctx.last_n == 7);

	// C attaches a probe to the C++-defined tracepoint; C++ fires it.
	CHECK(c_register_on_cpp() == 0);
	trace_cx_cpp_ev(2.5, 9);
	CHECK(ctx.cpp_hits == 2 && ctx.last_n == 9);
	CHECK(c_probe_seen(&n) == 1 && n == 9);
	CHECK(c_addr_of_cpp_ev() == &__tracepoint_cx_cpp_ev); // one object for both languages
	CHECK(c_fire_cpp_only() == 42); // its dispatch is emitted here, where no C++ code fires it

	CHECK(tracepoint_find("cx_c_ev") == &__tracepoint_cx_c_ev);
	CHECK(tracepoint_find("cx_cpp_ev") == &__tracepoint_cx_cpp_ev);
	CHECK(tracepoint_for_each(census, counts) == 0);
	CHECK(counts[0] == 1 && counts[1] == 1 && counts[2] == 1);

	// The TU that included the headers inside extern "C" { }.
	CHECK(other_run() == 0);
	CHECK(ctx.c_hits == 3 && ctx.last_a == 42 && ctx.last_s == "other");
	CHECK(ctx.cpp_hits == 3 && ctx.last_n == 11); // its c_fire_cpp(3.0, 11)
	CHECK(c_probe_seen(&n) == 2 && n == 11);

	CHECK(unregister_trace_cx_c_ev(plain_probe, &ctx) == 0);
	CHECK(unregister_trace_cx_cpp_ev(lambda, &ctx) == 0);
	CHECK(c_unregister_on_cpp() == 0);
	tracepoint_synchronize_unregister();
	c_fire_own(1, "x");
	c_fire_cpp(0.5, 1);
	CHECK(ctx.c_hits == 3 && ctx.cpp_hits == 3 && c_probe_seen(&n) == 2);
	CHECK(!trace_cx_c_ev_enabled() && !trace_cx_cpp_ev_enabled());

	std::printf("%s (C++ %ld)\n", failures ? "cxx: FAILED" : "cxx: all checks passed",
		    static_cast<long>(__cplusplus));
	return failures != 0;
}
