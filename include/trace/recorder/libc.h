/* SPDX-License-Identifier: MIT */
/*
 * trace/recorder/libc.h - the libc headers of the recorder and of its
 * control channel, and what strict ISO C modes hide of them.
 *
 * Why a file: the libc headers must come first and outside extern "C"; the
 * POSIX and GNU calls that -std=c99 hides are declared here, only where the
 * C library hides them (so that -Wredundant-decls stays quiet), and the
 * few constants a libc may lack are given their Linux values.
 *
 * Internal: included by trace/sink.h (TRACEPOINT_SINK_MAIN) first, before
 * its extern "C"; depends on nothing of ours.  The control channel
 * (recorder/ctl_*.h, read at the end of sink.h) uses its headers too.
 */
#ifndef TP__SINK_DEFINED
#error "trace/recorder/libc.h is internal: #include <trace/sink.h> instead"
#elif !defined(TP__REC_LIBC_H)
#define TP__REC_LIBC_H

#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>

#include <dirent.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>

#ifdef __cplusplus
extern "C" {
#endif

/* POSIX and GNU calls that strict ISO C modes (-std=c99) hide, declared
 * only where the C library hides them (glibc's feature macros), so that
 * -Wredundant-decls stays quiet. */
#ifndef __cplusplus
#ifndef __USE_MISC
extern int madvise(void *, size_t, int); /* syscall(): tracepoint/grace.h */
#endif
#if !defined(__USE_XOPEN_EXTENDED) && !defined(__USE_XOPEN2K8)
extern char *strdup(const char *);
#endif
#ifndef __USE_GNU
extern int fallocate(int, int, off_t, off_t);
#endif
#if !defined(__USE_POSIX199309) && !defined(__USE_UNIX98)
extern int fdatasync(int);
#endif
#if !defined(__USE_UNIX98) && !defined(__USE_XOPEN2K8)
extern ssize_t pwrite(int, const void *, size_t, off_t);
#endif
#if !defined(__USE_POSIX199309) && !defined(__USE_XOPEN_EXTENDED) && !defined(__USE_XOPEN2K8)
extern int ftruncate(int, off_t);
#endif
#ifndef __USE_ATFILE
extern int mkdirat(int, const char *, mode_t);
extern int openat(int, const char *, int, ...);
extern int renameat(int, const char *, int, const char *);
extern int unlinkat(int, const char *, int);
extern int fstatat(int, const char *, struct stat *, int);
extern ssize_t readlinkat(int, const char *, char *, size_t);
#endif
#if !defined(__USE_MISC) && !defined(__USE_UNIX98) && !defined(__USE_XOPEN2K)
extern int gethostname(char *, size_t);
#endif
#endif
/* glibc's own signal() (BSD semantics: stays installed, restarts calls),
 * whatever the -std: strict ISO modes redirect `signal` to SysV's. */
extern void (*tp__sink_signal(int, void (*)(int)))(int) __asm__("signal");
#ifndef CLOCK_REALTIME
#define CLOCK_REALTIME 0
#endif
#ifndef CLOCK_BOOTTIME
#define CLOCK_BOOTTIME 7 /* Linux 2.6.39 */
#endif
#define TP__SINK_MADV_POPULATE_WRITE 23 /* Linux 5.14 */
#ifndef MAP_ANONYMOUS
#define MAP_ANONYMOUS 0x20
#endif
#ifndef AT_FDCWD
#define AT_FDCWD -100
#endif
#ifndef AT_REMOVEDIR
#define AT_REMOVEDIR 0x200
#endif
#ifndef AT_SYMLINK_NOFOLLOW
#define AT_SYMLINK_NOFOLLOW 0x100
#endif
__extension__ typedef unsigned __int128 tp__sink_u128;
#ifndef O_CLOEXEC
#define O_CLOEXEC 02000000
#endif
#ifndef O_NOFOLLOW
#define O_NOFOLLOW 0400000
#endif
#ifndef O_DIRECTORY
#define O_DIRECTORY 0200000
#endif
/* O_PATH (Linux 2.6.39; hidden without _GNU_SOURCE): a descriptor of the
 * symbolic link itself, whose fstat and readlinkat(fd, "") see one link */
#ifdef O_PATH
#define O_PATH_TP O_PATH
#else
#define O_PATH_TP 010000000
#endif
#ifndef MAP_SHARED
#define MAP_SHARED 0x01
#endif
#ifndef O_NONBLOCK
#define O_NONBLOCK 04000
#endif
#ifndef O_NOCTTY
#define O_NOCTTY 0400
#endif
#ifndef AT_SECURE
#define AT_SECURE 23
#endif
#ifndef S_ISVTX
#define S_ISVTX 01000
#endif

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TP__REC_LIBC_H */
