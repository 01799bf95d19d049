# SPDX-License-Identifier: GPL-2.0
# The stand-in llama-server (llama-standin.py) for the shell suites, in the
# guest and on the host (tests/unit/tools-check), sourced after they set
# $work (a scratch directory). start_standin [OPTIONS...] starts a fresh one
# on port $standin_listen (18080 unless set; 0, a free port, where other
# runs share the machine), sets $port to the port it got, and logs what it
# serves to $work/served; stop_standin stops it (at exit too, in a suite
# that sourced tap.sh first). stop_process stops any other server of a suite.
standin=$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/llama-standin.py
server=
standin_listen=${standin_listen:-18080}
port=$standin_listen
! declare -F at_exit > /dev/null || at_exit stop_standin

start_standin() {
	stop_standin
	: > "$work/served"
	rm -f "$work/standin.port"
	/usr/bin/python3 "$standin" "$standin_listen" "$work/served" \
		--port-file "$work/standin.port" "$@" &
	# shellcheck disable=SC2034 # stop_process empties it by name
	server=$!
	for _ in $(seq 300); do	# python starts slowly under TCG
		if [ -s "$work/standin.port" ]; then
			port=$(cat "$work/standin.port")
			curl -s -m 5 -o /dev/null "http://127.0.0.1:$port/health" && return 0
		fi
		alive "$server" || break
		sleep 0.1
	done
	echo "stand-in did not start (llama-standin.py $standin_listen ${*:-})"
	return 1
}

stop_standin() {
	stop_process server
}

# stop_process VAR: kills and reaps the process whose PID VAR holds (if it
# holds one), and empties VAR. SIGTERM, then SIGKILL after 20 s: a server
# that hangs on its way out must not hang the suite.
stop_process() {
	local -n process=$1
	local tries=200
	[ -z "$process" ] && return 0
	kill "$process" 2> /dev/null
	while alive "$process" && [ "$tries" -gt 0 ]; do
		tries=$((tries - 1))
		sleep 0.1
	done
	if alive "$process"; then
		echo "$1 (pid $process) still ran 20 s after SIGTERM: SIGKILL" >&2
		kill -KILL "$process"
	fi
	wait "$process" 2> /dev/null
	process=
}

# alive PID: PID runs (not a zombie waiting to be reaped).
alive() {
	local stat
	stat=$(cat "/proc/$1/stat" 2> /dev/null) || return 1
	[[ ${stat##*) } != Z* ]]
}
