/* Tracepoints defined in C++ (main.cpp), fired from C++ and C. */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM cxcpp
#define TRACE_CONFIG CONFIG_CXX_TEST
#if !defined(_TRACE_CXCPP_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_CXCPP_H
#include <tracepoint.h>
DECLARE_TRACE(cx_cpp_ev, TP_PROTO(double d, long n), TP_ARGS(d, n));
DECLARE_TRACE_NOARGS(cx_cpp_tick);
/* defined in main.cpp, fired by C only: no C++ file uses its dispatch */
DECLARE_TRACE(cx_cpp_c_only, TP_PROTO(int v), TP_ARGS(v));
#endif
