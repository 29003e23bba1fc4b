# shellcheck shell=sh
# Sourced by bench scripts that record with LTTng: starts a private
# lttng-sessiond for one session and stops it on exit.
#   lttng_up DIR SESSION   start the daemon (LTTNG_HOME=DIR/home), create
#                          SESSION writing to DIR/trace; returns 2 if a
#                          daemon already answers (left alone: skip)
#   lttng ARGS...          the lttng client, logged to DIR/lttng.log, fatal on error
#   tracebytes             bytes under DIR/trace
#   discarded              events the session's channel discarded
# Note: run as root, the daemon's sockets are the system-wide ones
# (/var/run/lttng), hence the check for a running daemon.
lttng_up() {
	LD=$1 LS=$2 lpid=
	mkdir -p "$LD/home" || return 1
	LTTNG_HOME=$LD/home
	export LTTNG_HOME
	if [ "$(id -u)" = 0 ]; then lrun=/var/run/lttng; else lrun=$LTTNG_HOME/.lttng; fi
	if command lttng list >/dev/null 2>&1; then
		echo "skipped: an LTTng session daemon is already running (not disturbing it)"
		return 2
	fi
	trap lttng_down EXIT
	trap 'exit 1' INT TERM HUP
	lttng-sessiond --daemonize --no-kernel >"$LD/sessiond.log" 2>&1 || {
		cat "$LD/sessiond.log"; echo "lttng-sessiond failed to start"; return 1; }
	lpid=$(cat "$lrun/lttng-sessiond.pid" 2>/dev/null)
	lttng create "$LS" --output="$LD/trace"
	# Wait for the daemon's registration reply (which enables the events)
	# before main(): valgrind makes start-up slow.
	LTTNG_UST_REGISTER_TIMEOUT=-1
	export LTTNG_UST_REGISTER_TIMEOUT
}
lttng_down() {
	command lttng destroy "$LS" >/dev/null 2>&1
	if [ -n "$lpid" ]; then
		kill "$lpid" 2>/dev/null
		i=0
		while kill -0 "$lpid" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	fi
	rm -rf "$LD/trace" # hundreds of MB, checked by the caller
}
lttng() { command lttng "$@" >>"$LD/lttng.log" 2>&1 || { cat "$LD/lttng.log"; echo "lttng $* failed"; exit 1; }; }
tracebytes() { du -sb "$LD/trace" 2>/dev/null | awk '{print $1 + 0}'; }
# (a count the daemon cannot tell is printed as 2^64-1: not added)
discarded() { command lttng list "$LS" -c channel0 2>/dev/null | awk '/Discarded events:/ && $3 < 1e18 {s += $3} END {printf "%d\n", s}'; }
