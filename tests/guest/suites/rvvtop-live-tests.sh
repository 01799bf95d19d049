#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# rvvtop's live view, driven in tmux (send-keys, capture-pane) in the x86_64
# guest with the real module: start, sort, filter, fold, search, pause,
# help, resize, reset, delay, colour and monochrome, module reload, quit.
# Every check reads the captured screen and waits a few refreshes for it,
# since the screen changes every second. TAP lines as tool-tests.sh.
tap_prefix=rvvtop-live
# shellcheck source=../lib/tap.sh
. "$(dirname "$(readlink -f "$0")")/tap.sh"
at_exit end_tmux
# shellcheck source=../lib/standin.sh
. "$here/standin.sh"
export TERM=xterm-256color

# live ARGS...: rvvtop ARGS in a fresh 80x24 tmux session; its exit status
# goes to $work/exit when it ends.
live() {
	end_tmux || return 1
	rm -f "$work/exit"
	tmux new-session -d -s live -x 80 -y 24 \
		"rvvtop $*; echo \$? > $work/exit; sleep 600" || return 1
	see 'TID +TGID +COMM +CPU +SAVES/s' || see 'no numbers from rvvstat'
}

# end_tmux: stops the tmux server and waits until it is gone: a new session
# that reaches the old server on its way out fails ("server exited
# unexpectedly").
end_tmux() {
	local pid
	pid=$(tmux list-sessions -F '#{pid}' 2> /dev/null | head -n 1)
	tmux kill-server 2> /dev/null
	[ -z "$pid" ] && return 0
	for _ in $(seq 100); do
		alive "$pid" || return 0
		sleep 0.1
	done
	echo "the tmux server (pid $pid) outlived kill-server by 10 s"
	return 1
}

# screen [-e]: the pane now, as plain text (-e: with attributes).
screen() {
	tmux capture-pane -p "$@" -t live > "$work/screen"
}

# see REGEX [SECONDS]: waits until the plain screen matches (default 20 s).
see() {
	local end=$((SECONDS + ${2:-20}))
	while [ "$SECONDS" -lt "$end" ]; do
		screen && grep -Eq -- "$1" "$work/screen" && return 0
		sleep 0.25
	done
	echo "never saw /$1/ on:"
	cat "$work/screen"
	return 1
}

# holds AWK [SECONDS]: waits until the awk program, run on the table rows
# (fields by column, comm may hold spaces), exits 0 (default 20 s).
holds() {
	local end=$((SECONDS + ${2:-20}))
	while [ "$SECONDS" -lt "$end" ]; do
		screen
		table_rows > "$work/rows"
		awk -v FS='\t' "$1" "$work/rows" > "$work/why" && return 0
		sleep 0.25
	done
	echo "the table never satisfied: $1"
	cat "$work/why" "$work/screen"
	return 1
}

# The table's rows, tab-separated: id tgid comm cpu saves restores mb inv p99 hint.
table_rows() {
	awk '/^ +(TID|PROCS) +TGID +COMM/ { on = 1; next }
	     on && NR < 24 && length($0) > 60 {
		f = substr($0, 1, 7) "\t" substr($0, 9, 7) "\t" substr($0, 17, 15) "\t" \
		    substr($0, 33, 3) "\t" substr($0, 37, 7) "\t" substr($0, 45, 7) "\t" \
		    substr($0, 53, 6) "\t" substr($0, 60, 5) "\t" substr($0, 66, 7) "\t" \
		    substr($0, 74)
		gsub(/ +\t|\t +/, "\t", f); sub(/^ +/, "", f); sub(/ +$/, "", f); print f
	     }' "$work/screen"
}

key() {
	tmux send-keys -t live "$@"
}

# Rates as rvvtop prints them (12.3, 12345, 1.2M) in one unit.
rate_awk='function rate(s) { return s ~ /M$/ ? s * 1e6 : s ~ /G$/ ? s * 1e9 : s + 0 }'

starts_with_every_panel() {
	start_standin || return 1
	live -d 1 --llama "http://127.0.0.1:$port" || return 1
	see 'x86 xstate [0-9]+-bit [0-9]+ B/save' &&
	see '^all ' && see '^3 ' &&
	# One name for the p99 in both panels (and switch_saved_p99_ns elsewhere).
	see '^CPU +SAVES/s .* P99sw$' && see 'TID +TGID .* P99sw +HINT' &&
	see 'llama-server up +[0-9.]+ tok/s' &&
	see 'vector saves: [0-9.]+ per generated token' &&
	see 'F1Help +F3Search' &&
	holds '$3 == "threadload" { n++ } END { exit n < 2 }' &&
	cp "$work/screen" "$work/first-screen" &&
	# Every CPU's meter fits the 80 columns.
	awk 'length($0) > 80 { print "wider than 80: " $0; bad = 1 } END { exit bad }' "$work/screen"
}

sorts_on_each_column() {
	see 'sort SAVES/s down' &&
	holds "$rate_awk"' NR > 1 && rate($5) > last { print "saves up at " NR; bad = 1 }
		{ last = rate($5) } END { exit bad || NR < 2 }' &&
	key '<' '<' && see 'sort COMM up' &&
	holds 'NR > 1 && tolower($3) < last { print "comm down at " NR; bad = 1 }
		{ last = tolower($3) } END { exit bad || NR < 2 }' &&
	key '<' '<' && see 'sort TID up' &&
	holds 'NR > 1 && $1 + 0 <= last { print "tid not up at " NR; bad = 1 }
		{ last = $1 + 0 } END { exit bad || NR < 2 }' &&
	key I && see 'sort TID down' &&
	holds 'NR > 1 && $1 + 0 >= last { print "tid not down at " NR; bad = 1 }
		{ last = $1 + 0 } END { exit bad || NR < 2 }' &&
	key I '>' && see 'sort TGID up' &&
	key '>' '>' '>' && see 'sort SAVES/s down'
}

filters_by_name_and_id() {
	local pid=$1
	key F4 && see 'Filter \(name or id\): _' &&
	key -l ThreadLoad && key Enter && see 'filter "ThreadLoad"' &&
	holds 'tolower($3) !~ /threadload/ { print "kept " $0; bad = 1 } END { exit bad || NR < 2 }' &&
	key F4 C-u &&
	key -l "$pid" && key Enter && see "filter \"$pid\"" &&
	holds '$1 != '"$pid"' && $2 != '"$pid"' { print "kept " $0; bad = 1 }
		END { exit bad || NR < 2 }' &&
	key F4 Escape && holds '$3 != "threadload" { other++ } END { exit !other }' &&
	! grep -q 'filter "' "$work/screen"
}

folds_threads_into_processes() {
	local pid=$1 threads
	threads=$(ls "/proc/$pid/task" | wc -l)
	key H && see '^ +PROCS +TGID' && see 'sort SAVES/s down  folded' &&
	holds 'seen[$2]++ { print "tgid twice: " $2; bad = 1 } END { exit bad }' &&
	holds '$2 == '"$pid"' { found = 1; if ($1 != '"$threads"') { print "procs " $1 " not '"$threads"'"; bad = 1 } }
		END { exit bad || !found }' &&
	key H && see '^ +TID +TGID'
}

# SGR codes in a capture: reverse video, colours 31-36, any colour, green.
reverse=$'\e\\[([0-9;]*;)?7[;m]'
coloured=$'\e\\[([0-9;]*;)?3[1-6][;m]'
any_colour=$'\e\\[([0-9;]*;)?3[0-7][;m]'
green=$'\e\\[([0-9;]*;)?32[;m]'

# rows_in SGR: the captured lines that hold the code, without any code.
rows_in() {
	grep -aE "$1" "$work/screen" | sed -E $'s/\e\\[[0-9;]*m//g'
}

# The selection (reverse video) starts on the busiest thread, a threadload
# one; searching moves it to the tmux server.
searches_and_selects() {
	key / && see 'Search: _' && key -l 'TMUX: s' && key Enter && see 'F1Help' || return 1
	for _ in $(seq 40); do
		screen -e
		rows_in "$reverse" | grep -q ' tmux: server ' && return 0
		sleep 0.25
	done
	echo "no selected tmux row:"
	cat -v "$work/screen"
	return 1
}

# The "up" clock stops while paused and runs again after.
pauses_and_resumes() {
	local a b
	key Space && see 'PAUSED' || return 1
	a=$(grep -o 'up [0-9:]*' "$work/screen")
	sleep 2.5
	screen
	b=$(grep -o 'up [0-9:]*' "$work/screen")
	[ "$a" = "$b" ] || { echo "clock moved while paused: $a, $b"; return 1; }
	key Space && see '^rvvtop  x86' &&
	see "up [0-9:]+" && for _ in $(seq 20); do
		screen
		[ "$(grep -o 'up [0-9:]*' "$work/screen")" != "$a" ] && return 0
		sleep 0.25
	done
	echo "clock did not move after resuming"
	return 1
}

shows_help() {
	key F1 && see '^Keys' && see 'F6 +sort by a column from a list' && key x &&
	see '^ +TID +TGID' &&
	key h && see '^Keys' && key q && see '^ +TID +TGID' && [ ! -f "$work/exit" ]
}

resizes() {
	tmux resize-window -t live -x 120 -y 40 && see 'F1Help' || return 1
	[ "$(wc -l < "$work/screen")" = 40 ] && sed -n 40p "$work/screen" | grep -q F1Help &&
	see '^0 .*\]$' && grep -E '^0 ' "$work/screen" | awk 'length($0) < 110 { exit 1 }' &&
	tmux resize-window -t live -x 40 -y 10 && sleep 2 && see 'rvvtop' &&
	tmux resize-window -t live -x 80 -y 24 && see '^ +TID +TGID' && see 'F1Help' &&
	[ ! -f "$work/exit" ]
}

changes_delay() {
	key + && see 'every 2 s' && key - - && see 'every 1 s' && see 'refresh every 1 s'
}

# The "up" of the screen, in seconds.
up_seconds() {
	sed -n -E 's/.* up ([0-9]+):([0-9]+):([0-9]+) .*/\1 \2 \3/p' "$work/screen" |
		awk '{ print $1 * 3600 + $2 * 60 + $3 }'
}

# The time since reset starts again after y, and not after n.
resets_after_asking() {
	local before after
	key r && see 'Reset every counter and histogram of rvvstat\? \(y/N\)' &&
	key n && see 'F1Help' && ! grep -q 'reset' "$work/screen" || return 1
	before=$(up_seconds)
	key r y && see 'counters and histograms reset' || return 1
	local end=$((SECONDS + 20))
	while [ "$SECONDS" -lt "$end" ]; do
		screen
		after=$(up_seconds)
		[ -n "$after" ] && [ "$after" -lt "$before" ] && return 0
		sleep 0.25
	done
	echo "up did not go back from $before s (now ${after:-?} s):"
	cat "$work/screen"
	return 1
}

# Colour where the terminal has it, none with -C; reverse video in both.
colour_and_monochrome() {
	screen -e
	grep -aqE "$coloured" "$work/screen" || { echo "no colour:"; cat -v "$work/screen"; return 1; }
	live -C -d 1 || return 1
	see '^ +TID +TGID' && screen -e &&
	! grep -aqE "$any_colour" "$work/screen" &&
	grep -aqE "$reverse" "$work/screen" || { echo "monochrome:"; cat -v "$work/screen"; return 1; }
}

# Threads that first used vector state in the interval are green: a new
# threadload, filtered on so that its rows are on screen, at a 3 s delay so
# that the interval it started in stays up long enough to be captured.
highlights_new_vector_threads() {
	local pid found=1
	key + + && see 'every 3 s' || return 1
	threadload -t 2 -p 100 -d 30 > /dev/null &
	pid=$!
	key F4 C-u && key -l "$pid" && key Enter && see "filter \"$pid\"" || found=0
	local end=$((SECONDS + 20))
	while [ "$found" = 1 ] && [ "$SECONDS" -lt "$end" ]; do
		screen -e
		rows_in "$green" | grep -Eq "^ *[0-9]+ +$pid threadload" && break
		sleep 0.25
	done
	[ "$SECONDS" -lt "$end" ] || found=0
	[ "$found" = 1 ] || { echo "no green row of $pid:"; cat -v "$work/screen"; }
	kill "$pid"
	wait "$pid"
	key F4 Escape - - && see 'every 1 s' && [ "$found" = 1 ]
}

# F6: htop's list of columns; Enter sorts by the one chosen, Esc keeps the sort.
sort_menu() {
	key F6 && see '^Sort by' && see '^\* SAVES/s' && see 'Enter: sort' &&
	key Up Up Enter && see 'sort COMM up' &&
	holds 'NR > 1 && tolower($3) < last { print "comm down at " NR; bad = 1 }
		{ last = tolower($3) } END { exit bad || NR < 2 }' &&
	key F6 Down Escape && see 'sort COMM up' && ! grep -q '^Sort by' "$work/screen" &&
	key F6 Down Enter && see 'sort CPU up' &&
	key F6 Down Enter && see 'sort SAVES/s down'	# as the next checks expect
}

# The reason is wrapped at 80 columns, whole (its end, "once installed)",
# was cut before).
module_comes_and_goes() {
	unload_module && see 'no numbers from rvvstat' && see 'not loaded' &&
	see 'once installed\)$' &&
	awk 'length($0) > 80 { print "wider than 80: " $0; bad = 1 } END { exit bad }' "$work/screen" &&
	insmod "$module" && see 'x86 xstate' && see '^ +TID +TGID'
}

# A server without --metrics at 80 columns: the state and the live rate on
# one line, the advice whole on the next (the rate was cut off before).
llama_panel_fits() {
	start_standin --no-metrics || return 1
	live -d 1 --llama "http://127.0.0.1:$port" || return 1
	see 'llama-server metrics disabled +[0-9.]+ tok/s +1/2 slots busy' &&
	see '^  start llama-server with --metrics for completed-token counts$'
}

quits() {
	key q && for _ in $(seq 40); do
		[ -f "$work/exit" ] && [ "$(cat "$work/exit")" = 0 ] && break
		sleep 0.25
	done
	[ "$(cat "$work/exit" 2> /dev/null)" = 0 ] || { echo "no exit 0"; return 1; }
	live -d 1 && key F10 && sleep 2 && [ "$(cat "$work/exit" 2> /dev/null)" = 0 ]
}

# A recording with the module (--record beside --json) replays as --json
# byte for byte and in the live view: the title's backend and position,
# each interval's own total saves/s (t moves on) and its threads.
replays_a_recording() {
	local rec=$work/rec.jsonl
	rvvtop --json -d 1 -n 3 --no-llama --record "$rec" > "$work/rec.json" &&
	rvvtop --replay "$rec" --json | cmp - "$work/rec.json" &&
	jq -e -s 'length == 3 and all(.[]; .module and .rvvstat.backend == "x86_fpu" and
		(.cpus | length) > 0 and any(.tasks[]; .comm == "threadload"))' "$work/rec.json" &&
	live --replay "$rec" &&
	see 'rvvtop  x86 xstate [0-9]+-bit [0-9]+ B/save  up [0-9:]+  replay 1/3 [0-9:]{8}$' &&
	see "^all +$(printf '%.1f' "$(jq -s '.[0].total.saves_per_s' "$work/rec.json")") " &&
	holds '$3 == "threadload" { n++ } END { exit n < 3 }' &&
	key t t && see 'replay 3/3' &&
	see "^all +$(printf '%.1f' "$(jq -s '.[2].total.saves_per_s' "$work/rec.json")") " &&
	key T && see 'replay 2/3' && key q
}

needs_a_terminal() {
	rvvtop < /dev/null > "$work/out2" 2> "$work/err"
	[ $? = 2 ] && grep -q 'needs a terminal' "$work/err" && cat "$work/err"
}

load_module
# Three threads that wake 20 times a second with live vector state: rows
# that move, without spinning the CPUs that TCG shares with tmux.
start_workload 1 threadload -t 3 -p 50 -d 3600
check starts_with_every_panel starts_with_every_panel
# What it looked like, for the log.
[ ! -f "$work/first-screen" ] || sed 's/^/# screen| /' "$work/first-screen"
check sorts_on_each_column sorts_on_each_column
check sort_menu_on_f6 sort_menu
check filters_by_name_and_id filters_by_name_and_id "$workload"
check folds_threads_into_processes folds_threads_into_processes "$workload"
check searches_and_selects searches_and_selects
check pauses_and_resumes pauses_and_resumes
check shows_help shows_help
check resizes resizes
check changes_delay changes_delay
check resets_after_asking resets_after_asking
check highlights_new_vector_threads highlights_new_vector_threads
check colour_and_monochrome colour_and_monochrome
check module_reload_reconnects module_comes_and_goes
check llama_panel_fits_80_columns llama_panel_fits
check quits_on_q_and_f10 quits
check replays_a_recording replays_a_recording
check needs_a_terminal needs_a_terminal
stop_workload
unload_and_end
