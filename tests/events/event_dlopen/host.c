/* The host: owns the recorder, dlopen()s the plugin after start-up, enables
 * the plugin's events by pattern, runs it, closes it; twice.  The trace
 * goes to the directory argv[2]. */
#include <dlfcn.h>
#include <stdio.h>
#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>

int main(int argc, char **argv)
{
	int round;
	if (argc < 3 || tracepoint_output("stream", argv[2]) != 0)
		return 2;
	if (tracepoint_enable("plug:*") != 0) { /* nothing loaded yet: 0 matches */
		fprintf(stderr, "host: plug:* matched before the plugin was loaded\n");
		return 1;
	}
	for (round = 0; round < 2; round++) {
		void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
		void (*run)(int);
		int n;
		if (!h) {
			fprintf(stderr, "host: %s\n", dlerror());
			return 1;
		}
		*(void **)(&run) = dlsym(h, "plug_run");
		n = tracepoint_enable("plug:*");
		if (n != 1) {
			fprintf(stderr, "host: plug:* matched %d events after dlopen\n", n);
			return 1;
		}
		run(round);
		run(round + 10);
		tracepoint_disable("plug:*");
		dlclose(h); /* its records stay in the trace, described by the metadata */
	}
	printf("host: done\n");
	return 0;
}
