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
tests=0 failures=0

check() {
	local name=$1
	shift
	[ -z "${tap_only:-}" ] || [[ " $tap_only " == *" $name "* ]] || return 0
	tests=$((tests + 1))
	if "$@" > "$work/out" 2>&1; then
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
