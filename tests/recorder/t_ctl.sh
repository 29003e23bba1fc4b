#!/bin/sh
# The control channel (include/trace/control.h) end to end: tests/recorder/ctl/ctl_prog.c
# (ctl:ctl_tick every 200 us) driven by tracepoint-ctl and attacked by
# tests/recorder/ctl/hostile.c, with XDG_RUNTIME_DIR pointing into the build directory:
#  - off (TRACEPOINTS_CONTROL unset, 0, or "yes", which is reported): one
#    thread, no socket descriptor, no directory or file; tracepoint-ctl says
#    the process has no control channel (exit 2); a process still starting
#    (a shell that has not exec()ed it yet) is waited for;
#  - on: one more thread, "tp-control", one listening socket, mode 0600 in a
#    0700 directory; list, enable (the events are in the trace, contiguous),
#    disable (no more after it), flush, the errors (malformed list with a
#    caret, unknown event: nothing changed, all or nothing; snapshot in
#    stream mode), tracepoint-ctl's usage errors; at exit the socket is gone;
#  - filters: enable with two 'patterns if filter' groups (only odd ticks
#    recorded); a misspelt field, event or subsystem, a type mismatch, a
#    syntax error: the reply says it as TRACEPOINTS does (caret, "did you
#    mean"), nothing changes, the program's stderr stays quiet;
#  - flight mode: snapshots 1 and 2, read back by tracepoint-dump;
#  - hostile clients: 15 malformed requests, garbage, 1 MiB without a
#    newline, a pipelined flood that never reads, 200 connections closed at
#    once, 40 half-open connections held 7 s: each refused as it should be, a good
#    client answered at once meanwhile, every connection closed after the
#    idle time, the descriptors back to their number, nothing enabled, the
#    program still ticking, nothing on its stderr;
#  - another uid (setpriv 65534): tracepoint-ctl refuses; the raw client
#    cannot even connect; with the directory and socket opened up on
#    purpose, the program refuses it itself (SO_PEERCRED) and says so once;
#  - a set-user-ID copy run by uid 65534: TRACEPOINTS_CONTROL is ignored;
#  - unsafe directories (mode 0755, a symbolic link, another owner) are
#    refused with a message, and nothing is opened;
#  - fork: the child has no channel (no thread, no inherited socket) unless
#    it calls tracepoint_control_start(); exec: nothing is inherited (one
#    socket, one control thread: the new image's), the new image replaces
#    the stale socket; SIGKILL: tracepoint-ctl names the stale socket;
#    SIGTERM to a program without a handler (ctl_prog -DCTL_NO_HANDLER):
#    status 143, socket left; the next process's channel removes both
#    stale sockets;
#  - the API: tracepoint_control_start() twice, tracepoint_control_stop()
#    twice (0 each), no thread and no file left after stop.
#  - /tmp/tracepoints-UID taken first by another user (a directory, a
#    link, a file; and a decoy of the fallback's shape): the program's
#    channel is in a /tmp/tracepoints-UID-XXXXXX of its user's own, said on
#    stderr, made once and reused; tracepoint-ctl PID finds it (uid 64999);
# setpriv (util-linux) and root are needed for the uid parts only.
. tests/lib.sh
dump_tool
B=$(cd "$B" && pwd) # XDG_RUNTIME_DIR must be absolute
cc_build -I"$S" -DCONFIG_CTL_TRACE "$S/ctl_prog.c" -o "$B/ctl_prog" -lpthread -ldl
cc_build "$S/hostile.c" -o "$B/hostile"
cc_build -I"$S" -DCONFIG_CTL_TRACE -DCTL_NO_HANDLER "$S/ctl_prog.c" -o "$B/ctl_prog_plain" -lpthread -ldl
CTL=${TP_CTL:-}
if [ -z "$CTL" ] || [ ! -x "$CTL" ]; then
	CTL=$B/tracepoint-ctl
	cc_build tools/tracepoint-ctl.c -o "$CTL"
fi
RUN=$B/run
mkdir -m 700 "$RUN" || exit 1
XDG_RUNTIME_DIR=$RUN
export XDG_RUNTIME_DIR
SD=$RUN/tracepoints
ROOT=no; [ "$(id -u)" = 0 ] && have setpriv && ROOT=yes
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
hostile() { "$B/hostile" "$SD/$P.sock" "$@"; } # on the socket of P

# start NAME MODE VAR=VALUE...: ctl_prog MODE in the background with those
# variables; waits for its "ready" line.  Sets P (pid), O and E (its stdout
# and stderr files).
start() {
	name=$1 mode=$2
	shift 2
	O=$B/$name.out E=$B/$name.err
	env CTL_SECONDS=25 "$@" "$B/ctl_prog" "$mode" >"$O" 2>"$E" &
	P=$!
	waitfor '^ready ' "$O" || { fail "$name: no ready line"; cat "$O" "$E"; return 1; }
}
waitfor() { # regex file: up to 5 s
	_i=0
	while ! grep -q "$1" "$2" 2>/dev/null; do
		_i=$((_i + 1))
		[ $_i -gt 500 ] && return 1
		sleep 0.01
	done
}
stop() { # stops P normally; its exit status must be 0
	kill -TERM "$P" 2>/dev/null
	wait "$P" || fail "$name: exit status $?"
}
threads() { find "/proc/$1/task" -mindepth 1 -maxdepth 1 | wc -l; }
sockets() { for _f in /proc/"$1"/fd/*; do readlink "$_f"; done 2>/dev/null | grep -c '^socket:'; }
nfds() { find "/proc/$1/fd" -mindepth 1 -maxdepth 1 | wc -l; }
# ctl ARGS...: runs tracepoint-ctl; sets RC, OUTP (stdout) and ERRP (stderr)
ctl() {
	"$CTL" "$@" >"$B/ctl.out" 2>"$B/ctl.err"
	RC=$?
	OUTP=$(cat "$B/ctl.out") ERRP=$(cat "$B/ctl.err")
}
expect() { # label rc pattern(for stdout when rc 0, stderr otherwise)
	_got=$OUTP
	[ "$2" = 0 ] || _got=$ERRP
	if [ "$RC" = "$2" ] && printf '%s\n' "$_got" | grep -q -- "$3"; then
		ok "$1: exit $RC, $(printf '%s' "$_got" | head -n 1)"
	else
		fail "$1: exit $RC (want $2), stdout '$OUTP', stderr '$ERRP' (want /$3/)"
	fi
}
# ticks of a trace (text dump): "count first last"
ticks() { "$DUMP" "$1" 2>/dev/null | sed -n 's/.* ctl:ctl_tick n=\([0-9]*\)$/\1/p' |
	awk 'NR == 1 { f = $1 } { l = $1 } END { print NR, f + 0, l + 0 }'; }

echo "== off: nothing exists"
for v in unset 0 yes; do
	if [ $v = unset ]; then start off-$v run; else start off-$v run TRACEPOINTS_CONTROL=$v; fi || continue
	if [ "$(threads $P)" = 1 ] && [ "$(sockets $P)" = 0 ] && [ ! -e "$SD" ] && grep -q "^ready $P none$" "$O"; then
		ok "TRACEPOINTS_CONTROL $v: 1 thread, no socket, no directory"
	else
		fail "TRACEPOINTS_CONTROL $v: $(threads $P) threads, $(sockets $P) sockets, $(ls -A "$RUN")"
	fi
	ctl $P list
	expect "TRACEPOINTS_CONTROL $v: tracepoint-ctl" 2 "has no control channel: start it with TRACEPOINTS_CONTROL=1"
	stop
	if [ $v = yes ]; then
		if grep -q 'TRACEPOINTS_CONTROL="yes" is neither 0 nor 1: no control channel' "$E"; then
			ok "TRACEPOINTS_CONTROL=yes is reported"
		else fail "TRACEPOINTS_CONTROL=yes: stderr $(cat "$E")"; fi
	elif [ -s "$E" ]; then fail "TRACEPOINTS_CONTROL $v: stderr $(cat "$E")"; fi
done

echo "== a process still starting: tracepoint-ctl waits for its channel"
# a shell that exec()s the program 0.3 s later, asked at once
name=starting O=$B/starting.out E=$B/starting.err
sh -c 'sleep 0.3; exec env TRACEPOINTS_CONTROL=1 CTL_SECONDS=25 "$0" run' "$B/ctl_prog" >"$O" 2>"$E" &
P=$!
ctl $P list
expect "a shell that execs the program 0.3 s after tracepoint-ctl starts: it waits, then lists" 0 "^ctl:ctl_tick"
stop

echo "== on, stream mode: list, enable, disable, flush"
start stream run TRACEPOINTS_CONTROL=1 TRACEPOINTS_DIR="$B/stream"
comms=$(cat /proc/$P/task/*/comm | sort | tr '\n' ' ')
if [ "$(threads $P)" = 2 ] && [ "$comms" = "ctl_prog tp-control " ] && [ "$(sockets $P)" = 1 ]; then
	ok "on: threads $comms, one socket descriptor"
else fail "on: $(threads $P) threads ($comms), $(sockets $P) sockets"; fi
modes=$(stat -c '%a %U %F' "$SD" "$SD/$P.sock" | tr '\n' ';')
if grep -q "^ready $P $SD/$P.sock$" "$O" && [ "$modes" = "700 root directory;600 root socket;" ] ||
	{ [ $ROOT = no ] && grep -q "^ready $P $SD/$P.sock$" "$O"; }; then
	ok "on: $SD/$P.sock: $modes"
else fail "on: ready line '$(cat "$O")', modes $modes"; fi
ctl $P list
sorted=$(echo "$OUTP" | sort | tr '\n' ';')
if [ $RC = 0 ] && [ "$sorted" = "ctl:ctl_note (string what);ctl:ctl_tick (int n);" ]; then ok "list: $sorted"
else fail "list: exit $RC: $OUTP $ERRP"; fi
ctl $P enable ctl:ctl_tick
expect "enable ctl:ctl_tick" 0 "^enabled 1 event matching \"ctl:ctl_tick\"; trace in $B/stream/ctl_prog-$P$"
ctl $P list
sorted=$(echo "$OUTP" | sort | tr '\n' ';')
if [ "$sorted" = "ctl:ctl_note (string what);ctl:ctl_tick (int n) enabled;" ]; then ok "list marks ctl_tick enabled"
else fail "list after enable: $OUTP"; fi
ctl $P enable ctl:ctl_note ctl:nosuch
expect "enable ctl:ctl_note ctl:nosuch" 1 'no event of this program matches "ctl:nosuch" (nothing changed'
ctl $P enable 'ctl:ctl_tick,'
expect "enable 'ctl:ctl_tick,'" 1 'malformed pattern list "ctl:ctl_tick,": .* at position 14'
if echo "$ERRP" | grep -q '^               ^$'; then ok "the malformed list's caret is under position 14"
else fail "caret: $ERRP"; fi
ctl $P list
if echo "$OUTP" | grep -q '^ctl:ctl_note (string what)$'; then ok "all or nothing: ctl_note is still not enabled"
else fail "after the refused enables: $OUTP"; fi
sleep 0.3
ctl $P flush
expect flush 0 "^flushed $B/stream/ctl_prog-$P to storage$"
ctl $P snapshot
expect "snapshot in stream mode" 1 "is in stream mode: snapshots are for flight mode"
ctl $P disable 'ctl:*'
expect "disable ctl:*" 0 '^disabled 2 events matching "ctl:\*"$'
sleep 0.3
stop
# shellcheck disable=SC2046 # three numbers
set -- $(ticks "$B/stream")
total=$(sed -n 's/^ticks //p' "$O")
if [ "$1" -gt 0 ] && [ $(($3 - $2 + 1)) = "$1" ] && [ $((total - $3)) -ge 100 ]; then
	ok "the trace holds ticks $2..$3 ($1, contiguous); the program went on to $total after disable"
else fail "trace: $1 ticks $2..$3, program ticked $total"; fi
n=$("$DUMP" "$B/stream" 2>/dev/null | grep -c 'ctl:ctl_note')
if [ "$n" = 0 ]; then ok "no ctl_note recorded (never enabled)"; else fail "$n ctl_note records"; fi
if [ ! -e "$SD/$P.sock" ]; then ok "exit: the socket is removed"; else fail "exit: $SD/$P.sock is left"; fi
grep -v '^tracepoints: trace in ' "$E" | grep . && fail "stream: unexpected stderr"

echo "== tracepoint-ctl: usage errors"
for args in "" "1" "12x list" "1 frob" "1 enable" "1 list x" "1 snapshot now"; do
	# shellcheck disable=SC2086 # the words of args
	ctl $args
	if [ $RC = 2 ] && echo "$ERRP" | grep -q "Try 'tracepoint-ctl --help'"; then ok "tracepoint-ctl $args: exit 2, $(echo "$ERRP" | head -n 1)"
	else fail "tracepoint-ctl $args: exit $RC: $ERRP"; fi
done
ctl 1 enable "$(printf 'ctl:\001')"
expect "a control byte in a pattern" 2 "a control or non-ASCII character"
ctl --help
expect "--help" 0 "^usage: tracepoint-ctl PID list"
ctl --version
expect "--version" 0 "^tracepoint-ctl [0-9]*\.[0-9]*\.[0-9]"

echo "== filters: the same groups, errors and suggestions as TRACEPOINTS"
start filters run TRACEPOINTS_CONTROL=1 TRACEPOINTS_DIR="$B/filters"
ctl $P enable 'ctl:ctl_tick if n & 1' 'ctl:ctl_note if what == "hundred"'
expect "enable two groups with filters" 0 "^enabled 2 events matching \"ctl:ctl_tick if n & 1; ctl:ctl_note if what == \\\"hundred\\\"\"; trace in $B/filters/ctl_prog-$P$"
ctl $P enable 'ctl:ctl_tick if nn > 5'
expect "a misspelt field" 1 'bad filter for ctl:ctl_tick: no field "nn" in this event (its fields: n); did you mean "n"? at position 17'
if [ "$(echo "$ERRP" | tail -n 1)" = "                  ^" ]; then ok "its caret is under position 17"
else fail "caret: $ERRP"; fi
ctl $P enable 'ctl:ctl_note if what > 1'
expect "a type mismatch" 1 'bad filter for ctl:ctl_note: field what is a string: put the value in quotes'
ctl $P enable 'ctl:ctl_tik if n > 1'
expect "a misspelt event" 1 'no event of this program matches "ctl:ctl_tik"; did you mean "ctl:ctl_tick"?'
ctl $P enable ctl:ctl_tik
expect "a misspelt event, no filter" 1 'no event of this program matches "ctl:ctl_tik"; did you mean "ctl:ctl_tick"?'
ctl $P enable ctl
expect "a subsystem for an event" 1 'no event of this program matches "ctl": it is a subsystem; "ctl:\*" selects its events'
ctl $P enable 'ctl:ctl_tick if (n > 1'
expect "a syntax error" 1 "bad filter: this '(' is not closed at position 17"
ctl $P disable 'ctl:ctl_tick if n > 1'
expect "disable with a filter" 1 "disable takes patterns only"
sleep 0.3
stop
n=$("$DUMP" "$B/filters" 2>/dev/null | grep -c ' ctl:ctl_tick n=')
even=$("$DUMP" "$B/filters" 2>/dev/null | grep -c ' ctl:ctl_tick n=[0-9]*[02468]$')
if [ "$n" -gt 100 ] && [ "$even" = 0 ]; then ok "the trace holds $n ticks, all odd: the filter of the first enable, unchanged by the refused ones"
else fail "filters: $n ticks, $even even"; fi
grep -v '^tracepoints: trace in ' "$E" | grep . && fail "filters: the program's stderr: the errors belong in the reply"

echo "== flight mode: snapshots"
start flight run TRACEPOINTS_CONTROL=1 TRACEPOINTS_MODE=flight TRACEPOINTS_DIR="$B/flight" \
	TRACEPOINTS_FLIGHT_KB=256 TRACEPOINTS_BUFFER_KB=16
ctl $P snapshot
expect "snapshot before any enable" 1 "nothing is recorded yet"
ctl $P enable 'ctl:*'
expect "flight: enable ctl:*" 0 "^enabled 2 events matching \"ctl:\*\"; trace in $B/flight/ctl_prog-$P$"
sleep 0.3
ctl $P snapshot
expect "snapshot" 0 "^snapshot 1 in $B/flight/ctl_prog-$P/snapshot-1$"
ctl $P snapshot
expect "snapshot again" 0 "^snapshot 2 in $B/flight/ctl_prog-$P/snapshot-2$"
stop
# shellcheck disable=SC2046 # three numbers
set -- $(ticks "$B/flight/ctl_prog-$P/snapshot-1")
if [ "$1" -gt 100 ] && [ $(($3 - $2 + 1)) = "$1" ]; then ok "snapshot-1 holds ticks $2..$3 ($1, contiguous)"
else fail "snapshot-1: $1 ticks $2..$3"; fi

echo "== hostile clients"
start hostile run TRACEPOINTS_CONTROL=1 TRACEPOINTS_DIR="$B/hostile-trace"
base=$(nfds $P)
hostile malformed >"$B/malformed.txt"
n=$(grep -c -- '-> err 22 [0-9]*$' "$B/malformed.txt")
if [ "$n" = 15 ]; then ok "15 malformed requests: err 22 (EINVAL) each"; else fail "malformed: $n of 15 refused"; cat "$B/malformed.txt"; fi
out=$(hostile garbage)
case $out in "garbage -> err 22 "*) ok "4000 bytes of garbage: $out" ;; *) fail "garbage: $out" ;; esac
out=$(hostile oversized)
case $out in "oversized -> err 90 "*) ok "1 MiB without a newline: $out (EMSGSIZE)" ;; *) fail "oversized: $out" ;; esac
hostile flood 100000 >"$B/flood.txt" &
fl=$!
hostile churn 200 >"$B/churn.txt"
hostile hold 40 7 >"$B/hold.txt" &
hd=$!
waitfor '^holding 40' "$B/hold.txt" || fail "hold: $(cat "$B/hold.txt")"
t0=$(date +%s%N)
ctl $P list
ms=$((($(date +%s%N) - t0) / 1000000))
if [ $RC = 0 ] && [ $ms -lt 2000 ]; then ok "a good client amid 40 half-open connections and a flood: answered in $ms ms"
else fail "good client: exit $RC in $ms ms: $ERRP"; fi
wait $fl
wait $hd
out=$(tail -n 1 "$B/hold.txt")
if [ "$out" = "closed 40 of 40" ]; then ok "40 half-open connections: $out by the program within 7 s"; else fail "hold: $out"; fi
if [ "$(nfds $P)" = "$base" ]; then ok "descriptors back to $base"; else fail "descriptors: $(nfds $P), were $base"; fi
ctl $P list
if [ $RC = 0 ] && ! echo "$OUTP" | grep -q enabled && kill -0 $P; then ok "still answering, nothing enabled, running"
else fail "after the attacks: exit $RC, $OUTP"; fi

if [ $ROOT = yes ]; then
	echo "== another uid (65534)"
	"$CTL" $P list >/dev/null 2>&1 # warm
	as_nobody "$CTL" $P list >"$B/ctl.out" 2>"$B/ctl.err"
	RC=$? ERRP=$(cat "$B/ctl.err") OUTP=
	expect "tracepoint-ctl as uid 65534" 2 "process $P runs as uid 0, you as uid 65534: only its own user"
	out=$(as_nobody "$B/hostile" "$SD/$P.sock" good)
	if [ "$out" = "connect: Permission denied" ]; then ok "uid 65534, raw: $out"; else fail "uid 65534, raw: $out"; fi
	chmod 711 "$RUN" "$SD" && chmod 666 "$SD/$P.sock"
	out=$(as_nobody "$B/hostile" "$SD/$P.sock" good | tr '\n' ' ')
	out2=$(as_nobody "$B/hostile" "$SD/$P.sock" good | tr '\n' ' ')
	chmod 700 "$RUN" "$SD" && chmod 600 "$SD/$P.sock"
	case $out in "reply err 13 "*) ok "directory and socket opened up: the program refuses uid 65534 itself: $out" ;;
	*) fail "opened up, uid 65534: $out" ;; esac
	[ "$out2" = "$out" ] || fail "second try: $out2"
	n=$(grep -c 'control channel: refused a connection from uid 65534 (pid [0-9]*): only uid 0 may control' "$E")
	if [ "$n" = 1 ]; then ok "the program says so on stderr, once"; else fail "refusals on stderr: $n: $(cat "$E")"; fi
	ctl $P list
	expect "uid 0 still answered" 0 "ctl:ctl_tick"
else
	skip_part "the other-uid checks need root and setpriv"
fi
stop
grep -v 'control channel: refused a connection from uid 65534' "$E" | grep . && fail "hostile: unexpected stderr"

if [ $ROOT = yes ]; then
	echo "== a set-user-ID program"
	cp "$B/ctl_prog" "$B/ctl_suid" && chown 0:0 "$B/ctl_suid" && chmod 4755 "$B/ctl_suid"
	O=$B/suid.out E=$B/suid.err
	setpriv --reuid=65534 --regid=65534 --clear-groups env TRACEPOINTS_CONTROL=1 CTL_SECONDS=25 \
		"$B/ctl_suid" run >"$O" 2>"$E" & # not through as_nobody: $! is the program
	P=$! name=suid
	if waitfor '^ready ' "$O"; then
		euid=$(awk '/^Uid:/ { print $3 }' /proc/$P/status)
		if [ "$euid" != 0 ]; then
			skip_part "set-user-ID not honoured here (euid $euid)"
		elif grep -q "^ready $P none$" "$O" && [ "$(threads $P)" = 1 ] && [ "$(sockets $P)" = 0 ] &&
			[ ! -e "$SD/$P.sock" ]; then
			ok "set-user-ID (AT_SECURE): TRACEPOINTS_CONTROL ignored: 1 thread, no socket"
		else fail "set-user-ID: $(cat "$O"), $(threads $P) threads"; fi
	else fail "suid: no ready line: $(cat "$E")"; fi
	stop
	[ -s "$E" ] && fail "suid: stderr $(cat "$E")"
fi

echo "== unsafe directories are not used"
mkdir -p "$B/bad1/tracepoints" "$B/bad2" "$B/bad3/tracepoints"
chmod 755 "$B/bad1/tracepoints"
ln -s "$SD" "$B/bad2/tracepoints"
chmod 700 "$B/bad3/tracepoints"
for d in bad1 bad2 bad3; do
	if [ $d = bad3 ]; then
		[ $ROOT = yes ] || { skip_part "another owner: needs root"; continue; }
		chown 65534 "$B/bad3/tracepoints"
	fi
	start $d run TRACEPOINTS_CONTROL=1 XDG_RUNTIME_DIR="$B/$d" || continue
	case $d in
	bad1) want="has mode 755, but group and others must have no access" ;;
	bad2) want="is a symbolic link (not followed): not used" ;;
	bad3) want="belongs to uid 65534, not to this process's uid 0: not used" ;;
	esac
	if grep -q "control channel: $B/$d/tracepoints $want.*no control channel" "$E" && [ "$(threads $P)" = 1 ] &&
		[ "$(sockets $P)" = 0 ] && grep -q "^ready $P none$" "$O"; then
		ok "$d: $(cut -c1-110 "$E")..."
	else fail "$d: stderr '$(cat "$E")', $(threads $P) threads"; fi
	stop
done
[ ! -e "$B/bad1/tracepoints/$P.sock" ] || fail "a socket in the 0755 directory"

echo "== /tmp/tracepoints-UID taken by another user first (XDG_RUNTIME_DIR unset)"
if [ $ROOT = yes ]; then
	V=64999 # a uid of this test's own: nothing else uses its /tmp names
	as_v() { setpriv --reuid=$V --regid=$V --clear-groups env -u XDG_RUNTIME_DIR "$@"; }
	rm -rf /tmp/tracepoints-$V /tmp/tracepoints-$V-??????
	as_nobody mkdir -m 700 /tmp/tracepoints-$V-decoy1 # its shape, another user's: never used
	for how in dir link file; do
		case $how in
		dir) as_nobody mkdir -m 700 /tmp/tracepoints-$V ;;
		link) as_nobody ln -s /tmp /tmp/tracepoints-$V ;;
		file) as_nobody touch /tmp/tracepoints-$V ;;
		esac
		O=$B/squat-$how.out E=$B/squat-$how.err name=squat-$how
		setpriv --reuid=$V --regid=$V --clear-groups env -u XDG_RUNTIME_DIR TRACEPOINTS_CONTROL=1 \
			CTL_SECONDS=25 "$B/ctl_prog" run >"$O" 2>"$E" & # $! is the program
		P=$!
		if ! waitfor '^ready ' "$O"; then fail "squat ($how): no ready line: $(cat "$E")"; stop; continue; fi
		fb=$(sed -n "s|^ready $P \(/tmp/tracepoints-$V-[A-Za-z0-9]\{6\}\)/$P.sock\$|\1|p" "$O")
		as_v "$CTL" $P list >"$B/ctl.out" 2>"$B/ctl.err"
		RC=$?
		if [ -n "$fb" ] && [ "$fb" != /tmp/tracepoints-$V-decoy1 ] && [ $RC = 0 ] && grep -q '^ctl:ctl_tick' "$B/ctl.out" &&
			grep -q "^tracepoints: control channel: /tmp/tracepoints-$V .*: not used (not followed); the channel is in $fb instead (tracepoint-ctl finds it there)$" "$E" &&
			[ "$(stat -c '%u %a' "$fb")" = "$V 700" ]; then
			ok "taken ($how): the channel in $fb, said once; tracepoint-ctl PID finds it ($(head -1 "$E" | cut -c1-90)...)"
		else fail "taken ($how): exit $RC, ready '$(cat "$O")', ctl '$(cat "$B/ctl.err")', stderr '$(cat "$E")'"; fi
		[ -z "${first:-}" ] && first=$fb
		[ "$fb" = "$first" ] || fail "taken ($how): $fb, not the directory made before ($first)"
		stop
		rm -rf /tmp/tracepoints-$V
	done
	if [ "$(count /tmp/tracepoints-$V-??????)" = 2 ]; then ok "one directory made, then reused (and the decoy left alone)"
	else fail "fallback directories: $(ls -d /tmp/tracepoints-$V-*)"; fi
	rm -rf /tmp/tracepoints-$V /tmp/tracepoints-$V-??????
else
	skip_part "/tmp/tracepoints-UID taken by another user: needs root and setpriv"
fi

echo "== fork, exec, SIGKILL"
start fork fork TRACEPOINTS_CONTROL=1
waitfor '^child ' "$O" || fail "fork: no child line"
C=$(awk '/^child / { print $2 }' "$O")
if grep -q "^child $C none$" "$O" && [ "$(threads "$C")" = 1 ] && [ "$(sockets "$C")" = 0 ]; then
	ok "fork: the child has no channel: 1 thread, no socket descriptor"
else fail "fork: child $C: $(grep '^child' "$O"), $(threads "$C") threads, $(sockets "$C") sockets"; fi
ctl "$C" list
expect "fork: tracepoint-ctl on the child" 2 "has no control channel"
ctl $P list
expect "fork: the parent still answers" 0 "ctl:ctl_tick"
stop
start fork-start fork TRACEPOINTS_CONTROL=1 CTL_CHILD_START=1 TRACEPOINTS_DIR="$B/fork"
waitfor '^child ' "$O" || fail "fork-start: no child line"
C=$(awk '/^child / { print $2 }' "$O")
if grep -q "^child $C $SD/$C.sock$" "$O" && [ "$(threads "$C")" = 2 ]; then ok "fork: a child that calls tracepoint_control_start() has its own"
else fail "fork-start: $(grep '^child' "$O"), $(threads "$C") threads"; fi
ctl "$C" enable ctl:ctl_tick
expect "fork: the child's own channel" 0 "^enabled 1 event matching \"ctl:ctl_tick\"; trace in $B/fork/ctl_prog-$C$"
ctl $P list
if [ $RC = 0 ] && ! echo "$OUTP" | grep -q enabled; then ok "fork: the parent's channel and events are its own"
else fail "fork-start, parent: $OUTP $ERRP"; fi
stop
if [ ! -e "$SD/$C.sock" ]; then ok "fork: the child removed its socket at exit"; else fail "fork: $SD/$C.sock left"; fi

start exec exec TRACEPOINTS_CONTROL=1
if [ "$(sockets $P)" = 1 ] && [ "$(threads $P)" = 2 ]; then ok "exec: one socket and one control thread: nothing inherited"
else fail "exec: $(sockets $P) sockets, $(threads $P) threads"; fi
ctl $P list
expect "exec: the new image replaced the stale socket and answers" 0 "ctl:ctl_tick"
[ -s "$E" ] && fail "exec: stderr $(cat "$E")"
kill -KILL $P
wait $P 2>/dev/null
ctl $P list
expect "SIGKILL: tracepoint-ctl" 2 "process $P is gone; $SD/$P.sock is a stale socket it left"
KILLED=$P
# A plain kill (SIGTERM, default action) of a program without a handler:
# no exit handler runs, the socket stays, as after SIGKILL.
env TRACEPOINTS_CONTROL=1 "$B/ctl_prog_plain" >"$B/plain.out" 2>"$B/plain.err" &
P=$!
waitfor '^ready ' "$B/plain.out"
kill -TERM $P
wait $P
st=$?
if [ $st = 143 ] && [ -S "$SD/$P.sock" ] && [ ! -s "$B/plain.err" ]; then
	ok "SIGTERM, no handler: killed by it (status $st), $P.sock left, nothing said"
else fail "plain SIGTERM: status $st, $(ls "$SD"), stderr $(cat "$B/plain.err")"; fi
PLAIN=$P
start sweep run TRACEPOINTS_CONTROL=1
if [ ! -e "$SD/$KILLED.sock" ] && [ ! -e "$SD/$PLAIN.sock" ] && [ -S "$SD/$P.sock" ]; then
	ok "the next channel removes the sockets the killed processes left"
else fail "sweep: $(ls "$SD")"; fi
stop

echo "== the API: tracepoint_control_start, _stop, _path"
start api start
if grep -q '^start 0 0$' "$O" && grep -q "^ready $P $SD/$P.sock$" "$O" && [ "$(threads $P)" = 2 ]; then
	ok "tracepoint_control_start() twice: 0 0, the channel is open"
else fail "api: $(cat "$O")"; fi
ctl $P list
expect "api: answers" 0 "ctl:ctl_tick"
stop
start api-stop start CTL_STOP=1
if grep -q '^stop 0 0$' "$O" && grep -q "^stopped $SD/$P.sock closed$" "$O" && grep -q "^ready $P none$" "$O" &&
	[ "$(threads $P)" = 1 ] && [ "$(sockets $P)" = 0 ] && [ ! -e "$SD/$P.sock" ]; then
	ok "tracepoint_control_stop() twice: 0 0; no thread, no descriptor, no file left"
else fail "api-stop: $(cat "$O"), $(threads $P) threads, $(sockets $P) sockets"; fi
stop
finish
