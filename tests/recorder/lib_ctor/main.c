/* The program with the recorder, linked with lib.c's library: the events
 * of the library's constructor are recorded when TRACEPOINTS names them. */
#include <stdio.h>
#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>

int lib_work(int n);

int main(void)
{
	printf("work %d\n", lib_work(200));
	return 0;
}
