/* A program built against an installed tracepoint.h (see Makefile and
 * CMakeLists.txt next to it): defines, fires and attaches to one tracepoint.
 * With CONFIG_HELLO_TRACE it prints a line per event; without, registering
 * returns -ENOSYS and nothing of the tracepoint is in the binary. */
#include <errno.h>
#include <stdio.h>
#include <tracepoint.h> /* tracepoint_synchronize_unregister(), compiled out too */
#include "hello_trace.h"

DEFINE_TRACE(hello_greet);

static void print_greet(const char *who, int n, void *data)
{
	int *seen = data;

	++*seen;
	printf("probe: hello_greet(%s, %d)\n", who, n);
}

int main(void)
{
	int seen = 0;
	int err = register_trace_hello_greet(print_greet, &seen);

	if (err == -ENOSYS)
		printf("hello tracepoints compiled out\n");
	else if (err)
		printf("register_trace_hello_greet: error %d\n", err);
	for (int i = 1; i <= 3; i++)
		trace_hello_greet("world", i);
	if (!err) {
		unregister_trace_hello_greet(print_greet, &seen);
		tracepoint_synchronize_unregister();
	}
	trace_hello_greet("nobody", 4); /* no probe attached any more */
	printf("%d events seen\n", seen);
	return err && err != -ENOSYS;
}
