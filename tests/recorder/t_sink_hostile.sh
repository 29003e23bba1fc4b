#!/bin/sh
# The recorder in hostile environments (tests/recorder/sink_hostile/hostile.c):
#  - set-user-ID: a set-user-ID-root copy run by an unprivileged user
#    (uid 65534) ignores every TRACEPOINTS* variable, silently: no trace, no
#    file made or changed in a directory only root may write, no list, no
#    message; the same program without the bit, run by the same user,
#    records (so the test can see a trace).  Root only; skipped where
#    set-user-ID programs are not honoured (nosuid, no_new_privs);
#  - exec: no descriptor of the recorder (trace and session directories,
#    metadata, streams of live threads, flight rings, snapshots) is
#    inherited by an exec()ed program;
#  - umask 000: nothing the recorder creates is group- or world-writable;
#  - a symbolic link planted where the default session directory
#    trace-<comm>-<pid> goes, in a shared sticky directory, is reported and
#    not followed; TRACEPOINTS_DIR naming a link another user planted there
#    is refused; a link of one's own is followed;
#  - TRACEPOINTS_DIR is walked one component at a time: a link another user
#    could have planted is refused wherever it is (in the middle, before a
#    trailing "/." or "/..", in another user's directory, as the target of a
#    link of one's own, in a relative path), named in one message, and the
#    program runs on; links of one's own, links in directories only root
#    can write, "." and ".." (of a link's target too) work as in the shell;
#  - TRACEPOINTS_DIR naming a FIFO or a regular file: a clear message, the
#    program does not block and runs to its end;
#  - recorded strings holding control characters, backslashes, invalid
#    UTF-8 and forged event lines: tracepoint-dump's text (TP_printk and
#    name=value) and --summary keep one line per record, escaped, and its
#    JSON loads with every value (sink_hostile/check_dump.py);
#  - TRACEPOINTS_BUFFER_KB: 64 and the limit (1048576, a 1 GiB window) are
#    taken; above it, 0, negative, garbage, "4096k", empty and " 64" are
#    reported naming the limit, and the default window is used;
# (Events from another library's thread-specific data destructors after the
# recorder's thread-exit handler, under AddressSanitizer: t_sanitizers.sh
# runs tests/recorder/test_sink_thread_exit.c with -fsanitize=address,undefined.)
. tests/lib.sh
dump_tool
cc_build -Itests/include -I"$S/.." -DCONFIG_EVX "$S/hostile.c" -o "$B/hostile" -lpthread -ldl
A=$(cd "$B" && pwd -P) # absolute: what /proc shows
P=$A/hostile

# ---- set-user-ID ----
runas() { # runs "$@" as uid/gid 65534 (nobody), no supplementary groups
	if have setpriv; then
		setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
	else
		# shellcheck disable=SC2016 # expanded by the shell su starts
		su -s /bin/sh "$(getent passwd 65534 | cut -d: -f1)" -c '"$0" "$@"' -- "$@"
	fi
}
suid_tests() {
	U=$A/suid
	mkdir -p "$U/root-only" "$U/cwd" "$U/user" && chmod 755 "$U" "$U/root-only" "$U/cwd" || return 1
	chown 65534:65534 "$U/user"
	cp "$P" "$U/hostile-suid" && cp "$P" "$U/hostile-plain" && chmod 755 "$U/hostile-plain" &&
		chown 0:0 "$U/hostile-suid" && chmod 4755 "$U/hostile-suid" || return 1
	if findmnt -no OPTIONS -T "$U" 2>/dev/null | tr ',' '\n' | grep -qx nosuid; then
		skip_part "set-user-ID: $U is on a file system mounted nosuid"; return 0
	fi
	if ! runas test -x "$U/hostile-suid"; then
		skip_part "set-user-ID: uid 65534 cannot reach $U (a parent directory is private)"; return 0
	fi
	touch "$U/stamp"
	sleep 1 # the stamp is older than anything made after it
	(cd "$U/cwd" && runas env TRACEPOINTS='evx:*' TRACEPOINTS_DIR="$U/root-only/session" \
		TRACEPOINTS_MODE=flight TRACEPOINTS_BUFFER_KB=bad TRACEPOINTS_FLIGHT_KB=bad \
		TRACEPOINTS_SNAPSHOT_SIGNAL=bad TRACEPOINTS_CLOCK=bad TRACEPOINTS_OUTPUT=x TRACEPOINT=x \
		"$U/hostile-suid" plain) >"$U/suid.out" 2>"$U/suid.err"
	rc=$?
	if ! grep -q '^uid=65534 euid=0 secure=1$' "$U/suid.out"; then
		skip_part "set-user-ID: not honoured here (no_new_privs?): $(head -1 "$U/suid.out")"; return 0
	fi
	if [ $rc = 0 ] && grep -qx 'done' "$U/suid.out" && [ ! -s "$U/suid.err" ]; then
		ok "set-user-ID root, run by uid 65534: runs to its end and says nothing about TRACEPOINTS* (nor a misspelt TRACEPOINT)"
	else fail "set-user-ID run: exit $rc"; cat "$U/suid.err"; fi
	(cd "$U/cwd" && runas env TRACEPOINTS='evx:*' "$U/hostile-suid" plain) >"$U/suid2.out" 2>"$U/suid2.err"
	(cd "$U/cwd" && runas env TRACEPOINTS=list "$U/hostile-suid" plain) >"$U/suid3.out" 2>"$U/suid3.err"
	if grep -qx 'done' "$U/suid3.out" && ! grep -q evx_step "$U/suid3.out"; then
		ok "set-user-ID: TRACEPOINTS=list ignored (main runs, nothing listed)"
	else fail "set-user-ID: TRACEPOINTS=list"; fi
	made=$(find "$U/root-only" "$U/cwd" -mindepth 1 | head -5)
	changed=$(find "$U" -mindepth 1 -newer "$U/stamp" ! -name '*.out' ! -name '*.err' | head -5)
	if [ -z "$made" ] && [ -z "$changed" ] && grep -qx 'done' "$U/suid2.out" && [ ! -s "$U/suid2.err" ]; then
		ok "set-user-ID: no trace, nothing made in the root-only TRACEPOINTS_DIR or the current directory"
	else fail "set-user-ID: the environment was obeyed: made '$made' changed '$changed'"; cat "$U/suid2.err"; fi
	# control: the same program without the bit, same user, records
	(cd "$U/user" && runas env TRACEPOINTS='evx:*' TRACEPOINTS_DIR="$U/user/session" "$U/hostile-plain" plain) \
		>"$U/plain.out" 2>"$U/plain.err"
	(cd "$U/user" && runas env TRACEPOINTS=list "$U/hostile-plain" plain) >"$U/plain-list.out" 2>&1
	n=$("$DUMP" --summary "$U/user/session" 2>/dev/null | sed -n 's/^events *\([0-9]*\)$/\1/p')
	if grep -q '^uid=65534 euid=65534 secure=0$' "$U/plain.out" && [ "$n" = 100 ] &&
		grep -q "trace in $U/user/session/hostile-plain-" "$U/plain.err" &&
		grep -q '^evx:evx_step (int v)$' "$U/plain-list.out"; then
		ok "control: without set-user-ID the same user records (100 events) and lists"
	else fail "control: no trace without set-user-ID ($n events)"; cat "$U/plain.err"; fi
}
if [ "$(id -u)" != 0 ]; then
	skip_part "set-user-ID: not root (cannot make a set-user-ID-root program)"
elif ! have setpriv && ! have su; then
	skip_part "set-user-ID: neither setpriv nor su to run as another user"
else
	suid_tests || fail "set-user-ID: cannot set the test up"
fi

# ---- descriptors across exec ----
for m in stream flight; do
	arg=; [ $m = flight ] && arg=snapshot
	TRACEPOINTS='evx:*' TRACEPOINTS_DIR=$A/cloexec-$m TRACEPOINTS_MODE=$m TRACEPOINTS_FLIGHT_KB=64 \
		TRACEPOINTS_BUFFER_KB=16 "$P" exec $arg >"$B/fds-$m.txt" 2>"$B/fds-$m.err"
	streams=$(count "$A"/cloexec-$m/hostile-*/stream-*)
	if [ "$streams" -ge 3 ] && grep -q -- '->' "$B/fds-$m.txt" && ! grep -q "$A/cloexec-$m" "$B/fds-$m.txt" &&
		{ [ $m = stream ] || [ -d "$(ls -d "$A"/cloexec-$m/hostile-*/snapshot-1)" ]; }; then
		ok "exec ($m): ls -l /proc/self/fd in the exec()ed program shows nothing of the trace ($streams streams were open)"
	else fail "exec ($m): descriptors inherited ($streams streams)"; cat "$B/fds-$m.txt" "$B/fds-$m.err"; fi
done

# ---- umask 000 ----
mkdir -p "$B/umask"
(umask 000 && cd "$B/umask" && TRACEPOINTS='evx:*' "$P" plain >/dev/null 2>&1 &&
	TRACEPOINTS='evx:*' TRACEPOINTS_DIR=$A/umask/session "$P" plain >/dev/null 2>&1 &&
	TRACEPOINTS='evx:*' TRACEPOINTS_DIR=$A/umask/ring TRACEPOINTS_MODE=flight TRACEPOINTS_FLIGHT_KB=64 \
		TRACEPOINTS_BUFFER_KB=16 "$P" exec snapshot >/dev/null 2>&1)
n=$(find "$B/umask" -mindepth 1 | wc -l)
w=$(find "$B/umask" -mindepth 1 -perm /022)
if [ "$n" -ge 12 ] && [ -z "$w" ] && [ -d "$(ls -d "$B"/umask/ring/hostile-*/snapshot-1)" ]; then
	ok "umask 000: none of the $n files and directories made is group- or world-writable"
else fail "umask 000: $n made, writable by others: $w"; ls -lR "$B/umask"; fi

# ---- symbolic links in a shared sticky directory ----
SH=$A/shared
mkdir -p "$SH" "$A/victim" "$A/mine" && chmod 1777 "$SH" || exit 1
owner=; [ "$(id -u)" = 0 ] && owner=65534 # the attacker
(cd "$SH" && sh -c 'ln -s "$1" trace-hostile-$$ && { [ -z "$3" ] || chown -h "$3" trace-hostile-$$; } &&
	echo $$ && TRACEPOINTS="evx:*" exec "$2" plain' sh "$A/victim" "$P" "$owner") >"$B/link.out" 2>"$B/link.err"
pid=$(head -1 "$B/link.out")
if [ -z "$(ls -A "$A/victim")" ] && grep -qx 'done' "$B/link.out" &&
	grep -q "^tracepoints: trace-hostile-$pid exists and is a symbolic link: not used (not followed)" "$B/link.err" &&
	grep -q "trace in trace-hostile-$pid.1/hostile-$pid " "$B/link.err"; then
	ok "a link planted at the default trace-hostile-$pid is reported, not followed; the trace goes to trace-hostile-$pid.1"
else fail "planted link at the default session directory"; cat "$B/link.err"; ls -la "$A/victim"; fi
if [ -n "$owner" ]; then
	ln -s "$A/victim" "$SH/planted" && chown -h "$owner" "$SH/planted"
	TRACEPOINTS='evx:*' TRACEPOINTS_DIR=$SH/planted "$P" plain >"$B/planted.out" 2>"$B/planted.err"; rc=$?
	if [ $rc = 0 ] && [ -z "$(ls -A "$A/victim")" ] && grep -qx 'done' "$B/planted.out" &&
		grep -q "^tracepoints: cannot create the trace directory $SH/planted: a symbolic link made by another user (uid 65534) in the shared directory $SH: not followed" "$B/planted.err"; then
		ok "TRACEPOINTS_DIR naming a link another user planted in a sticky directory: refused, reported"
	else fail "TRACEPOINTS_DIR=planted link (exit $rc)"; cat "$B/planted.err"; fi
else skip_part "a link planted by another user: not root"; fi
ln -s "$A/mine" "$SH/mine"
TRACEPOINTS='evx:*' TRACEPOINTS_DIR=$SH/mine "$P" plain >/dev/null 2>"$B/mine.err"
if [ "$(count "$A"/mine/hostile-*/metadata)" = 1 ]; then ok "TRACEPOINTS_DIR naming a link of one's own: followed"
else fail "own link not followed"; cat "$B/mine.err"; fi

# ---- symbolic links inside TRACEPOINTS_DIR: every component is checked ----
# (root only: the attacker's links are made as uid 65534).  refused PATH
# COMPONENT HOW: the program runs to its end, records nothing, and says that
# COMPONENT is a link another user made (HOW: "the shared directory D", ...).
refused() {
	_v=$(ls -A "$A/victim" "$A/victim2")
	TRACEPOINTS='evx:*' TRACEPOINTS_DIR=$1 "$P" plain >"$B/comp.out" 2>"$B/comp.err"; _rc=$?
	if [ $_rc = 0 ] && grep -qx 'done' "$B/comp.out" && [ "$(ls -A "$A/victim" "$A/victim2")" = "$_v" ] &&
		[ "$(wc -l <"$B/comp.err")" = 1 ] &&
		grep -qxF "tracepoints: cannot create the trace directory $1: ${2:+$2 is }a symbolic link made by another user (uid 65534) in $3: not followed" "$B/comp.err"; then
		ok "TRACEPOINTS_DIR=$1: the link ${2:-itself} refused, named, the program runs on"
	else fail "TRACEPOINTS_DIR=$1 (exit $_rc)"; cat "$B/comp.err"; ls -la "$A/victim" "$A/victim2"; fi
}
followed() { # path where: one more trace is made in where
	_n=$(count "$2"/hostile-*/metadata)
	TRACEPOINTS='evx:*' TRACEPOINTS_DIR=$1 "$P" plain >/dev/null 2>"$B/follow.err"
	if [ "$(count "$2"/hostile-*/metadata)" = $((_n + 1)) ]; then ok "TRACEPOINTS_DIR=$1: the trace in $2"
	else fail "TRACEPOINTS_DIR=$1: no trace in $2"; cat "$B/follow.err"; fi
}
if [ -n "$owner" ]; then
	mkdir -p "$A/victim2" "$A/other" "$A/rootdir" "$A/real" && chmod 700 "$A/victim2" && chmod 755 "$A/rootdir" &&
		chown "$owner" "$A/other" || exit 1
	ln -s "$A/victim2" "$SH/mid" && chown -h "$owner" "$SH/mid"
	refused "$SH/mid/trace" "$SH/mid" "the shared directory $SH"
	refused "$SH/mid/." "$SH/mid" "the shared directory $SH"
	refused "$SH/planted/" "" "the shared directory $SH" # the last component: said as before
	refused "$SH/planted/./sub/.." "$SH/planted" "the shared directory $SH"
	ln -s "$A/victim2" "$A/other/l" && chown -h "$owner" "$A/other/l"
	refused "$A/other/l/t" "$A/other/l" "$A/other, a directory of uid 65534"
	ln -s "$SH/planted" "$A/chain" # a link of one's own to one another user planted
	refused "$A/chain/t" "$SH/planted" "the shared directory $SH"
	(cd "$SH" && TRACEPOINTS='evx:*' TRACEPOINTS_DIR=mid/t "$P" plain) >"$B/rel.out" 2>"$B/rel.err"
	if grep -qx 'done' "$B/rel.out" && [ -z "$(ls -A "$A/victim2")" ] &&
		grep -qxF "tracepoints: cannot create the trace directory mid/t: mid is a symbolic link made by another user (uid 65534) in the shared directory .: not followed" "$B/rel.err"; then
		ok "TRACEPOINTS_DIR=mid/t from the shared directory: refused, named"
	else fail "relative TRACEPOINTS_DIR through a planted link"; cat "$B/rel.err"; fi
	ln -s "$A/real" "$A/rootdir/theirs" && chown -h "$owner" "$A/rootdir/theirs"
	followed "$A/rootdir/theirs/t" "$A/real/t" # only root can write rootdir: whoever owns the link
	ln -s "$A/real" "$SH/mine2"
	followed "$SH/mine2/sub" "$A/real/sub"
	followed "$SH/mine2/." "$A/real"
	followed "$A/real/../real/dd" "$A/real/dd"
	mkdir -p "$A/real/x" && ln -s ../real "$A/rootdir/up" # relative target, then .. in it
	followed "$A/rootdir/up/x/.." "$A/real"
	mkdir -p "$A/cwd" && (cd "$A/cwd" && TRACEPOINTS='evx:*' TRACEPOINTS_DIR=../real/rel "$P" plain >/dev/null 2>&1)
	if [ "$(count "$A"/real/rel/hostile-*/metadata)" = 1 ]; then ok "TRACEPOINTS_DIR=../real/rel from a directory next to it"
	else fail "relative TRACEPOINTS_DIR with .."; fi
else skip_part "links planted inside TRACEPOINTS_DIR by another user: not root"; fi

# ---- TRACEPOINTS_DIR naming a FIFO or a regular file ----
mkfifo "$A/fifo" && printf 'x' >"$A/file" || exit 1
for f in fifo file; do
	TRACEPOINTS='evx:*' TRACEPOINTS_DIR=$A/$f timeout 20 "$P" plain >"$B/$f.out" 2>"$B/$f.err"; rc=$?
	if [ $rc = 0 ] && grep -qx 'done' "$B/$f.out" && [ "$(wc -l <"$B/$f.err")" = 1 ] &&
		grep -q "^tracepoints: cannot create the trace directory $A/$f: it exists and is not a directory$" "$B/$f.err" &&
		{ [ -p "$A/fifo" ] && [ "$(cat "$A/file")" = x ]; }; then
		ok "TRACEPOINTS_DIR naming a $f: one clear message, no wait, the program runs to its end"
	else fail "TRACEPOINTS_DIR=$f: exit $rc"; cat "$B/$f.err"; fi
done

# ---- strings that try to forge output ----
if have python3; then
	TRACEPOINTS='evx:*' TRACEPOINTS_DIR=$A/strings "$P" strings >"$B/strings.txt" 2>"$B/strings.err" ||
		fail "hostile strings exited $?"
	python3 "$S/check_dump.py" "$DUMP" "$A/strings" "$B/strings.txt" || fail "recorded strings (above)"
else skip_part "recorded strings: python3 not installed"; fi

# ---- TRACEPOINTS_BUFFER_KB ----
kb() { # value: runs with a 64 MiB RLIMIT_FSIZE; sets $win (the window allocated) and $err
	rm -rf "$A/kb"
	TRACEPOINTS='evx:*' TRACEPOINTS_DIR=$A/kb TRACEPOINTS_BUFFER_KB=$1 "$P" fsize >"$B/kb.out" 2>"$B/kb.err"
	win=$(sed -n 's/^window //p' "$B/kb.out")
	err=$(cat "$B/kb.err")
}
kb 64
if [ "$win" = 65536 ] && ! grep -q BUFFER_KB "$B/kb.err"; then ok "TRACEPOINTS_BUFFER_KB=64: 64 KiB windows"
else fail "TRACEPOINTS_BUFFER_KB=64: window $win; $err"; fi
kb 1048576 # the limit: a 1 GiB window, more than RLIMIT_FSIZE lets the file grow
if ! grep -q BUFFER_KB "$B/kb.err" && grep -q "cannot make the 1073741824-byte ring .*/\.stream-[0-9]*\.ring: File too large" "$B/kb.err"; then
	ok "TRACEPOINTS_BUFFER_KB=1048576 (the limit) is taken: a 1 GiB window is tried"
else fail "TRACEPOINTS_BUFFER_KB=1048576: $err"; fi
for v in 1048577 99999999999999999999999; do
	kb $v
	if [ "$win" = 1048576 ] && grep -q "^tracepoints: TRACEPOINTS_BUFFER_KB=\"$v\" is more than 1048576 KiB (1024 MiB), the largest window; using 1024$" "$B/kb.err" &&
		grep -qx 'dropped 0' "$B/kb.out"; then
		ok "TRACEPOINTS_BUFFER_KB=$v: over the limit, reported with it, the default window used"
	else fail "TRACEPOINTS_BUFFER_KB=$v: window $win; $err"; fi
done
for v in 0 -1 -4096 abc 4096k "" " 64" 1e3; do
	kb "$v"
	if [ "$win" = 1048576 ] && grep -q "^tracepoints: TRACEPOINTS_BUFFER_KB=\"$v\" is not a size in KiB (a whole number from 1 to 1048576); using 1024$" "$B/kb.err" &&
		grep -qx 'dropped 0' "$B/kb.out"; then
		ok "TRACEPOINTS_BUFFER_KB=\"$v\": reported with the limit, the default window used"
	else fail "TRACEPOINTS_BUFFER_KB=\"$v\": window $win; $err"; fi
done
TRACEPOINTS='evx:*' TRACEPOINTS_DIR=$A/fl TRACEPOINTS_MODE=flight TRACEPOINTS_FLIGHT_KB=4194305 "$P" plain \
	>/dev/null 2>"$B/fl.err"
if grep -q '^tracepoints: TRACEPOINTS_FLIGHT_KB="4194305" is more than 4194304 KiB (4096 MiB), the largest flight ring; using 4096$' "$B/fl.err"; then
	ok "TRACEPOINTS_FLIGHT_KB over its limit: reported, the default used"
else fail "TRACEPOINTS_FLIGHT_KB=4194305"; cat "$B/fl.err"; fi

finish
