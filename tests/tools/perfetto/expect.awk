# tests/tools/t_perfetto.sh: tracepoint-dump's text output of tests/tools/perfetto/
# kinds.c's trace -> the lines canon.awk makes of the --perfetto trace:
# what every event must look like there (slices B/E, counters C on their
# tracks, flow ids from the first field of submit, handle_begin, resume,
# hop: numbered 1, 2 ... in order of first appearance, as tracepoint-dump
# writes them; one process, so the ids of TRACE_FLOW and the global ones of
# TRACE_FLOW_GLOBAL (hop) are told apart by the event).
{
	ts = $1; tid = $2; name = $3; sub(/^work:/, "", name)
	rest = ""
	for (i = 4; i <= NF; i++) rest = rest " " $i
	flow = $4; sub(/^[a-z_]*=/, "", flow)
	if (name == "submit" || name == "handle_begin" || name == "resume" || name == "hop") {
		fk = (name == "hop" ? "g" : "p") flow
		if (!(fk in fid)) fid[fk] = ++nflow
		flow = fid[fk]
	}
	if (name == "queued") { print ts " - C queued " flow; next }
	if (name == "heap") {
		split($4, b, "="); split($5, f, "=")
		print ts " - C heap.bytes " b[2]; print ts " - C heap.fill " f[2]; next
	}
	if (name ~ /_begin$/) {
		sub(/_begin$/, "", name)
		print ts " " tid " B work:" name rest (name == "handle" ? " flow=" flow : ""); next
	}
	if (name ~ /_end$/) { print ts " " tid " E -" rest; next }
	print ts " " tid " I work:" name rest (name == "submit" || name == "resume" || name == "hop" ? " flow=" flow : "")
}
