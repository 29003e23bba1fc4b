/* Test-only events of the "tp_stress" subsystem (robustness tests), compiled in by CONFIG_TP_STRESS. */
#undef TRACE_SYSTEM
#undef TRACE_CONFIG
#define TRACE_SYSTEM tp_stress
#define TRACE_CONFIG CONFIG_TP_STRESS
#if !defined(_TRACE_TP_STRESS_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_TP_STRESS_H
#include <tracepoint.h>

/* Fired by many threads while probes come and go. */
DECLARE_TRACE(tp_stress_hot, TP_PROTO(int v), TP_ARGS(v));
/* Fired next to tp_stress_hot (same function, same code page), steady probe. */
DECLARE_TRACE(tp_stress_steady, TP_PROTO(int v), TP_ARGS(v));
/* Meant for DEFINE_TRACE_FN (reg/unreg callbacks). */
DECLARE_TRACE(tp_stress_regfn, TP_PROTO(int v), TP_ARGS(v));

/* Sixteen interchangeable tracepoints for registration storms. */
DECLARE_TRACE(tp_stress_0, TP_PROTO(int v), TP_ARGS(v));
DECLARE_TRACE(tp_stress_1, TP_PROTO(int v), TP_ARGS(v));
DECLARE_TRACE(tp_stress_2, TP_PROTO(int v), TP_ARGS(v));
DECLARE_TRACE(tp_stress_3, TP_PROTO(int v), TP_ARGS(v));
DECLARE_TRACE(tp_stress_4, TP_PROTO(int v), TP_ARGS(v));
DECLARE_TRACE(tp_stress_5, TP_PROTO(int v), TP_ARGS(v));
DECLARE_TRACE(tp_stress_6, TP_PROTO(int v), TP_ARGS(v));
DECLARE_TRACE(tp_stress_7, TP_PROTO(int v), TP_ARGS(v));
DECLARE_TRACE(tp_stress_8, TP_PROTO(int v), TP_ARGS(v));
DECLARE_TRACE(tp_stress_9, TP_PROTO(int v), TP_ARGS(v));
DECLARE_TRACE(tp_stress_10, TP_PROTO(int v), TP_ARGS(v));
DECLARE_TRACE(tp_stress_11, TP_PROTO(int v), TP_ARGS(v));
DECLARE_TRACE(tp_stress_12, TP_PROTO(int v), TP_ARGS(v));
DECLARE_TRACE(tp_stress_13, TP_PROTO(int v), TP_ARGS(v));
DECLARE_TRACE(tp_stress_14, TP_PROTO(int v), TP_ARGS(v));
DECLARE_TRACE(tp_stress_15, TP_PROTO(int v), TP_ARGS(v));

#endif /* _TRACE_TP_STRESS_H */
