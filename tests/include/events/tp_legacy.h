/* Test-only unconverted event header: kernel form from before TRACE_CONFIG, it never mentions it. */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM tp_legacy
#if !defined(_TRACE_TP_LEGACY_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_TP_LEGACY_H
#include <tracepoint.h>

DECLARE_TRACE(tp_legacy_int, TP_PROTO(int v), TP_ARGS(v));

#endif /* _TRACE_TP_LEGACY_H */
