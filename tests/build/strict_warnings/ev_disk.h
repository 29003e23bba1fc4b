/* Plain tracepoints (DECLARE_TRACE), subsystem "disk", CONFIG_SW_DISK. */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM disk
#define TRACE_CONFIG CONFIG_SW_DISK
#if !defined(_TRACE_SW_DISK_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_SW_DISK_H
#include <tracepoint.h>
DECLARE_TRACE(disk_io, TP_PROTO(int dev, unsigned long sector, const char *op),
	      TP_ARGS(dev, sector, op));
DECLARE_TRACE_NOARGS(disk_idle);
#endif
