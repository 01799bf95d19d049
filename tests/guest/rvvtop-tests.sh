#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# rvvtop's batch and JSON modes against the real module and a stand-in
# llama-server (tests/guest/llama-standin.py) in the x86_64 guest. Rates are
# checked against what the stand-in logged it served, and the module's
# numbers against rvvctl snapshots taken around the run. TAP lines as
# tool-tests.sh prints them.
set -uo pipefail

module=/lib/modules/rvvstat.ko
work=$(mktemp -d)
trap 'stop_standin; rm -rf "$work"' EXIT
tap_prefix=rvvtop
# shellcheck source=tap.sh
. "$(dirname "$(readlink -f "$0")")/tap.sh"
tap_only="$*"
# shellcheck source=standin.sh
. "$(dirname "$(readlink -f "$0")")/standin.sh"

# rvvtop's intervals against what the stand-in served and against rvvctl.
live_rates() {
	start_standin || return 1
	rvvctl snapshot > "$work/before.json" &&
	rvvtop --json -d 1 -n 4 --llama "http://127.0.0.1:$port" > "$work/json" &&
	rvvctl snapshot > "$work/after.json" &&
	/usr/bin/python3 - "$work/json" "$work/served" "$work/before.json" "$work/after.json" <<'EOF'
import json, sys
intervals = [json.loads(line) for line in open(sys.argv[1])]
served = [json.loads(line) for line in open(sys.argv[2])]
before, after = (json.load(open(p)) for p in sys.argv[3:5])
slots = [s["slots"] for s in served if s["path"] == "/slots"]
metrics = [s for s in served if s["path"] == "/metrics"]

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

assert len(intervals) == 4 and len(slots) == 5 and len(metrics) == 5, (len(intervals), len(slots), len(metrics))
switches = 0
for k, v in enumerate(intervals, 1):
    l = v["llama"]
    want = decoded(slots[k - 1], slots[k])
    switches += slots[k - 1][1]["id_task"] != slots[k][1]["id_task"]
    assert l["state"] == "up" and l["slots"] == 2 and l["busy_slots"] == 1, l
    assert l["decoded"] == want, (k, l["decoded"], want)
    assert abs(l["tokens_per_s"] - want / v["seconds"]) < 1e-6 * want + 1e-9, l
    assert l["generated_tokens_done"] == metrics[k]["predicted"] - metrics[k - 1]["predicted"], (k, l)
    assert l["prompt_tokens_done"] == metrics[k]["prompt"] - metrics[k - 1]["prompt"], (k, l)
    assert v["module"] and not v["reset"], v
    assert abs(l["saves_per_token"] - v["total"]["saves"] / want) < 1e-9, l
assert switches >= 1, "no task switch between readings"
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
state_is() {
	local state=$1 condition=$2
	shift 3
	start_standin "$@" || return 1
	rvvtop --json -d 1 -n 2 --llama "http://127.0.0.1:$port" > "$work/json" &&
	jq -e -s --arg state "$state" "all(.[]; .llama.state == \$state and ($condition))" "$work/json"
}

server_states() {
	state_is loading '.llama.decoded == null' -- --loading &&
	state_is 'metrics disabled' '.llama.decoded == 30 and .llama.generated_tokens_done == null' -- --no-metrics &&
	state_is up '.llama.decoded == null and .llama.tokens_per_s == null' -- --no-slots &&
	state_is down '(.llama.why | test("Timeout|timed out")) and .seconds < 4' -- --slow 1500 &&
	stop_standin &&
	rvvtop --json -n 1 --llama "http://127.0.0.1:$port" > "$work/json" &&
	jq -e '.llama.state == "down" and (.llama.why | test("connect"))' "$work/json"
}

# The stand-in's counters first move at the 4th /metrics (a task ended) and
# are reset at the 5th: the 4th interval says so, the next ones recover.
server_restart() {
	start_standin --restart-after 4 || return 1
	rvvtop --json -d 1 -n 6 --llama "http://127.0.0.1:$port" > "$work/json" &&
	jq -e -s '[.[].llama.restarted] == [false, false, false, true, false, false]
	          and .[3].llama.generated_tokens_done == null
	          and .[2].llama.generated_tokens_done == 65' "$work/json"
}

# rmmod and insmod under a running rvvtop: it says so and reconnects.
module_comes_and_goes() {
	rvvtop --json -d 1 -n 12 --no-llama > "$work/json" &
	local top=$!
	sleep 2.5
	rmmod rvvstat || return 1
	sleep 2
	insmod "$module" || return 1
	wait "$top" || return 1
	jq -c '{module, module_why, cpus: (.cpus | length)}' "$work/json"
	jq -e -s 'length == 12 and .[0].module
	          and any(.[]; (.module | not) and (.module_why | test("not loaded")))
	          and .[-1].module and (.[-1].cpus | length) > 0' "$work/json"
}

batch_text() {
	start_standin || return 1
	rvvtop -b -n 2 --llama "http://127.0.0.1:$port" > "$work/text" &&
	grep -q '^llama-server: up$' "$work/text" &&
	grep -q '^  generating [0-9.]* tok/s' "$work/text" &&
	grep -q '^cpu ' "$work/text" &&
	grep -q ' vecload ' "$work/text" &&
	# Each task's last CPU is one of ours (or null) and its hint state a name.
	rvvtop --json -n 1 --no-llama | jq -e --argjson cpus "$(nproc)" '
		(.tasks | length) > 0 and (.cpus | length) == $cpus and
		all(.cpus[]; .p99_save_switch_ns >= 0) and
		all(.tasks[]; (.cpu == null or (.cpu >= 0 and .cpu < $cpus)) and
			      (.hint | IN("none", "waiting", "applied", "failed")))'
}

bad_usage() {
	local status
	for args in "-b --json" "-b -d 0" "-b --llama ftp://x" "-b -p x" "-b extra"; do
		status=0
		# shellcheck disable=SC2086 # one word per argument
		rvvtop $args > "$work/err" 2>&1 || status=$?
		cat "$work/err"
		[ "$status" = 2 ] || return 1
	done
}

insmod "$module" || { echo "not ok 1 rvvtop.module_loads"; exit 1; }
vecload -t 2 -d 300 -m mixed > /dev/null &
workload=$!
sleep 1
check live_rates_match_what_was_served live_rates
check server_states_are_named server_states
check server_restart_is_noticed server_restart
check batch_text_shows_both_panels batch_text
# For the log (and the README's capture).
[ ! -f "$work/text" ] || sed 's/^/# text| /' "$work/text"
check module_reload_reconnects module_comes_and_goes
check bad_usage_exits_2 bad_usage
kill "$workload" 2> /dev/null
wait "$workload" 2> /dev/null
rmmod rvvstat || failures=$((failures + 1))
tap_end
