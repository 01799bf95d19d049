#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The fleet routes against the real module in the x86_64 guest, read by
# Debian's real Prometheus (the host's root): rvvstat-exporter scraped every
# second, and rvvctl export --output read by Debian's node_exporter through
# its textfile collector. Each per-CPU counter Prometheus stored lies between
# the debugfs reads taken around its scrape; no counter goes down;
# promtool's linter passes a scrape; every Grafana panel's expression
# returns data; unloading the module turns the exporter to 503 and
# rvvstat_up 0 and Prometheus's target down, and reloading brings both
# back; 200 scrapes at once are all answered; SIGTERM stops the exporter.
# TAP lines as tool-tests.sh prints them.
tap_prefix=exporter
# shellcheck source=../lib/tap.sh
. "$(dirname "$(readlink -f "$0")")/tap.sh"
debugfs=/sys/kernel/debug/rvvstat
pids=()
at_exit 'kill "${pids[@]}" 2> /dev/null; wait 2> /dev/null'

exporter_url=http://127.0.0.1:10951
prometheus=http://127.0.0.1:19090
textfile=$work/textfile
checks() { /usr/bin/python3 "$here/prometheus-checks.py" "$prometheus" "$@"; }
now() { date +%s.%N; }

# A second per scrape: the checks wait for scrapes, so short is quick. A
# 1 s timeout: a scrape that read the module did so within 1 s of its time.
cat > "$work/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: rvvstat
    static_configs: [{targets: ['127.0.0.1:10951']}]
  - job_name: node
    static_configs: [{targets: ['127.0.0.1:19100']}]
EOF
mkdir -p "$textfile"

start_all() {
	rvvstat-exporter --top-tasks 5 2> "$work/exporter.err" &
	exporter=$!
	pids+=("$exporter")
	prometheus-node-exporter --collector.disable-defaults --collector.textfile \
		--collector.textfile.directory "$textfile" \
		--web.listen-address 127.0.0.1:19100 2> "$work/node.err" &
	pids+=($!)
	prometheus --config.file "$work/prometheus.yml" --storage.tsdb.path "$work/tsdb" \
		--web.listen-address 127.0.0.1:19090 2> "$work/prometheus.err" &
	pids+=($!)
	rvvctl export --prometheus --output "$textfile/rvvstat.prom" &&
	checks wait 'up{job="rvvstat"}' 1 180 &&
	checks wait 'rvvstat_up' 1 60 ||
	{ tail -n 5 "$work/prometheus.err" "$work/exporter.err" "$work/node.err"; return 1; }
}

# Prometheus's samples of the exporter, scraped between two debugfs reads:
# T0 once the first read is done, T1 before the second starts (a scrape
# stamped after T0 read the module after it).
exporter_between() {
	local t0 t1
	cat "$debugfs/cpus" > "$work/before" && t0=$(now) &&
	sleep 4 &&
	t1=$(now) && cat "$debugfs/cpus" > "$work/after" &&
	checks between rvvstat "$work/before" "$work/after" "$t0" "$t1"
}

# The textfile route: node_exporter serves the file written between the two
# reads, once it shows the file's new mtime (whole seconds; the file before
# was written seconds earlier, in start_all).
textfile_between() {
	local t0
	t0=$(now) && cat "$debugfs/cpus" > "$work/before" &&
	rvvctl export --prometheus --output "$textfile/rvvstat.prom" &&
	cat "$debugfs/cpus" > "$work/after" &&
	checks wait "count(node_textfile_mtime_seconds{file=~\".*rvvstat.prom\"} >= ${t0%.*})" 1 30 &&
	checks wait 'node_textfile_scrape_error' 0 10 &&
	checks between node "$work/before" "$work/after" 0 0 --latest ||
	{ curl -s 127.0.0.1:19100/metrics | grep -v '^#' | head -n 40; tail -n 5 "$work/node.err"
	  curl -s "$prometheus/api/v1/query?query=count(%7Bjob%3D%22node%22%7D)%20by%20(__name__)"
	  head -n 30 "$textfile/rvvstat.prom"; return 1; }
}

counters_only_grow() {
	checks monotonic rvvstat 20 && checks monotonic node 20
}

# promtool's linter on what the exporter serves by default (text 0.0.4),
# per-thread series included; OpenMetrics goes through prometheus_client's
# strict parser.
promtool_passes() {
	curl -sf "$exporter_url/metrics" > "$work/scrape" &&
	grep -q '^rvvstat_task_saves_total{tid="' "$work/scrape" &&
	promtool check metrics < "$work/scrape" &&
	curl -sf -H 'Accept: application/openmetrics-text; version=1.0.0' \
		"$exporter_url/metrics" > "$work/scrape.om" &&
	/usr/bin/python3 -c 'import sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families
families = list(text_string_to_metric_families(open(sys.argv[1]).read()))
print(len(families), "families")' "$work/scrape.om"
}

dashboard_has_data() {
	checks dashboard "$here/rvvstat-dashboard.json"
}

# Unloaded: 503 with rvvstat_up 0, the target down, the textfile saying 0,
# the exporter's log saying why once (a scrape during the unload may name
# another reason than "not loaded"); loaded again: 200, the target up.
unload_and_reload() {
	local code
	unload_module || return 1
	code=$(curl -s -o "$work/down" -w '%{http_code}' "$exporter_url/metrics")
	echo "unloaded: $code"
	cat "$work/down"
	[ "$code" = 503 ] && grep -qx 'rvvstat_up 0' "$work/down" &&
	checks wait 'up{job="rvvstat"}' 0 30 &&
	! rvvctl export --prometheus --output "$textfile/rvvstat.prom" &&
	checks wait 'rvvstat_up{job="node"}' 0 30 &&
	grep -q 'rvvstat-exporter: answering 503: ' "$work/exporter.err" &&
	insmod "$module" &&
	code=$(curl -s -o /dev/null -w '%{http_code}' "$exporter_url/metrics") &&
	echo "reloaded: $code" && [ "$code" = 200 ] &&
	rvvctl export --prometheus --output "$textfile/rvvstat.prom" &&
	checks wait 'up{job="rvvstat"}' 1 30 &&
	checks wait 'rvvstat_up' 1 30 &&
	grep -q 'the module answers again' "$work/exporter.err" ||
	{ cat "$work/exporter.err"; return 1; }
}

# 200 scrapes started together, both formats: every one 200 and whole.
concurrent_scrapes() {
	/usr/bin/python3 - "$exporter_url/metrics" <<'EOF'
import sys, threading, urllib.request
url, n = sys.argv[1], 200
start = threading.Barrier(n)
bad = []
def scrape(i):
    om = i % 2 == 0
    request = urllib.request.Request(url, headers={"Accept": "application/openmetrics-text"} if om else {})
    start.wait()
    try:
        with urllib.request.urlopen(request, timeout=120) as r:
            body = r.read().decode()
            whole = body.endswith("# EOF\n") if om else "rvvstat_latency_seconds_sum" in body
            if r.status != 200 or not whole or "rvvstat_up 1\n" not in body:
                bad.append((i, r.status, body[-80:]))
    except Exception as e:
        bad.append((i, repr(e)))
threads = [threading.Thread(target=scrape, args=(i,)) for i in range(n)]
for t in threads: t.start()
for t in threads: t.join()
print(f"{n - len(bad)} of {n} answered whole")
sys.exit(f"failed: {bad[:5]}" if bad else 0)
EOF
}

stops_on_sigterm() {
	local status=0
	kill -TERM "$exporter" && wait "$exporter" || status=$?
	cat "$work/exporter.err"
	[ "$status" = 0 ] && grep -qx 'rvvstat-exporter: stopped by SIGTERM' "$work/exporter.err"
}

load_module
# Switches that save, on every CPU, until the end.
start_workload 0 vecload -t 2 -d 1000 -m mixed
check prometheus_scrapes_the_exporter start_all
check exporter_samples_between_debugfs_reads exporter_between
check textfile_samples_between_debugfs_reads textfile_between
check counters_never_go_down counters_only_grow
check promtool_lints_a_scrape promtool_passes
check dashboard_expressions_return_data dashboard_has_data
# For the log: some lines of a scrape, and Prometheus's answer to a query.
{ grep -E '^rvvstat_(up|info|save_bytes|saves_user_total|task_saves_total)' "$work/scrape" | head -n 12
  grep -E '^rvvstat_latency_seconds_(bucket|count)\{kind="switch_saved"' "$work/scrape" | tail -n 3
  curl -s --data-urlencode 'query=sum by (instance) (rate(rvvstat_saves_user_total[10s]))' \
	"$prometheus/api/v1/query"; echo; } | sed 's/^/# capture| /'
check unload_reload_is_seen unload_and_reload
check answers_200_scrapes_at_once concurrent_scrapes
check stops_on_sigterm stops_on_sigterm
unload_and_end
