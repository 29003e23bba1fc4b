/* libFuzzer target for the pattern language (trace/pattern.h): any bytes
 * are checked; a well-formed list is split and every item matched against
 * a few names.  Invariants: check never reads past the NUL, reports an
 * offset inside the input, and accepts exactly what the splitter can walk;
 * "*" matches everything; an item always matches its own text when it has
 * no wildcard.  Built with clang -fsanitize=fuzzer,address,undefined, or
 * with -DFUZZ_REPLAY_MAIN as a plain program that replays files (any CC). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <trace/pattern.h>

static const char *names[][2] = {
	{ "kmem", "kmalloc" }, { "kmem", "kfree" }, { "timer", "timer_start" },
	{ "a", "b" },	       { "x_1", "" },	    { "", "e" },
};

struct fz {
	size_t items;
};

static int on_item(const char *item, size_t len, void *priv)
{
	struct fz *z = (struct fz *)priv;
	size_t i;
	char buf[TRACE_PATTERN_MAX + 1];
	z->items++;
	if (len == 0 || len > TRACE_PATTERN_MAX)
		abort(); /* check accepted what the splitter cannot use */
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		(void)trace_pattern_match(item, len, names[i][0], names[i][1]);
	if (!trace_pattern_is_glob(item, len)) {
		const char *colon = (const char *)memchr(item, ':', len);
		memcpy(buf, item, len);
		buf[len] = '\0';
		if (colon) {
			buf[colon - item] = '\0';
			if (!trace_pattern_match(item, len, buf, buf + (colon - item) + 1))
				abort();
		} else if (!trace_pattern_match(item, len, "any", buf)) {
			abort();
		}
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = (char *)malloc(size + 1);
	size_t pos = (size_t)-1;
	const char *why = NULL;
	struct fz z = { 0 };
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	if (trace_pattern_check(s, &pos, &why) == 0) {
		trace_pattern_for_each(s, on_item, &z);
		if (z.items == 0)
			abort();
	} else if (pos > strlen(s) || !why) {
		abort();
	}
	if (!trace_glob_match("*", 1, s) || !trace_pattern_match("*", 1, "sys", s))
		abort();
	free(s);
	return 0;
}

#ifdef FUZZ_REPLAY_MAIN
int main(int argc, char **argv)
{
	int i;
	for (i = 1; i < argc; i++) {
		static uint8_t buf[1 << 16];
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
	printf("replayed %d input(s)\n", argc - 1);
	return 0;
}
#endif
