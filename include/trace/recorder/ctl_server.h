/* SPDX-License-Identifier: MIT */
/*
 * trace/recorder/ctl_server.h - the control channel's server: its thread
 * and connections (poll, idle timeouts, SO_PEERCRED), the directory and
 * the socket, its fork and exit handlers, trace_recorder_control_start, _stop
 * and _path, and TRACEPOINTS_CONTROL=1 at start-up.
 *
 * Internal: included by trace/sink.h (TRACEPOINT_SINK_MAIN), after
 * recorder/ctl_commands.h; depends on it and on recorder/state.h,
 * recorder/env.h, recorder/fork.h (whose handlers call this file's, declared
 * ahead there) and recorder/settings.h.
 */
#ifndef TP__SINK_DEFINED
#error "trace/recorder/ctl_server.h is internal: #include <trace/sink.h> instead"
#elif !defined(TP__REC_CTL_SERVER_H)
#define TP__REC_CTL_SERVER_H

/* ---- Connections. ---- */

static void tp__ctl_close(struct tp__ctl_client *c)
{
	pthread_mutex_lock(&tp__ctl_fds);
	close(c->fd);
	c->fd = -1;
	pthread_mutex_unlock(&tp__ctl_fds);
	tp__ctl_free_out(c);
	c->in_len = 0;
	c->eof = c->closing = 0;
}

/* Runs the requests that are complete, one at a time (the next waits
 * until the reply to this one is out). */
static void tp__ctl_serve(struct tp__ctl_client *c)
{
	struct tp__text t;
	size_t i;
	memset(&t, 0, sizeof(t));
	while (!c->out && !c->closing) {
		int r;
		for (i = 0; i < c->in_len; i++) {
			unsigned char b = (unsigned char)c->in[i];
			if (b == '\n')
				break;
			if (b < 0x20 || b > 0x7e) {
				tp__text_put(&t,
					     "malformed request: byte 0x%02x at offset %zu "
					     "(requests are lines "
					     "of printable ASCII)\n",
					     b, i);
				c->closing = 1;
				tp__ctl_reply(c, -EINVAL, &t);
				return;
			}
		}
		if (i == c->in_len) { /* no newline yet */
			if (c->in_len == sizeof(c->in)) {
				tp__text_put(
					&t, "request too long: no newline in the first %zu bytes\n",
					sizeof(c->in));
				c->closing = 1;
				tp__ctl_reply(c, -EMSGSIZE, &t);
			} else if (c->eof && c->in_len) {
				tp__text_put(&t,
					     "malformed request: end of file before the newline\n");
				c->closing = 1;
				tp__ctl_reply(c, -EINVAL, &t);
			}
			return;
		}
		c->in[i] = '\0';
		r = tp__ctl_run(c->in, &t);
		tp__ctl_reply(c, r, &t);
		c->in_len -= i + 1;
		memmove(c->in, c->in + i + 1, c->in_len);
	}
}

/* Sends what it can of c's reply; closes c when it is done for. */
static void tp__ctl_send(struct tp__ctl_client *c, uint64_t now)
{
	while (c->out) {
		ssize_t n = send(c->fd, c->out + c->out_off, c->out_len - c->out_off,
				 MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN) /* EWOULDBLOCK on Linux */
				tp__ctl_close(c);
			return;
		}
		c->seen = now;
		c->out_off += (size_t)n;
		if (c->out_off < c->out_len)
			continue;
		tp__ctl_free_out(c);
		if (c->closing) {
			tp__ctl_close(c);
			return;
		}
		tp__ctl_serve(c); /* the next request, if one is waiting */
	}
	if (c->eof && !c->in_len)
		tp__ctl_close(c);
}

static void tp__ctl_receive(struct tp__ctl_client *c, uint64_t now)
{
	ssize_t n = recv(c->fd, c->in + c->in_len, sizeof(c->in) - c->in_len, MSG_DONTWAIT);
	if (n < 0) {
		if (errno != EAGAIN && errno != EINTR)
			tp__ctl_close(c);
		return;
	}
	c->seen = now;
	if (n == 0)
		c->eof = 1;
	c->in_len += (size_t)n;
	tp__ctl_serve(c);
	tp__ctl_send(c, now);
}

/* Tells a refused peer why, if it listens (one try, no waiting). */
static void tp__ctl_refuse(int fd, int err, const char *why)
{
	char buf[256];
	int hl, n = (int)strlen(why);
	hl = snprintf(buf, sizeof(buf), "err %d %d\n%s", err, n, why);
	if (hl > 0 && send(fd, buf, (size_t)hl < sizeof(buf) ? (size_t)hl : sizeof(buf) - 1,
			   MSG_NOSIGNAL | MSG_DONTWAIT) < 0)
		errno = 0; /* it may have gone: nothing to do */
}

/* Accepts what is waiting: same uid only; when the slots are full, the
 * connection idle longest makes room. */
static void tp__ctl_accept(uint64_t now)
{
	for (;;) {
		struct tp__ctl_ucred cr;
		socklen_t cl = sizeof(cr);
		struct tp__ctl_client *c = NULL;
		int fd, i;
		pthread_mutex_lock(&tp__ctl_fds);
		fd = tp__ctl_accept4(tp__ctl.lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
		pthread_mutex_unlock(&tp__ctl_fds);
		if (fd < 0) {
			if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS ||
			    errno == ENOMEM) {
				struct timespec ts; /* out of descriptors: try again a little later */
				ts.tv_sec = 0;
				ts.tv_nsec = 100000000;
				nanosleep(&ts, NULL);
			}
			return; /* EAGAIN: nothing left, or a peer gone already */
		}
		if (getsockopt(fd, SOL_SOCKET, TP__CTL_SO_PEERCRED, &cr, &cl) != 0 ||
		    cl != sizeof(cr) || cr.uid != geteuid()) {
			char why[160], key[48];
			unsigned uid = cl == sizeof(cr) ? (unsigned)cr.uid : (unsigned)-1;
			snprintf(why, sizeof(why), "refused: uid %u is not this process's uid %u\n",
				 uid, (unsigned)geteuid());
			tp__ctl_refuse(fd, EACCES, why);
			pthread_mutex_lock(&tp__ctl_fds);
			close(fd);
			pthread_mutex_unlock(&tp__ctl_fds);
			snprintf(key, sizeof(key), "control-refused:%u", uid);
			tp__sink_msg_once(key,
					  "control channel: refused a connection from uid %u (pid "
					  "%d): only uid %u "
					  "may control this process",
					  uid, cl == sizeof(cr) ? (int)cr.pid : -1,
					  (unsigned)geteuid());
			continue;
		}
		for (i = 0; i < TP__CTL_CLIENTS; i++) {
			struct tp__ctl_client *s = &tp__ctl.cl[i];
			if (s->fd < 0) {
				c = s;
				break;
			}
			if (!c || s->seen < c->seen)
				c = s;
		}
		if (c->fd >= 0)
			tp__ctl_close(c); /* the one idle longest */
		pthread_mutex_lock(&tp__ctl_fds);
		c->fd = fd;
		pthread_mutex_unlock(&tp__ctl_fds);
		c->seen = now;
	}
}

static void *tp__ctl_main(void *arg)
{
	struct pollfd pf[2 + TP__CTL_CLIENTS];
	int idx[2 + TP__CTL_CLIENTS], i;
	(void)arg;
	for (;;) {
		uint64_t now = tp__sink_ns(TP__EV_CLOCK_MONOTONIC),
			 wait = (uint64_t)TP__CTL_IDLE_MS * 1000000u;
		nfds_t n = 2;
		int k;
		pf[0].fd = tp__ctl.wake[0];
		pf[0].events = POLLIN;
		pf[1].fd = tp__ctl.lfd;
		pf[1].events = POLLIN;
		for (i = 0; i < TP__CTL_CLIENTS; i++) {
			struct tp__ctl_client *c = &tp__ctl.cl[i];
			uint64_t end;
			if (c->fd < 0)
				continue;
			end = c->seen + (uint64_t)TP__CTL_IDLE_MS * 1000000u;
			if (end <= now) {
				tp__ctl_close(
					c); /* no progress for too long: half-open, or not reading */
				continue;
			}
			if (end - now < wait)
				wait = end - now;
			pf[n].fd = c->fd;
			pf[n].events = (short)(c->out ? POLLOUT : c->eof ? 0 : POLLIN);
			idx[n++] = i;
		}
		/* no connection: sleep until one comes (no periodic wake-up) */
		k = poll(pf, n, n == 2 ? -1 : (int)((wait + 999999u) / 1000000u));
		if (k < 0 && errno != EINTR)
			break; /* cannot happen with valid descriptors; do not spin */
		if (k <= 0)
			continue;
		if (pf[0].revents)
			break; /* trace_recorder_control_stop() */
		now = tp__sink_ns(TP__EV_CLOCK_MONOTONIC);
		for (i = 2; i < (int)n; i++) {
			struct tp__ctl_client *c = &tp__ctl.cl[idx[i]];
			if (c->fd != pf[i].fd || !pf[i].revents)
				continue;
			if (pf[i].revents & (POLLERR | POLLNVAL))
				tp__ctl_close(c);
			else if (c->out)
				tp__ctl_send(c, now);
			else
				tp__ctl_receive(c, now); /* POLLIN or POLLHUP: recv says which */
		}
		if (pf[1].revents)
			tp__ctl_accept(now);
	}
	for (i = 0; i < TP__CTL_CLIENTS; i++)
		if (tp__ctl.cl[i].fd >= 0)
			tp__ctl_close(&tp__ctl.cl[i]);
	return NULL;
}

/* ---- Opening and closing the channel. ---- */

/* Whether path is a directory (not a symbolic link) of uid me that
 * group and others cannot enter. */
static int tp__ctl_own_dir(const char *path, unsigned me)
{
	struct stat st;
	return fstatat(AT_FDCWD, path, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode) &&
	       (unsigned)st.st_uid == me && !(st.st_mode & 077);
}

/* /tmp/tracepoints-<euid> is taken by another user (who made it first, or
 * planted a link or a file there): the channel goes to a directory of this
 * user's whose name nobody can predict, /tmp/tracepoints-<euid>-XXXXXX -
 * one made before (the first found that is this user's own, 0700, not a
 * link: another user's entries of that shape are skipped), or a new one
 * (mkdtemp: created, never reused from someone else).  tracepoint-ctl
 * looks in these too.  0 or -errno, reported. */
static int tp__ctl_fallback_dir(char *dir, size_t len, const char *taken, const char *why)
{
	char prefix[64];
	unsigned me = (unsigned)geteuid();
	size_t pl;
	DIR *d;
	struct dirent *de;
	int n = snprintf(prefix, sizeof(prefix), "tracepoints-%u-", me);
	pl = (size_t)n;
	dir[0] = '\0';
	if ((d = opendir("/tmp")) != NULL) {
		while ((de = readdir(d)) != NULL) {
			if (strncmp(de->d_name, prefix, pl) != 0 || strlen(de->d_name) != pl + 6)
				continue;
			n = snprintf(dir, len, "/tmp/%s", de->d_name);
			if (n > 0 && (size_t)n < len && tp__ctl_own_dir(dir, me))
				break;
			dir[0] = '\0';
		}
		closedir(d);
	}
	if (!dir[0]) {
		n = snprintf(dir, len, "/tmp/%sXXXXXX", prefix);
		if (n < 0 || (size_t)n >= len || !tp__ctl_mkdtemp(dir)) {
			n = errno;
			tp__sink_msg("control channel: %s %s, and no directory of this user's "
				     "could be made "
				     "next to it: %s; no control channel",
				     taken, why, strerror(n));
			return -n;
		}
	}
	tp__sink_msg(
		"control channel: %s %s: not used (not followed); the channel is in %s instead "
		"(tracepoint-ctl finds it there)",
		taken, why, dir);
	return 0;
}

/* The directory of the sockets, made mode 0700 if missing; used only if
 * it is a directory (a symbolic link is not followed) of this process's
 * effective uid that group and others cannot enter (under /tmp, one that
 * another user made first is replaced by one they cannot predict:
 * tp__ctl_fallback_dir).  0 or -errno, reported. */
static int tp__ctl_dir(char *dir, size_t len)
{
	const char *x = getenv("XDG_RUNTIME_DIR");
	unsigned me = (unsigned)geteuid();
	struct stat st;
	int n, tmp = 0;
	if (x && x[0] == '/' && fstatat(AT_FDCWD, x, &st, 0) == 0 && S_ISDIR(st.st_mode)) {
		n = snprintf(dir, len, "%s/" TP__CTL_XDG_SUBDIR, x);
	} else {
		n = snprintf(dir, len, TP__CTL_TMP_PREFIX "%u", me);
		tmp = 1;
	}
	if (n < 0 || (size_t)n >= len) {
		tp__sink_msg("control channel: XDG_RUNTIME_DIR is too long: no control channel");
		return -ENAMETOOLONG;
	}
	if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
		n = errno;
		tp__sink_msg("control channel: cannot make %s: %s; no control channel", dir,
			     strerror(n));
		return -n;
	}
	if (fstatat(AT_FDCWD, dir, &st, AT_SYMLINK_NOFOLLOW) != 0) {
		n = errno;
		tp__sink_msg("control channel: %s: %s; no control channel", dir, strerror(n));
		return -n;
	}
	if (tmp && (!S_ISDIR(st.st_mode) || (unsigned)st.st_uid != me)) {
		char taken[128], why[96];
		snprintf(taken, sizeof(taken), "%.100s", dir);
		if (S_ISLNK(st.st_mode))
			snprintf(why, sizeof(why), "is a symbolic link of uid %u",
				 (unsigned)st.st_uid);
		else if (!S_ISDIR(st.st_mode))
			snprintf(why, sizeof(why), "is not a directory (uid %u)",
				 (unsigned)st.st_uid);
		else
			snprintf(why, sizeof(why),
				 "belongs to uid %u, not to this process's uid %u",
				 (unsigned)st.st_uid, me);
		return tp__ctl_fallback_dir(dir, len, taken, why);
	}
	if (!S_ISDIR(st.st_mode)) {
		tp__sink_msg("control channel: %s is %s: not used; no control channel", dir,
			     S_ISLNK(st.st_mode) ? "a symbolic link (not followed)"
						 : "not a directory");
		return -ENOTDIR;
	}
	if ((unsigned)st.st_uid != me) {
		tp__sink_msg("control channel: %s belongs to uid %u, not to this process's uid %u: "
			     "not used; "
			     "no control channel",
			     dir, (unsigned)st.st_uid, me);
		return -EPERM;
	}
	if (st.st_mode & 077) {
		tp__sink_msg("control channel: %s has mode %03o, but group and others must have no "
			     "access "
			     "(chmod 700 %s): not used; no control channel",
			     dir, (unsigned)(st.st_mode & 0777), dir);
		return -EPERM;
	}
	return 0;
}

/* Removes the sockets that processes gone from this pid namespace left
 * in dir (killed by a signal, _exit()): "PID.sock" files of this uid
 * whose PID no longer exists and on which nobody answers (a process of
 * another pid namespace sharing the directory answers: kept).  Without a
 * word: they were stale. */
static void tp__ctl_sweep(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	if (!d)
		return;
	while ((de = readdir(d)) != NULL) {
		char path[sizeof(tp__ctl.path)], *end;
		struct sockaddr_un a;
		struct stat st;
		long pid = strtol(de->d_name, &end, 10);
		int probe, n;
		if (end == de->d_name || de->d_name[0] == '-' || strcmp(end, ".sock") != 0 ||
		    pid <= 0 || pid > INT_MAX || pid == (long)getpid())
			continue;
		if (tp__ctl_kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue; /* alive (or another user's): not ours to judge */
		n = snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (n < 0 || (size_t)n >= sizeof(path) || (size_t)n >= sizeof(a.sun_path) ||
		    fstatat(AT_FDCWD, path, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
		    !TP__CTL_ISSOCK(st.st_mode) || st.st_uid != geteuid())
			continue;
		memset(&a, 0, sizeof(a));
		a.sun_family = AF_UNIX;
		memcpy(a.sun_path, path, (size_t)n + 1);
		probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
		if (probe < 0)
			continue;
		if (connect(probe, (struct sockaddr *)&a, sizeof(a)) != 0 && errno == ECONNREFUSED)
			unlink(path);
		close(probe);
	}
	closedir(d);
}

/* A listening socket at path (mode 0600), or -errno (reported).  A socket
 * file already there is replaced if nobody answers on it: a process with
 * this pid ended without removing it (killed, _exit(), exec()). */
static int tp__ctl_listen(const char *path)
{
	struct sockaddr_un a;
	struct stat st;
	int fd, e, tries;
	memset(&a, 0, sizeof(a));
	a.sun_family = AF_UNIX;
	memcpy(a.sun_path, path, strlen(path) + 1); /* the length was checked */
	for (tries = 0;; tries++) {
		int probe, alive;
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
		if (fd < 0) {
			e = errno;
			tp__sink_msg("control channel: socket: %s; no control channel",
				     strerror(e));
			return -e;
		}
		if (bind(fd, (struct sockaddr *)&a, sizeof(a)) == 0)
			break;
		e = errno;
		close(fd);
		if (e != EADDRINUSE || tries) {
			tp__sink_msg("control channel: cannot bind %s: %s; no control channel",
				     path, strerror(e));
			return -e;
		}
		if (fstatat(AT_FDCWD, path, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
		    !TP__CTL_ISSOCK(st.st_mode) || st.st_uid != geteuid()) {
			tp__sink_msg("control channel: %s exists and is not a socket of this uid: "
				     "not removed; "
				     "no control channel",
				     path);
			return -EADDRINUSE;
		}
		probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
		alive = probe >= 0 && (connect(probe, (struct sockaddr *)&a, sizeof(a)) == 0 ||
				       errno == EAGAIN || errno == EINPROGRESS);
		if (probe >= 0)
			close(probe);
		if (alive) {
			tp__sink_msg("control channel: %s is served by another process (one of "
				     "another pid "
				     "namespace?): no control channel",
				     path);
			return -EADDRINUSE;
		}
		unlink(path); /* stale */
	}
	if (chmod(path, 0600) != 0 || listen(fd, TP__CTL_CLIENTS) != 0) {
		e = errno;
		close(fd);
		unlink(path);
		tp__sink_msg("control channel: cannot listen on %s: %s; no control channel", path,
			     strerror(e));
		return -e;
	}
	return fd;
}

/* fork(): the child has no channel; it closes what it inherited.  Called
 * by the recorder's fork handlers (recorder/fork.h), last in its lock order.
 * Only tp__ctl_fds is taken (held for short moments that never wait), not
 * tp__ctl_life: trace_recorder_control_stop() holds that while its thread
 * finishes a command, which may need a lock that another fork handler,
 * run before this one, holds. */
static void tp__ctl_atfork_prepare(void)
{
	pthread_mutex_lock(&tp__ctl_fds);
}

static void tp__ctl_atfork_parent(void)
{
	pthread_mutex_unlock(&tp__ctl_fds);
}

static void tp__ctl_atfork_child(void)
{
	int i;
	if (tp__ctl.running) {
		close(tp__ctl.lfd);
		close(tp__ctl.wake[0]);
		close(tp__ctl.wake[1]);
		for (i = 0; i < TP__CTL_CLIENTS; i++) {
			if (tp__ctl.cl[i].fd >= 0)
				close(tp__ctl.cl[i].fd);
			tp__ctl_free_out(&tp__ctl.cl[i]);
		}
		free(tp__ctl.cl);
		tp__ctl.cl = NULL;
		tp__ctl.lfd = tp__ctl.wake[0] = tp__ctl.wake[1] = -1;
		tp__ctl.path[0] = '\0';
		tp__ctl.running = 0; /* the thread does not exist here */
	}
	pthread_mutex_unlock(&tp__ctl_fds);
	/* a start or stop under way in another thread: that thread is gone */
	pthread_mutex_init(&tp__ctl_life, NULL);
}

static void tp__ctl_atexit(void)
{
	trace_recorder_control_stop();
}

TRACEPOINT_SINK_API int trace_recorder_control_start(void)
{
	char dir[sizeof(tp__ctl.path)];
	tp__ctl_sigset all, old;
	int e, n, i, fd, wk[2] = { -1, -1 };
	struct tp__ctl_client *cl = NULL;
	if (getauxval(AT_SECURE))
		return -EPERM;
	tp__sink_init();
	pthread_mutex_lock(&tp__ctl_life);
	if (tp__ctl.running) {
		pthread_mutex_unlock(&tp__ctl_life);
		return 0;
	}
	/* Outside tp__ctl_fds: fork() holds its handlers' lock while it waits
	 * for ours. */
	if (!tp__ctl.handlers) {
		/* fork(): the recorder's handlers call ours, in the lock order
		 * of recorder/fork.h (tp__sink_atfork_prepare). */
		if (atexit(tp__ctl_atexit) != 0) {
			pthread_mutex_unlock(&tp__ctl_life);
			tp__sink_msg("control channel: cannot register its exit handler; no "
				     "control channel");
			return -ENOMEM;
		}
		tp__ctl.handlers = 1;
	}
	e = tp__ctl_dir(dir, sizeof(dir));
	if (e) {
		pthread_mutex_unlock(&tp__ctl_life);
		return e;
	}
	tp__ctl_sweep(dir);
	n = snprintf(tp__ctl.path, sizeof(tp__ctl.path), TP__CTL_SOCKET_FMT, dir, (int)getpid());
	if (n < 0 || (size_t)n >= sizeof(tp__ctl.path)) {
		tp__sink_msg("control channel: %s/%d.sock is longer than a socket's path may be "
			     "(%zu bytes); "
			     "no control channel",
			     dir, (int)getpid(), sizeof(tp__ctl.path) - 1);
		tp__ctl.path[0] = '\0';
		pthread_mutex_unlock(&tp__ctl_life);
		return -ENAMETOOLONG;
	}
	/* From the first descriptor to the running thread under tp__ctl_fds:
	 * a child forked meanwhile sees all of it or none. */
	pthread_mutex_lock(&tp__ctl_fds);
	fd = tp__ctl_listen(tp__ctl.path);
	if (fd < 0) {
		tp__ctl.path[0] = '\0';
		pthread_mutex_unlock(&tp__ctl_fds);
		pthread_mutex_unlock(&tp__ctl_life);
		return fd;
	}
	cl = (struct tp__ctl_client *)calloc(TP__CTL_CLIENTS, sizeof(*cl));
	if (!cl || tp__ctl_pipe2(wk, O_CLOEXEC | O_NONBLOCK) != 0) {
		e = cl ? errno : ENOMEM;
		goto fail;
	}
	for (i = 0; i < TP__CTL_CLIENTS; i++)
		cl[i].fd = -1;
	tp__ctl.lfd = fd;
	tp__ctl.wake[0] = wk[0];
	tp__ctl.wake[1] = wk[1];
	tp__ctl.cl = cl;
	/* Every signal blocked in the thread, from its first instruction on:
	 * the program's signals go to its own threads, as before. */
	tp__ctl_sigfillset(&all);
	tp__ctl_sigmask(TP__CTL_SIG_SETMASK, &all, &old);
	e = pthread_create(&tp__ctl.thread, NULL, tp__ctl_main, NULL);
	tp__ctl_sigmask(TP__CTL_SIG_SETMASK, &old, NULL);
	if (e)
		goto fail;
	tp__ctl_setname(tp__ctl.thread, "tp-control"); /* named before anyone looks */
	tp__ctl.pid = (int)getpid();
	__atomic_store_n(&tp__ctl.running, 1, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&tp__ctl_fds);
	pthread_mutex_unlock(&tp__ctl_life);
	return 0;
fail:
	if (wk[0] >= 0) {
		close(wk[0]);
		close(wk[1]);
	}
	tp__ctl.lfd = tp__ctl.wake[0] = tp__ctl.wake[1] = -1;
	tp__ctl.cl = NULL;
	free(cl);
	close(fd);
	unlink(tp__ctl.path);
	tp__sink_msg("control channel: cannot start its thread: %s; no control channel",
		     strerror(e));
	tp__ctl.path[0] = '\0';
	pthread_mutex_unlock(&tp__ctl_fds);
	pthread_mutex_unlock(&tp__ctl_life);
	return -e;
}

TRACEPOINT_SINK_API int trace_recorder_control_stop(void)
{
	pthread_mutex_lock(&tp__ctl_life);
	if (!tp__ctl.running || tp__ctl.pid != (int)getpid()) {
		pthread_mutex_unlock(&tp__ctl_life);
		return 0;
	}
	unlink(tp__ctl.path); /* first: no new client finds it */
	while (write(tp__ctl.wake[1], "x", 1) < 0 && errno == EINTR)
		;
	pthread_join(tp__ctl.thread, NULL);
	pthread_mutex_lock(&tp__ctl_fds);
	close(tp__ctl.lfd);
	close(tp__ctl.wake[0]);
	close(tp__ctl.wake[1]);
	tp__ctl.lfd = tp__ctl.wake[0] = tp__ctl.wake[1] = -1;
	free(tp__ctl.cl); /* the thread closed every client */
	tp__ctl.cl = NULL;
	__atomic_store_n(&tp__ctl.running, 0, __ATOMIC_RELEASE);
	tp__ctl.path[0] = '\0';
	pthread_mutex_unlock(&tp__ctl_fds);
	pthread_mutex_unlock(&tp__ctl_life);
	return 0;
}

TRACEPOINT_SINK_API const char *trace_recorder_control_path(void)
{
	return __atomic_load_n(&tp__ctl.running, __ATOMIC_ACQUIRE) ? tp__ctl.path : NULL;
}

/* TRACEPOINTS_CONTROL=1: after the recorder's own start-up (priority 101),
 * so that a trace asked for by TRACEPOINTS has started. */
__attribute__((constructor(102))) static void tp__ctl_from_env(void)
{
	const char *v = tp__sink_getenv("TRACEPOINTS_CONTROL"), *mode, *dir;
	char shown[48];
	if (!v || !*v || strcmp(v, "0") == 0)
		return; /* unset, off, or ignored (AT_SECURE) */
	if (strcmp(v, "1") != 0) {
		tp__sink_msg("TRACEPOINTS_CONTROL=\"%s\" is neither 0 nor 1: no control channel",
			     tp__sink_shown(v, shown, sizeof(shown)));
		return;
	}
	mode = tp__sink_getenv("TRACEPOINTS_MODE");
	dir = tp__sink_getenv("TRACEPOINTS_DIR");
	/* Where a trace started by the channel goes (a bad mode is said once,
	 * here or by the recorder's start-up, whichever came first). */
	if (mode && strcmp(mode, "stream") != 0 && strcmp(mode, "flight") != 0) {
		tp__sink_init(); /* said once, by whichever reads it first */
		tp__sink_msg_once(
			"env-mode",
			"TRACEPOINTS_MODE=\"%s\" is neither stream nor flight; using stream",
			tp__sink_shown(mode, shown, sizeof(shown)));
		mode = NULL;
	}
	tp__ctl.env_mode = mode ? strdup(mode) : NULL;
	tp__ctl.env_dir = dir && *dir ? strdup(dir) : NULL;
	trace_recorder_control_start(); /* reports its errors */
}

#endif /* TP__REC_CTL_SERVER_H */
