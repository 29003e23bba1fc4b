/* SPDX-License-Identifier: MIT */
/*
 * tracepoint/libc.h - the libc headers the machinery needs.
 *
 * They are most of what a translation unit preprocesses because of
 * tracepoint.h (about 150 KB against the machinery's own 40), so they come
 * with the machinery: at the first inclusion of tracepoint.h that compiles
 * a subsystem in, or that is a direct #include <tracepoint.h>.  A file whose
 * event headers are all compiled out never reads them.  Included outside
 * extern "C" (libc headers must not be inside it).
 *
 * Internal: included by tracepoint.h, before the machinery; depends on
 * nothing.
 */
#ifndef TRACEPOINT_H_INCLUDED
#error "tracepoint/libc.h is internal: #include <tracepoint.h> instead"
#elif !defined(TP__LIBC_H)
#define TP__LIBC_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sched.h>
#include <unistd.h>
#include <link.h>
#include <dlfcn.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#endif /* TP__LIBC_H */
