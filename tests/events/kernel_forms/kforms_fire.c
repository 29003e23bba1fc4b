/* The second file of the two-file layout: includes kforms.h without
 * CREATE_TRACE_POINTS and fires its events. */
#include "kforms.h"

void kf_fire_second(void);

void kf_fire_second(void)
{
	static const struct kf_pair pair = { 1, 2 };
	trace_kf_struct(&pair);
	trace_kf_fn(10);
}
