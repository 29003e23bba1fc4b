/* The host for t_filters.sh: a filter set on an event of a plugin, then
 * the plugin unloaded and another definition of the event loaded under the
 * same name (argv[1..3]: layouts 1, 2, 3: x moves, then goes away).  The
 * filter is compiled again for the new fields (layout 2) or dropped, with
 * a message (layout 3: no field x): never run with the old offsets.
 * Prints, per plugin, how many bytes its records added to the thread's
 * packet (content_size): 4 or 13 bytes of header plus the entry each. */
#include <dlfcn.h>
#include <stdio.h>
#include <fcntl.h>
#include <unistd.h>
#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>

static long content_bytes(void)
{
	char path[4200];
	struct trace_packet p;
	int fd;
	ssize_t n;
	/* the open packet is in the warm ring (stream mode), its first packet
	 * after the ring's lead packet (docs/trace-format.md) */
	snprintf(path, sizeof(path), "%s/stream-%d.ring", tracepoint_trace_dir(), (int)getpid());
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0; /* nothing recorded yet */
	n = pread(fd, &p, sizeof(p), 0);
	if (n == (ssize_t)sizeof(p))
		n = pread(fd, &p, sizeof(p), (off_t)(p.packet_size / 8));
	close(fd);
	return n == (ssize_t)sizeof(p) ? (long)(p.content_size / 8) : -1;
}

int main(int argc, char **argv)
{
	int k, i;
	long before;
	char err[512];
	if (argc < 5 || tracepoint_output("stream", argv[4]) != 0)
		return 2;
	for (k = 1; k <= 3; k++) {
		void *h = dlopen(argv[k], RTLD_NOW | RTLD_LOCAL);
		void (*fire)(int, int);
		if (!h) {
			fprintf(stderr, "host: %s\n", dlerror());
			return 1;
		}
		*(void **)(&fire) = dlsym(h, "plug_fire");
		if (k == 1 &&
		    tracepoint_filter("fplug:fplug_work", "x == 5", err, sizeof(err)) != 1) {
			fprintf(stderr, "host: %s\n", err);
			return 1;
		}
		if (tracepoint_enable("fplug:fplug_work") != 1)
			return 1;
		before = content_bytes();
		for (i = 0; i < 10; i++)
			fire(i, 100 + i);
		printf("layout %d: %ld\n", k, content_bytes() - before);
		tracepoint_disable("fplug:fplug_work");
		dlclose(h);
	}
	printf("dropped %llu\n", tracepoint_dropped());
	return 0;
}
