/* The one file that defines the kv events (unless -DKV_NO_CREATE); with
 * -DKV_READ_FIRST it reads the headers once before CREATE_TRACE_POINTS,
 * as the kernel's files do through other headers. */
#ifdef KV_READ_FIRST
#include "ev_kv.h"
#include "ev_kv2.h"
#endif
#ifndef KV_NO_CREATE
#define CREATE_TRACE_POINTS
#endif
#include "ev_kv.h"
#include "ev_kv2.h"
