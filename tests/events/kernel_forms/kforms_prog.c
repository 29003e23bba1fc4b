/* Defines the events of kforms.h, kfmod.h and kfdash.h and fires them,
 * with values tests/events/t_kernel_forms.sh looks for in
 * tracepoint-dump's and babeltrace2's output; kforms_fire.c fires some
 * from a second file.  With --format it then reads the records back
 * (tests/include/trace_read.h) and prints each as the program's own
 * formatter (cls->format) does. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define CREATE_TRACE_POINTS
#include "kforms.h"
#include "kfmod.h"
#include "kfdash.h"
/* the C library's errno again after the passes */
#ifndef errno
#error "errno is not restored"
#endif
#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>
#include "trace_read.h"

void kf_fire_second(void);

int kf_reg(void)
{
	return 0;
}

void kf_unreg(void)
{
}

static void kf_print(const struct tr_rec *r, void *priv)
{
	char text[512];
	(void)priv;
	r->ev->cls->format(text, sizeof(text), (void *)(uintptr_t)r->payload, r->size);
	printf("%s:%s %s\n", r->ev->cls->system, r->ev->name, text);
}

static void kf_log(int level, const char *fmt, ...)
{
	va_list va;
	va_start(va, fmt);
	trace_kf_vstr(level, fmt, &va);
	va_end(va);
}

int main(int argc, char **argv)
{
	static const struct kf_pair pair = { -5, 7 };
	static const unsigned long mask[2] = { 0x3ul, 0x80000000ul };
	unsigned char cpus[TRACEPOINT_CPUMASK_BITS / 8];
	struct sockaddr_in in4;
	struct sockaddr_in6 in6;
	struct kf_task task = { 42 };
	static const unsigned char mapped[16] = { 0, 0, 0,    0,    0,	 0,   0, 0,
						  0, 0, 0xff, 0xff, 192, 168, 0, 1 };
	static const unsigned char link[16] = {
		0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1
	};
	static const unsigned char ten[4] = { 10, 0, 0, 255 };
	int i;

	trace_kf_struct(&pair);
	trace_kf_strlen("abcdef", 3);
	trace_kf_strlen("ab", 5);
	kf_log(2, "x=%d s=%s", 17, "hi");
	trace_kf_bits(mask, 65, NULL);
	memset(cpus, 0, sizeof(cpus));
	cpus[0] = 0x05;
	trace_kf_bits(mask, 8, cpus);
	memset(&in4, 0, sizeof(in4));
	in4.sin_family = AF_INET;
	in4.sin_port = htons(8080);
	in4.sin_addr.s_addr = htonl(0x7f000001);
	trace_kf_sock((const struct sockaddr *)&in4, (int)sizeof(in4));
	memset(&in6, 0, sizeof(in6));
	in6.sin6_family = AF_INET6;
	in6.sin6_port = htons(443);
	in6.sin6_addr.s6_addr[0] = 0xfe;
	in6.sin6_addr.s6_addr[1] = 0x80;
	in6.sin6_addr.s6_addr[15] = 1;
	trace_kf_sock((const struct sockaddr *)&in6, (int)sizeof(in6));
	for (i = 1; i <= 4; i++)
		trace_kf_fn_cond(i);
	trace_kf_fn(9);
	trace_kf_perf(&task, 1000);
	errno = 7;
	trace_kf_errno(-5);
	trace_kf_reason("Rescheduling interrupts");
	trace_kf_reason(NULL);
	trace_kf_hex(0);
	trace_kf_hex(0x1f);
	trace_kf_inet(mapped + 12, mapped);
	trace_kf_inet(ten, link);
	trace_kf_dyncmd("12 00 00");
#ifndef __cplusplus
	trace_kf_declarr("reader-long", 3);
#endif
	trace_kf_mod_load("first");
	trace_kf_dash_hit(1);
	kf_fire_second();
	if (argc > 1 && strcmp(argv[1], "--format") == 0) {
		tracepoint_disable("*");
		tracepoint_synchronize_unregister();
#ifdef __cplusplus
		return tr_read(tracepoint_trace_dir(), kf_print, NULL) == 28 ? 0 : 1;
#else
		return tr_read(tracepoint_trace_dir(), kf_print, NULL) == 29 ? 0 : 1;
#endif
	}
	return 0;
}
