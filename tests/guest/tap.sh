# SPDX-License-Identifier: GPL-2.0
# TAP for the guest's shell suites, sourced after they set
#   tap_prefix   put before each test name ("rvvctl", "rvvtop")
#   work         a scratch directory of the suite
#   tap_only     names of the checks to run, space-separated; empty: all
#                (the suites take them as arguments, for working on one)
# check NAME COMMAND... prints "ok N PREFIX.NAME" or, with the command's
# output as comments, "not ok N PREFIX.NAME"; skip NAME WHY prints
# "ok N PREFIX.NAME # SKIP WHY"; tap_end says how many failed and returns
# non-zero if any did.
# A check gets check_limit seconds (300 unless the suite sets it). Past that
# a watchdog prints, on lines "# HANG ..." (tests/run shows them), what each
# process of the guest waits in, then stops the processes the check started:
# a hang fails that check and names it, instead of timing the boot out.
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
