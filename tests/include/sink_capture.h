/* Test helpers: capture stderr or the sink's output into files. */
#ifndef SINK_CAPTURE_H
#define SINK_CAPTURE_H
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Reads a whole file into a static buffer. */
static inline const char *sc_slurp(const char *path)
{
	static char buf[1 << 20];
	size_t n = 0;
	FILE *f = fopen(path, "r");
	if (f) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	return buf;
}

/* stderr -> a temporary file until sc_stderr_end(), which returns it. */
static int sc_saved_fd = -1;
static char sc_err_path[64];
static inline void sc_stderr_begin(void)
{
	int fd;
	strcpy(sc_err_path, "/tmp/tp_stderr_XXXXXX");
	fd = mkstemp(sc_err_path);
	fflush(stderr);
	sc_saved_fd = dup(2);
	dup2(fd, 2);
	close(fd);
}
static inline const char *sc_stderr_end(void)
{
	const char *s;
	fflush(stderr);
	dup2(sc_saved_fd, 2);
	close(sc_saved_fd);
	s = sc_slurp(sc_err_path);
	unlink(sc_err_path);
	return s;
}

static inline int sc_count(const char *hay, const char *needle)
{
	int n = 0;
	while ((hay = strstr(hay, needle)) != NULL) {
		n++;
		hay += strlen(needle);
	}
	return n;
}
#endif
