#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# rvvbench against the real llama-server and the real module in the x86_64
# guest: the output tokens it counted equal the server's own /metrics delta
# in every window; each arm (policy) is set on the server's threads, read
# back as asked and gone after its window; the module's vector-state
# figures and the thread classes are there; a deadline the kernel cannot
# admit is refused as such and leaves nothing behind; SIGINT in a window
# clears its arm (two tiers too); a two-tier arm's threads read back in
# their tiers; a hint left on the server is refused before any window;
# the CSV, JSON, Markdown and plots parse. TAP lines as tool-tests.sh
# prints them.
#   rvvbench-tests.sh --server LLAMA-SERVER --model GGUF [CHECK...]
tap_prefix=rvvbench
# shellcheck source=../lib/tap.sh
. "$(dirname "$(readlink -f "$0")")/tap.sh"
# shellcheck source=../lib/standin.sh
. "$here/standin.sh"
real_port=18082
# shellcheck source=../lib/real-server.sh
. "$here/real-server.sh" "$@"

# The arms every sweep here compares: both ways of applying, a policy and a
# CPU mask, each read back per thread by rvvbench itself.
arms=(--policy batch --policy fifo:10 --policy affinity:0 --policy rr:5@on-vector)

# The sweep the checks read: 5 arms x hog duty 0 and 50, 2 trials, 4
# requests of 8 tokens at concurrency 2 (TCG is slow: about a minute).
sweep() {
	rvvbench --url "$real_url" "${arms[@]}" --hog-duty 0,50 --hog-period 20ms --trials 2 \
		--concurrency 2 --requests 4 --n-predict 8 --ignore-eos --json \
		--csv "$work/sweep.csv" --ratios "$work/sweep.ratios" --jsonl "$work/sweep.jsonl" \
		--plot "$work" \
		> "$work/sweep.json" 2> "$work/sweep.err"
	local status=$?
	tail -n 5 "$work/sweep.err"
	[ "$status" = 0 ]
}

# Every window's tokens, as rvvbench summed the streams' own counts, equal
# what the server's tokens_predicted_total grew by: exactly.
tokens_match_metrics() {
	jq -e '[.cells[].window | .output_tokens == .metrics_delta.tokens_predicted
		and .output_tokens > 0] | length == 20 and all' "$work/sweep.json" ||
		{ jq -c '[.cells[].window | [.output_tokens, .metrics_delta.tokens_predicted]]' \
			"$work/sweep.json"; return 1; }
}

# Each arm's threads as the syscalls read them back during its window, and
# the module's hint state; "now" arms hold on every thread. rvvbench reads
# the module's rows first, so a thread "waiting" there may have taken the
# on-vector hint by the time its policy is read: either is right.
arms_read_back() {
	jq -e '
		def want: {"batch": "batch:0", "fifo:10": "fifo:10"};
		[.cells[] | . as $c | .threads | length > 0 and
			if $c.arm == "none" then all(.policy == "normal:0")
			elif $c.arm == "affinity:0" then all(.cpus == "0" and .matches)
			elif $c.arm == "rr:5@on-vector" then
				any(.hint == "applied" and .policy == "rr:5") and
				all(if .hint == "applied" then .matches
				    elif .hint == "waiting" then .policy == "normal:0" or .policy == "rr:5"
				    else .policy == "normal:0" end)
			else all(.policy == (want[$c.arm]) and .matches) end] |
		length == 20 and all' "$work/sweep.json" ||
		{ jq -c '.cells[] | [.arm, [.threads[] | [.tid, .policy, .cpus, .hint]]]' \
			"$work/sweep.json"; return 1; }
}

# After the sweep the server's threads are as it started them: every arm cleared.
arms_cleared() {
	python3 - "$real" <<'EOF'
import os, sys
pid = int(sys.argv[1])
online = os.sched_getaffinity(0)
left = []
for tid in map(int, os.listdir("/proc/%d/task" % pid)):
    policy, cpus = os.sched_getscheduler(tid), os.sched_getaffinity(tid)
    if policy != os.SCHED_OTHER or cpus != online:
        left.append((tid, policy, sorted(cpus)))
print("threads still under an arm:", left)
sys.exit(1 if left else 0)
EOF
}

# The module's figures: vector saves by the server's vector threads, their
# share per token, and the other classes present, in every window.
vector_figures() {
	jq -e '[.cells[].window | .module and .v_all.saves > 0 and
		.classes.server_vector.threads >= 1 and .classes.server_vector.v.saves > 0 and
		.saves_per_ktok > 0 and .saves_per_decode > 0 and .save_ns > 0 and
		.classes.server_other.threads >= 1 and .classes.rest.v.switches > 0 and
		.classes.server_vector.voluntary_switches > 0] | length == 20 and all' \
		"$work/sweep.json" ||
		{ jq -c '.cells[0].window' "$work/sweep.json"; return 1; }
}

# The CSV has a row per run at the header's width, the JSON its aggregates
# with intervals against "none", the plots are drawn.
outputs_parse() {
	python3 - "$work" <<'EOF' || return 1
import csv, json, os, sys
work = sys.argv[1]
rows = list(csv.DictReader(open(os.path.join(work, "sweep.csv"), newline="")))
assert len(rows) == 20, len(rows)
assert {r["arm"] for r in rows} == {"none", "batch", "fifo:10", "affinity:0", "rr:5@on-vector"}
assert all(int(r["output_tokens"]) > 0 and float(r["v_saves_per_ktok"]) > 0 and
           int(r["server_vector_threads"]) >= 1 for r in rows), rows[0]
s = json.load(open(os.path.join(work, "sweep.json")))
assert s["version"] == 4 and s["server"]["pid"] > 0, s["server"]
# The sweep's client ran at SCHED_OTHER under real-time arms, and said so.
assert s["client_policy"] == "normal:0", s["client_policy"]
err = open(os.path.join(work, "sweep.err")).read()
assert "arm fifo:10 makes the server's threads real-time while rvvbench runs at normal:0" in err, err
# As start_real launched it; the options it does not give are null.
assert s["server"]["launch"] == {"threads": 2, "threads_batch": None, "parallel": 2,
                                 "poll": None, "prio": None, "ctx": 512}, s["server"]
agg = s["aggregates"]
assert len(agg) == 10 and all(a["v_saves_per_ktok"]["n"] == 2 for a in agg)
assert all("vs_none" in a["output_tok_per_s"] for a in agg if a["arm"] != "none")
# TTFT pooled over trials: every trial's requests, in order.
for a in agg:
    key = (a["arm"], a["hog_duty"], a["concurrency"])
    runs = [c["ttft_ms"]["n"] for c in s["cells"]
            if (c["arm"], c["hog_duty"], c["concurrency"]) == key]
    p = a["ttft_pooled_ms"]
    assert len(runs) == 2 and p["n"] == sum(runs) > 0, (key, runs, p)
    assert p["p50"] <= p["p95"] <= p["max"], (key, p)
    # Against none of the same duty: the ratio of the pooled p95s, bootstrapped.
    if a["arm"] == "none":
        assert "p95_vs_none" not in p, p
        continue
    base = [b["ttft_pooled_ms"]["p95"] for b in agg
            if (b["arm"], b["hog_duty"], b["concurrency"]) == ("none",) + key[1:]]
    r = p["p95_vs_none"]
    assert len(base) == 1 and abs(r["ratio"] - p["p95"] / base[0]) < 1e-4 * r["ratio"] + 1e-6 and \
        0 < r["low95"] <= r["high95"], (key, r, base)
# One serve-ratio line per arm but none and duty: tok/s as the geometric
# mean of the trials' ratios to none, TTFT p95 as the JSON's, N its requests.
lines = [l.split() for l in open(os.path.join(work, "sweep.ratios"))]
assert len(lines) == 8 and all(len(l) == 11 and l[0] == "serve-ratio" for l in lines), lines
for l in lines:
    arm, duty, conc = l[1], int(l[2]), int(l[3])
    toks, tlo, thi, ttft, flo, fhi = map(float, l[4:10])
    def tok_s(a):
        return [c["output_tok_per_s"] for c in sorted(s["cells"], key=lambda c: c["trial"])
                if (c["arm"], c["hog_duty"], c["concurrency"]) == (a, duty, conc)]
    per = [x / y for x, y in zip(tok_s(arm), tok_s("none"))]
    geo = (per[0] * per[1]) ** 0.5
    p = [a["ttft_pooled_ms"] for a in agg if (a["arm"], a["hog_duty"], a["concurrency"]) ==
         (arm, duty, conc)][0]
    assert abs(toks - geo) < 0.01 * geo and tlo <= toks <= thi, (l, per)
    assert abs(ttft - p["p95_vs_none"]["ratio"]) < 1e-3 * ttft and flo <= fhi, (l, p)
    assert int(l[10]) == p["n"], (l, p["n"])
# Every request's record: the real server's slot (--parallel 2), its
# headers before its first token, the other slot's request at most in flight.
recs = [json.loads(l) for l in open(os.path.join(work, "sweep.jsonl"))]
assert len(recs) == 20 * 4 and all(r["status"] == "ok" for r in recs), len(recs)
assert all(r["slot"] in (0, 1) and r["sent_ms"] < r["headers_ms"] <= r["first_token_ms"] and
           0 <= r["in_flight_at_send"] <= 1 and r["prompt_ms"] > 0 for r in recs), \
    [(r["slot"], r["sent_ms"], r["headers_ms"], r["first_token_ms"], r["in_flight_at_send"])
     for r in recs][:4]
assert {r["slot"] for r in recs} == {0, 1}, "both slots served"
for stem in ("tok-s", "ttft-p95", "v-saves-per-ktok"):
    for ext in ("svg", "png"):
        size = os.path.getsize(os.path.join(work, "%s-c2.%s" % (stem, ext)))
        assert size > 1000, (stem, ext, size)
print("20 rows, 10 aggregates, 8 ratio lines, 80 requests, 6 plots")
EOF
}

# No hint of the module covers a thread of the server: none its own, none
# its process's.
no_hint_left() {
	rvvctl --json tasks --tgid "$real" > "$work/hints.json" &&
	jq -e 'length > 0 and all(.[]; .hint == "none")' "$work/hints.json" ||
		{ jq -c '[.[] | [.tid, .hint]]' "$work/hints.json"; return 1; }
}

# A two-tier arm: the process at fifo:11, each thread that uses vector
# state at fifo:10 by its own hint. Every thread reads back in its tier,
# the vector tier where the module applied the thread's own hint (the ggml
# and main-loop threads, warmed up), the process tier on the others (HTTP),
# both tiers reached; afterwards no hint and no policy is left. rvvbench
# runs above both (chrt -f 50), as a client kept out of the squeeze: the
# report says so, and it does not warn.
two_tiers_read_back() {
	chrt -f 50 rvvbench --url "$real_url" --policy fifo:11,vector=fifo:10 --concurrency 2 \
		--requests 4 --n-predict 8 --ignore-eos --json > "$work/tiers.json" \
		2> "$work/tiers.err" || { tail -n 5 "$work/tiers.err"; return 1; }
	jq -e '.client_policy == "fifo:50"' "$work/tiers.json" &&
		! grep 'real-time while rvvbench runs' "$work/tiers.err" || return 1
	jq -e '[.cells[] | select(.arm == "fifo:11,vector=fifo:10") | .threads] as $t |
		($t | length) == 1 and ($t[0] |
			any(.tier == "vector" and .hint == "applied") and any(.tier == "process") and
			all(.matches and .policy == (if .tier == "vector" then "fifo:10"
						     else "fifo:11" end)))' "$work/tiers.json" ||
		{ jq -c '.cells[] | [.arm, [.threads[] | [.tid, .policy, .hint, .tier]]]' \
			"$work/tiers.json"; return 1; }
	arms_cleared && no_hint_left
}

# A deadline the kernel cannot admit for every thread (90 % of a CPU each):
# rvvbench says so and stops, and the server is left as it was.
deadline_refused() {
	rvvbench --url "$real_url" --policy deadline:90ms/100ms/100ms --requests 2 \
		--n-predict 4 > "$work/dl.out" 2> "$work/dl.err"
	local status=$?
	cat "$work/dl.err"
	[ "$status" != 0 ] && grep -q 'deadline admission' "$work/dl.err" && arms_cleared
}

SCHED_FIFO=1
# The scheduling policy of the thread at /proc/PID/task/TID: stat's field
# 41, counted after the comm's closing parenthesis (a comm may hold spaces).
thread_policy() {
	local stat fields
	read -r stat 2>/dev/null < "$1/stat" || return 1
	read -ra fields <<< "${stat##*) }"
	echo "${fields[38]}"
}

# SIGINT in a window of arm $1: rvvbench stops within its 100 ms, says so
# with 128 + SIGINT, and the hints it had set are gone from the server.
interrupt_clears_the_arm() {
	local bench status=0 tid in_window=''
	rvvbench --url "$real_url" --policy "$1" --trials 2 --requests 6 --n-predict 64 \
		--ignore-eos --json > "$work/int.json" 2> "$work/int.err" &
	bench=$!
	# Inside fifo:10's window: a server thread is SCHED_FIFO. Read from
	# stat, not with a chrt per thread: forks made a pass take seconds on
	# a loaded host.
	for _ in $(seq 1200); do
		for tid in "/proc/$real/task/"*; do
			[ "$(thread_policy "$tid")" = "$SCHED_FIFO" ] && in_window=${tid##*/} && break 2
		done
		sleep 0.1
	done
	kill -INT "$bench"
	wait "$bench" || status=$?
	echo "SIGINT with thread ${in_window:-none} at SCHED_FIFO: exit $status" >> "$work/int.err"
	tail -n 3 "$work/int.err"
	[ -n "$in_window" ] && [ "$status" = 130 ] && grep -q 'stopped by signal' "$work/int.err" &&
		arms_cleared && no_hint_left
}

# A hint left on the server (a run killed outright) is refused before any
# window, naming the way back; once cleared, rvvbench runs.
stale_hint_refused() {
	local status=0
	rvvctl hint set --pid "$real" --policy batch || return 1
	rvvbench --url "$real_url" --requests 1 --n-predict 2 > /dev/null 2> "$work/stale.err" ||
		status=$?
	cat "$work/stale.err"
	rvvctl hint clear --pid "$real" &&
	[ "$status" = 1 ] && grep -q 'rvvctl hint clear' "$work/stale.err" && arms_cleared &&
	rvvbench --url "$real_url" --requests 1 --n-predict 2 > /dev/null
}

load_module
check real_server_starts start_real --metrics
check sweep_runs sweep
check tokens_match_metrics tokens_match_metrics
check arms_read_back arms_read_back
check arms_cleared arms_cleared
check vector_figures vector_figures
check outputs_parse outputs_parse
check two_tiers_read_back two_tiers_read_back
check deadline_refused deadline_refused
check interrupt_clears_the_arm interrupt_clears_the_arm fifo:10
check interrupt_clears_two_tiers interrupt_clears_the_arm fifo:11,vector=fifo:10
check stale_hint_refused stale_hint_refused
# For the log: each cell's means, and what the refused deadline said.
[ ! -f "$work/sweep.json" ] || jq -r '.aggregates[] | "# sweep| \(.arm) duty \(.hog_duty): " +
	"\(.output_tok_per_s.mean) tok/s, \(.v_saves_per_ktok.mean) V saves/ktok"' "$work/sweep.json"
[ ! -f "$work/dl.err" ] || sed 's/^/# deadline| /' "$work/dl.err"
[ ! -f "$work/int.err" ] || tail -n 3 "$work/int.err" | sed 's/^/# interrupt| /'
[ ! -f "$work/stale.err" ] || sed 's/^/# stale| /' "$work/stale.err"
stop_real
unload_and_end
