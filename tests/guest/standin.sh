# SPDX-License-Identifier: GPL-2.0
# The stand-in llama-server (llama-standin.py) for the guest's shell suites,
# sourced after they set $work (a scratch directory). start_standin
# [OPTIONS...] starts a fresh one on $port, logging what it serves to
# $work/served; stop_standin stops it (also at exit: call it from the
# suite's EXIT trap). stop_process stops any other server of a suite.
here=$(dirname "$(readlink -f "$0")")
standin=$here/llama-standin.py
[ -f "$standin" ] || standin=/bin/llama-standin.py
server=
port=18080

start_standin() {
	stop_standin
	: > "$work/served"
	/usr/bin/python3 "$standin" "$port" "$work/served" "$@" &
	# shellcheck disable=SC2034 # stop_process empties it by name
	server=$!
	for _ in $(seq 300); do	# python starts slowly under TCG
		curl -s -o /dev/null "http://127.0.0.1:$port/health" && return 0
		sleep 0.1
	done
	echo "stand-in did not start"
	return 1
}

stop_standin() {
	stop_process server
}

# stop_process VAR: kills and reaps the process whose PID VAR holds (if it
# holds one), and empties VAR.
stop_process() {
	local -n process=$1
	[ -z "$process" ] && return 0
	kill "$process" 2> /dev/null
	wait "$process" 2> /dev/null
	process=
}
