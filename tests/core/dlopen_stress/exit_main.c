/* A program without tracepoint code (no tracepoint.h here) linked with
 * exit_lib.c's library: 4 threads fire the library's tracepoints without
 * pause, and main calls exit() after 20 ms.  The library's destructors
 * then close and detach its tracepoints while the threads still fire;
 * the program must end with status 0 (t_dlopen_stress.sh runs it 20
 * times, 50 outside make check). */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

void dls_fire_forever(void);

static void *worker(void *arg)
{
	(void)arg;
	dls_fire_forever();
	return NULL;
}

int main(void)
{
	struct timespec ms20 = { 0, 20000000 };
	pthread_t t;
	int i;
	for (i = 0; i < 4; i++)
		pthread_create(&t, NULL, worker, NULL);
	nanosleep(&ms20, NULL);
	exit(0);
}
