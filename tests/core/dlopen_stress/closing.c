/* Registering on a library's tracepoints while another thread dlclose()s
 * it (tests/core/t_dlopen_stress.sh): the library's last destructor
 * (lib_closing.c) holds dlclose() after the tracepoints' own teardown, and
 * main registers by name then.  The tracepoint is closed: -ENOENT, nothing
 * attached that would be left behind (before, the registration succeeded
 * and its probe list was lost with the library).  Then the library is
 * opened again and takes probes as usual.  Exits non-zero with a message
 * on the first failure. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "dls_events.h"

static volatile int dls_closing, dls_tried;
static void *lib;
static long hits;

static void probe_work(int n, void *data)
{
	(void)n;
	(void)data;
	hits++;
}

static void *closer(void *arg)
{
	(void)arg;
	dlclose(lib);
	return NULL;
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "./libdls_closing.so";
	struct timespec ms = { 0, 1000000 };
	int (*call)(int);
	void (*watch)(volatile int *, volatile int *);
	pthread_t t;
	int r, i;

	if (!(lib = dlopen(path, RTLD_NOW | RTLD_LOCAL)) ||
	    !(*(void **)&watch = dlsym(lib, "dls_watch"))) {
		fprintf(stderr, "dlopen: %s\n", dlerror());
		return 1;
	}
	watch(&dls_closing, &dls_tried);
	pthread_create(&t, NULL, closer, NULL);
	for (i = 0; i < 5000 && !dls_closing; i++)
		nanosleep(&ms, NULL);
	r = tracepoint_probe_register_name("dls_work", TRACEPOINT_FUNC(probe_work), NULL, 0);
	dls_tried = 1;
	pthread_join(t, NULL);
	if (!dls_closing || r != -ENOENT) {
		fprintf(stderr, "register during dlclose: %d (closing %d), want -ENOENT\n", r,
			dls_closing);
		return 1;
	}
	if (!(lib = dlopen(path, RTLD_NOW | RTLD_LOCAL)) ||
	    !(*(void **)&call = dlsym(lib, "dls_call"))) {
		fprintf(stderr, "dlopen again: %s\n", dlerror());
		return 1;
	}
	r = tracepoint_probe_register_name("dls_work", TRACEPOINT_FUNC(probe_work), NULL, 0);
	call(1);
	if (r != 0 || hits != 1) {
		fprintf(stderr, "opened again: register %d, %ld hits, want 0 and 1\n", r, hits);
		return 1;
	}
	tracepoint_probe_unregister_name("dls_work", TRACEPOINT_FUNC(probe_work), NULL);
	dlclose(lib); /* not watched this time */
	printf("register during dlclose: -ENOENT; opened again: attached, 1 hit\n");
	return 0;
}
