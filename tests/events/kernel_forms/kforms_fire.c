/* The second file of the two-file layout: includes the headers without
 * CREATE_TRACE_POINTS and fires their events; kfmod.h comes after
 * kforms.h, whose TRACE_SYSTEM it must not take. */
#include <errno.h>
#include "kforms.h"
#include "kfmod.h"
#include "kfdash.h"

void kf_fire_second(void);

void kf_fire_second(void)
{
	static const struct kf_pair pair = { 1, 2 };
	trace_kf_struct(&pair);
	trace_kf_fn(10);
	trace_kf_mod_load("second");
	trace_kf_dash_hit(2);
	trace_kf_dynstr("hello, world", 5);
	errno = 0;
	trace_kf_errno(3);
}
