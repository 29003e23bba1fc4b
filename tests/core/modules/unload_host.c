/* dlclose() of a library that still has a probe attached to one of our
 * tracepoints and whose events are enabled and buffered:
 *   unload_host PLUGIN.so TRACE_DIR ROUNDS
 * Each round: dlopen, enable plug:*, attach the plugin's probe to
 * host_tick, fire both, dlclose without disabling or detaching anything,
 * then fire host_tick again (the plugin's probe is gone: must not be
 * called).  At exit the recorder flushes: the plugin's events are there. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>
#include "ev_host.h"
DEFINE_TRACE(host_tick);

int main(int argc, char **argv)
{
	int round, rounds;
	if (argc < 4 || tracepoint_output("stream", argv[2]) != 0)
		return 2;
	rounds = atoi(argv[3]);
	for (round = 0; round < rounds; round++) {
		void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
		void (*run)(int);
		int (*attach)(void);
		if (!h) {
			fprintf(stderr, "host: %s\n", dlerror());
			return 1;
		}
		*(void **)(&run) = dlsym(h, "plug_run");
		*(void **)(&attach) = dlsym(h, "plug_attach");
		if (tracepoint_enable("plug:*") != 1) {
			fprintf(stderr, "host: plug:* did not match\n");
			return 1;
		}
		if (attach() != 0) {
			fprintf(stderr, "host: the plugin could not attach\n");
			return 1;
		}
		trace_host_tick(round);
		run(round);
		dlclose(h);
		if (tracepoint_enabled(&__tracepoint_host_tick)) {
			fprintf(stderr,
				"host: the plugin's probe is still attached after dlclose\n");
			return 1;
		}
		trace_host_tick(round); /* would call into the unmapped plugin */
	}
	printf("host: %d rounds done\n", rounds);
	return 0;
}
