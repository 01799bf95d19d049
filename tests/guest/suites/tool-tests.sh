#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# rvvctl against the real module, in the x86_64 guest (the host's root, so
# Debian's libnl, json-c and jq). Every number rvvctl prints is checked
# against the module's debugfs view read just before and just after it:
# counters only grow, so each must lie between the two. JSON goes through jq.
# Prints TAP lines "ok N name" / "not ok N name" and exits non-zero on a
# failure.
tap_prefix=rvvctl
# shellcheck source=../lib/tap.sh
. "$(dirname "$(readlink -f "$0")")/tap.sh"
debugfs=/sys/kernel/debug/rvvstat

# between BEFORE RVVCTL AFTER: the three tables have one header and rows
# keyed by their first column; every cell of RVVCTL lies between BEFORE and
# AFTER where the key is in both (rows that came or went are skipped), and
# rvvctl has at least the rows of both.
between() {
	awk '
	FNR == 1 { file++; if (file == 1) head = $0; else if ($0 != head) { print "header differs: " $0; bad = 1 } next }
	{ key = $1; for (i = 2; i <= NF; i++) cell[file, key, i] = $i; seen[file, key] = 1; nf[key] = NF }
	END {
		for (k in nf) {
			if (!seen[1, k] || !seen[2, k] || !seen[3, k]) continue
			rows++
			for (i = 2; i <= nf[k]; i++) {
				lo = cell[1, k, i]; mid = cell[2, k, i]; hi = cell[3, k, i]
				if (mid !~ /^[0-9]+$/) continue
				if (mid + 0 < lo + 0 || mid + 0 > hi + 0) {
					print "row " k " column " i ": " mid " not in [" lo ", " hi "]"; bad = 1
				}
			}
		}
		if (!rows) { print "no row in all three"; bad = 1 }
		exit bad
	}' "$1" "$2" "$3"
}

# The tasks files end with comm, which may hold spaces: drop it.
without_comm() {
	awk 'NR == 1 { n = NF - 1 } { line = $1; for (i = 2; i <= n; i++) line = line " " $i; print line }' "$1"
}

sandwich_cpus() {
	cat "$debugfs/cpus" > "$work/before" &&
	rvvctl cpus > "$work/mid" &&
	cat "$debugfs/cpus" > "$work/after" &&
	between "$work/before" "$work/mid" "$work/after"
}

# rvvctl adds switch_saved_p99_ns, cpu and hint before comm: drop them too,
# leaving the counters (a CPU number is no counter that only grows).
sandwich_tasks() {
	without_comm "$debugfs/tasks" > "$work/before" &&
	rvvctl tasks > "$work/raw" &&
	head -1 "$work/raw" | grep -q ' bytes switch_saved_p99_ns cpu hint comm$' &&
	awk 'NR == 1 { n = NF - 4 } { line = $1; for (i = 2; i <= n; i++) line = line " " $i; print line }' \
		"$work/raw" > "$work/mid" &&
	without_comm "$debugfs/tasks" > "$work/after" &&
	between "$work/before" "$work/mid" "$work/after" &&
	# Threads of the running workload are there, with their comm.
	grep -q ' vecload$' "$work/raw"
}

# The "all" row of debugfs totals as "name value" lines, header order.
totals_all() {
	awk 'NR == 1 { for (i = 2; i <= NF; i++) name[i] = $i } $1 == "all" { for (i = 2; i <= NF; i++) print name[i], $i }' "$debugfs/totals"
}

sandwich_summary_json() {
	totals_all > "$work/before" &&
	rvvctl --json summary > "$work/json" &&
	totals_all > "$work/after" &&
	jq -r '.counters + {bytes: .bytes} | to_entries[] | "\(.key) \(.value)"' "$work/json" > "$work/mid" &&
	awk 'FILENAME == ARGV[1] { lo[$1] = $2; next } FILENAME == ARGV[2] { mid[$1] = $2; next }
	     { n++; if (!($1 in mid)) { print "rvvctl lacks " $1; bad = 1 }
	       else if (mid[$1] < lo[$1] || mid[$1] > $2) { print $1 ": " mid[$1] " not in [" lo[$1] ", " $2 "]"; bad = 1 } }
	     END { if (n < 10) { print "too few counters: " n; bad = 1 } exit bad }' \
		"$work/before" "$work/mid" "$work/after" &&
	jq -e '.latency.calib_save.count > 0 and .latency.calib_save.p50_ns >= .latency.calib_save.min_ns
	       and .latency.calib_save.p99_ns >= .latency.calib_save.p50_ns
	       and .tasks_live > 0 and .elapsed_ns > 0' "$work/json"
}

# info agrees with the summary line of debugfs and with the CPU count.
info_json() {
	local abi bytes bits
	rvvctl --json info > "$work/json" || return 1
	abi=$(sed -n -E '1s/^rvvstat \(ABI ([0-9]+)\).*/\1/p' "$debugfs/summary")
	read -r bits bytes <<< "$(sed -n -E 's/^vector state: .*, ([0-9]+)-bit registers, ([0-9]+) bytes per save$/\1 \2/p' "$debugfs/summary")"
	jq -e --argjson abi "$abi" --argjson bits "$bits" --argjson bytes "$bytes" \
		--argjson cpus "$(nproc --all)" \
		'.abi_version == $abi and .backend == "x86_fpu" and .vector_bits == $bits
		 and .bytes_per_save == $bytes and .nr_cpu_ids >= $cpus' "$work/json"
}

# The summary for people opens with what it counts, in debugfs' words.
summary_names_state() {
	rvvctl summary > "$work/summary" && head -n 3 "$work/summary" &&
	[ "$(head -n 1 "$work/summary")" = "$(grep '^vector state: ' "$debugfs/summary")" ]
}

# --version's module line: debugfs' ABI and register size.
version_names_module() {
	local abi bits program
	abi=$(sed -n -E '1s/^rvvstat \(ABI ([0-9]+)\).*/\1/p' "$debugfs/summary")
	bits=$(sed -n -E 's/^vector state: .*, ([0-9]+)-bit registers, .*/\1/p' "$debugfs/summary")
	for program in rvvctl rvvtop; do
		"$program" --version > "$work/version" && cat "$work/version" &&
		[ "$(sed -n 2p "$work/version")" = "module: ABI $abi, x86_fpu, $bits-bit registers" ] ||
			return 1
	done
}

# The histogram of the calibration (it does not move) equals debugfs'.
hist_matches() {
	awk '$1 == "calib_save" && $2 == "all" { print $3, $4, $5 }' "$debugfs/hist" > "$work/want" &&
	rvvctl hist calib_save | tail -n +2 > "$work/got" &&
	[ -s "$work/want" ] && diff "$work/want" "$work/got" &&
	rvvctl --json hist calib_save > "$work/json" &&
	jq -e 'length > 0 and all(.[]; .upper_ns >= .lower_ns and .count > 0)' "$work/json" &&
	rvvctl --csv hist calib_save --cpu 0 | head -1 | grep -qx 'lower_ns,upper_ns,count'
}

tgid_filter() {
	rvvctl --json tasks --tgid 1 > "$work/json" &&
	jq -e 'length >= 1 and all(.[]; .tgid == 1)' "$work/json" &&
	rvvctl --json tasks --sort bytes > "$work/json" &&
	jq -e '[.[].bytes] as $b | $b == ($b | sort | reverse)' "$work/json" &&
	# The workload's threads switch with saves: a p99 in the saving range.
	rvvctl --json tasks --sort p99 > "$work/json" &&
	jq -e '[.[].switch_saved_p99_ns] as $p | $p == ($p | sort | reverse)
	       and ([.[] | select(.comm == "vecload" and .saves_user > 0)] | length > 0
	            and all(.switch_saved_p99_ns > 0))
	       and all(.[] | select(.switches == 0); .switch_saved_p99_ns == 0)' "$work/json"
}

# hist --tid: a stopped thread's switch_saved histogram holds its saves and
# gives the p99 that tasks prints for it; an unknown thread is named.
task_hist() {
	local pid tid= status=0 tries
	# Two vector threads yielding on one CPU switch with live state all
	# the time: some of their switches are timed at once.
	taskset -c 1 vecload -t 2 -m yield -d 120 > /dev/null &
	pid=$!
	for tries in $(seq 60); do
		sleep 0.5
		rvvctl --json tasks --tgid "$pid" > "$work/tasks" || continue
		tid=$(jq -e 'max_by(.saves_user) | select(.saves_user > 0) | .tid' "$work/tasks") &&
		rvvctl --json hist switch_saved --tid "$tid" > "$work/hist" &&
		jq -e '[.[].count] | add > 0' "$work/hist" > /dev/null && break
		tid=
	done
	kill -STOP "$pid"
	sleep 0.5
	[ -n "$tid" ] || { echo "# no timed switch of $pid after $tries tries"; status=1; }
	[ "$status" = 0 ] &&
	rvvctl --json tasks --tgid "$pid" > "$work/tasks" &&
	rvvctl --json hist switch_saved --tid "$tid" > "$work/hist" &&
	rvvctl hist switch_saved --tid "$tid" &&
	expect_error 1 'no thread 999999' rvvctl hist switch_saved --tid 999999 || status=1
	kill -CONT "$pid"
	kill "$pid"
	wait "$pid" 2> /dev/null
	[ "$status" = 0 ] &&
	jq -e --slurpfile tasks "$work/tasks" --argjson tid "$tid" '
		([.[].count] | add) as $n |
		(($n * 990 + 999) / 1000 | floor) as $rank |
		([foreach .[] as $b (0; . + $b.count; [., $b.upper_ns])] |
		 map(select(.[0] >= $rank)) | first | .[1]) as $p99 |
		$n > 0 and $p99 == ($tasks[0][] | select(.tid == $tid) | .switch_saved_p99_ns)' \
		"$work/hist"
}

# The affinity of a thread as taskset prints it ("0-3").
affinity() {
	taskset -pc "$1" | sed 's/.*: //'
}

# Given the device read-only (mode 0644), nobody reads but changes nothing,
# and root's thread $1 is hidden from it as in /proc.
readable_only() {
	local status=0
	chmod 0644 /dev/rvvstat || return 1
	expect_error 1 'not yours to read' setpriv --reuid=nobody --regid=nogroup \
		--clear-groups rvvctl hint get --tid "$1" &&
	expect_error 1 'but not write it' setpriv --reuid=nobody --regid=nogroup \
		--clear-groups rvvctl hint set --tid "$1" --cpus 0 || status=1
	chmod 0600 /dev/rvvstat
	return "$status"
}

# Hints through the device: applied, read back, replaced, cleared; errors.
hints() {
	local sleeper all status=0
	all=$(affinity $$)
	sleep 300 &
	sleeper=$!
	rvvctl hint set --tid "$sleeper" --cpus 1 &&
	[ "$(affinity "$sleeper")" = 1 ] &&
	rvvctl --json hint get --tid "$sleeper" > "$work/json" &&
	jq -e '.cpus == "1" and .policy == null and .applied == 1 and .process == false
	       and .on_vector_use == false' "$work/json" &&
	rvvctl hint set --tid "$sleeper" --cpus 0-1 --policy fifo:10 &&
	chrt -p "$sleeper" | grep -q 'policy: SCHED_FIFO' &&
	chrt -p "$sleeper" | grep -q 'priority: 10' &&
	[ "$(affinity "$sleeper")" = 0,1 ] &&
	rvvctl hint get --tid "$sleeper" | grep -qx 'policy fifo:10' &&
	rvvctl hint clear --tid "$sleeper" &&
	chrt -p "$sleeper" | grep -q 'policy: SCHED_OTHER' &&
	[ "$(affinity "$sleeper")" = "$all" ] &&
	expect_error 1 'no hint' rvvctl hint get --tid "$sleeper" &&
	expect_error 1 'no such thread' rvvctl hint set --tid 4000000 --cpus 0 &&
	expect_error 1 'root-only' setpriv --reuid=nobody --regid=nogroup --clear-groups \
		rvvctl hint get --tid "$sleeper" &&
	readable_only "$sleeper" &&
	expect_error 2 'not a CPU list' rvvctl hint set --tid "$sleeper" --cpus 1-0 &&
	expect_error 2 'needs --cpus, --policy' rvvctl hint set --pid "$sleeper" || status=1
	kill "$sleeper"
	return "$status"
}

# A busy thread given CPU 1 now: its row says so, and it last ran there;
# an unhinted one says none. CSV and text have the two columns too.
task_cpu_and_hint() {
	local busy status=0
	bash -c 'while :; do :; done' &
	busy=$!
	rvvctl hint set --tid "$busy" --cpus 1 &&
	sleep 1 &&
	rvvctl --json tasks --tgid "$busy" > "$work/json" &&
	jq -e --argjson tid "$busy" --arg allowed "$(affinity "$busy")" \
		'[.[] | select(.tid == $tid)] | length == 1 and
		 (.[0].hint == "applied" and .[0].cpu == ($allowed | tonumber))' "$work/json" &&
	rvvctl --json tasks --tgid $$ > "$work/json" &&
	jq -e --argjson tid $$ '[.[] | select(.tid == $tid)] | length == 1 and .[0].hint == "none"
	       and (.[0].cpu | type) == "number"' "$work/json" &&
	rvvctl --csv tasks --tgid "$busy" | head -1 | grep -q ',cpu,hint,comm$' &&
	rvvctl tasks --tgid "$busy" | awk -v tid="$busy" '$1 == tid && $(NF - 1) == "applied" && $(NF - 2) == 1 { ok = 1 } END { exit !ok }' ||
		status=1
	kill "$busy"
	wait "$busy" 2> /dev/null
	return "$status"
}

# Two snapshots around a second of the workload, and watch's intervals.
snapshots_and_watch() {
	rvvctl snapshot > "$work/a.json" &&
	sleep 2 &&
	rvvctl snapshot > "$work/b.json" &&
	rvvctl --json delta "$work/a.json" "$work/b.json" > "$work/json" &&
	jq -e --slurpfile a "$work/a.json" --slurpfile b "$work/b.json" \
		'.seconds >= 2 and .counters.switches > 0
		 and .counters.saves_user == ($b[0].counters.saves_user - $a[0].counters.saves_user)
		 and .bytes == ($b[0].bytes - $a[0].bytes)' "$work/json" &&
	expect_error 1 'reset' rvvctl delta "$work/b.json" "$work/a.json" &&
	expect_error 1 'not an rvvctl snapshot' rvvctl delta "$work/json" "$work/b.json" &&
	rvvctl --json watch -d 1 -n 2 > "$work/watch" &&
	jq -e -s 'length == 2 and all(.[]; .seconds >= 0.9 and .seconds < 5
	          and .switches_per_s > 0)' "$work/watch" &&
	[ "$(rvvctl watch -n 1 | wc -l)" = 2 ]
}

# Two scrapes through prometheus_client's strict OpenMetrics parser: the
# families are there, counters do not go down, and each per-CPU counter of
# the first lies between the debugfs cpus files read around it.
openmetrics() {
	cat "$debugfs/cpus" > "$work/before" &&
	rvvctl export --openmetrics > "$work/m1" &&
	cat "$debugfs/cpus" > "$work/after" &&
	sleep 1 &&
	rvvctl export --openmetrics > "$work/m2" &&
	/usr/bin/python3 - "$work/m1" "$work/m2" "$work/before" "$work/after" <<'EOF'
import sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families

def scrape(path):
    with open(path) as f:
        families = list(text_string_to_metric_families(f.read()))
    return {(s.name, tuple(sorted(s.labels.items()))): (fam.type, s.value)
            for fam in families for s in fam.samples}

def cpus(path):
    with open(path) as f:
        head, *rows = [line.split() for line in f]
    return {(row[0], name): int(value) for row in rows
            for name, value in zip(head[1:], row[1:])}

first, second = scrape(sys.argv[1]), scrape(sys.argv[2])
before, after = cpus(sys.argv[3]), cpus(sys.argv[4])
names = {name for name, _ in first}
for need in ("rvvstat_info", "rvvstat_save_bytes", "rvvstat_switches_total",
             "rvvstat_saves_user_total", "rvvstat_latency_seconds_bucket",
             "rvvstat_latency_seconds_count", "rvvstat_latency_seconds_sum"):
    if need not in names:
        sys.exit(f"no {need}")
checked = 0
for (name, labels), (kind, value) in first.items():
    if kind != "counter":
        continue
    if second[(name, labels)][1] < value:
        sys.exit(f"{name}{labels} went down to {second[(name, labels)][1]}")
    if "cpu" not in dict(labels):
        continue
    column = name[len("rvvstat_"):-len("_total")]
    key = (dict(labels)["cpu"], "bytes" if column == "saved_bytes" else column)
    if not before[key] <= value <= after[key]:
        sys.exit(f"{name}{labels} = {value} not in [{before[key]}, {after[key]}]")
    checked += 1
if checked < 13:
    sys.exit(f"only {checked} counters")
EOF
}

# Threads named by their owners, as any local user can (prctl(PR_SET_NAME),
# here /proc/self/comm): ESC [2J, newline, tab, quote and an invalid UTF-8
# byte; "сервер" (12 bytes, kept as itself); "ZZсерверы" (16 bytes: the
# kernel keeps 15, cutting "ы" in half). Text and rvvtop -b show control and
# invalid bytes as \xNN (valid UTF-8 kept), so the outputs hold no control
# byte and each row is one thread's; JSON and CSV parse, with
# invalid bytes as U+FFFD in JSON; OpenMetrics still parses.
# live_shows_name PID: rvvtop's live view (tmux) of process PID shows the
# first 15 bytes of the hostile name's text form.
# live_shows PID FIXED-TEXT: rvvtop's live view of process PID, in a UTF-8
# locale, shows FIXED-TEXT (a grep -E pattern) within 60 s (it starts in a
# few; a host running other guests beside this one once took over 20).
# Each on a tmux server of its own (-L): a new session that reaches the last
# one's server on its way out fails ("server exited unexpectedly").
live_shows() {
	local end=$((SECONDS + 60)) seen=1 socket=names-$1
	LANG=C.UTF-8 TERM=xterm-256color tmux -L "$socket" -u new-session -d -s names -x 100 -y 24 \
		"LANG=C.UTF-8 rvvtop -p $1 -d 1 --no-llama; sleep 600" || return 1
	while [ "$SECONDS" -lt "$end" ]; do
		tmux -L "$socket" capture-pane -p -t names > "$work/names.screen" &&
		grep -qE -- "$2" "$work/names.screen" && { seen=0; break; }
		sleep 0.5
	done
	tmux -L "$socket" kill-server
	[ "$seen" = 0 ] || { echo "live view, no /$2/:"; cat "$work/names.screen"; }
	return "$seen"
}

# The escaped name; "сервер" as itself, its row's columns where the header's
# are (padded to 15 terminal columns, not 15 bytes: CPU right after).
live_shows_name() {
	live_shows "$1" '\\x1b\[2J\\x0a\\x09' &&
	live_shows "$2" '^ +[0-9]+ +[0-9]+ сервер {9} +([0-9]|-) +[0-9.]+[KMG]? '
}

hostile_names() {
	local names=(1b5b324a0a09225cff78 d181d0b5d180d0b2d0b5d180 5a5ad181d0b5d180d0b2d0b5d180d18b)
	local pids=() hex status=0 end=$((SECONDS + 60))
	# Each says it is named (python3 starts slowly under TCG), then switches.
	for hex in "${names[@]}"; do
		/usr/bin/python3 -c 'import sys, time
with open("/proc/self/comm", "wb") as f:
    f.write(bytes.fromhex(sys.argv[1]))
open(sys.argv[2], "w").close()
end = time.monotonic() + 90
while time.monotonic() < end:
    time.sleep(0.002)' "$hex" "$work/named.$hex" &
		pids+=($!)
	done
	while [ "$SECONDS" -lt "$end" ] && { ! [ -e "$work/named.${names[0]}" ] ||
	      ! [ -e "$work/named.${names[1]}" ] || ! [ -e "$work/named.${names[2]}" ]; }; do
		sleep 0.2
	done
	sleep 2
	rvvctl tasks > "$work/names.txt" &&
	rvvctl tasks --json > "$work/names.json" &&
	rvvctl tasks --csv > "$work/names.csv" &&
	rvvctl export --openmetrics > "$work/names.om" &&
	cat "$debugfs/tasks" > "$work/names.dbg" &&
	rvvtop -b -n 1 -d 1 --no-llama > "$work/names.top" &&
	rvvtop --json -n 1 -d 1 --no-llama > "$work/names.topjson" &&
	live_shows_name "${pids[0]}" "${pids[1]}" || status=1
	kill "${pids[@]}" 2> /dev/null
	wait "${pids[@]}" 2> /dev/null
	[ "$status" = 0 ] &&
	jq -e 'type == "array"' "$work/names.json" > /dev/null &&
	jq -e '.tasks | type == "array"' "$work/names.topjson" > /dev/null &&
	/usr/bin/python3 - "$work" <<'EOF'
import csv, json, re, sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families

work = sys.argv[1]
def read(name):
    with open(f"{work}/names.{name}", "rb") as f:
        return f.read()

shown = {"hostile": '\\x1b[2J\\x0a\\x09"\\\\\\xffx', "cyrillic": "сервер",
         "cut": "ZZсервер\\xd1"}
data = {"hostile": '\x1b[2J\n\t"\\\ufffdx', "cyrillic": "сервер", "cut": "ZZсервер\ufffd"}
for name in ("txt", "top"):
    raw = read(name)
    bad = re.search(rb"[\x00-\x09\x0b-\x1f\x7f]", raw)
    if bad:
        sys.exit(f"{name}: raw control byte {bad.group()!r} at {bad.start()}")
    text = raw.decode("utf-8")
    for what, form in shown.items():
        if form not in text:
            sys.exit(f"{name}: no {what} name shown as {form}: {text}")
# The module's tasks file escapes control bytes and the backslash alike and
# passes other bytes (it is bytes, not text): no control byte, no forged row.
raw = read("dbg")
bad = re.search(rb"[\x00-\x09\x0b-\x1f\x7f]", raw)
if bad:
    sys.exit(f"debugfs tasks: raw control byte {bad.group()!r} at {bad.start()}")
if b'\\x1b[2J\\x0a\\x09"\\\\\xffx\n' not in raw:
    sys.exit(f"debugfs tasks: no row ends with the hostile name escaped: {raw!r}")
width = len(raw.splitlines()[0].split())
if any(len(line.split()) < width for line in raw.splitlines()[1:]):
    sys.exit("debugfs tasks: a row shorter than the header (a forged row)")
# Each output was read at its own moment, while tasks came and went, so
# each is checked against itself: one row per thread, each row starting
# with its tid (a name that split a row would start a line of its own).
def one_row_per_tid(name, tids):
    if not all(re.fullmatch(r"[0-9]+", t) for t in tids) or len(set(tids)) != len(tids):
        sys.exit(f"{name}: a row that is not one thread's: tids {tids}")
rows = json.loads(read("json").decode("utf-8"))
lines = read("txt").decode("utf-8").splitlines()
one_row_per_tid("json", [str(row["tid"]) for row in rows])
one_row_per_tid("text", [line.split()[0] for line in lines[1:]])
for what, form in shown.items():
    if not any(line.endswith(" " + form) for line in lines):
        sys.exit(f"text: no row ends with the {what} name")
comms = {row["comm"] for row in rows}
for what, form in data.items():
    if form not in comms:
        sys.exit(f"json: no {what} comm {form!r} in {comms}")
with open(f"{work}/names.csv", encoding="utf-8", newline="") as f:
    head, *records = list(csv.reader(f))
if any(len(r) != len(head) for r in records):
    sys.exit(f"csv: rows of widths {[len(r) for r in records]} for {len(head)}")
one_row_per_tid("csv", [r[head.index("tid")] for r in records])
if not set(shown.values()) <= {r[head.index("comm")] for r in records}:
    sys.exit("csv: a name is not in the comm column as text shows it")
list(text_string_to_metric_families(read("om").decode("utf-8")))
decoder, top, at, records = json.JSONDecoder(), read("topjson").decode("utf-8"), 0, []
while top[at:].strip():
    record, at = decoder.raw_decode(top, at + len(top[at:]) - len(top[at:].lstrip()))
    records.append(record)
topcomms = {t["comm"] for r in records for t in r["tasks"]}
for what, form in data.items():
    if form not in topcomms:
        sys.exit(f"rvvtop --json: no {what} comm {form!r}")
EOF
}

# expect_error STATUS TEXT COMMAND...: fails with STATUS, saying TEXT.
expect_error() {
	local want=$1 text=$2 status=0
	shift 2
	"$@" > "$work/err" 2>&1 || status=$?
	cat "$work/err"
	[ "$status" = "$want" ] && grep -q -- "$text" "$work/err"
}

bad_input() {
	expect_error 2 'no latency kind' rvvctl hist no_such_kind &&
	expect_error 2 'not a process id' rvvctl tasks --tgid 0 &&
	expect_error 2 'not a CPU number' rvvctl hist calib_save --cpu -1 &&
	expect_error 1 'no such CPU' rvvctl hist calib_save --cpu 4096 &&
	expect_error 2 'unknown command' rvvctl frobnicate &&
	expect_error 2 '--csv is for' rvvctl --csv summary &&
	expect_error 2 'needs its format' rvvctl export &&
	expect_error 2 'two snapshot files' rvvctl delta "$work/a.json" &&
	expect_error 2 'seconds from 1' rvvctl watch -d 0 &&
	expect_error 1 'CAP_SYS_ADMIN' setpriv --reuid=nobody --regid=nogroup --clear-groups rvvctl reset
}

# After a reset only the few switches since count; calibration stays.
# Between the reset and the read, a process or two may start and use vector
# state for the first time (on x86 any process whose glibc string functions
# touched the AVX upper halves counts at its first switch-out: this rvvctl,
# the shell's): first_use is held to those few, not to 0.
reset_zeroes() {
	local saves
	saves=$(rvvctl --json summary | jq -e '.counters.saves_user') &&
	rvvctl reset &&
	rvvctl --json summary > "$work/json" &&
	jq -c '.counters | {first_use, saves_user}' "$work/json" &&
	jq -e --argjson saves "$saves" '.counters.first_use <= 3 and .counters.saves_user < $saves / 10
		and .latency.calib_save.count > 0' "$work/json"
}

not_loaded() {
	expect_error 1 'module is not loaded' rvvctl info
}

check not_loaded_is_explained not_loaded
# Every switch timed (not the default windows, which latency-tests check), so
# that every thread that saved has a switch_saved p99 to compare.
load_module switch_sample=1
# Until stopped below (1000 s outlasts the boot): a loaded host stretches the checks.
start_workload 2 vecload -t 2 -d 1000 -m mixed
check info_matches_debugfs info_json
check version_names_the_module version_names_module
check summary_names_the_vector_state summary_names_state
check cpus_between_debugfs_reads sandwich_cpus
check tasks_between_debugfs_reads sandwich_tasks
check summary_json_between_debugfs_reads sandwich_summary_json
check hist_matches_debugfs hist_matches
check tasks_filter_and_sort tgid_filter
check task_histogram_by_tid task_hist
check openmetrics_parses_and_counts openmetrics
check bad_input_is_refused bad_input
check hints_apply_read_back_and_clear hints
check tasks_show_cpu_and_hint task_cpu_and_hint
check snapshots_delta_and_watch snapshots_and_watch
check hostile_names_are_escaped hostile_names
stop_workload
check reset_zeroes_counters reset_zeroes
unload_and_end
