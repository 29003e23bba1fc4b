/* Subsystem "disk": converted, switched by CONFIG_SM_DISK (left undefined). */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM disk
#define TRACE_CONFIG CONFIG_SM_DISK
#if !defined(_TRACE_SM_DISK_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_SM_DISK_H
#include <tracepoint.h>
DECLARE_TRACE(sm_disk_io, TP_PROTO(long sector, int write), TP_ARGS(sector, write));
#endif
