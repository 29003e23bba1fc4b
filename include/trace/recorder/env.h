/* SPDX-License-Identifier: MIT */
/*
 * trace/recorder/env.h - the recorder's environment variables: how they are
 * read (tp__sink_getenv, ignored under AT_SECURE), how a value is shown in
 * a message, the names it reads, and what it says at start-up about a
 * TRACEPOINTS-like name it does not know (a misspelt TRACEPOINTS_DIR or
 * TRACEPOINT would otherwise be ignored without a word).
 *
 * Internal: included by trace/sink.h (TRACEPOINT_SINK_MAIN); depends on
 * recorder/state.h (tp__sink_msg) and trace/near.h (the distance of a
 * misspelling).  Used by recorder/enable.h ("did you
 * mean"), recorder/settings.h, recorder/life.h and the control channel.
 */
#ifndef TP__SINK_DEFINED
#error "trace/recorder/env.h is internal: #include <trace/sink.h> instead"
#elif !defined(TP__REC_ENV_H)
#define TP__REC_ENV_H

/* Every TRACEPOINTS* variable is read through this: in a process with
 * AT_SECURE (set-user-ID or set-group-ID, file capabilities, an LSM
 * transition) the environment belongs to whoever ran it, so the variables
 * are ignored, silently, as secure_getenv() (glibc, _GNU_SOURCE) would -
 * the kernel's AT_SECURE flag is what it checks too. */
static const char *tp__sink_getenv(const char *name)
{
	return getauxval(AT_SECURE) ? NULL : getenv(name);
}

/* A value from the environment as shown in a message: at most 40 bytes,
 * control characters as '?'. */
static const char *tp__sink_shown(const char *v, char *buf, size_t len)
{
	size_t i;
	for (i = 0; v[i] && i + 4 < len && i < 40; i++)
		buf[i] = (unsigned char)v[i] < 0x20 || v[i] == 0x7f ? '?' : v[i];
	if (v[i]) {
		memcpy(buf + i, "...", 3);
		i += 3;
	}
	buf[i] = '\0';
	return buf;
}

/* Every variable the recorder reads (the files of trace/recorder/): a new
 * one goes here too (t_recorder_env.sh checks the code against it). */
static const char *const tp__sink_env_known[] = {
	"TRACEPOINTS",		 "TRACEPOINTS_DIR",	   "TRACEPOINTS_MODE",
	"TRACEPOINTS_BUFFER_KB", "TRACEPOINTS_FLIGHT_KB",  "TRACEPOINTS_SNAPSHOT_SIGNAL",
	"TRACEPOINTS_CLOCK",	 "TRACEPOINTS_CONTROL",	   "TRACEPOINTS_MIN_FREE_MB",
	"TRACEPOINTS_FILE_MB",	 "TRACEPOINTS_FILE_COUNT", "TRACEPOINTS_CPU",
};

/* Read only to say that they are gone (tp__sink_start). */
static const char *const tp__sink_env_retired[] = { "TRACEPOINTS_OUTPUT", "TRACEPOINTS_FILE" };

#define TP__SINK_ENV_NKNOWN (sizeof(tp__sink_env_known) / sizeof(tp__sink_env_known[0]))
#define TP__SINK_ENV_NRETIRED (sizeof(tp__sink_env_retired) / sizeof(tp__sink_env_retired[0]))

enum {
	TP__SINK_ENV_NAME_MAX = 64, /* longer names are compared by this many bytes */
	TP__SINK_ENV_NEAR = 2	    /* edits that make a name a misspelling */
};

/* The process's environment (POSIX's environ), under a name of ours: a
 * declaration of environ itself would repeat <unistd.h>'s where
 * _GNU_SOURCE declares it (g++ defines it), which -Wredundant-decls flags. */
extern char **tp__sink_environ __asm__("environ");

/* The known names, comma-separated, in buf. */
static const char *tp__sink_env_list(char *buf, size_t len)
{
	size_t k, used = 0;
	buf[0] = '\0';
	for (k = 0; k < TP__SINK_ENV_NKNOWN; k++) {
		int n = snprintf(buf + used, len - used, "%s%s", k ? ", " : "",
				 tp__sink_env_known[k]);
		if (n > 0 && (size_t)n < len - used)
			used += (size_t)n;
	}
	return buf;
}

/* Says, once per variable, which names in the environment look like the
 * recorder's but are not: those that start with TRACEPOINTS (any case)
 * and those within TP__SINK_ENV_NEAR edits of a known name (TRACEPOINT,
 * TRACEPOINT_DIR; not a build's TRACEPOINT_CFLAGS), each with the
 * closest known (or retired) name.  Runs at start-up only; nothing in an
 * AT_SECURE process (its environment is ignored, silently). */
static void tp__sink_env_check(void)
{
	char **e;
	size_t k;
	if (getauxval(AT_SECURE) || !tp__sink_environ)
		return;
	for (e = tp__sink_environ; *e; e++) {
		const char *eq = strchr(*e, '='), *best = NULL;
		size_t len = eq ? (size_t)(eq - *e) : strlen(*e), d, bestd = (size_t)-1, i;
		int known = 0, retired = 0, prefix = len >= 11;
		char name[TP__SINK_ENV_NAME_MAX + 1], shown[48], list[256];
		if (len == 0 || tp__near_upper(**e) != 'T')
			continue; /* cheap: most names are passed over here (a typo seldom hits the T) */
		for (i = 0; i < 11 && prefix; i++)
			prefix = tp__near_upper((*e)[i]) == "TRACEPOINTS"[i];
		if (len > TP__SINK_ENV_NAME_MAX)
			len = TP__SINK_ENV_NAME_MAX;
		for (k = 0; k < TP__SINK_ENV_NKNOWN + TP__SINK_ENV_NRETIRED; k++) {
			const char *c = k < TP__SINK_ENV_NKNOWN
						? tp__sink_env_known[k]
						: tp__sink_env_retired[k - TP__SINK_ENV_NKNOWN];
			if (strlen(c) == len && strncmp(c, *e, len) == 0) {
				known = 1;
				break;
			}
			if (!prefix && (len > strlen(c) + TP__SINK_ENV_NEAR ||
					len + TP__SINK_ENV_NEAR < strlen(c)))
				continue; /* too far to be a misspelling of c */
			d = tp__near_distance(*e, len, c, strlen(c),
					      prefix ? (size_t)-2 : (size_t)TP__SINK_ENV_NEAR);
			if (d < bestd) {
				bestd = d;
				best = c;
				retired = k >= TP__SINK_ENV_NKNOWN;
			}
		}
		if (known || !best || (!prefix && bestd > TP__SINK_ENV_NEAR))
			continue;
		memcpy(name, *e, len);
		name[len] = '\0';
		if (retired)
			tp__sink_msg(
				"%s in the environment is not a variable of the recorder: ignored "
				"(did you mean %s? it is no longer read: the trace is a directory, "
				"TRACEPOINTS_DIR, that tracepoint-dump --text or --json formats)",
				tp__sink_shown(name, shown, sizeof(shown)), best);
		else if (bestd <= TP__SINK_ENV_NEAR)
			tp__sink_msg(
				"%s in the environment is not a variable of the recorder: ignored "
				"(did you mean %s?)",
				tp__sink_shown(name, shown, sizeof(shown)), best);
		else
			tp__sink_msg(
				"%s in the environment is not a variable of the recorder: ignored "
				"(the closest is %s; the recorder reads %s)",
				tp__sink_shown(name, shown, sizeof(shown)), best,
				tp__sink_env_list(list, sizeof(list)));
	}
}

#endif /* TP__REC_ENV_H */
