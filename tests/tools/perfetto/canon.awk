# tests/tools/t_perfetto.sh: protoc's text form of a --perfetto trace (decoded
# against tests/tools/perfetto/perfetto_min.proto) -> one line per event:
#   <sec>.<nsec> <tid> B|E|I <category>:<name> <field>=<value>... [flow=<id>]
#   <sec>.<nsec> - C <counter track> <value>
# resolving each sequence's interned names, delta clock and default track
# the way a Perfetto reader must.  Problems (a name used before it was
# interned, a sequence that does not start with cleared state, an event
# on an undescribed track, a thread or counter track without its process)
# are printed as "ERROR: ..." lines.
function err(m) { print "ERROR: " m; nerr++ }
function hex(v,   s, d) { # v: decimal digits (< 2^53)
	if (v == 0) return "0x0"
	s = ""
	while (v > 0) { d = v % 16; s = substr("0123456789abcdef", d + 1, 1) s; v = (v - d) / 16 }
	return "0x" s
}
function val(k, v) { # a value line "kind: v" of a debug annotation
	if (k == "string_value") { sub(/^"/, "", v); sub(/"$/, "", v); return v }
	if (k == "pointer_value") return hex(v + 0)
	return v
}
# the packet's fields, as "path" -> value (repeated ones numbered)
function reset() { split("", P); split("", CNT); depth = 0; path = "" }
BEGIN { reset() }
/^packet \{/ { reset(); inpkt = 1; next }
/^\}/ && inpkt { packet(); inpkt = 0; next }
/\{$/ {
	name = $1
	key = path "/" name
	n = ++CNT[key]
	stack[++depth] = path
	path = key "#" n
	next
}
/^ *\}$/ { path = stack[depth--]; next }
{
	line = $0
	sub(/^ */, "", line)
	k = line; sub(/:.*/, "", k)
	v = line; sub(/^[^:]*: /, "", v)
	key = path "/" k
	n = ++CNT[key]
	P[key "#" n] = v
}
function packet(   seq, t, i, n, k, v, iid, nm, out, type, a, av, trk, ns, q) {
	seq = P["/trusted_packet_sequence_id#1"]
	if (!(seq in started)) {
		if (P["/sequence_flags#1"] != 1) err("sequence " seq " does not start with SEQ_INCREMENTAL_STATE_CLEARED")
		started[seq] = 1
	}
	# clock snapshot: the delta clock starts at the trace clock's timestamp
	for (i = 1; ("/clock_snapshot#1/clocks#" i "/clock_id#1") in P; i++) {
		t = P["/clock_snapshot#1/clocks#" i "/timestamp#1"]
		if (P["/clock_snapshot#1/clocks#" i "/clock_id#1"] == 64) {
			if (P["/clock_snapshot#1/clocks#" i "/is_incremental#1"] != "true") err("clock 64 not incremental")
			sec[seq] = substr(t, 1, length(t) - 9) + 0; nsec[seq] = substr(t, length(t) - 8) + 0
		}
	}
	if ("/trace_packet_defaults#1/timestamp_clock_id#1" in P) clk[seq] = P["/trace_packet_defaults#1/timestamp_clock_id#1"]
	if ("/trace_packet_defaults#1/track_event_defaults#1/track_uuid#1" in P)
		deftrack[seq] = P["/trace_packet_defaults#1/track_event_defaults#1/track_uuid#1"]
	# interned data, per sequence
	for (i = 1; ("/interned_data#1/event_names#" i "/iid#1") in P; i++)
		names[seq, P["/interned_data#1/event_names#" i "/iid#1"]] = val("string_value", P["/interned_data#1/event_names#" i "/name#1"])
	for (i = 1; ("/interned_data#1/event_categories#" i "/iid#1") in P; i++)
		cats[seq, P["/interned_data#1/event_categories#" i "/iid#1"]] = val("string_value", P["/interned_data#1/event_categories#" i "/name#1"])
	for (i = 1; ("/interned_data#1/debug_annotation_names#" i "/iid#1") in P; i++)
		keys[seq, P["/interned_data#1/debug_annotation_names#" i "/iid#1"]] = val("string_value", P["/interned_data#1/debug_annotation_names#" i "/name#1"])
	# track descriptors
	if ("/track_descriptor#1/uuid#1" in P) {
		t = P["/track_descriptor#1/uuid#1"]
		if ("/track_descriptor#1/process#1/pid#1" in P) {
			proc[t] = P["/track_descriptor#1/process#1/pid#1"]
			print "# process " proc[t] " " P["/track_descriptor#1/process#1/process_name#1"]
		} else if ("/track_descriptor#1/thread#1/tid#1" in P) {
			q = P["/track_descriptor#1/parent_uuid#1"]
			if (!(q in proc) || proc[q] != P["/track_descriptor#1/thread#1/pid#1"]) err("thread track " t " without its process")
			thr[t] = P["/track_descriptor#1/thread#1/tid#1"]
			print "# thread " P["/track_descriptor#1/thread#1/pid#1"] " " thr[t] " " P["/track_descriptor#1/thread#1/thread_name#1"]
		} else if ("/track_descriptor#1/counter" in CNT) {
			q = P["/track_descriptor#1/parent_uuid#1"]
			if (!(q in proc)) err("counter track " t " without its process")
			ctr[t] = val("string_value", P["/track_descriptor#1/name#1"])
			print "# counter " proc[q] " " ctr[t]
		} else err("track " t " of no known kind")
	}
	if (!("/track_event#1/type#1" in P)) return
	if (!("/timestamp#1" in P)) { err("event without timestamp"); return }
	if (clk[seq] != 64 || P["/timestamp_clock_id#1"] != "") err("event not on the delta clock")
	nsec[seq] += P["/timestamp#1"]
	while (nsec[seq] >= 1000000000) { nsec[seq] -= 1000000000; sec[seq]++ }
	ns = sprintf("%d.%09d", sec[seq], nsec[seq])
	type = P["/track_event#1/type#1"]
	trk = ("/track_event#1/track_uuid#1" in P) ? P["/track_event#1/track_uuid#1"] : deftrack[seq]
	if (type == "TYPE_COUNTER") {
		if (!(trk in ctr)) err("counter value on track " trk ", not a counter track")
		v = ("/track_event#1/counter_value#1" in P) ? P["/track_event#1/counter_value#1"] : P["/track_event#1/double_counter_value#1"]
		print ns " - C " ctr[trk] " " v
		return
	}
	if (!(trk in thr)) err("event on track " trk ", not a thread track")
	out = ns " " thr[trk] " " (type == "TYPE_SLICE_BEGIN" ? "B" : type == "TYPE_SLICE_END" ? "E" : type == "TYPE_INSTANT" ? "I" : "?" type)
	if (type == "TYPE_SLICE_END") out = out " -"
	else {
		iid = P["/track_event#1/name_iid#1"]; n = P["/track_event#1/category_iids#1"]
		if (!((seq, iid) in names)) err("name iid " iid " not interned on sequence " seq)
		if (!((seq, n) in cats)) err("category iid " n " not interned on sequence " seq)
		out = out " " cats[seq, n] ":" names[seq, iid]
	}
	for (a = 1; ("/track_event#1/debug_annotations#" a "/name_iid#1") in P; a++) {
		iid = P["/track_event#1/debug_annotations#" a "/name_iid#1"]
		if (!((seq, iid) in keys)) err("annotation name iid " iid " not interned on sequence " seq)
		av = ""
		for (k in P) {
			if (index(k, "/track_event#1/debug_annotations#" a "/") != 1 || k ~ /name_iid/) continue
			if (k ~ /array_values/) continue
			nm = k; sub(/.*\//, "", nm); sub(/#.*/, "", nm)
			av = val(nm, P[k])
		}
		n = CNT["/track_event#1/debug_annotations#" a "/array_values"]
		for (i = 1; i <= n; i++)
			for (k in P)
				if (index(k, "/track_event#1/debug_annotations#" a "/array_values#" i "/") == 1) {
					nm = k; sub(/.*\//, "", nm); sub(/#.*/, "", nm)
					av = av (i > 1 ? "," : "") val(nm, P[k])
				}
		out = out " " keys[seq, iid] "=" av
	}
	if ("/track_event#1/flow_ids#1" in P) out = out " flow=" P["/track_event#1/flow_ids#1"]
	print out
}
END { if (inpkt) err("truncated output") }
