/* The one file that defines the kv events (unless -DKV_NO_CREATE). */
#ifndef KV_NO_CREATE
#define CREATE_TRACE_POINTS
#endif
#include "ev_kv.h"
#include "ev_kv2.h"
