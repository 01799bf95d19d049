# SPDX-License-Identifier: GPL-2.0
# The real llama-server for the guest's shell suites, sourced after they set
# $work (a scratch directory) with the suite's arguments:
#   . real-server.sh "$@"
# takes "--server PATH --model PATH" off the front into $llama_bin and
# $llama_model and leaves the rest (the CHECKs) in $tap_only. start_real
# [OPTIONS...] starts a fresh server on $real_url ($real_port, 18081 unless
# set before) with OPTIONS after the common ones, up once /health answers
# 200 (a 503 body it answered while loading is kept in $work/real-loading);
# stop_real stops it (at exit too: tap.sh's at_exit).
llama_bin='' llama_model=''
while [ $# -gt 0 ]; do
	case $1 in
	--server) llama_bin=${2:?--server needs a path}; shift 2 ;;
	--model) llama_model=${2:?--model needs a path}; shift 2 ;;
	*) break ;;
	esac
done
# shellcheck disable=SC2034 # tap.sh reads it
tap_only="$*"
real='' real_port=${real_port:-18081}
real_url=http://127.0.0.1:$real_port
at_exit stop_real

start_real() {
	local status
	stop_real
	if [ -z "$llama_bin" ] || [ -z "$llama_model" ]; then
		echo "no real llama-server: this check needs --server PATH --model PATH" \
			"(tests/run passes its x86_64 build and tiny.gguf)"
		return 1
	fi
	rm -f "$work/real-loading"
	"$llama_bin" -m "$llama_model" --host 127.0.0.1 --port "$real_port" \
		-t 2 --parallel 2 -c 512 "$@" > "$work/real.log" 2>&1 &
	real=$!
	for _ in $(seq 600); do	# about a second to load the tiny model
		status=$(curl -s -m 5 -o "$work/health" -w '%{http_code}' "$real_url/health")
		[ "$status" = 200 ] && return 0
		[ "$status" != 503 ] || cp "$work/health" "$work/real-loading"
		kill -0 "$real" 2> /dev/null || break
		sleep 0.1
	done
	echo "the real llama-server did not answer /health with 200; its log ends:"
	tail -n 20 "$work/real.log"
	return 1
}

stop_real() {
	stop_process real
}
