# SPDX-License-Identifier: GPL-2.0
# TAP and the common frame of the guest's shell suites, sourced first by
# each after it sets
#   tap_prefix   put before each test name ("rvvctl", "rvvtop")
# It sets -uo pipefail, $module (the module to load), $here (the suite's
# directory, where the other sourced helpers are), $work (a scratch
# directory, removed at exit) and $tap_only (the suite's arguments: names
# of the checks to run; empty: all).
# at_exit COMMAND runs COMMAND at exit, before $work goes.
# check NAME COMMAND... prints "ok N PREFIX.NAME" or, with the command's
# output as comments, "not ok N PREFIX.NAME"; skip NAME WHY prints
# "ok N PREFIX.NAME # SKIP WHY"; tap_end says how many failed and returns
# non-zero if any did.
# load_module [PARAM=VALUE...] loads the module or ends the suite failing;
# unload_and_end unloads it (a failure counts) and ends as tap_end does.
# start_workload SETTLE COMMAND... runs COMMAND in the background as
# $workload, then waits SETTLE seconds for its threads to switch;
# stop_workload stops it (at exit too).
# A check gets check_limit seconds (300 unless the suite sets it). Past that
# a watchdog prints, on lines "# HANG ..." (tests/run shows them), what each
# process of the guest waits in, then stops the processes the check started:
# a hang fails that check and names it, instead of timing the boot out.
set -uo pipefail
module=/lib/modules/rvvstat.ko
here=$(dirname "$(readlink -f "$0")")
work=$(mktemp -d)
tap_only="$*"
exit_hooks=()
at_exit() {
	exit_hooks+=("$1")
}
trap 'for hook in "${exit_hooks[@]}"; do eval "$hook"; done; rm -rf "$work"' EXIT
tests=0 failures=0
check_limit=${check_limit:-300}

# watch_check NAME PIDS: the watchdog of check NAME; PIDS are the suite's
# children from before it, which it leaves alone.
watch_check() {
	local sleeper pid
	trap 'kill "$sleeper" 2> /dev/null; exit 0' TERM
	sleep "$check_limit" &
	sleeper=$!
	wait "$sleeper"
	echo "# HANG $tap_prefix.$1 still runs after $check_limit s; the guest's processes:"
	ps -eo pid,ppid,stat,wchan:28,etime,args --forest | cut -c 1-160 | sed 's/^/# HANG /'
	for pid in $(ps -eo pid=,stat= | awk '$2 ~ /^D/ { print $1 }'); do
		sed "s/^/# HANG $pid: /" "/proc/$pid/stack"
	done
	: > "$work/hung"
	for pid in $(pgrep -P $$); do
		[ "$pid" = "$BASHPID" ] || [[ " $2 " == *" $pid "* ]] || kill "$pid"
	done
}

check() {
	local name=$1 before watchdog status=0
	shift
	[ -z "${tap_only:-}" ] || [[ " $tap_only " == *" $name "* ]] || return 0
	tests=$((tests + 1))
	rm -f "$work/hung"
	before=$(pgrep -P $$ | tr '\n' ' ')
	watch_check "$name" "$before" &
	watchdog=$!
	"$@" > "$work/out" 2>&1 || status=$?
	kill "$watchdog" 2> /dev/null
	wait "$watchdog" 2> /dev/null
	[ ! -e "$work/hung" ] || { status=1; echo "stopped after $check_limit s" >> "$work/out"; }
	if [ "$status" = 0 ]; then
		echo "ok $tests $tap_prefix.$name"
	else
		failures=$((failures + 1))
		sed 's/^/# /' "$work/out"
		echo "not ok $tests $tap_prefix.$name"
	fi
}

skip() {
	[ -z "${tap_only:-}" ] || [[ " $tap_only " == *" $1 "* ]] || return 0
	tests=$((tests + 1))
	echo "ok $tests $tap_prefix.$1 # SKIP $2"
}

tap_end() {
	echo "# $tests tests, $failures failed"
	[ "$failures" = 0 ]
}

load_module() {
	insmod "$module" "$@" && return 0
	echo "not ok $((tests + 1)) $tap_prefix.module_loads"
	exit 1
}

# rmmod refuses ("in use") while a reader holds the module for a moment: a
# netlink dump in progress or an open /dev/rvvstat. Readers in these tests
# come and go (Prometheus scrapes every second), so try for up to 10 s.
unload_module() {
	local tries=50
	until rmmod rvvstat 2> /dev/null; do
		tries=$((tries - 1))
		[ "$tries" -gt 0 ] || { rmmod rvvstat; return; }
		sleep 0.2
	done
}

unload_and_end() {
	unload_module || failures=$((failures + 1))
	tap_end
}

workload=
start_workload() {
	local settle=$1
	shift
	"$@" > /dev/null &
	workload=$!
	sleep "$settle"
}
stop_workload() {
	[ -n "$workload" ] || return 0
	kill "$workload" 2> /dev/null
	wait "$workload" 2> /dev/null
	workload=
}
at_exit stop_workload
