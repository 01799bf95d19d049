#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# rvvtop's batch and JSON modes against the real module in the x86_64 guest,
# beside the real llama-server where it can show the state on demand and the
# stand-in (tests/guest/lib/llama-standin.py) where it cannot. TAP lines as
# tool-tests.sh prints them.
#   rvvtop-tests.sh [--server LLAMA-SERVER --model GGUF] [CHECK...]
# tests/run passes the host's x86_64 llama-server and tiny model (read over
# 9p); the checks that need them fail, saying so, without. CHECKs: run only
# those.
#
# The real server: metrics disabled (no --metrics), up without a live rate
# (--no-slots) and the batch text while a request streams, with the tokens
# the streams got as the truth. The stand-in: loading, slow (timed out),
# down, a restart (counters going back), and the live rates, which need an
# oracle of exactly what /slots and /metrics answered at each of rvvtop's
# readings: only the stand-in's log of every body it served gives one.
# standin_speaks_like_the_real_server captures both servers' bodies and
# checks that the stand-in's formats are the real ones.
tap_prefix=rvvtop
# shellcheck source=../lib/tap.sh
. "$(dirname "$(readlink -f "$0")")/tap.sh"
# shellcheck source=../lib/standin.sh
. "$here/standin.sh"
# shellcheck source=../lib/real-server.sh
. "$here/real-server.sh" "$@"

# wait_for SECONDS COMMAND...: until COMMAND succeeds, trying every 0.1 s.
wait_for() {
	local tries=$(($1 * 10))
	shift
	until "$@"; do
		tries=$((tries - 1))
		[ "$tries" -gt 0 ] || return 1
		sleep 0.1
	done
}

# stream TOKENS FILE: a streamed completion of TOKENS tokens from the real
# server, its events into FILE, in the background.
stream() {
	curl -sN -m 300 -H 'Content-Type: application/json' -d "{\"prompt\": \"Vector state\",
		\"n_predict\": $1, \"stream\": true, \"cache_prompt\": false}" \
		"$real_url/completion" > "$2" &
}

# streamed: the tokens the streams in $work/stream-* got, by each one's last
# event (timings.predicted_n); an error unless every one of them ended.
streamed() {
	local files=("$work"/stream-*)
	sed -n 's/^data: //p' "${files[@]}" | jq -s -e --argjson n "${#files[@]}" '
		[.[] | select(.stop) | .timings.predicted_n] |
		if length == $n then add else error("\(length) of \($n) streams ended") end'
}

lines_at_least() {	# lines_at_least N FILE
	[ "$(wc -l < "$2")" -ge "$1" ]
}

# under_top N TOKENS: rvvtop --json -d 1 on the real server, from before N
# concurrent streams of TOKENS tokens ($work/stream-K) until two intervals
# after they ended, into $work/json (its whole lines).
under_top() {
	local top k status=0 pids=()
	rm -f "$work"/stream-*
	rvvtop --json -d 1 --llama-timeout 20000 --llama "$real_url" > "$work/top" &
	top=$!
	# Its first line: it sampled twice before any request.
	wait_for 30 lines_at_least 1 "$work/top" || status=1
	for k in $(seq "$1"); do
		stream "$2" "$work/stream-$k"
		pids+=($!)
	done
	for k in "${pids[@]}"; do
		wait "$k" || status=1
	done
	wait_for 30 lines_at_least $(($(wc -l < "$work/top") + 2)) "$work/top" || status=1
	kill "$top"
	wait "$top" 2> /dev/null
	head -n "$(wc -l < "$work/top")" "$work/top" > "$work/json"
	jq -c '.llama' "$work/json"
	[ "$status" = 0 ] || echo "rvvtop or a stream did not finish"
	return "$status"
}

# readings_check [ARG...]: checks the intervals of $work/json against the
# stand-in's log $work/served for what each owes the readings however loaded
# the host: interval K's rates run from the reading interval K-1 ended with
# (the intervals add up); only the first may end before the poller's first
# or second reading (no rates); one that got no new reading runs from it to
# itself (counts 0). Then it runs the python on its input, with `intervals`,
# `slots` and `metrics` (the Nth /slots and /metrics served: reading N's),
# `spans` (the indices of the intervals with a new reading) and sys.argv[3:]
# the ARGs. A long --llama-timeout keeps reading N the Nth served: a request
# given up on would shift the log.
readings_check() {
	/usr/bin/python3 - "$work/json" "$work/served" "$@" 3<&0 <<'EOF'
import json, sys
intervals = [json.loads(line) for line in open(sys.argv[1])]
served = [json.loads(line) for line in open(sys.argv[2])]
slots = [s["slots"] for s in served if s["path"] == "/slots"]
metrics = [s for s in served if s["path"] == "/metrics"]
spans = []
for k, v in enumerate(intervals):
    l = v["llama"]
    a, b = l["since_reading"], l["reading"]
    assert (b or k == 0) and (b or 0) <= min(len(slots), len(metrics)), (k, l, len(slots), len(metrics))
    if k and intervals[k - 1]["llama"]["reading"]:
        assert a == intervals[k - 1]["llama"]["reading"], (k, l)
    if a is None:
        assert k == 0 and l["generated_tokens_done"] is None and l["decoded"] is None, (k, l)
    elif a == b:
        assert l["generated_tokens_done"] == 0 and l["decoded"] is None and not l["restarted"], (k, l)
    else:
        assert b > a, (k, l)
        spans.append(k)
exec(open(3).read())
EOF
}

# rvvtop's intervals against what the stand-in served and against rvvctl.
# The stand-in's: the real server's answers between two readings are not
# known, the stand-in logs every body it served.
live_rates() {
	start_standin || return 1
	rvvctl snapshot > "$work/before.json" &&
	rvvtop --json -d 1 -n 6 --llama-timeout 20000 --llama "http://127.0.0.1:$port" > "$work/json" &&
	rvvctl snapshot > "$work/after.json" &&
	readings_check "$work/before.json" "$work/after.json" <<'EOF'
before, after = (json.load(open(p)) for p in sys.argv[3:5])

def decoded(a, b):
    """Tokens between two /slots answers, as the notes define them."""
    total = 0
    for slot in b:
        if "id_task" not in slot:
            continue
        old = next((s for s in a if s["id"] == slot["id"]), None)
        now = slot["next_token"][0]["n_decoded"]
        if old and old.get("id_task") == slot["id_task"] and now >= old["next_token"][0]["n_decoded"]:
            total += now - old["next_token"][0]["n_decoded"]
        else:
            total += now
    return total

# Each interval's rates run between two of the poller's readings (1, 2, ...:
# the Nth /slots and /metrics served), its own span apart from the interval.
assert len(intervals) == 6 and len(spans) >= 3, (len(intervals), len(spans))
switches = 0
for v in (intervals[k] for k in spans):
    l = v["llama"]
    a, b = l["since_reading"], l["reading"]
    want = decoded(slots[a - 1], slots[b - 1])
    switches += slots[a - 1][1]["id_task"] != slots[b - 1][1]["id_task"]
    assert l["state"] == "up" and l["slots"] == 2 and l["busy_slots"] == 1, l
    assert l["decoded"] == want and want > 0, (l["decoded"], want)
    assert l["seconds"] > 0 and abs(l["tokens_per_s"] - want / l["seconds"]) < 1e-6 * want, l
    assert l["generated_tokens_done"] == metrics[b - 1]["predicted"] - metrics[a - 1]["predicted"], l
    assert l["prompt_tokens_done"] == metrics[b - 1]["prompt"] - metrics[a - 1]["prompt"], l
    # Saves per second of the interval over tokens per second of the readings.
    ratio = (v["total"]["saves"] / v["seconds"]) / l["tokens_per_s"]
    assert abs(l["saves_per_token"] - ratio) < 1e-9 * ratio + 1e-12, (l, ratio)
assert switches >= 1, "no task switch between readings"
assert all(v["module"] and not v["reset"] for v in intervals), intervals
# The intervals telescope to the growth between the first and last sample,
# inside the rvvctl snapshots taken around the run (the summary and the
# CPU dump of a sample are read one after the other, so each is checked).
grown = (after["counters"]["saves_user"] + after["counters"]["saves_kernel"]
         - before["counters"]["saves_user"] - before["counters"]["saves_kernel"])
done = sum(v["total"]["saves"] for v in intervals)
done_cpus = sum(c["saves"] for v in intervals for c in v["cpus"])
assert 0 < done <= grown and 0 < done_cpus <= grown, (done, done_cpus, grown)
EOF
}

# state_is STATE [JQ-CONDITION] -- STAND-IN OPTIONS: one interval's llama panel.
# The stand-in gets 20 s to answer (a TCG guest on a loaded host has missed
# rvvtop's default 800 ms), timeout=800 where its slowness is the fault.
state_is() {
	local state=$1 condition=$2
	shift 3
	start_standin "$@" || return 1
	rvvtop --json -d 1 -n 2 --llama-timeout "${timeout:-20000}" --llama "http://127.0.0.1:$port" \
		> "$work/json" &&
	jq -e -s --arg state "$state" "all(.[]; .llama.state == \$state and ($condition))" "$work/json"
}

# The states a real server does not show on demand.
server_states() {
	state_is loading '.llama.decoded == null' -- --loading &&
	timeout=800 state_is down '(.llama.why | test("Timeout|timed out")) and .seconds < 4' -- \
		--slow 1500 &&
	stop_standin &&
	rvvtop --json -n 1 --llama "http://127.0.0.1:$port" > "$work/json" &&
	jq -e '.llama.state == "down" and (.llama.why | test("connect"))' "$work/json"
}

# The stand-in's counters move at the 4th and 7th /metrics (a task ended
# before each) and are reset at the 9th: the one interval whose readings
# span the reset says so and has no completed counts, all others have the
# counts served between their readings, and one after it has them again.
server_restart() {
	start_standin --restart-after 8 || return 1
	rvvtop --json -d 1 -n 12 --llama-timeout 20000 --llama "http://127.0.0.1:$port" > "$work/json" &&
	jq -c '.llama | [.since_reading, .reading, .restarted, .generated_tokens_done]' "$work/json" &&
	readings_check <<'EOF'
assert len(intervals) == 12 and len(metrics) >= 9, (len(intervals), len(metrics))
restarts = []
for k in spans:
    l = intervals[k]["llama"]
    a, b = l["since_reading"], l["reading"]
    went_back = metrics[b - 1]["predicted"] < metrics[a - 1]["predicted"]
    if went_back:
        restarts.append(k)
    assert l["restarted"] == went_back, l
    done = None if went_back else metrics[b - 1]["predicted"] - metrics[a - 1]["predicted"]
    assert l["generated_tokens_done"] == done, (l, done)
assert len(restarts) == 1, restarts
assert spans[-1] > restarts[0], "no new reading after the restart"
EOF
}

# The real server without --metrics: every interval says so and has no
# completed counts, and the live rate saw the streams decoding (the server
# zeroes a slot's n_decoded when its task ends, so not always all of it).
# An interval that got no new reading (a busy server on a loaded host) has
# no rate: it runs from that reading to itself; nor has the first line when
# the poller's first reading came after rvvtop's first sample (none earlier
# to count from: since_reading null).
real_metrics_disabled() {
	start_real || return 1
	under_top 2 32 || return 1
	jq -e -s --argjson streamed "$(streamed)" '
		def rated: (.decoded | type) == "number" or .since_reading == .reading;
		([.[].llama.decoded] | add) as $seen |
		$streamed == 64 and length >= 3 and
		all(.[].llama; .state == "metrics disabled" and .slots == 2
		    and .generated_tokens_done == null and .prompt_tokens_done == null) and
		(.[0].llama | rated or .since_reading == null) and all(.[1:][].llama; rated) and
		any(.[]; .llama.busy_slots == 2) and $seen > 0 and $seen <= $streamed' "$work/json"
}

# The real server with --no-slots: up, no live rate in any interval, and the
# completed tokens add up to what the streams got (the tiny model makes
# exactly n_predict). Counts of completed tokens are differences of two
# readings, which the first interval may not hold (a loaded host, a short
# first interval); every later one does.
real_up_without_slots() {
	start_real --metrics --no-slots || return 1
	under_top 2 32 || return 1
	jq -e -s --argjson streamed "$(streamed)" '$streamed == 64 and length >= 3 and
		all(.[].llama; .state == "up" and .slots == null and .busy_slots == null
		    and .decoded == null and .tokens_per_s == null and .saves_per_token == null) and
		all(.[1:][].llama; (.generated_tokens_done | type) == "number") and
		([.[].llama.generated_tokens_done] | add) == $streamed and
		([.[].llama.prompt_tokens_done] | add) > 0' "$work/json"
}

# rmmod and insmod under a running rvvtop: it says so and reconnects. Each
# step waits for rvvtop's last sample to show the one before, so a slow
# first sample or a slow reload cannot make it miss one.
# (jq -e succeeds on empty input, hence -n and input.)
last_sample() { tail -n 1 "$work/json" | jq -n -e "input | $1" > /dev/null 2>&1; }

module_comes_and_goes() {
	rvvtop --json -d 1 -n 300 --no-llama > "$work/json" &
	local top=$! step
	for step in "sample with the module" "rmmod" "sample without it" "insmod" \
		    "sample with it again" done; do
		case $step in
		"sample with the module") wait_for 60 last_sample '.module' ;;
		# A netlink dump under way holds the module for a moment.
		rmmod) unload_module ;;
		"sample without it") wait_for 60 last_sample '(.module | not) and
			(.module_why | test("not loaded"))' ;;
		insmod) insmod "$module" ;;
		"sample with it again") wait_for 60 last_sample '.module and (.cpus | length) > 0' ;;
		done) break ;;
		esac || break
	done
	kill "$top" && wait "$top"
	jq -c '{"module": .module, module_why, cpus: (.cpus | length)}' "$work/json"
	lsmod | grep -q '^rvvstat ' || insmod "$module"
	[ "$step" = done ] || { echo "failed at: $step"; return 1; }
}

# text_has N PATTERN: rvvtop's text has at least N lines matching PATTERN
# (grep -E); says which it lacks.
text_has() {
	[ "$(grep -c -E -- "$2" "$work/text")" -ge "$1" ] ||
		{ echo "fewer than $1 lines match: $2"; return 1; }
}

# Both panels in text while the real server streams a request (longer than
# rvvtop's four intervals: stopping the server ends it). The first interval
# may hold a single reading of the server (a loaded host, a short first
# interval): a live rate needs two.
batch_text() {
	start_real --metrics || return 1
	rm -f "$work"/stream-*
	stream 128 "$work/stream-1"
	wait_for 120 grep -q '^data: ' "$work/stream-1" || return 1
	rvvtop -b -n 4 --llama "$real_url" > "$work/text" || return 1
	stop_real
	text_has 2 '^llama-server: up$' &&
	text_has 2 '^  generating [0-9.]+ tok/s \([0-9]+ tokens in [0-9.]+ s\), 1 of 2 slots busy$' &&
	# A loaded host may stall the server for an interval, not for both.
	text_has 1 '^  generating [0-9.]*[1-9][0-9.]* tok/s \([1-9][0-9]* tokens in [0-9.]+ s\), 1 of 2 slots busy$' &&
	text_has 1 '^  completed 0 prompt, 0 generated tokens; 1 processing, 0 deferred$' &&
	text_has 1 '^cpu ' && text_has 1 ' vecload ' &&
	# The p99 has the one name of every output (rvvctl tasks too).
	text_has 2 '^cpu +saves/s .* switch_saved_p99_ns$' &&
	text_has 2 '^ +tid +tgid .* switch_saved_p99_ns hint$' &&
	# Each task's last CPU is one of ours (or null) and its hint state a name.
	rvvtop --json -n 1 --no-llama | jq -e --argjson cpus "$(nproc)" '
		(.tasks | length) > 0 and (.cpus | length) == $cpus and
		all(.cpus[]; .switch_saved_p99_ns == null or .switch_saved_p99_ns > 0) and
		all(.tasks[]; has("switch_saved_p99_ns")) and
		all(.tasks[]; (.cpu == null or (.cpu >= 0 and .cpu < $cpus)) and
			      (.hint | IN("none", "waiting", "applied", "failed")))'
}

# grab URL PATH NAME: a body into $work/formats/NAME, its status beside it.
grab() {
	curl -s -m 60 -o "$work/formats/$3" -w '%{http_code}' "$1$2" > "$work/formats/$3.status"
}

grab_busy_slots() {
	grab "$real_url" /slots real-slots-busy &&
	jq -e 'any(.[]; .is_processing)' "$work/formats/real-slots-busy" > /dev/null
}

# The stand-in's bodies against the real server's, taken here: /health (and
# the 503 while loading, when a poll saw one), /slots idle, with a slot
# processing a streamed request, and after it, /metrics, and the 501s without
# --metrics and with --no-slots. Every JSON path of each stand-in slot must
# be in one of the real slots with the same type, every llamacpp: series it
# serves in the real /metrics with the same TYPE, the other bodies must have
# the same paths and types, and every status must be the real one.
standin_formats() {
	local standin_url=http://127.0.0.1:$port
	rm -rf "$work/formats" && mkdir "$work/formats" || return 1
	start_real --metrics || return 1
	[ ! -f "$work/real-loading" ] || cp "$work/real-loading" "$work/formats/real-loading"
	grab "$real_url" /health real-health
	grab "$real_url" /slots real-slots-idle
	rm -f "$work"/stream-*
	stream 16 "$work/stream-1"
	wait_for 120 grab_busy_slots || { echo "no /slots answer with a slot processing"; return 1; }
	grab "$real_url" /metrics real-metrics-busy
	wait "$!" || { echo "the stream did not end"; return 1; }
	grab "$real_url" /slots real-slots-after
	grab "$real_url" /metrics real-metrics
	start_real --no-slots || return 1
	grab "$real_url" /metrics real-no-metrics
	grab "$real_url" /slots real-no-slots
	stop_real
	start_standin || return 1
	grab "$standin_url" /health standin-health
	grab "$standin_url" /slots standin-slots
	grab "$standin_url" /metrics standin-metrics
	start_standin --no-metrics --no-slots || return 1
	grab "$standin_url" /metrics standin-no-metrics
	grab "$standin_url" /slots standin-no-slots
	start_standin --loading || return 1
	grab "$standin_url" /health standin-loading
	stop_standin
	compare_formats "$work/formats" | tee "$work/formats/report"
}

# compare_formats DIR: the checks of standin_formats on its captures.
compare_formats() {
	/usr/bin/python3 - "$1" <<'EOF'
import json, os, re, sys
d = sys.argv[1]
failed = []

def body(name):
    return open(os.path.join(d, name)).read()

def status(name):
    return body(name + ".status").strip()

def shape(value, path="", into=None):
    """{path: {type names}}: list items under PATH[], object members PATH.KEY."""
    into = {} if into is None else into
    into.setdefault(path, set()).add(type(value).__name__)
    if isinstance(value, dict):
        for key, v in value.items():
            shape(v, f"{path}.{key}" if path else key, into)
    elif isinstance(value, list):
        for v in value:
            shape(v, path + "[]", into)
    return into

def within(small, big):
    """The paths of SMALL missing from BIG or with other types there."""
    return sorted(f"{p} ({'/'.join(sorted(t))})" for p, t in small.items()
                  if not t <= big.get(p, set()))

def check(ok, what):
    print(("" if ok else "MISMATCH ") + what)
    if not ok:
        failed.append(what)

# Statuses: what rvvtop tells the states by.
for real, standin in [("real-health", "standin-health"), ("real-slots-idle", "standin-slots"),
                      ("real-metrics", "standin-metrics"), ("real-no-metrics", "standin-no-metrics"),
                      ("real-no-slots", "standin-no-slots")]:
    check(status(real) == status(standin),
          f"{standin}: status {status(standin)}, the real server's {status(real)}")

# /slots: each stand-in slot fits one real slot (idle, busy or after a task).
real_slots = [s for name in ("real-slots-idle", "real-slots-busy", "real-slots-after")
              for s in json.loads(body(name))]
real_shapes = [shape(s) for s in real_slots]
check(any(s.get("is_processing") and "id_task" in s for s in real_slots),
      "the real /slots had a slot processing a task")
for slot in json.loads(body("standin-slots")):
    mine = shape(slot)
    best = min((within(mine, r) for r in real_shapes), key=len)
    check(not best, f"stand-in slot {slot.get('id')}: paths and types in a real slot"
          + (f"; not: {', '.join(best)}" if best else ""))
# What rvvtop reads of a slot, in both (next_token: an array of one here).
reads = {"id": "int", "id_task": "int", "is_processing": "bool", "next_token[].n_decoded": "int"}
for who, slots in [("real", real_slots), ("stand-in", json.loads(body("standin-slots")))]:
    have = {}
    for s in slots:
        for p, t in shape(s).items():
            have.setdefault(p, set()).update(t)
    for p, t in reads.items():
        check(have.get(p) == {t}, f"{who} /slots: {p} is {t} ({'/'.join(sorted(have.get(p, ()))) or 'absent'})")

# /metrics: each llamacpp: series the stand-in serves, with its # TYPE.
def metrics(text):
    types, samples = {}, set()
    for line in text.splitlines():
        if line.startswith("# TYPE "):
            _, _, name, kind = line.split()
            types[name] = kind
        elif line and not line.startswith("#"):
            name, value = re.split(r"[{ \t]", line, maxsplit=1)[0], line.split()[-1]
            float(value)
            samples.add(name)
    return types, samples
real_types, real_samples = metrics(body("real-metrics"))
busy_types, busy_samples = metrics(body("real-metrics-busy"))
standin_types, standin_samples = metrics(body("standin-metrics"))
check(real_types == busy_types and real_samples == busy_samples,
      "the real /metrics has the same series busy and idle")
for name in sorted(standin_samples):
    if name.startswith("llamacpp:"):
        check(name in real_samples and standin_types.get(name) == real_types.get(name),
              f"stand-in series {name} {standin_types.get(name)}: real {real_types.get(name, 'absent')}")

# The other JSON bodies: the same paths and types; /health the same body.
check(json.loads(body("standin-health")) == json.loads(body("real-health")),
      f"stand-in /health {body('standin-health')!r}: real {body('real-health')!r}")
pairs = [("real-no-metrics", "standin-no-metrics"), ("real-no-slots", "standin-no-slots")]
if os.path.exists(os.path.join(d, "real-loading")):
    pairs.append(("real-loading", "standin-loading"))
    check(json.loads(body("real-loading"))["error"]["message"]
          == json.loads(body("standin-loading"))["error"]["message"],
          "the loading message is the real one")
else:
    print("(the real server answered no 503 while loading: not compared)")
for real, standin in pairs:
    a, b = shape(json.loads(body(real))), shape(json.loads(body(standin)))
    check(a == b, f"{standin}: paths and types of {real}"
          + (f"; differ: {sorted(set(a.items()) ^ set(b.items()))}" if a != b else ""))
sys.exit(1 if failed else 0)
EOF
}

bad_usage() {
	local status
	for args in "-b --json" "-b -d 0" "-b --llama ftp://x" "-b -p x" "-b extra" \
		"-b --llama-timeout 0" "-b --llama-timeout 60001" "-b --llama-timeout 1s"; do
		status=0
		# shellcheck disable=SC2086 # one word per argument
		rvvtop $args > "$work/err" 2>&1 || status=$?
		cat "$work/err"
		[ "$status" = 2 ] || return 1
	done
}

load_module
# Until stopped below (1000 s outlasts the boot): a loaded host stretches the checks.
start_workload 1 vecload -t 2 -d 1000 -m mixed
check live_rates_match_what_was_served live_rates
check server_states_are_named server_states
check server_restart_is_noticed server_restart
# real_check NAME FUNCTION: a check against the real server, skipped without
# one (tests/run has said why, and under CI=true failed the run).
real_check() {
	if [ -n "$llama_bin" ]; then
		check "$@"
	else
		skip "$1" "no real llama-server (--server PATH --model PATH)"
	fi
}

real_check real_metrics_disabled_is_named real_metrics_disabled
real_check real_up_without_slots_has_no_live_rate real_up_without_slots
real_check batch_text_shows_both_panels batch_text
# For the log.
[ ! -f "$work/text" ] || sed 's/^/# text| /' "$work/text"
check module_reload_reconnects module_comes_and_goes
real_check standin_speaks_like_the_real_server standin_formats
[ ! -f "$work/formats/report" ] || sed 's/^/# formats| /' "$work/formats/report"
check bad_usage_exits_2 bad_usage
stop_workload
unload_and_end
