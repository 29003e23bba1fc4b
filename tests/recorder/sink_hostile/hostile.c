/* The traced program of tests/recorder/t_sink_hostile.sh; what it does is chosen
 * by its first argument:
 *   plain     prints its uid, euid and AT_SECURE, records 100 evx_step
 *             events, prints "done"
 *   strings   records evx_text and evx_raw events whose strings hold
 *             control characters, backslashes, invalid UTF-8 and forged
 *             event lines, from a thread whose name holds some too;
 *             prints each string it recorded in hex ("s <hex> a <hex>")
 *   exec      two threads record and stay alive, main records (and takes
 *             a snapshot in flight mode), then exec()s "ls -l /proc/self/fd/"
 *   fsize     RLIMIT_FSIZE of 64 MiB (SIGXFSZ ignored), records 10000
 *             events, prints "window <packet_size of the first packet in
 *             its warm ring>" (the window size) and "dropped <n>"
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/auxv.h>
#include <sys/resource.h>
#include <sys/stat.h>

#define CREATE_TRACE_POINTS
#include "sink_hostile/ev_hostile.h"
#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>

static void hex(const char *tag, const char *s)
{
	printf("%s ", tag);
	if (!*s)
		printf("-");
	for (; *s; s++)
		printf("%02x", (unsigned char)*s);
}

static const char *const strs[] = {
	"\n12.345678901 4242 sched:evil pid=1",
	"cr\rreturn\ttab\x1b[2Jesc\x7f"
	"del",
	"back\\nslash\\x41 \\\\ end\\",
	"bad utf8 \xff\xfe \xc3 end \xe2\x82",
	"c1 \xc2\x9b"
	"31m \xc2\x85 nel",
	"ok \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
	"\x01\x02\x03\x1f",
	"\"quote\" {\"json\":1}",
	"",
};
static const char *const arrs[] = {
	"arr\n99.000000000 1 evx:evx_text s=forged",
	"plain",
	"\\",
	"\xff",
};

static void *strings_thread(void *arg)
{
	unsigned i;
	(void)arg;
	prctl(PR_SET_NAME, (unsigned long)"t\n[x]\\\x1b\x7f", 0, 0, 0);
	for (i = 0; i < sizeof(strs) / sizeof(strs[0]); i++) {
		const char *a = arrs[i % (sizeof(arrs) / sizeof(arrs[0]))];
		trace_evx_text(strs[i], a);
		trace_evx_raw(strs[i], a, (int)i);
		hex("s", strs[i]);
		hex(" a", a);
		printf("\n");
	}
	return NULL;
}

static pthread_barrier_t ready;

static void *exec_thread(void *arg)
{
	int i;
	for (i = 0; i < 10; i++)
		trace_evx_step((int)(intptr_t)arg * 100 + i);
	pthread_barrier_wait(&ready);
	for (;;)
		pause(); /* alive, stream open, until the exec */
	return NULL;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "plain";
	int i;
	if (strcmp(mode, "plain") == 0) {
		printf("uid=%d euid=%d secure=%lu\n", (int)getuid(), (int)geteuid(),
		       getauxval(AT_SECURE));
		for (i = 0; i < 100; i++)
			trace_evx_step(i);
	} else if (strcmp(mode, "strings") == 0) {
		pthread_t t;
		pthread_create(&t, NULL, strings_thread, NULL);
		pthread_join(t, NULL);
	} else if (strcmp(mode, "exec") == 0) {
		pthread_t t[2];
		pthread_barrier_init(&ready, NULL, 3);
		for (i = 0; i < 2; i++)
			pthread_create(&t[i], NULL, exec_thread, (void *)(intptr_t)(i + 1));
		pthread_barrier_wait(&ready);
		for (i = 0; i < 10; i++)
			trace_evx_step(i);
		if (argc > 2 && strcmp(argv[2], "snapshot") == 0 && tracepoint_snapshot() < 1)
			fprintf(stderr, "snapshot failed\n");
		fflush(stdout);
		execlp("ls", "ls", "-l", "/proc/self/fd/", (char *)NULL);
		perror("exec ls");
		return 1;
	} else if (strcmp(mode, "fsize") == 0) {
		struct rlimit r;
		char path[4200];
		signal(SIGXFSZ, SIG_IGN);
		getrlimit(RLIMIT_FSIZE, &r);
		r.rlim_cur = 64u << 20;
		setrlimit(RLIMIT_FSIZE, &r);
		for (i = 0; i < 10000; i++) /* more than 64 KiB */
			trace_evx_step(i);
		/* the first packet of the thread's warm ring: one window (or the
		 * whole ring, if it is the only packet) */
		snprintf(path, sizeof(path), "%s/stream-%d.ring",
			 tracepoint_trace_dir() ? tracepoint_trace_dir() : ".",
			 (int)syscall(SYS_gettid));
		{
			struct trace_packet h;
			FILE *f = fopen(path, "rb");
			long long w = -1;
			/* its first packet is after the ring's lead packet
			 * (docs/trace-format.md) */
			if (f && fread(&h, sizeof(h), 1, f) == 1 &&
			    fseek(f, (long)(h.packet_size / 8), SEEK_SET) == 0 &&
			    fread(&h, sizeof(h), 1, f) == 1)
				w = (long long)(h.packet_size / 8);
			if (f)
				fclose(f);
			printf("window %lld\n", w);
		}
		printf("dropped %llu\n", tracepoint_dropped());
	} else {
		fprintf(stderr, "unknown mode %s\n", mode);
		return 2;
	}
	printf("done\n");
	return 0;
}
