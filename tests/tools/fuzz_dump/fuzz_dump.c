/* libFuzzer target for tracepoint-dump (tools/dump/, every part included
 * here, its main called once per input): the input is a trace directory
 * and how it is read.
 *
 *   byte 0      the output: bits 0-2 pick --text, --json, --summary,
 *               --perfetto, --repair (then --text again on the result),
 *               --all --text; bits 3-5 the shape of the directory
 *   the rest    parts separated by the 4 bytes "\n%%\n": the metadata,
 *               then up to 6 stream files (stream-1, stream-2...)
 *
 * Shapes: 0 a trace; 1 a session holding it (and a link "latest" to it);
 * 2 a trace with a nested child trace (a copy) and a snapshot-1 (a copy);
 * 3 a trace with links child -> . and stream-77 -> stream-1; 4 a trace
 * whose last stream is a FIFO; 5 a session with links to itself; 6 a
 * trace with a planted .stream-1.repair link to a file outside it, which
 * must come out unchanged; 7 like 0, the streams made sparse (a 64 MiB
 * hole after each).
 * Invariants: no crash, no read outside the files' mappings (ASan), no
 * undefined behaviour (UBSan), no hang (libFuzzer's -timeout), nothing
 * written outside the trace (the planted link's target), an exit status
 * of 0, 1 or 2.
 * Built with clang -fsanitize=fuzzer,address,undefined, or with
 * -DFUZZ_REPLAY_MAIN as a plain program that replays files (any CC);
 * FUZZ_DUMP_VERBOSE=1 in the environment shows the tool's messages. */
#define main tracepoint_dump_main
#include "../../../tools/dump/util.c"
#include "../../../tools/dump/metadata.c"
#include "../../../tools/dump/printk.c"
#include "../../../tools/dump/expr.c"
#include "../../../tools/dump/symbols.c"
#include "../../../tools/dump/reader.c"
#include "../../../tools/dump/ring.c"
#include "../../../tools/dump/text.c"
#include "../../../tools/dump/json.c"
#include "../../../tools/dump/perfetto.c"
#include "../../../tools/dump/summary.c"
#include "../../../tools/dump/hist.c"
#include "../../../tools/dump/repair.c"
#include "../../../tools/dump/main.c"
#undef main

#include <stdio.h>

static char g_root[100]; /* this process's scratch directory ($TMPDIR/fuzz_dump.*) */
static int g_null = -1, g_err = -1;

/* Removes everything in the directory dfd (links removed, not followed). */
static void empty_dir(int dfd)
{
	int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *de;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((de = readdir(d)) != NULL) {
		int sub;
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (unlinkat(dfd, de->d_name, 0) == 0)
			continue;
		sub = openat(dfd, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub >= 0) {
			empty_dir(sub);
			close(sub);
		}
		unlinkat(dfd, de->d_name, AT_REMOVEDIR);
	}
	closedir(d);
}

static void put(const char *dir, const char *name, const uint8_t *p, size_t n, uint64_t hole)
{
	char path[256];
	int fd;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		abort();
	if (n && write(fd, p, n) != (ssize_t)n)
		abort();
	if (hole && ftruncate(fd, (off_t)(n + hole)) != 0)
		abort();
	close(fd);
}

/* The trace of the input's parts in dir (made here). */
static void make_trace(const char *dir, const uint8_t *d, size_t n, int sparse, int fifo)
{
	static const char sep[4] = { '\n', '%', '%', '\n' };
	size_t i = 0, part = 0, start = 0;
	char name[32];
	if (mkdir(dir, 0755) != 0)
		abort();
	for (i = 0; i <= n && part < 7; i++) {
		if (i < n && !(i + 4 <= n && !memcmp(d + i, sep, 4)))
			continue;
		if (part == 0)
			put(dir, "metadata", d + start, i - start, 0);
		else {
			snprintf(name, sizeof(name), "stream-%zu", part);
			put(dir, name, d + start, i - start, sparse ? (uint64_t)64 << 20 : 0);
		}
		part++;
		i += 3;
		start = i + 1;
	}
	if (fifo) {
		char path[256];
		snprintf(path, sizeof(path), "%s/stream-%zu", dir, part);
		if (mkfifo(path, 0644) != 0)
			abort();
	}
}

static void cleanup(void)
{
	int rfd = open(g_root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rfd >= 0) {
		empty_dir(rfd);
		close(rfd);
	}
	rmdir(g_root);
}

static void setup(void)
{
	if (g_root[0])
		return;
	const char *tmp = getenv("TMPDIR");
	if (!tmp || !*tmp || strlen(tmp) > 80)
		tmp = "/tmp";
	snprintf(g_root, sizeof(g_root), "%s/fuzz_dump.XXXXXX", tmp);
	if (!mkdtemp(g_root))
		abort();
	atexit(cleanup);
	g_null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	g_err = dup(2);
	if (g_null < 0 || g_err < 0)
		abort();
}

static int run(int argc, const char **argv)
{
	int rc;
	/* the tool's messages are not wanted: fd 2 to /dev/null meanwhile
	 * (a sanitizer's report would go there too: replay the input) */
	static int verbose = -1;
	if (verbose < 0)
		verbose = getenv("FUZZ_DUMP_VERBOSE") != NULL;
	fflush(stderr);
	if (!verbose)
		dup2(g_null, 2);
	rc = tracepoint_dump_main(argc, (char **)argv);
	if (verbose)
		fprintf(stderr, "(%s: exit %d)\n", argv[1], rc);
	else
		dup2(g_err, 2);
	if (rc < 0 || rc > 2) {
		fprintf(stderr, "exit status %d\n", rc);
		abort();
	}
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char dir[160], sub[200], victim[160], buf[32];
	int rfd, out = 0, shape = 0, fd;
	const char *a[6];
	setup();
	rfd = open(g_root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rfd < 0)
		abort();
	empty_dir(rfd);
	close(rfd);
	if (size) {
		out = data[0] & 7;
		shape = (data[0] >> 3) & 7;
		data++;
		size--;
	}
	snprintf(victim, sizeof(victim), "%s/victim", g_root);
	put(g_root, "victim", (const uint8_t *)"precious", 8, 0);
	chmod(victim, 0600);
	snprintf(dir, sizeof(dir), "%s/t", g_root);
	switch (shape) {
	case 1:
	case 5:
		if (mkdir(dir, 0755) != 0)
			abort();
		snprintf(sub, sizeof(sub), "%s/t/p-1", g_root);
		make_trace(sub, data, size, 0, 0);
		snprintf(sub, sizeof(sub), "%s/t/%s", g_root, shape == 1 ? "latest" : "self");
		if (symlink(shape == 1 ? "p-1" : ".", sub) != 0)
			abort();
		break;
	case 2:
		make_trace(dir, data, size, 0, 0);
		snprintf(sub, sizeof(sub), "%s/t/child-2", g_root);
		make_trace(sub, data, size, 0, 0);
		snprintf(sub, sizeof(sub), "%s/t/snapshot-1", g_root);
		make_trace(sub, data, size, 0, 0);
		break;
	case 3:
		make_trace(dir, data, size, 0, 0);
		snprintf(sub, sizeof(sub), "%s/t/child", g_root);
		if (symlink(".", sub) != 0)
			abort();
		snprintf(sub, sizeof(sub), "%s/t/stream-77", g_root);
		if (symlink("stream-1", sub) != 0)
			abort();
		break;
	case 4:
		make_trace(dir, data, size, 0, 1);
		break;
	case 6:
		make_trace(dir, data, size, 0, 0);
		snprintf(sub, sizeof(sub), "%s/t/.stream-1.repair", g_root);
		if (symlink("../victim", sub) != 0)
			abort();
		break;
	default:
		make_trace(dir, data, size, shape == 7, 0);
		break;
	}
	a[0] = "tracepoint-dump";
	if (out == 4) {
		a[1] = "--repair";
		a[2] = dir;
		run(3, a);
		a[1] = "--text";
	} else {
		a[1] = out == 1	  ? "--json"
		       : out == 2 ? "--summary"
		       : out == 3 ? "--perfetto"
		       : out == 5 ? "--all"
				  : "--text";
	}
	a[2] = "-o";
	a[3] = "/dev/null";
	a[4] = dir;
	a[5] = NULL;
	run(5, a);
	/* the planted link's target: as it was */
	fd = open(victim, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || read(fd, buf, sizeof(buf)) != 8 || memcmp(buf, "precious", 8)) {
		fprintf(stderr, "a file outside the trace was changed\n");
		abort();
	}
	{
		struct stat sb;
		if (fstat(fd, &sb) != 0 || (sb.st_mode & 0777) != 0600) {
			fprintf(stderr, "a file outside the trace had its mode changed\n");
			abort();
		}
	}
	close(fd);
	return 0;
}

#ifdef FUZZ_REPLAY_MAIN
int main(int argc, char **argv)
{
	int i;
	for (i = 1; i < argc; i++) {
		static uint8_t buf[1 << 20];
		size_t n;
		FILE *f = fopen(argv[i], "rb");
		if (!f) {
			perror(argv[i]);
			return 1;
		}
		n = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		LLVMFuzzerTestOneInput(buf, n);
	}
	return 0;
}
#endif
