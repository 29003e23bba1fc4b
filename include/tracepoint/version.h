/* SPDX-License-Identifier: MIT */
/*
 * tracepoint/version.h - the version of this tracepoint.h, in the one place
 * it is written.
 *
 * Everything else takes it from here: tracepoint.h includes this file, the
 * Makefile reads the three numbers below (so `make install` writes them into
 * tracepoint.pc and the CMake version file), and tracepoint-dump (tools/dump/)
 * prints them for --version.  To release, change these three lines only.
 * Keep each one `#define TRACEPOINT_VERSION_<PART> <decimal number>` on a
 * line of its own: the Makefile reads them with sed.
 *
 *   TRACEPOINT_VERSION_MAJOR, _MINOR, _PATCH   the parts, integer constants
 *   TRACEPOINT_VERSION         one comparable number, MAJOR * 10000 +
 *                              MINOR * 100 + PATCH (0.1.0 is 100):
 *                              #if TRACEPOINT_VERSION >= 100 ...
 *   TRACEPOINT_VERSION_STRING  "MAJOR.MINOR.PATCH", a string literal
 *
 * This is the library's release, not TRACEPOINT_ABI (tracepoint/defs.h),
 * the layout modules built with different copies of the header must share.
 *
 * Unlike the other files of tracepoint/, this one is public and may be
 * included on its own (#include <tracepoint/version.h>): it is macros only,
 * with no dependency and no requirement on the compiler or the language
 * version, so that a build check, a configure test or a program that only
 * reads traces (tracepoint-dump, tools/dump/, libc only) can learn the
 * version without taking in the tracepoint machinery.
 */
#ifndef TP__VERSION_H
#define TP__VERSION_H

#define TRACEPOINT_VERSION_MAJOR 0
#define TRACEPOINT_VERSION_MINOR 1
#define TRACEPOINT_VERSION_PATCH 0

#define TRACEPOINT_VERSION \
	(TRACEPOINT_VERSION_MAJOR * 10000 + TRACEPOINT_VERSION_MINOR * 100 + TRACEPOINT_VERSION_PATCH)

#define TP__VERSION_STR(x) TP__VERSION_STR_(x)
#define TP__VERSION_STR_(x) #x
#define TRACEPOINT_VERSION_STRING                                    \
	TP__VERSION_STR(TRACEPOINT_VERSION_MAJOR) "."                \
	TP__VERSION_STR(TRACEPOINT_VERSION_MINOR) "."                \
	TP__VERSION_STR(TRACEPOINT_VERSION_PATCH)

#endif /* TP__VERSION_H */
