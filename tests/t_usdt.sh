#!/bin/sh
# USDT notes (-DTRACEPOINT_USDT): readelf -n lists one stapsdt probe per
# compiled-in tracepoint with provider, name, semaphore and arguments, none
# for a compiled-out subsystem and none without the flag; gdb sees them
# ("info probes") and, attached through the semaphore with no in-process
# probe, stops at every fire with the right arguments.  PIE, -fPIC shared
# library and --gc-sections builds keep every note pointing at live code.
# shellcheck disable=SC2086 # flag lists ($CC, $WARN, $TPF, $args) are split on purpose
. tests/lib.sh

build() { # name, extra flags...
	name=$1; shift
	$CC -O2 -g $WARN -Iinclude -I"$S" $TPF "$@" "$S/usdt_prog.c" -o "$B/$name" || { fail "build $name"; return 1; }
}

build usdt -DTRACEPOINT_USDT -DCONFIG_NET_TRACER || exit 1
notes=$(readelf -n "$B/usdt")
for probe in net:net_xmit net:net_poll; do
	prov=${probe%%:*}; name=${probe#*:}
	if echo "$notes" | grep -A3 "Provider: $prov\$" | grep -q "Name: $name\$"; then ok "readelf -n lists $probe"; else fail "readelf -n misses $probe"; fi
done
if echo "$notes" | grep -q "Name: disk_io"; then fail "compiled-out disk_io has a USDT note"; else ok "compiled-out disk_io has no USDT note"; fi
args=$(echo "$notes" | grep -A3 "Name: net_xmit" | sed -n 's/.*Arguments: //p')
set -- $args
if [ $# -eq 3 ] && [ "${1%%@*}" = 4 ] && [ "${2%%@*}" = 8 ] && [ "${3%%@*}" = 8 ]; then ok "net_xmit arguments described: $args"; else fail "net_xmit arguments: '$args'"; fi
sem=$(echo "$notes" | grep -A2 "Name: net_xmit" | sed -n 's/.*Semaphore: 0x0*\([0-9a-f]*\).*/\1/p')
tpaddr=$(nm "$B/usdt" | sed -n 's/^0*\([0-9a-f]*\) [DdBb] __tracepoint_net_xmit$/\1/p')
if [ -n "$sem" ] && [ $((0x$sem - 0x$tpaddr)) -gt 0 ] && [ $((0x$sem - 0x$tpaddr)) -lt 16 ]; then ok "semaphore is inside __tracepoint_net_xmit (its key)"; else fail "semaphore $sem vs struct $tpaddr"; fi

build plain -DCONFIG_NET_TRACER || exit 1
if readelf -S "$B/plain" | grep -q stapsdt; then fail "no -DTRACEPOINT_USDT, but a .note.stapsdt exists"; else ok "no USDT notes without -DTRACEPOINT_USDT"; fi

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
d=$(check_live "$B/gc")
if [ -z "$d" ] && readelf -n "$B/gc" | grep -q "Name: net_xmit"; then ok "PIE --gc-sections: notes kept, none dangling"; else fail "PIE --gc-sections: $d"; fi
$CC -O2 -fPIC -shared $WARN -Iinclude -I"$S" $TPF -DTRACEPOINT_USDT -DCONFIG_NET_TRACER -ffunction-sections -Wl,--gc-sections -Dmain=lib_main "$S/usdt_prog.c" -o "$B/libusdt.so" || fail "build shared library"
d=$(check_live "$B/libusdt.so")
if [ -z "$d" ] && readelf -n "$B/libusdt.so" | grep -q "Name: net_xmit"; then ok "-fPIC shared library: notes present, none dangling"; else fail "shared library: $d"; fi

# gdb: it lists the probes and, through the semaphore, sees every fire
# although no in-process probe is attached.
if have gdb; then
	# shellcheck disable=SC2016 # $_probe_arg1 is gdb's
	g=$(gdb -nx -batch -ex 'info probes' -ex 'break -probe-stap net:net_xmit' -ex run \
		-ex 'print $_probe_arg1' -ex continue -ex 'print $_probe_arg1' -ex continue \
		-ex 'print $_probe_arg1' -ex continue "$B/usdt" 2>&1)
	if echo "$g" | grep -q "stap *net *net_xmit"; then ok "gdb info probes lists net:net_xmit"; else fail "gdb info probes: $g"; fi
	vals=$(echo "$g" | sed -n 's/^\$[0-9]* = //p' | tr '\n' ' ')
	if [ "$vals" = "1000 1001 1002 " ]; then ok "gdb stopped at all 3 fires, len = $vals"; else fail "gdb probe hits: '$vals'"; echo "$g" | tail -20; fi
	if echo "$g" | grep -q "net_xmit enabled at exit: 1"; then ok "the program saw the tracer through its key"; else fail "trace_net_xmit_enabled() did not see gdb"; fi
else
	skip_part "gdb not installed: the gdb part is not run (apt-get install gdb)"
fi

# bpftrace: listing needs only the ELF file; attaching needs root and uprobes.
if have bpftrace; then
	l=$(bpftrace -l "usdt:$B/usdt:*" 2>/dev/null)
	if echo "$l" | grep -q "usdt:.*:net:net_xmit" && echo "$l" | grep -q "usdt:.*:net:net_poll"; then ok "bpftrace -l lists net:net_xmit and net:net_poll"; else fail "bpftrace -l: $l"; fi
	if [ "$(id -u)" = 0 ] && { [ -e /sys/kernel/tracing/uprobe_events ] || [ -e /sys/kernel/debug/tracing/uprobe_events ]; }; then
		# shellcheck disable=SC3045 # dash and bash have ulimit -l; elsewhere bpftrace may fail, and says why
		b=$(ulimit -l unlimited 2>/dev/null; timeout 60 bpftrace -e "usdt:$B/usdt:net:net_xmit { printf(\"len=%d\\n\", arg1); }" -c "$B/usdt" 2>&1)
		n=$(echo "$b" | grep -c '^len=100[012]$')
		if [ "$n" = 3 ]; then ok "bpftrace saw all 3 fires through the semaphore"; else fail "bpftrace attach: $b"; fi
	else
		skip_part "no uprobes here (not root, or no uprobe_events in tracefs): bpftrace attach not tried"
	fi
else
	skip_part "bpftrace not installed (apt-get install bpftrace): bpftrace part not run"
fi
finish
