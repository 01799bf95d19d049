#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What rvvtop costs (tests/bench/run --only rvvtop), in the x86_64 guest (4 vCPUs,
# the host's root, so Debian's tmux, procps top and jq): "at a 1 s interval
# with 2 000 threads it uses at most 1 % of a CPU".
#   rvvtop-bench.sh [-t THREADS] [-p PERIOD_MS] [-w WINDOW_SECONDS]
# threadload starts THREADS threads (default 2000) that each make their
# vector state live and wake every PERIOD_MS (default 1000, phases spread),
# so every one of them has a row in the module's task table and its counts
# move in (nearly) every 1 s interval. Then four monitors run at -d 1, side
# by side:
#   rvvtop --json -d 1 --no-llama    its task rows per interval are counted
#   rvvtop -b -d 1 --no-llama
#   rvvtop -d 1 --no-llama           the interactive view, in a detached
#                                    tmux session of 80x24 (quits on q)
#   top -H -b -d 1                   the baseline: a row per thread of the
#                                    system, every interval
# (all but the interactive one to files in tmpfs, no reader). Each one's CPU
# time (utime + stime of /proc/PID/stat) over the same wall window of
# WINDOW_SECONDS (default 30), after a warm-up, is printed as a share of one
# CPU and per interval it wrote, and rvvtop's as ratios to top's.
# Lines start "bench: ";
# the last is "bench: done". Exits 1 if the measurement itself is broken
# (threads missing, a monitor died, the table full); never on the figures.
#
# Side by side, not one after the other: QEMU's single TCG thread emulates
# the vCPUs in turn, and the guest charges a running task for wall time,
# including the turns of the other busy vCPUs. Concurrent monitors share
# one window, one host load (other jobs on the machine) and one mix of busy
# vCPUs, so that inflation is common to all four and cancels in the ratios;
# in sequence, each would get a different slice of a noisy host. The cost:
# each monitor also sees the others' few threads, next to THREADS.
set -euo pipefail

threads=2000 period=1000 window=30
while getopts t:p:w: opt; do
	case $opt in
	t) threads=$OPTARG ;;
	p) period=$OPTARG ;;
	w) window=$OPTARG ;;
	*) echo "usage: rvvtop-bench.sh [-t THREADS] [-p PERIOD_MS] [-w WINDOW_SECONDS]" >&2; exit 2 ;;
	esac
done

module=/lib/modules/rvvstat.ko
work=$(mktemp -d)
# No rc files: top's and tmux's defaults.
export HOME=$work
tmux=(tmux -L rvvtop-bench -f /dev/null)
load='' monitors=() before=() after=() before_kernel=() after_kernel=() intervals=()
cleanup() {
	local pid
	for pid in $load "${monitors[@]}"; do
		kill "$pid" 2> /dev/null || true
	done
	"${tmux[@]}" kill-server 2> /dev/null || true
	wait 2> /dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT

say() { echo "bench: rvvtop: $*"; }
fail() {
	echo "bench: FAIL: rvvtop: $*"
	exit 1
}

# alive PID: running, not a zombie (a dead child stays one until waited for).
alive() {
	local stat
	read -r stat < "/proc/$1/stat" 2> /dev/null || return 1
	stat=${stat##*) }
	[ "${stat%% *}" != Z ]
}

# ticks VAR PID: VAR = utime + stime of PID, in clock ticks. Builtins only, so
# that a snapshot of all the monitors is quick. comm may hold spaces.
# ticks TOTAL KERNEL PID: PID's CPU ticks so far, user + kernel, and kernel.
ticks() {
	local stat fields
	read -r stat < "/proc/$3/stat" 2> /dev/null || return 1
	read -r -a fields <<< "${stat##*) }"
	# Fields 14 and 15 of the file; the ones up to comm's end are gone.
	printf -v "$1" %s $((fields[11] + fields[12]))
	printf -v "$2" %s "${fields[12]}"
}

# busy_idle: "busy idle" ticks of all CPUs so far (/proc/stat).
busy_idle() {
	awk '$1 == "cpu" { idle = $5 + $6; for (i = 2; i <= NF; i++) all += $i
	                   print all - idle, idle; exit }' /proc/stat
}

# wait_for SECONDS COMMAND...: until COMMAND succeeds; 1 if it did not in time.
wait_for() {
	local deadline=$((SECONDS + $1))
	shift
	until "$@"; do
		[ "$SECONDS" -lt "$deadline" ] || return 1
		sleep 0.2
	done
}

# The interactive rvvtop's exit status, once it has exited.
view_exited() { [ -s "$work/view.status" ]; }
# screen [N]: the first N (3) lines of the pane that are not blank, on one line.
screen() {
	"${tmux[@]}" capture-pane -p -t top |
		awk -v n="${1:-3}" 'NF && !/^Pane is dead/ && n-- > 0 { printf "%s ", $0 }'
}

json_intervals_at_least() { [ "$(wc -l < "$work/out0")" -ge "$1" ]; }
load_ready() { grep '^threadload: ready' "$work/load" > /dev/null; }

# starting FILE FROM TO [REGEX]: the lines of FILE that start at a byte offset
# in [FROM, TO) and match REGEX: what a monitor wrote inside the window.
starting() {
	LC_ALL=C awk -v from="$2" -v to="$3" -v re="${4:-}" \
		'at >= from && at < to && $0 ~ re; { at += length($0) + 1 }' "$1"
}

insmod "$module"
table_size=$(cat /sys/module/rvvstat/parameters/table_size)
[ "$table_size" -ge $((threads + 1000)) ] ||
	fail "table_size=$table_size holds no row for each of $threads threads and the system's"

threadload -t "$threads" -p "$period" > "$work/load" &
load=$!
# Creating them under TCG takes a while.
wait_for 600 load_ready || fail "threadload did not start $threads threads: $(cat "$work/load")"
say "$threads threads of threadload (pid $load), each waking every $period ms with" \
    "vector state live; rvvstat with its default parameters (table_size $table_size)"

# The monitors: 0-2 write to files in tmpfs (a copy into memory per write, as
# cheap as /dev/null next to making the rows) so that their intervals can be
# counted; the first line of each interval matches marks[i]. 3 is the
# interactive view. rvvtop's --json rows are read from out0 afterwards.
names=("rvvtop --json" "rvvtop -b" "top -H -b" "rvvtop -d 1 (interactive, tmux 80x24)")
marks=('^[{]' '^== interval' '^top - ')
rvvtop --json -d 1 --no-llama > "$work/out0" 2> "$work/err0" &
monitors+=($!)
rvvtop -b -d 1 --no-llama > "$work/out1" 2> "$work/err1" &
monitors+=($!)
top -H -b -d 1 > "$work/out2" 2> "$work/err2" &
monitors+=($!)
# A shell in the pane records rvvtop's exit status: tmux's own pane_dead_status
# stayed empty in the guest. remain-on-exit keeps the pane's last screen.
# shellcheck disable=SC2016 # for the pane's shell
shell=$("${tmux[@]}" start-server \; set-option -g remain-on-exit on \; \
	new-session -d -s top -x 80 -y 24 -P -F '#{pane_pid}' \
	sh -c 'rvvtop -d 1 --no-llama; echo $? > "$0"' "$work/view.status")

# Warm-up: every monitor past its start and first interval.
wait_for 300 json_intervals_at_least 2 ||
	fail "rvvtop --json wrote no interval: $(cat "$work/err0")"
sleep 1
for i in 0 1 2; do
	alive "${monitors[i]}" || fail "${names[i]} died in the warm-up: $(cat "$work/err$i")"
done
! view_exited || fail "the interactive rvvtop exited with status $(cat "$work/view.status"): $(screen)"
monitors[3]=$(pgrep -P "$shell" -x rvvtop) || fail "no rvvtop in the tmux pane: $(screen)"

# The window: CPU ticks of each monitor at both ends, taken together.
t0=$EPOCHREALTIME
for i in "${!monitors[@]}"; do
	ticks "before[$i]" "before_kernel[$i]" "${monitors[i]}" || fail "${names[i]} died before the window: $(screen)"
done
read -r -a size0 <<< "$(stat -c %s "$work"/out[012] | tr '\n' ' ')"
read -r busy0 idle0 <<< "$(busy_idle)"
sleep "$window"
t1=$EPOCHREALTIME
for i in "${!monitors[@]}"; do
	ticks "after[$i]" "after_kernel[$i]" "${monitors[i]}" ||
		fail "${names[i]} died in the window: $(cat "$work/err$i" 2> /dev/null || screen)"
done
read -r -a size1 <<< "$(stat -c %s "$work"/out[012] | tr '\n' ' ')"
read -r busy1 idle1 <<< "$(busy_idle)"
nr_threads=$(awk '$1 == "Threads:" { print $2 }' "/proc/$load/status")
[ "$nr_threads" = $((threads + 1)) ] ||
	fail "threadload has $nr_threads threads at the end of the window, not $((threads + 1))"

# Stop them: the interactive view with its own key, the others with SIGTERM.
"${tmux[@]}" send-keys -t top q
wait_for 10 view_exited || fail "the interactive rvvtop did not quit on q: $(screen)"
[ "$(cat "$work/view.status")" = 0 ] ||
	fail "the interactive rvvtop quit with status $(cat "$work/view.status"): $(screen)"
unset 'monitors[3]'
for pid in "${monitors[@]}"; do
	kill "$pid"
	wait "$pid" 2> /dev/null || true
done
monitors=()
kill "$load"
wait "$load" || fail "threadload failed: $(cat "$work/load")"
load_pid=$load load=''

# The intervals the --json rvvtop began writing inside the window: rows in
# all, the load's rows, and the load's rows whose saves moved in it.
starting "$work/out0" "${size0[0]}" "${size1[0]}" |
	jq -r --argjson pid "$load_pid" '
		if .module and (.reset | not) then
			[(.tasks | length), ([.tasks[] | select(.tgid == $pid)] | length),
			 ([.tasks[] | select(.tgid == $pid and .saves > 0)] | length)]
		else ["no module"] end | @tsv' > "$work/rows"
! grep -v '^[0-9]' "$work/rows" > /dev/null ||
	fail "rvvtop --json had no module or a reset in an interval of the window"
[ -s "$work/rows" ] || fail "rvvtop --json wrote no interval in the window"
# column N: "min median max" of that column of $work/rows.
column() {
	cut -f "$1" "$work/rows" | sort -n |
		awk '{ v[NR] = $1 } END { printf "%d %d %d", v[1], v[int((NR + 1) / 2)], v[NR] }'
}
read -r rows_min rows_med rows_max <<< "$(column 1)"
read -r own_min _ own_max <<< "$(column 2)"
read -r moved_min moved_med moved_max <<< "$(column 3)"
[ "$own_min" -ge "$threads" ] ||
	fail "an interval of rvvtop --json had only $own_min rows of threadload's $threads threads"
full=$(awk 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "table_full") col = i; next }
	    col { sum += $col } END { print col ? sum : "none" }' /sys/kernel/debug/rvvstat/cpus)
[ "$full" = 0 ] || fail "the module's table_full is $full, not 0"
rmmod rvvstat

wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
hz=$(getconf CLK_TCK)
for i in 0 1 2; do
	intervals[i]=$(starting "$work/out$i" "${size0[i]}" "${size1[i]}" "${marks[i]}" | wc -l)
	[ "${intervals[i]}" -gt 0 ] || fail "${names[i]} wrote no interval in the window"
done
# share I: monitor I's share of one CPU over the window, in %.
share() {
	awk -v a="${before[$1]}" -v b="${after[$1]}" -v hz="$hz" -v t0="$t0" -v t1="$t1" \
		'BEGIN { printf "%.2f", (b - a) / hz / (t1 - t0) * 100 }'
}
# kernel_part I: the share of monitor I's CPU time spent in the kernel (its
# netlink dumps or /proc reads), in percent.
kernel_part() {
	awk -v a="${before[$1]}" -v b="${after[$1]}" -v ka="${before_kernel[$1]}" \
		-v kb="${after_kernel[$1]}" 'BEGIN { printf "%.0f", (b > a ? (kb - ka) / (b - a) * 100 : 0) }'
}
# per_interval I: monitor I's CPU milliseconds per interval it wrote.
per_interval() {
	awk -v a="${before[$1]}" -v b="${after[$1]}" -v hz="$hz" -v n="${intervals[$1]}" \
		'BEGIN { printf "%.0f", (b - a) / hz / n * 1000 }'
}
ratio() { awk -v x="$1" -v y="$2" 'BEGIN { if (y > 0) printf "%.2f", x / y; else print "n/a" }'; }

say "four monitors side by side at -d 1 over the same $wall s window;" \
    "guest CPUs ($(nproc)) $(awk -v b=$((busy1 - busy0)) -v i=$((idle1 - idle0)) \
	'BEGIN { printf "%.0f", b / (b + i) * 100 }')% busy"
say "task rows per interval in rvvtop --json (${intervals[0]} intervals):" \
    "min $rows_min, median $rows_med, max $rows_max; threadload's $own_min..$own_max;" \
    "of those with saves in the interval: median $moved_med (min $moved_min, max $moved_max)"
say "threadload's $(sed -n 's/^threadload: wakes //p' "$work/load") (wake-ups per thread; total)"
top_share=$(share 2) top_ms=$(per_interval 2)
for i in 0 1; do
	x=$(share "$i") ms=$(per_interval "$i")
	echo "bench: ${names[i]}: $x% of a CPU over $wall s ($threads threads; $(kernel_part "$i")% in the kernel);" \
	     "top -H -b: $top_share%; ratio X/Y = $(ratio "$x" "$top_share"); per interval $ms ms" \
	     "against $top_ms ms (${intervals[i]} and ${intervals[2]} intervals), ratio $(ratio "$ms" "$top_ms")"
done
x=$(share 3)
echo "bench: ${names[3]}: $x% of a CPU over $wall s ($threads threads; $(kernel_part 3)% in the kernel); top -H -b: $top_share%;" \
     "ratio X/Y = $(ratio "$x" "$top_share")"
echo "bench: top -H -b -d 1 (baseline): $top_share% of a CPU over $wall s ($(kernel_part 2)% in the kernel), $top_ms ms per interval"
say "guest CPU time under QEMU TCG: every instruction is emulated, and the guest's clock," \
    "which CPU time is charged by, runs on while QEMU's one TCG thread runs the other vCPUs." \
    "The absolute figures are many times what a real CPU spends; the goal (at most 1 %" \
    "of a CPU at -d 1 with 2000 threads) is for real hardware: here, read the ratios to top"
echo "bench: done"
