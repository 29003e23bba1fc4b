/* The TRACEPOINTS grammar of <trace/pattern.h>, included on its own: the
 * one glob (trace_filter_glob) and its old name trace_glob_match, which
 * agree on every case; items matched against system:event; a spec split
 * into groups (trace_spec_next, trace_spec_is_plain, which moved here from
 * <trace/filter.h> and are still reached through it: see test_filters.c). */
#include <stdio.h>
#include <string.h>

#include <trace/pattern.h>
#include "test_common.h"

struct glob_case {
	const char *pat, *s;
	int match;
};

static const struct glob_case globs[] = {
	{ "", "", 1 },
	{ "", "a", 0 },
	{ "*", "", 1 },
	{ "*", "kmalloc", 1 },
	{ "k*", "kmalloc", 1 },
	{ "*c", "kmalloc", 1 },
	{ "k*c", "kmalloc", 1 },
	{ "k*z", "kmalloc", 0 },
	{ "?", "", 0 },
	{ "?", "k", 1 },
	{ "k??loc", "kmalloc", 0 },
	{ "k?alloc", "kmalloc", 1 },
	{ "*_*_*", "a_b_c", 1 },
	{ "*_*_*", "a_b", 0 },
	{ "a*b*c", "aXbYbZc", 1 },
	{ "**", "x", 1 },
	{ "x**", "x", 1 },
	{ "timer_*", "timer_start", 1 },
	{ "[ab]x", "bx", 1 },
	{ "[ab]x", "cx", 0 },
	{ "[!ab]x", "cx", 1 },
	{ "[^ab]x", "ax", 0 },
	{ "[a-c]", "b", 1 },
	{ "[a-c]", "d", 0 },
	{ "[]]", "]", 1 },
	{ "[", "[", 1 },
	{ "[ab", "[ab", 1 },
	{ "d*[!x]?", "dentry", 1 },
	{ "d*[!y]", "dentry", 0 },
};

static void one_glob_and_its_old_name_agree(void **state)
{
	size_t i;
	(void)state;
	for (i = 0; i < ARRAY_LEN(globs); i++) {
		const struct glob_case *c = &globs[i];
		int a = trace_filter_glob(c->pat, strlen(c->pat), c->s, strlen(c->s));
		int b = trace_glob_match(c->pat, strlen(c->pat), c->s);
		if (a != c->match || b != c->match)
			fail_msg("\"%s\" ~ \"%s\": trace_filter_glob %d, trace_glob_match %d, want "
				 "%d",
				 c->pat, c->s, a, b, c->match);
	}
	/* plen and slen bound the texts: what follows is not read */
	assert_int_equal(trace_filter_glob("kmXXX", 2, "kmalloc", 2), 1);
	assert_int_equal(trace_glob_match("k*XXX", 2, "kmalloc"), 1);
}

static void items_match_system_and_event(void **state)
{
	(void)state;
	assert_int_equal(trace_pattern_match("kmem:kmalloc", 12, "kmem", "kmalloc"), 1);
	assert_int_equal(trace_pattern_match("kmem:*", 6, "kmem", "kfree"), 1);
	assert_int_equal(trace_pattern_match("kmem:*", 6, "sched", "kfree"), 0);
	assert_int_equal(trace_pattern_match("*:timer_*", 9, "timer", "timer_start"), 1);
	assert_int_equal(trace_pattern_match("kfree", 5, "kmem", "kfree"), 1); /* any system */
	assert_int_equal(trace_pattern_match("kmem", 4, "kmem", "kfree"), 0);  /* not a system */
	assert_int_equal(trace_pattern_is_glob("kmem:k?ee", 9), 1);
	assert_int_equal(trace_pattern_is_glob("kmem:kfree", 10), 0);
}

static int collect(const char *item, size_t len, void *priv)
{
	char *out = (char *)priv;
	size_t n = strlen(out);
	snprintf(out + n, 256 - n, "[%.*s]", (int)len, item);
	return 0;
}

static void lists_are_checked_and_split(void **state)
{
	char out[256] = "";
	size_t pos = 0;
	const char *why = NULL;
	(void)state;
	assert_int_equal(trace_pattern_check(" kmem:*,\tsched:sched_switch , x ", &pos, &why), 0);
	assert_int_equal(trace_pattern_for_each(" kmem:*,\tsched:sched_switch , x ", collect, out),
			 0);
	assert_string_equal(out, "[kmem:*][sched:sched_switch][x]");
	assert_int_equal(trace_pattern_check("kmem:a:b", &pos, &why), -EINVAL);
	assert_int_equal(pos, 6);
	assert_string_equal(why, "a second ':' (use system:event)");
	assert_int_equal(trace_pattern_check("a if x > 1", &pos, &why), -EINVAL);
	assert_int_equal(pos, 1);
	assert_non_null(strstr(why, "a field filter"));
	assert_int_equal(trace_pattern_check("kmem:[ab]", &pos, &why), -EINVAL); /* no classes */
	assert_int_equal(pos, 5);
}

static void specs_are_split_into_groups(void **state)
{
	static const char spec[] = "kmem:kmalloc if cache == \"a;b\" ; sched:*;";
	struct trace_spec_group g;
	size_t next;
	(void)state;
	next = trace_spec_next(spec, 0, &g);
	assert_int_equal(g.pat_len, 12);
	assert_memory_equal(g.pat, "kmem:kmalloc", 12);
	assert_non_null(g.filter);
	assert_int_equal(g.filter_at, 15);
	assert_int_equal(g.filter_len, 16); /* the ';' in quotes is the string's */
	next = trace_spec_next(spec, next, &g);
	assert_int_equal(g.pat_at, 32);
	assert_memory_equal(g.pat, " sched:*", g.pat_len);
	assert_null(g.filter);
	next = trace_spec_next(spec, next, &g); /* the empty group after the last ';' */
	assert_int_equal(next, 0);
	assert_int_equal(g.pat_len, 0);
	assert_int_equal(trace_spec_is_plain("kmem:*,sched:*"), 1);
	assert_int_equal(trace_spec_is_plain("a, if"), 1); /* an event named "if" */
	assert_int_equal(trace_spec_is_plain("a if b == 1"), 0);
	assert_int_equal(trace_spec_is_plain("a;b"), 0);
	assert_int_equal(trace_spec_is_plain(NULL), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_glob_and_its_old_name_agree),
		cmocka_unit_test(items_match_system_and_event),
		cmocka_unit_test(lists_are_checked_and_split),
		cmocka_unit_test(specs_are_split_into_groups),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
