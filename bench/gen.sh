#!/bin/sh
# gen.sh OUTDIR - writes the generated sources of the size and enable/disable
# benchmarks (100 tracepoints sz_0..sz_99 in every flavour, and the files
# that use or define them).
set -eu
out=$1
mkdir -p "$out"
seq0() { i=0; while [ $i -lt "$1" ]; do echo $i; i=$((i + 1)); done; }

# Our event header: 100 tracepoints, subsystem switch CONFIG_BENCH_TP.
{
	echo '#undef TRACE_SYSTEM'
	echo '#undef TRACE_CONFIG'
	echo '#define TRACE_SYSTEM bench_sz'
	echo '#define TRACE_CONFIG CONFIG_BENCH_TP'
	echo '#if !defined(_TRACE_BENCH_SZ_H) || defined(TRACE_HEADER_MULTI_READ)'
	echo '#define _TRACE_BENCH_SZ_H'
	echo '#include <tracepoint.h>'
	for i in $(seq0 100); do
		echo "DECLARE_TRACE(sz_$i, TP_PROTO(int a, long b, const void *p), TP_ARGS(a, b, p));"
	done
	echo '#endif'
} >"$out/ours_ev.h"

# Definitions of K tracepoints, K = 1 and 100 (per-tracepoint cost = difference / 99).
for k in 1 100; do
	{ echo '#include "ours_ev.h"'; for i in $(seq0 $k); do echo "DEFINE_TRACE(sz_$i);"; done; } >"$out/ours_def$k.c"
	{
		echo '#undef TRACEPOINT_PROVIDER'
		echo '#define TRACEPOINT_PROVIDER bench_prov'
		echo '#undef TRACEPOINT_INCLUDE'
		echo "#define TRACEPOINT_INCLUDE \"./lttng_tp$k.h\""
		echo "#if !defined(LTTNG_TP${k}_H) || defined(TRACEPOINT_HEADER_MULTI_READ)"
		echo "#define LTTNG_TP${k}_H"
		echo '#include <lttng/tracepoint.h>'
		for i in $(seq0 $k); do
			echo "TRACEPOINT_EVENT(bench_prov, sz_$i, TP_ARGS(int, a, long, b, const void *, p),"
			echo "	TP_FIELDS(ctf_integer(int, a, a) ctf_integer(long, b, b) ctf_integer_hex(unsigned long, p, (unsigned long)p)))"
		done
		echo '#endif'
		echo '#include <lttng/tracepoint-event.h>'
	} >"$out/lttng_tp$k.h"
	printf '#define TRACEPOINT_CREATE_PROBES\n#define TRACEPOINT_DEFINE\n#include "lttng_tp%s.h"\n' $k >"$out/lttng_def$k.c"
	{ for i in $(seq0 $k); do echo "__extension__ unsigned short bench_sz_${i}_semaphore __attribute__((section(\".probes\"), used));"; done; } >"$out/sem_def$k.c"
done
{ for i in $(seq0 100); do echo "__extension__ extern unsigned short bench_sz_${i}_semaphore __attribute__((section(\".probes\")));"; done; } >"$out/sem_decl.h"

# The call sites: 100 distinct tracepoints, or 10 tracepoints with 10 sites each.
{ echo '#include "sites.h"'; for i in $(seq0 100); do echo "S($i, sz_$i)"; done; } >"$out/sites_d.c"
{ echo '#include "sites.h"'; for i in $(seq0 100); do echo "S($i, sz_$((i / 10)))"; done; } >"$out/sites_s.c"
# One tracepoint with 100 sites, for the enable/disable benchmark.
{ echo '#include "sites.h"'; for i in $(seq0 100); do echo "S($i, sz_0)"; done; echo 'long site_sink;'; } >"$out/sites_one.c"
