/* syscall.c - the system call entry: one table lookup between
 * syscalls:sys_enter and syscalls:sys_exit. */
#include "toy.h"
#include <events/syscalls.h>

static long sys_write(long fd, long buf, long len)
{
	(void)fd; /* one file only */
	return ext4_file_write(&ext4_root_file, (const void *)buf, (size_t)len,
			       (long long)ext4_root_file.size);
}

static long sys_getpid(long a0, long a1, long a2)
{
	(void)a0;
	(void)a1;
	(void)a2;
	return 1;
}

static long sys_fsync(long fd, long a1, long a2)
{
	(void)fd;
	(void)a1;
	(void)a2;
	return ext4_sync_file(&ext4_root_file, 0);
}

long do_syscall(long nr, long arg0, long arg1, long arg2)
{
	long ret = -38; /* -ENOSYS */

	trace_sys_enter(nr, arg0, arg1, arg2);
	switch (nr) {
	case NR_write:
		ret = sys_write(arg0, arg1, arg2);
		break;
	case NR_getpid:
		ret = sys_getpid(arg0, arg1, arg2);
		break;
	case NR_fsync:
		ret = sys_fsync(arg0, arg1, arg2);
		break;
	}
	trace_sys_exit(nr, ret);
	return ret;
}
