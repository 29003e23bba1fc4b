/* Hostile hist triggers (tests/recorder/t_hist.sh): N (argv[1]) mutations
 * of valid triggers - bytes replaced, inserted, removed, pieces of other
 * triggers spliced in - each parsed against a fixed set of fields; a
 * trigger that parses is used (a table filled past its size, its hist
 * file made).  Built with the sanitizers where they work: an error is
 * fine, a crash or a read out of bounds is not.  Prints the counts. */
#include <trace/hist_core.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const seeds[] = {
	"hist:keys=kind:vals=bytes,lat:sort=bytes.descending:size=64",
	"hist:keys=tag,kind:vals=hitcount,bytes.hex:sort=kind,bytes.descending",
	"hist:keys=lat.buckets=500,small.log2:vals=bytes",
	"hist:keys=common_timestamp.usecs.log2,common_pid,common_tid:size=0x10",
	"hist:key=name:values=n:sort=hitcount.ascending",
	"hist:keys=bytes.sym,lat.sym-offset:vals=small.hex",
	"hist:keys=kind:t0=common_timestamp.usecs:k=kind:d=lat-$t0:size=16",
	"hist:keys=kind:l=common_timestamp-$t0:onmatch(a.b).trace(s,$l,kind)",
	"hist:name=both:keys=common_tid.execname,tag:vals=n:clear",
	"hist:keys=common_pid.execname:onmatch(x.y).syn(bytes,$v)",
};
static const char *const bits[] = {
	":",	    "=",	 ",",	       ".",	   "hex",
	"log2",	    "buckets=",	 "usecs",      "keys=",	   "vals=",
	"sort=",    "size=",	 "descending", "hitcount", "99999999999999999999",
	"0x",	    "name",	 "tag",	       "sym",	   "sym-offset",
	":pause",   ":continue", "\xff",       "",	   "$",
	"-$",	    "+",	 "onmatch(",   ".trace(",  ")",
	"execname", ":clear",	 "name=",      "(",	   "t0="
};

static unsigned long long rnd = 88172645463325252ull;
static unsigned next(unsigned n)
{
	rnd ^= rnd << 13;
	rnd ^= rnd >> 7;
	rnd ^= rnd << 17;
	return (unsigned)(rnd % n);
}

int main(int argc, char **argv)
{
	static const struct trace_hist_fdesc f[] = {
		{ "kind", TRACE_HIST_F_INT, 1 }, { "bytes", TRACE_HIST_F_INT, 0 },
		{ "lat", TRACE_HIST_F_INT, 1 },	 { "small", TRACE_HIST_F_INT, 0 },
		{ "tag", TRACE_HIST_F_STR, 0 },	 { "name", TRACE_HIST_F_STR, 0 },
		{ "n", TRACE_HIST_F_INT, 0 },	 { "blob", 0, 0 },
	};
	long n = argc > 1 ? atol(argv[1]) : 10000, i, good = 0, bad = 0;
	for (i = 0; i < n; i++) {
		char s[600], err[300];
		struct trace_hist_spec spec;
		size_t len, pos = 0, k, m = 1 + next(6);
		strcpy(s, seeds[next(sizeof(seeds) / sizeof(seeds[0]))]);
		for (k = 0; k < m; k++) {
			size_t l = strlen(s), at = next((unsigned)l + 1);
			const char *b = bits[next(sizeof(bits) / sizeof(bits[0]))];
			switch (next(4)) {
			case 0: /* replace a byte */
				if (at < l)
					s[at] = (char)(1 + next(255));
				break;
			case 1: /* remove a run */
				if (at < l) {
					size_t r = 1 + next(8);
					if (at + r > l)
						r = l - at;
					memmove(s + at, s + at + r, l - at - r + 1);
				}
				break;
			default: /* insert a piece */
				if (l + strlen(b) < sizeof(s) - 1) {
					memmove(s + at + strlen(b), s + at, l - at + 1);
					memcpy(s + at, b, strlen(b));
				}
				break;
			}
		}
		len = strlen(s);
		if (trace_hist_parse(s, len, f, sizeof(f) / sizeof(f[0]), &spec, &pos, err,
				     sizeof(err)) != 0) {
			if (pos > len || !err[0]) {
				printf("bad error for \"%s\": pos %zu, \"%s\"\n", s, pos, err);
				return 1;
			}
			bad++;
		} else {
			struct trace_hist_table t;
			void *mem = calloc(1, trace_hist_table_bytes(&spec));
			char *txt;
			unsigned e;
			if (!mem)
				return 1;
			trace_hist_table_init(&t, &spec, mem);
			for (e = 0; e < spec.size + 10 && e < 3000; e++) {
				uint64_t key[TRACE_HIST_KEYS_MAX * TRACE_HIST_STR_WORDS],
					vals[TRACE_HIST_VALS_MAX], *en;
				unsigned j;
				memset(key, 0, sizeof(key)); /* .execname's name: the caller's */
				for (j = 0; j < spec.nkeys; j++) {
					if (spec.key[j].kind == TRACE_HIST_F_STR)
						trace_hist_key_str(key + spec.key[j].word,
								   "a-string-key", 3 + e % 9);
					else
						key[spec.key[j].word] = trace_hist_key_num(
							&spec.key[j], (uint64_t)e * 7919u);
				}
				for (j = 0; j < spec.nvals; j++)
					vals[j] = e;
				en = trace_hist_table_find(&t, key,
							   trace_hist_hash(key, spec.keywords));
				if (en)
					trace_hist_table_add(&t, en, 1, vals);
				else
					t.dropped++;
			}
			txt = trace_hist_format(&spec, &t, NULL, "active", NULL);
			if (!txt || t.count > spec.size)
				return 1;
			free(txt);
			free(mem);
			good++;
		}
	}
	printf("%ld parsed, %ld refused\n", good, bad);
	return 0;
}
