/* Tracepoints defined in C (c_side.c), fired from C and C++. */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM cxc
#define TRACE_CONFIG CONFIG_CXX_TEST
#if !defined(_TRACE_CXC_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_CXC_H
#include <tracepoint.h>
DECLARE_TRACE(cx_c_ev, TP_PROTO(int a, const char *s), TP_ARGS(a, s));
#endif
