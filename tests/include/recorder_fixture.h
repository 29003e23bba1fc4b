/* The recorder fixture of the unit tests that record, then read back: a
 * cmocka group setup that records into a new trace directory, and the
 * teardown that removes it.  Include it after <trace/sink.h>; a test's
 * group setup calls tp_fixture_record() with its own options:
 *
 *	static char trace_dir[] = "/tmp/tp_NAME_XXXXXX";
 *	static int setup(void **state)
 *	{
 *		return tp_fixture_record(state, trace_dir, 0, NULL, 0);
 *	}
 *	...
 *	return cmocka_run_group_tests(tests, setup, tp_fixture_remove);
 */
#ifndef RECORDER_FIXTURE_H
#define RECORDER_FIXTURE_H

#include <stdlib.h>

#include "trace_read.h"

/* Makes dir (a mkdtemp template, changed in place) and records into it in
 * stream mode, with windows of window bytes (0: the default); then, if
 * enable is not NULL, enables it, which must enable exactly `enabled`
 * tracepoints.  *state is the directory, for tp_fixture_remove.  0 when
 * all of it worked, else -1 (cmocka then fails the group). */
static inline int tp_fixture_record(void **state, char *dir, size_t window, const char *enable,
				    int enabled)
{
	if (!mkdtemp(dir))
		return -1;
	*state = dir;
	if (window)
		tracepoint_buffer_size(window);
	if (tracepoint_output("stream", dir) != 0)
		return -1;
	return !enable || tracepoint_enable(enable) == enabled ? 0 : -1;
}

/* The group teardown: removes the directory tp_fixture_record made. */
static inline int tp_fixture_remove(void **state)
{
	if (*state)
		tr_remove(*state);
	return 0;
}

#endif
