/* tests/tools/t_lineup.sh: other() as an LTTng-UST tracef event (a file
 * of its own: <lttng/tracef.h> and <tracepoint.h> define macros of the
 * same names). */
#include <lttng/tracef.h>
void other(int n);
void other(int n)
{
	tracef("step %d", n);
}
