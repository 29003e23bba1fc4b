/* ext4: the toy filesystem (examples/ext4.c).  Compiled in by -DCONFIG_EXT4_TRACER. */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM ext4
#define TRACE_CONFIG CONFIG_EXT4_TRACER
#if !defined(_TRACE_EXT4_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_EXT4_H
#include <tracepoint.h>

DECLARE_TRACE(ext4_write_begin, TP_PROTO(unsigned long ino, long long pos, unsigned int len),
	      TP_ARGS(ino, pos, len));

DECLARE_TRACE(ext4_sync_file, TP_PROTO(unsigned long ino, int datasync), TP_ARGS(ino, datasync));

#endif /* _TRACE_EXT4_H */
