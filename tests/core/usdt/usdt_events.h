/* Two subsystems for the USDT test: "net" is switched by CONFIG_NET_TRACER,
 * "disk" by CONFIG_DISK_TRACER. */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM net
#define TRACE_CONFIG CONFIG_NET_TRACER
#if !defined(_TRACE_USDT_NET_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_USDT_NET_H
#include <tracepoint.h>
DECLARE_TRACE(net_xmit, TP_PROTO(int ifindex, unsigned long len, const void *skb),
	      TP_ARGS(ifindex, len, skb));
DECLARE_TRACE_NOARGS(net_poll);
#ifndef USDT_DIR_DEFINED
#define USDT_DIR_DEFINED
enum usdt_dir { USDT_IN = -1, USDT_OUT = 1 };
#endif
/* One argument of each kind, for the signedness of the descriptions:
 * expected -2@ 1@ -8@ 4@ -4@ 8@ (readelf -n). */
DECLARE_TRACE(net_kinds,
	      TP_PROTO(short s, unsigned char uc, long long ll, unsigned u, enum usdt_dir dir,
		       const char *p),
	      TP_ARGS(s, uc, ll, u, dir, p));
/* Twelve arguments, <sys/sdt.h>'s most, two of them floating point:
 * expected -4@ -8@ -2@ 4@ 8@ 4@ -8@ -4@ 8@ -4@ 8@ -4@ (8f@ 4f@ for the
 * floating ones with -DTRACEPOINT_USDT_FLOAT_SUFFIX). */
DECLARE_TRACE(net_wide,
	      TP_PROTO(int a0, long a1, short a2, unsigned a3, double a4, float a5, long long a6,
		       int a7, unsigned long a8, int a9, const void *a10, int a11),
	      TP_ARGS(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11));
/* Thirteen: more than <sys/sdt.h> describes; a probe without arguments. */
DECLARE_TRACE(net_many,
	      TP_PROTO(int a0, int a1, int a2, int a3, int a4, int a5, int a6, int a7, int a8,
		       int a9, int a10, int a11, int a12),
	      TP_ARGS(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12));
#endif

#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM disk
#define TRACE_CONFIG CONFIG_DISK_TRACER
#if !defined(_TRACE_USDT_DISK_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_USDT_DISK_H
#include <tracepoint.h>
DECLARE_TRACE(disk_io, TP_PROTO(long sector), TP_ARGS(sector));
#endif
