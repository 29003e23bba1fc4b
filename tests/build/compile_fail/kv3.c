/* Defines and fires the kv3 events (ev_kv3.h). */
#define CREATE_TRACE_POINTS
#include "ev_kv3.h"
void kv3_run(int k);
void kv3_run(int k)
{
	trace_kv_get(k);
	trace_kv_del(k);
}
