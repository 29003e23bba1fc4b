/* SPDX-License-Identifier: MIT */
/*
 * trace/recorder/trace_dir.h - the session directory (TRACEPOINTS_DIR or
 * trace-<comm>-<pid>) and this process's trace directory in it, made
 * new and never through a symbolic link another user could have made;
 * a forked child's own trace.
 *
 * Internal: included by trace/sink.h (TRACEPOINT_SINK_MAIN); depends on
 * recorder/state.h, recorder/clock.h and recorder/metadata.h.
 */
#ifndef TP__SINK_DEFINED
#error "trace/recorder/trace_dir.h is internal: #include <trace/sink.h> instead"
#elif !defined(TP__REC_TRACE_DIR_H)
#define TP__REC_TRACE_DIR_H

/* ---- The trace directory. ---- */

/* The process name (its main thread's, whichever thread asks: the trace
 * may start in the control channel's thread), made safe for a file name. */
static void tp__sink_read_procname(void)
{
	char c[17] = "";
	size_t i;
	int fd = open("/proc/self/comm", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, c, 16) : -1;
	if (fd >= 0)
		close(fd);
	if (n > 0)
		c[n - (c[n - 1] == '\n')] = '\0';
	else /* no /proc: the calling thread's */
		prctl(PR_GET_NAME, (unsigned long)c, 0, 0, 0);
	c[16] = '\0';
	for (i = 0; c[i]; i++)
		if (!((c[i] >= 'a' && c[i] <= 'z') || (c[i] >= 'A' && c[i] <= 'Z') ||
		      (c[i] >= '0' && c[i] <= '9') || c[i] == '-' || c[i] == '_' || c[i] == '.'))
			c[i] = '_';
	snprintf(tp__sink.procname, sizeof(tp__sink.procname), "%s", c[0] ? c : "prog");
}

/* Makes a new directory `base` (or base.1, base.2... if it exists) in at
 * (`where` names it in messages, "" for the current directory); its fd,
 * the name used in name_out; -errno.  Nothing that exists is ever used: a
 * name taken by something else than a directory (e.g. a symbolic link
 * planted in a shared directory) is reported and skipped. */
static int tp__sink_mkdir_new(int at, const char *where, const char *base, char *name_out,
			      size_t len)
{
	int i, fd;
	for (i = 0; i < 1000; i++) {
		struct stat st;
		if (i)
			snprintf(name_out, len, "%s.%d", base, i);
		else
			snprintf(name_out, len, "%s", base);
		if (mkdirat(at, name_out, 0755) == 0)
			break;
		if (errno != EEXIST)
			return -errno;
		if (fstatat(at, name_out, &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISDIR(st.st_mode))
			tp__sink_msg("%s%s%s exists and is %s: not used (not followed); the trace "
				     "goes to a "
				     "new directory next to it",
				     where, *where ? "/" : "", name_out,
				     S_ISLNK(st.st_mode) ? "a symbolic link" : "not a directory");
	}
	if (i == 1000)
		return -EEXIST;
	fd = openat(at, name_out, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* Whether the symbolic link of uid `owner` in the directory dst may be
 * followed: made by this user or by root, or in a directory that only
 * this user or root can write (owned by one of them, no group or other
 * write).  Anything else another user could have planted. */
static int tp__sink_link_ok(uid_t owner, const struct stat *dst)
{
	uid_t me = geteuid();
	return owner == me || owner == 0 ||
	       ((dst->st_uid == me || dst->st_uid == 0) && !(dst->st_mode & (S_IWGRP | S_IWOTH)));
}

/* The directory an absolute walk starts from: "/" itself, or, when the
 * path's first component is a plain directory, that directory opened by
 * its absolute name ("/tmp").  Opened by name because an emulator such as
 * qemu-user maps absolute names into a sysroot and falls back to the real
 * one only for names the sysroot lacks: "/" then "tmp" would find the
 * sysroot's.  A first component that is a link, or missing, is left to
 * the walk.  *p is moved past the component opened; fd or -1. */
static int tp__sink_open_root(const char **p, char *shown, size_t shown_size)
{
	char first[256];
	const char *q = *p, *end;
	int fd;
	while (*q == '/')
		q++;
	for (end = q; *end && *end != '/'; end++)
		;
	if (end == q || (size_t)(end - q) >= sizeof(first) || q[0] == '.')
		return open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC); /* "/", "/.", "/..", "/.x" */
	first[0] = '/';
	memcpy(first + 1, q, (size_t)(end - q));
	first[end - q + 1] = '\0';
	fd = open(first, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd >= 0 && end[strspn(end, "/")]) {
		snprintf(shown, shown_size, "%s", first);
		*p = end;
		return fd;
	}
	/* the path's last component (the walk makes it), a link, or missing */
	if (fd >= 0)
		close(fd);
	return open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

/* Opens (made if missing) the session directory `dir` named by the user,
 * walking it one component at a time from "/" or the current directory
 * with O_NOFOLLOW: a symbolic link at any component is followed (its
 * target walked the same way) only if tp__sink_link_ok says so, so that
 * no link another user planted, at the end of the path or in its middle
 * ("/tmp/x/trace", "/tmp/x/."), leads the recorder elsewhere.  "." and
 * ".." are what they are in the directory reached so far (".." of a
 * link's target is its target's parent, as the kernel has it).  Only the
 * path's own last component is made (not a link's target).  Never blocks
 * (a FIFO is not opened).  fd or -errno, *why set for a message. */
static int tp__sink_open_session(const char *dir, const char **why)
{
	enum { TP__SINK_LINKS_MAX = 40 };
	static char why_buf[1024]; /* a message's worth: paths cut at 400 bytes */
	char buf[TP__SINK_PATH_MAX], shown[TP__SINK_PATH_MAX], target[TP__SINK_PATH_MAX];
	char comp[TP__SINK_PATH_MAX + 256];
	size_t len = strlen(dir), orig = len;
	const char *p;
	int fd, links = 0, e;
	*why = NULL;
	if (len == 0 || len >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, dir, len + 1);
	p = buf;
	snprintf(shown, sizeof(shown), "%s", buf[0] == '/' ? "" : ".");
	fd = buf[0] == '/' ? tp__sink_open_root(&p, shown, sizeof(shown))
			   : open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (;;) {
		char name[256];
		const char *end, *next;
		size_t n;
		int nfd, last, mine;
		struct stat lst, dst;
		while (*p == '/')
			p++;
		if (!*p)
			return fd; /* the whole path walked */
		for (end = p; *end && *end != '/'; end++)
			;
		for (next = end; *next == '/'; next++)
			;
		n = (size_t)(end - p);
		last = !*next;
		/* a component of the path given, not of a link's target */
		mine = (size_t)(buf + strlen(buf) - p) <= orig;
		if (n >= sizeof(name)) {
			close(fd);
			return -ENAMETOOLONG;
		}
		memcpy(name, p, n);
		name[n] = '\0';
		p = next;
		if (strcmp(name, ".") == 0)
			continue;
		if (last && mine && mkdirat(fd, name, 0755) != 0 && errno != EEXIST) {
			e = errno;
			close(fd);
			return -e;
		}
		/* the component as shown in messages: the walk so far, then it */
		if (strcmp(shown, ".") == 0)
			snprintf(comp, sizeof(comp), "%s", name);
		else
			snprintf(comp, sizeof(comp), "%s/%s", shown, name);
		nfd = openat(fd, name,
			     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK |
				     O_NOCTTY);
		if (nfd >= 0) {
			close(fd);
			fd = nfd;
			memcpy(shown, comp, strlen(comp) + 1);
			continue;
		}
		e = errno;
		if (e != ENOTDIR && e != ELOOP) { /* ENOTDIR: also a link */
			if (!last) {
				snprintf(why_buf, sizeof(why_buf), "%.400s: %s", comp, strerror(e));
				*why = why_buf;
			}
			close(fd);
			return -e;
		}
		nfd = openat(fd, name, O_PATH_TP | O_NOFOLLOW | O_CLOEXEC);
		if (nfd < 0 || fstat(nfd, &lst) != 0 || fstat(fd, &dst) != 0) {
			e = errno;
			if (nfd >= 0)
				close(nfd);
			close(fd);
			return -e;
		}
		if (!S_ISLNK(lst.st_mode)) {
			close(nfd);
			close(fd);
			if (last) {
				*why = "it exists and is not a directory";
			} else {
				snprintf(why_buf, sizeof(why_buf), "%.400s is not a directory",
					 comp);
				*why = why_buf;
			}
			return -ENOTDIR;
		}
		if (!tp__sink_link_ok(lst.st_uid, &dst)) {
			const char *d = shown[0] ? shown : "/";
			char where[480];
			if ((dst.st_mode & S_ISVTX) && (dst.st_mode & S_IWOTH))
				snprintf(where, sizeof(where), "the shared directory %.400s", d);
			else if (dst.st_mode & (S_IWGRP | S_IWOTH))
				snprintf(where, sizeof(where), "%.400s, which %s may write", d,
					 dst.st_mode & S_IWOTH ? "others" : "its group");
			else
				snprintf(where, sizeof(where), "%.400s, a directory of uid %u", d,
					 (unsigned)dst.st_uid);
			if (last)
				snprintf(why_buf, sizeof(why_buf),
					 "a symbolic link made by another user (uid %u) "
					 "in %s: not followed",
					 (unsigned)lst.st_uid, where);
			else
				snprintf(why_buf, sizeof(why_buf),
					 "%.400s is a symbolic link made by another user "
					 "(uid %u) in %.450s: not followed",
					 comp, (unsigned)lst.st_uid, where);
			*why = why_buf;
			close(nfd);
			close(fd);
			return -EPERM;
		}
		{
			ssize_t tl = ++links > TP__SINK_LINKS_MAX
					     ? -1
					     : readlinkat(nfd, "", target, sizeof(target) - 1);
			size_t rest = strlen(p);
			e = links > TP__SINK_LINKS_MAX ? ELOOP : errno;
			close(nfd);
			if (tl <= 0 || (size_t)tl + 1 + rest >= sizeof(buf)) {
				close(fd);
				if (tl > 0)
					e = ENAMETOOLONG;
				else if (tl == 0)
					e = ENOENT;
				return -e;
			}
			/* the target, then what is left of the path */
			memmove(buf + tl + 1, p, rest + 1);
			memcpy(buf, target, (size_t)tl);
			buf[tl] = '/';
			if (rest < orig)
				orig = rest;
			p = buf;
			if (target[0] == '/') {
				close(fd);
				shown[0] = '\0';
				fd = tp__sink_open_root(&p, shown, sizeof(shown));
				if (fd < 0)
					return -errno;
			}
		}
	}
}

/* Opens the trace's metadata for appending event blocks. */
static int tp__sink_open_meta(void)
{
	int e = tp__sink_write_metadata(tp__sink.dirfd, "metadata", tp__sink.uuid);
	if (e)
		return e;
	tp__sink.metafd =
		openat(tp__sink.dirfd, "metadata", O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW);
	return tp__sink.metafd < 0 ? -errno : 0;
}

/* Makes this process's trace directory <comm>-<pid> in the session
 * directory (rootfd) and writes its metadata; lock held, procname read. */
static int tp__sink_make_trace(void)
{
	char base[64], name[96];
	int fd, e;
	size_t l;
	snprintf(base, sizeof(base), "%s-%d", tp__sink.procname, (int)getpid());
	fd = tp__sink_mkdir_new(tp__sink.rootfd, tp__sink.root, base, name, sizeof(name));
	if (fd < 0)
		return fd;
	l = strlen(tp__sink.root);
	if (l + 1 + strlen(name) >= sizeof(tp__sink.dir)) {
		close(fd);
		return -ENAMETOOLONG;
	}
	memcpy(tp__sink.dir, tp__sink.root, l);
	tp__sink.dir[l] = '/';
	memcpy(tp__sink.dir + l + 1, name, strlen(name) + 1);
	tp__sink.dirfd = fd;
	tp__sink.pid = (int)getpid();
	tp__sink_new_uuid(tp__sink.uuid);
	e = tp__sink_open_meta();
	if (e) {
		close(fd);
		tp__sink.dirfd = -1;
		return e;
	}
	return 0;
}

/* Starts recording into the session directory `dir` (NULL: the default,
 * trace-<comm>-<pid>, made new), lock held. */
static int tp__sink_start_trace(const char *dir)
{
	char def[96];
	const char *why = NULL;
	int fd, e;
	tp__sink_read_procname();
	if (!dir) {
		char base[96];
		snprintf(base, sizeof(base), "trace-%s-%d", tp__sink.procname, (int)getpid());
		fd = tp__sink_mkdir_new(AT_FDCWD, "", base, def, sizeof(def));
		dir = def;
	} else {
		fd = tp__sink_open_session(dir, &why);
	}
	if (fd < 0) {
		tp__sink_msg("cannot create the trace directory %s: %s", dir,
			     why ? why : strerror(-fd));
		return fd;
	}
	if (strlen(dir) >= sizeof(tp__sink.root) - 100) {
		close(fd);
		tp__sink_msg("trace directory name too long: %s", dir);
		return -ENAMETOOLONG;
	}
	snprintf(tp__sink.root, sizeof(tp__sink.root), "%s", dir);
	tp__sink.rootfd = fd;
	tp__sink_clock_start();
	e = tp__sink_make_trace();
	if (e) {
		tp__sink_msg("cannot create a trace in %s: %s", dir, strerror(-e));
		close(fd);
		tp__sink.rootfd = -1;
		return e;
	}
	__atomic_store_n(&tp__sink.recording, 1, __ATOMIC_RELEASE);
	return 0;
}

/* A forked child's first record: its own trace in the session directory.
 * The threads of a child often record their first events at once: one makes
 * the trace, the others wait for it (sleeping, for at most a second) instead
 * of losing their records.  Never blocks: a signal handler that interrupts
 * the thread making the trace, or a lock held longer, gives -EBUSY. */
static int tp__sink_start_child_trace(void)
{
	int e, i, me = tp__sink_gettid();
	for (i = 0; tp__sink_trylock() != 0; i++) {
		struct timespec ts = { 0, TP__SINK_CHILD_WAIT_NS };
		if (i >= TP__SINK_CHILD_WAITS ||
		    __atomic_load_n(&tp__sink.child_maker, __ATOMIC_ACQUIRE) == me)
			return -EBUSY;
		nanosleep(&ts, NULL); /* async-signal-safe */
	}
	if (!tp__sink.child_pending) {
		tp__sink_unlock();
		return tp__sink.dirfd >= 0 ? 0 : -ENOENT;
	}
	__atomic_store_n(&tp__sink.child_maker, me, __ATOMIC_RELEASE);
	tp__sink_read_procname(); /* the child's name may differ from its parent's */
	e = tp__sink_make_trace();
	if (e)
		tp__sink_err_once(TP__SINK_ERR_CHILD,
				  "cannot create the trace of process %d in %s: %s", (int)getpid(),
				  tp__sink.root, strerror(-e));
	else
		tp__sink.child_pending = 0;
	__atomic_store_n(&tp__sink.child_maker, 0, __ATOMIC_RELEASE);
	tp__sink_unlock();
	return e;
}

#endif /* TP__REC_TRACE_DIR_H */
