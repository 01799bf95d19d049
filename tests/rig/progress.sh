# SPDX-License-Identifier: GPL-2.0
# Sourced by the rig's long builds (build-kernel, build-llama).

# with_progress LOG LABEL COMMAND...: runs COMMAND (a function too) with its
# output appended to LOG, saying once a minute on stderr that it goes on and
# where it is (the log's last line), so that a first run building for many
# minutes does not look hung. Returns COMMAND's status.
with_progress() {
	local log=$1 label=$2 pid start=$SECONDS
	shift 2
	"$@" >> "$log" 2>&1 &
	pid=$!
	# tail --pid returns when the build ends; timeout's 124 is another minute.
	while ! timeout 60 tail --pid="$pid" -f /dev/null; do
		echo "$label: $(( (SECONDS - start) / 60 )) min so far: $(tail -n 1 "$log" |
			tr -d '\r' | cut -c1-100)" >&2
	done
	wait "$pid"
}
