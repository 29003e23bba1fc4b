#!/bin/sh
# USDT notes (-DTRACEPOINT_USDT): readelf -n lists one stapsdt probe per
# compiled-in tracepoint with provider, name, semaphore and arguments, none
# for a compiled-out subsystem and none without the flag; gdb sees them
# ("info probes") and, attached through the semaphore with no in-process
# probe, stops at every fire with the right arguments.  PIE, -fPIC shared
# library and --gc-sections builds keep every note pointing at live code.
set -u
CC=${CC:-cc}
out=${TP_BUILD:-build}/t_usdt
src=tests/usdt
mkdir -p "$out"
WARN="-Wall -Wextra -Wundef -Werror"
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }

build() { # name, extra flags...
	name=$1; shift
	$CC -O2 -g $WARN -Iinclude -I$src ${TP_CFLAGS:-} "$@" $src/usdt_prog.c -o "$out/$name" || { bad "build $name"; return 1; }
}

build usdt -DTRACEPOINT_USDT -DCONFIG_NET_TRACER || exit 1
notes=$(readelf -n "$out/usdt")
for probe in net:net_xmit net:net_poll; do
	prov=${probe%%:*}; name=${probe#*:}
	if echo "$notes" | grep -A3 "Provider: $prov\$" | grep -q "Name: $name\$"; then ok "readelf -n lists $probe"; else bad "readelf -n misses $probe"; fi
done
if echo "$notes" | grep -q "Name: disk_io"; then bad "compiled-out disk_io has a USDT note"; else ok "compiled-out disk_io has no USDT note"; fi
args=$(echo "$notes" | grep -A3 "Name: net_xmit" | sed -n 's/.*Arguments: //p')
set -- $args
if [ $# -eq 3 ] && [ "${1%%@*}" = 4 ] && [ "${2%%@*}" = 8 ] && [ "${3%%@*}" = 8 ]; then ok "net_xmit arguments described: $args"; else bad "net_xmit arguments: '$args'"; fi
sem=$(echo "$notes" | grep -A2 "Name: net_xmit" | sed -n 's/.*Semaphore: 0x0*\([0-9a-f]*\).*/\1/p')
tpaddr=$(nm "$out/usdt" | sed -n 's/^0*\([0-9a-f]*\) [DdBb] __tracepoint_net_xmit$/\1/p')
if [ -n "$sem" ] && [ $((0x$sem - 0x$tpaddr)) -gt 0 ] && [ $((0x$sem - 0x$tpaddr)) -lt 16 ]; then ok "semaphore is inside __tracepoint_net_xmit (its key)"; else bad "semaphore $sem vs struct $tpaddr"; fi

build plain -DCONFIG_NET_TRACER || exit 1
if readelf -S "$out/plain" | grep -q stapsdt; then bad "no -DTRACEPOINT_USDT, but a .note.stapsdt exists"; else ok "no USDT notes without -DTRACEPOINT_USDT"; fi

# Dangling notes: every probe location must fall inside an executable section.
check_live() { # file: prints the probe locations outside every AX section
	secs=$(readelf -SW "$1" | sed -n 's/^ *\[ *[0-9]*\] *[^ ]* *PROGBITS *\([0-9a-f]*\) [0-9a-f]* \([0-9a-f]*\) [0-9a-f]* *AX.*/\1 \2/p')
	readelf -n "$1" | sed -n 's/.*Location: 0x\([0-9a-f]*\),.*/\1/p' | while read -r loc; do
		live=no
		while read -r addr size; do
			[ $((0x$loc)) -ge $((0x$addr)) ] && [ $((0x$loc)) -lt $((0x$addr + 0x$size)) ] && live=yes
		done <<EOS
$secs
EOS
		[ $live = yes ] || echo "dangling $loc"
	done
}
build gc -DTRACEPOINT_USDT -DCONFIG_NET_TRACER -fPIE -pie -ffunction-sections -fdata-sections -Wl,--gc-sections || exit 1
d=$(check_live "$out/gc")
if [ -z "$d" ] && readelf -n "$out/gc" | grep -q "Name: net_xmit"; then ok "PIE --gc-sections: notes kept, none dangling"; else bad "PIE --gc-sections: $d"; fi
$CC -O2 -fPIC -shared $WARN -Iinclude -I$src ${TP_CFLAGS:-} -DTRACEPOINT_USDT -DCONFIG_NET_TRACER -ffunction-sections -Wl,--gc-sections -Dmain=lib_main $src/usdt_prog.c -o "$out/libusdt.so" || bad "build shared library"
d=$(check_live "$out/libusdt.so")
if [ -z "$d" ] && readelf -n "$out/libusdt.so" | grep -q "Name: net_xmit"; then ok "-fPIC shared library: notes present, none dangling"; else bad "shared library: $d"; fi

# gdb: it lists the probes and, through the semaphore, sees every fire
# although no in-process probe is attached.
if command -v gdb >/dev/null 2>&1; then
	g=$(gdb -nx -batch -ex 'info probes' -ex 'break -probe-stap net:net_xmit' -ex run \
		-ex 'print $_probe_arg1' -ex continue -ex 'print $_probe_arg1' -ex continue \
		-ex 'print $_probe_arg1' -ex continue "$out/usdt" 2>&1)
	if echo "$g" | grep -q "stap *net *net_xmit"; then ok "gdb info probes lists net:net_xmit"; else bad "gdb info probes: $g"; fi
	vals=$(echo "$g" | sed -n 's/^\$[0-9]* = //p' | tr '\n' ' ')
	if [ "$vals" = "1000 1001 1002 " ]; then ok "gdb stopped at all 3 fires, len = $vals"; else bad "gdb probe hits: '$vals'"; echo "$g" | tail -20; fi
	if echo "$g" | grep -q "net_xmit enabled at exit: 1"; then ok "the program saw the tracer through its key"; else bad "trace_net_xmit_enabled() did not see gdb"; fi
else
	echo "gdb not installed: skipping the gdb part (apt-get install gdb)"
fi

# bpftrace: listing needs only the ELF file; attaching needs root and uprobes.
if command -v bpftrace >/dev/null 2>&1; then
	l=$(bpftrace -l "usdt:$out/usdt:*" 2>/dev/null)
	if echo "$l" | grep -q "usdt:.*:net:net_xmit" && echo "$l" | grep -q "usdt:.*:net:net_poll"; then ok "bpftrace -l lists net:net_xmit and net:net_poll"; else bad "bpftrace -l: $l"; fi
	if [ "$(id -u)" = 0 ] && { [ -e /sys/kernel/tracing/uprobe_events ] || [ -e /sys/kernel/debug/tracing/uprobe_events ]; }; then
		b=$(ulimit -l unlimited 2>/dev/null; timeout 60 bpftrace -e "usdt:$out/usdt:net:net_xmit { printf(\"len=%d\\n\", arg1); }" -c "$out/usdt" 2>&1)
		n=$(echo "$b" | grep -c '^len=100[012]$')
		if [ "$n" = 3 ]; then ok "bpftrace saw all 3 fires through the semaphore"; else bad "bpftrace attach: $b"; fi
	else
		echo "skip: no uprobes here (not root, or no uprobe_events in tracefs): bpftrace attach not tried"
	fi
else
	echo "skip: bpftrace not installed (apt-get install bpftrace): bpftrace part not run"
fi
exit $fail
