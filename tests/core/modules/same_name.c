/* Linked with liba.so and libb.so, which both have an event "init" (in
 * systems a and b, with other arguments).  Records both: each library's
 * call sites must reach its own tracepoint. */
#include <stdio.h>
#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>
void a_start(const char *who);
void b_start(long v);
int main(void)
{
	a_start("from-a");
	b_start(-42);
	a_start("again");
	b_start(7);
	printf("same_name: done\n");
	return 0;
}
