#!/bin/sh
# USDT notes (-DTRACEPOINT_USDT): readelf -n lists one stapsdt probe per
# compiled-in tracepoint with provider, name, semaphore and arguments (signed
# types with a negative size, as <sys/sdt.h> writes them, in C and C++; all
# 12 of a 12-argument probe, floating ones as unsigned bits or, with
# -DTRACEPOINT_USDT_FLOAT_SUFFIX, <sys/sdt.h>'s 8f@; none past 12), none
# for a compiled-out subsystem and none without the flag; the semaphore sits
# in .probes, where bpftrace and perf look for it.  gdb sees the probes
# ("info probes") and, attached through the semaphore with no in-process
# probe, stops at every fire with the right arguments.  PIE, -fPIC shared
# library and --gc-sections builds keep every note pointing at live code.
# Where uprobes are available (root, the kernel's uprobe PMU for bpftrace,
# tracefs' uprobe_events for perf), bpftrace and perf really attach, to a PIE
# and a non-PIE executable and to a shared library, at start (-c) and to a
# running process (-p), and must count every fire with the right (negative)
# arguments; the -p runs also attach and detach an in-process probe around
# the tracer (usdt_prog.c's "both").  Elsewhere those parts are skipped and
# say why; also in the -DTRACEPOINT_PORTABLE pass, whose USDT builds are the
# static-mode pass's (USDT mode patches nothing).
# shellcheck disable=SC2086 # flag lists ($CC, $WARN, $TPF, $args) are split on purpose
. tests/lib.sh

build() { # name, extra flags...
	name=$1; shift
	$CC -O2 -g $WARN -Iinclude -I"$S" $TPF "$@" "$S/usdt_prog.c" -o "$B/$name" || { fail "build $name"; return 1; }
}

# The PIE that the tracers attach to, with --gc-sections (its notes must
# not dangle; checked below).
build usdt -DTRACEPOINT_USDT -DCONFIG_NET_TRACER -fPIE -pie -ffunction-sections -fdata-sections -Wl,--gc-sections || exit 1
notes=$(readelf -n "$B/usdt")
for probe in net:net_xmit net:net_poll; do
	prov=${probe%%:*}; name=${probe#*:}
	if echo "$notes" | grep -A3 "Provider: $prov\$" | grep -q "Name: $name\$"; then ok "readelf -n lists $probe"; else fail "readelf -n misses $probe"; fi
done
if echo "$notes" | grep -q "Name: disk_io"; then fail "compiled-out disk_io has a USDT note"; else ok "compiled-out disk_io has no USDT note"; fi
sizes() { # file probe: the sizes of the probe's argument descriptions
	readelf -n "$1" | grep -A3 "Name: $2\$" | sed -n 's/.*Arguments: //p' | tr ' ' '\n' | sed -n 's/@.*//p' | tr '\n' ' '
}
args=$(sizes "$B/usdt" net_xmit)
if [ "$args" = "-4 8 8 " ]; then ok "net_xmit arguments: int signed (-4@), unsigned long and pointer unsigned (8@)"; else fail "net_xmit argument sizes: '$args'"; fi
args=$(sizes "$B/usdt" net_kinds)
if [ "$args" = "-2 1 -8 4 -4 8 " ]; then ok "C: short, unsigned char, long long, unsigned, signed enum, pointer described as $args"; else fail "C net_kinds sizes: '$args'"; fi
if $CXX -x c++ -O2 $WARN -Iinclude -I"$S" $TPF -DTRACEPOINT_USDT -DCONFIG_NET_TRACER "$S/usdt_prog.c" -o "$B/usdt_cxx"; then
	args=$(sizes "$B/usdt_cxx" net_kinds)
	if [ "$args" = "-2 1 -8 4 -4 8 " ]; then ok "C++: the same signedness ($args)"; else fail "C++ net_kinds sizes: '$args'"; fi
else
	fail "build usdt_prog.c as C++"
fi
# Twelve arguments (<sys/sdt.h>'s most), two floating point: all described;
# thirteen: the probe without arguments.
wide="-4 -8 -2 4 8 4 -8 -4 8 -4 8 -4 "
args=$(sizes "$B/usdt" net_wide)
if [ "$args" = "$wide" ]; then ok "C: 12 arguments described, floating ones unsigned bits ($args)"; else fail "C net_wide sizes: '$args'"; fi
if [ -f "$B/usdt_cxx" ] && args=$(sizes "$B/usdt_cxx" net_wide) && [ "$args" = "$wide" ]; then ok "C++: the same 12 ($args)"
else fail "C++ net_wide sizes: '$args'"; fi
if echo "$notes" | grep -A3 "Name: net_many\$" | grep -q 'Arguments: *$'; then ok "13 arguments: the probe is there, its arguments not described"
else fail "net_many: $(echo "$notes" | grep -A3 "Name: net_many")"; fi
build usdt_f -DTRACEPOINT_USDT -DTRACEPOINT_USDT_FLOAT_SUFFIX -DCONFIG_NET_TRACER || exit 1
args=$(sizes "$B/usdt_f" net_wide)
if [ "$args" = "-4 -8 -2 4 8f 4f -8 -4 8 -4 8 -4 " ]; then ok "-DTRACEPOINT_USDT_FLOAT_SUFFIX: <sys/sdt.h>'s 8f@ and 4f@ ($args)"
else fail "float suffix: '$args'"; fi
sem=$(echo "$notes" | grep -A2 "Name: net_xmit" | sed -n 's/.*Semaphore: 0x0*\([0-9a-f]*\).*/\1/p')
tpaddr=$(nm "$B/usdt" | sed -n 's/^0*\([0-9a-f]*\) [DdBb] __tracepoint_net_xmit$/\1/p')
if [ -n "$sem" ] && [ $((0x$sem - 0x$tpaddr)) -gt 0 ] && [ $((0x$sem - 0x$tpaddr)) -lt 16 ]; then ok "semaphore is inside __tracepoint_net_xmit (its key)"; else fail "semaphore $sem vs struct $tpaddr"; fi
# bcc (bpftrace) and perf find the semaphore's file offset through .probes.
probes=$(readelf -SW "$B/usdt" | sed -n 's/.* \.probes  *PROGBITS  *\([0-9a-f]*\) [0-9a-f]* \([0-9a-f]*\) .* WA .*/\1 \2/p')
set -- $probes
if [ $# -eq 2 ] && [ $((0x$sem)) -ge $((0x$1)) ] && [ $((0x$sem)) -lt $((0x$1 + 0x$2)) ]; then ok "the semaphore is in the writable .probes section ($probes)"; else fail "semaphore $sem not in .probes: '$probes'"; fi

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
d=$(check_live "$B/usdt")
if [ -z "$d" ] && readelf -n "$B/usdt" | grep -q "Name: net_xmit"; then ok "PIE --gc-sections: notes kept, none dangling"; else fail "PIE --gc-sections: $d"; fi
# The shared library the tracers attach to (usdt_libmain.c runs it).
$CC -O2 -g -fPIC -shared $WARN -Iinclude -I"$S" $TPF -DTRACEPOINT_USDT -DCONFIG_NET_TRACER -ffunction-sections \
	-Wl,--gc-sections -Dmain=usdt_lib_main "$S/usdt_prog.c" -o "$B/libusdt.so" || { fail "build shared library"; exit 1; }
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
	# shellcheck disable=SC2016 # $_probe_arg* are gdb's
	g=$(gdb -nx -batch -ex 'break -probe-stap net:net_wide' -ex run -ex 'print $_probe_argc' -ex 'print $_probe_arg0' \
		-ex 'print $_probe_arg2' -ex 'print/x $_probe_arg4' -ex 'print/x $_probe_arg5' -ex 'print $_probe_arg10' \
		-ex 'print $_probe_arg11' "$B/usdt" 2>&1)
	vals=$(echo "$g" | sed -n 's/^\$[0-9]* = //p' | tr '\n' ' ')
	if [ "$vals" = "12 -1 -3 0x3ff8000000000000 0xc0100000 4660 -12 " ]; then ok "gdb reads all 12 arguments of net_wide (1.5 and -2.25 as their bits): $vals"
	else fail "gdb net_wide: '$vals'"; echo "$g" | tail -5; fi
else
	skip_part "gdb not installed: the gdb part is not run (apt-get install gdb)"
fi

# The programs the tracers attach to: the PIE one above, a non-PIE one, and
# one whose tracepoints live in a shared library.
build usdt_nopie -DTRACEPOINT_USDT -DCONFIG_NET_TRACER -fno-pie -no-pie || exit 1
$CC -O2 $WARN "$S/usdt_libmain.c" -L"$B" -lusdt -Wl,-rpath,"$B" -o "$B/usdt_lib" ||
	{ fail "build the shared-library program"; exit 1; }
readelf -hW "$B/usdt_nopie" | grep -q 'Type: *EXEC' || fail "usdt_nopie is not a non-PIE executable"
readelf -hW "$B/usdt" | grep -q 'Type: *DYN' || fail "usdt is not a PIE"

# Can a tracer attach here?  Reasons it cannot, empty if it can.
uprobes_missing() { # tool: why it cannot attach here (empty: it can)
	if [ -n "$same_build" ]; then echo "$same_build"
	elif [ "$(id -u)" != 0 ]; then echo "not root"
	elif [ "$1" = bpftrace ] && [ ! -e /sys/bus/event_source/devices/uprobe/type ]; then
		echo "the kernel has no uprobe PMU (/sys/bus/event_source/devices/uprobe; CONFIG_UPROBE_EVENTS)"
	elif [ "$1" = perf ] && [ ! -w "$TRACEFS/uprobe_events" ]; then
		echo "no writable uprobe_events in tracefs (mount -t tracefs nodev /sys/kernel/tracing; CONFIG_UPROBE_EVENTS)"
	fi
}
TRACEFS=/sys/kernel/tracing
# USDT builds do not patch code: -DTRACEPOINT_PORTABLE changes nothing in
# them (the same bytes), so the slow attaches run in the static-mode pass.
same_build=
case " $TPF " in *" -DTRACEPOINT_PORTABLE "*)
	same_build="with -DTRACEPOINT_PORTABLE a USDT build is the static-mode one (no patching in USDT mode), attached in that pass" ;;
esac
[ -e $TRACEFS/uprobe_events ] || TRACEFS=/sys/kernel/debug/tracing
pid_of() { # program args...: starts it in the background, output in $B/bg.out
	: >"$B/bg.out" # emptied now, not whenever the background shell gets to it
	"$@" >"$B/bg.out" 2>&1 &
	bgpid=$!
}
# A few attaches only (each tracer takes about a second to start), so that
# each tracer meets a PIE, a non-PIE executable and a shared library, and
# attaches at start and to a running process.  At start: 1000 fires (500
# for perf), counted, and their first arguments.  To a running process: the
# "both" run of usdt_prog.c, 100 fires in each of the three stages where the
# tracer is attached, 300 in all.
both_ok() { # label: checks usdt_prog's output of a "both" run ($B/bg.out)
	if grep -q "in-process probe saw 300" "$B/bg.out" && grep -q "net_xmit enabled at exit: 0" "$B/bg.out" &&
		[ "$(grep -c 'attached: enabled 1' "$B/bg.out")" = 2 ]; then
		ok "$1: the in-process probe saw its 300, the key stayed up while either was attached and went down after both"
	else
		fail "$1: in-process side: $(cat "$B/bg.out")"
	fi
}
file_of() { # target: the file that holds its probes
	if [ "$1" = usdt_lib ]; then echo "$B/libusdt.so"; else echo "$B/$1"; fi
}

# bpftrace: listing needs only the ELF file; attaching needs uprobes.
if have bpftrace; then
	if [ "$(id -u)" = 0 ]; then # bpftrace runs as root only, even to list
		l=$(bpftrace -l "usdt:$B/usdt:*" 2>&1)
		if echo "$l" | grep -q "usdt:.*:net:net_xmit" && echo "$l" | grep -q "usdt:.*:net:net_poll"; then ok "bpftrace -l lists net:net_xmit and net:net_poll"; else fail "bpftrace -l: $l"; fi
	fi
	why=$(uprobes_missing bpftrace)
	if [ -n "$why" ]; then
		skip_part "$why: bpftrace attaches not tried"
	else
		# -c cannot reach a library the program has not loaded yet (0.17:
		# "Error finding location for probe"): at start, the library is
		# attached by file, before the program starts (BEGIN: attached).
		# net_wide: bpftrace 0.17 reads arg0..arg5 on x86-64 (arg6 and
		# later: "x86_64 doesn't support arg6"); the double and the float
		# as their bits
		b=$(timeout 30 bpftrace -e "usdt:$B/usdt:net:net_wide { printf(\"%d %d %d %d %lx %x\\n\", arg0, arg1, arg2, arg3, arg4, arg5); }" -c "$B/usdt 1" 2>&1)
		if echo "$b" | grep -q '^-1 -2 -3 4 3ff8000000000000 c0100000$'; then ok "bpftrace reads net_wide's arg0..arg5: -1 -2 -3 4, 1.5 and -2.25 as bits"
		else fail "bpftrace net_wide: $b"; fi
		for run in "usdt c" "usdt_nopie p" "usdt_lib p" "usdt_lib file"; do
			target=${run% *} how=${run#* } file=$(file_of "${run% *}")
			count='@n = count(); if (arg1 < 1003) { printf("arg0=%d arg1=%d\n", arg0, arg1); }'
			case $how in
			c) b=$(timeout 30 bpftrace -e "usdt:$file:net:net_xmit { $count }" -c "$B/$target 1000" 2>&1) ;;
			file)
				: >"$B/bt.out"
				timeout 30 bpftrace -e "BEGIN { printf(\"attached\\n\"); } usdt:$file:net:net_xmit { $count } usdt:$file:net:net_poll { exit(); }" >"$B/bt.out" 2>&1 &
				btpid=$!
				i=0; while ! grep -qs attached "$B/bt.out" && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
				"$B/$target" 1000 >"$B/bg.out" 2>&1
				wait $btpid
				b="$(cat "$B/bt.out" "$B/bg.out")" ;;
			p)
				pid_of "$B/$target" 100 both
				b=$(timeout 30 bpftrace -e "usdt:$file:net:net_xmit { @n = count(); } usdt:$file:net:net_poll { exit(); }" -p $bgpid 2>&1)
				wait $bgpid ;;
			esac
			if [ $how = p ]; then
				if echo "$b" | grep -q '^@n: 300$'; then ok "bpftrace -p $target: counted 300 of 300 around an in-process probe"; else fail "bpftrace -p $target: $b"; fi
				both_ok "bpftrace -p $target"
			elif echo "$b" | grep -q '^@n: 1000$' && [ "$(echo "$b" | grep -c '^arg0=-[123] arg1=100[012]$')" = 3 ] &&
				echo "$b" | grep -q "net_xmit enabled at exit: 1"; then
				ok "bpftrace at start ($how) $target: counted 1000 of 1000, arg0 negative (-1 -2 -3), arg1 1000..1002"
			else
				fail "bpftrace at start ($how) $target: $b"
			fi
		done
	fi
else
	skip_part "bpftrace not installed (apt-get install bpftrace): bpftrace part not run"
fi

# perf: "perf probe -x FILE sdt_net:net_xmit" defines a uprobe event on the
# note (with its semaphore), "perf record -e sdt_net:net_xmit" records it.
perf_args() { # data: the arguments of every recorded fire, one line each
	perf script -i "$1" -F trace 2>/dev/null | sed 's/^ *([0-9a-f]*) *//'
}
if have perf && perf version >/dev/null 2>&1; then
	why=$(uprobes_missing perf)
	if [ -n "$why" ]; then
		skip_part "$why: perf attaches not tried"
	else
		# Not root's ~/.debug: perf probe looks an SDT event up in the probe
		# cache under $HOME/.debug whatever PERF_BUILDID_DIR says, and a
		# cache that other perf runs filled (without these binaries) makes
		# it fail ("Failed to add events"); with none it reads the notes.
		export PERF_BUILDID_DIR="$B/perf-buildid"
		perf_home=$(cd "$B" && pwd)/perf-home
		rm -rf "$perf_home" && mkdir -p "$perf_home"
		perf() { HOME="$perf_home" command perf "$@"; }
		for run in "usdt_nopie c" "usdt p" "usdt_lib c"; do
			target=${run% *} how=${run#* } file=$(file_of "${run% *}")
			perf probe -q -d 'sdt_net:net_xmit' >/dev/null 2>&1
			if ! perf probe -x "$file" -a sdt_net:net_xmit >"$B/perf_probe.log" 2>&1; then
				fail "perf probe -x $target sdt_net:net_xmit: $(cat "$B/perf_probe.log")"; continue
			fi
			if grep -q "sdt_net/net_xmit .*(0x[0-9a-f]*) arg1=[^ ]*:s32" $TRACEFS/uprobe_events; then
				ok "perf probe $target: a uprobe with the semaphore's offset, arg1 s32"
			else
				fail "perf probe $target: $(grep sdt_net $TRACEFS/uprobe_events)"
			fi
			if [ $how = c ]; then
				timeout 30 perf record -q -B -e sdt_net:net_xmit -o "$B/perf.data" "$B/$target" 500 >"$B/perf.out" 2>&1
				a=$(perf_args "$B/perf.data")
				n=$(echo "$a" | grep -c 'arg1=')
				if [ "$n" = 500 ] && echo "$a" | sed -n 1p | grep -q '^arg1=-1 arg2=1000 ' &&
					echo "$a" | sed -n 500p | grep -q '^arg1=-500 arg2=1499 '; then
					ok "perf record $target (at start): 500 of 500, arg1=-1 arg2=1000 ... arg1=-500 arg2=1499"
				else
					fail "perf record $target: $n events: $(echo "$a" | head -3) $(cat "$B/perf.out")"
				fi
			else
				pid_of "$B/$target" 100 both
				timeout 30 perf record -q -B -e sdt_net:net_xmit -o "$B/perf.data" -p $bgpid >"$B/perf.out" 2>&1 &
				perfpid=$!
				# "both" waits for the tracer to leave: perf leaves on
				# SIGINT once the program is done with its third stage.
				i=0; while ! grep -qs "waiting for the tracer to detach" "$B/bg.out" && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
				kill -INT $perfpid 2>/dev/null; wait $perfpid; wait $bgpid
				n=$(perf_args "$B/perf.data" | grep -c 'arg1=')
				if [ "$n" = 300 ]; then ok "perf record -p $target: 300 of 300 around an in-process probe"; else fail "perf record -p $target: $n events; $(cat "$B/perf.out")"; fi
				both_ok "perf record -p $target"
			fi
			perf probe -q -d 'sdt_net:net_xmit' >/dev/null 2>&1
		done
		# twelve arguments: every one in the uprobe and in the record
		perf probe -q -d 'sdt_net:net_wide' >/dev/null 2>&1
		if perf probe -x "$B/usdt" -a sdt_net:net_wide >"$B/perf_probe.log" 2>&1 &&
			grep -q "sdt_net/net_wide .* arg1=[^ ]*:s32 .* arg12=[^ ]*:s32" $TRACEFS/uprobe_events; then
			timeout 30 perf record -q -B -e sdt_net:net_wide -o "$B/perf.data" "$B/usdt" 1 >"$B/perf.out" 2>&1
			a=$(perf_args "$B/perf.data")
			if echo "$a" | grep -q '^arg1=-1 arg2=-2 .* arg4=4 arg5=4609434218613702656 arg6=3222274048 arg7=-7 arg8=-8 arg9=9 arg10=-10 arg11=4660 arg12=-12$'; then
				ok "perf record: net_wide's 12 arguments (1.5 and -2.25 as their bits)"
			else fail "perf net_wide: $a $(cat "$B/perf.out")"; fi
		else fail "perf probe net_wide: $(cat "$B/perf_probe.log") $(grep sdt_net $TRACEFS/uprobe_events)"; fi
		perf probe -q -d 'sdt_net:net_wide' >/dev/null 2>&1
	fi
else
	skip_part "perf not installed (apt-get install linux-perf): perf part not run"
fi
finish
