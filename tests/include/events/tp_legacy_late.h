/* Test-only unconverted event header (never mentions TRACE_CONFIG), meant to be included after a compiled-out one. */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM tp_legacy_late
#if !defined(_TRACE_TP_LEGACY_LATE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_TP_LEGACY_LATE_H
#include <tracepoint.h>

DECLARE_TRACE(tp_legacy_late_int, TP_PROTO(int v), TP_ARGS(v));

#endif /* _TRACE_TP_LEGACY_LATE_H */
