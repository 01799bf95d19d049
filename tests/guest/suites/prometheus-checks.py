#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""What exporter-tests.sh asks of a real Prometheus, through its HTTP API.

  prometheus-checks.py URL wait QUERY VALUE SECONDS
      until the instant QUERY has a series of VALUE (every series, if it has
      several), or fail after SECONDS
  prometheus-checks.py URL between JOB BEFORE AFTER T0 T1 [--latest]
      every per-CPU rvvstat counter of JOB that Prometheus scraped between
      T0 and T1 - 1 s (a scrape reads the module within its 1 s timeout)
      lies between the debugfs cpus files BEFORE and AFTER, read just
      before T0 and just after T1; --latest: the newest sample of each, whenever scraped (the
      textfile route: the file was written between the reads, and the
      caller waited for node_exporter to show its mtime)
  prometheus-checks.py URL monotonic JOB SECONDS
      no counter of JOB went down over the last SECONDS (nor did a
      histogram's buckets, counts or sums)
  prometheus-checks.py URL dashboard DASHBOARD.json
      every panel expression of the Grafana dashboard returns data
"""
import json
import sys
import time
import urllib.parse
import urllib.request


def query(url, expr, at=None):
    params = {"query": expr}
    if at is not None:
        params["time"] = f"{at:.3f}"
    with urllib.request.urlopen(f"{url}/api/v1/query?{urllib.parse.urlencode(params)}",
                                timeout=30) as r:
        answer = json.load(r)
    if answer.get("status") != "success":
        sys.exit(f"{expr}: {answer}")
    return answer["data"]


def wait(url, expr, want, seconds):
    end = time.monotonic() + float(seconds)
    seen = None
    while time.monotonic() < end:
        try:
            seen = query(url, expr)["result"]
        except OSError as e:
            seen = str(e)
        if isinstance(seen, list) and seen and all(
                float(s["value"][1]) == float(want) for s in seen):
            print(f"{expr} = {want}")
            return
        time.sleep(0.5)
    sys.exit(f"{expr}: not {want} after {seconds} s; last seen {seen}")


def cpus_file(path):
    with open(path) as f:
        head, *rows = [line.split() for line in f]
    return {(row[0], name): int(value) for row in rows
            for name, value in zip(head[1:], row[1:])}


def column(metric):
    """The debugfs cpus column of a per-CPU counter."""
    name = metric[len("rvvstat_"):-len("_total")]
    return "bytes" if name == "saved_bytes" else name


def between(url, job, before_path, after_path, t0, t1, latest=False):
    before, after = cpus_file(before_path), cpus_file(after_path)
    t0, t1 = float(t0), float(t1)
    selector = f'{{job="{job}",__name__=~"rvvstat_.+_total",cpu!=""}}'
    if latest:
        # A range, not an instant: a scrape that timed out since marks the
        # series stale, which an instant query would return as nothing.
        series = [(s["metric"], [s["values"][-1]])
                  for s in query(url, f"{selector}[30s]")["result"]]
    else:
        span = max(1, int(t1 - t0) + 2)
        series = [(s["metric"], s["values"])
                  for s in query(url, f"{selector}[{span}s]", t1)["result"]]
    checked = 0
    for metric, samples in series:
        key = (metric["cpu"], column(metric["__name__"]))
        if key not in before:
            sys.exit(f"{metric}: no column {key[1]} of CPU {key[0]} in debugfs cpus")
        for ts, value in samples:
            if not latest and not t0 < float(ts) <= t1 - 1:
                continue
            if not before[key] <= int(value) <= after[key]:
                sys.exit(f"{metric['__name__']} cpu {key[0]} at {ts} = {value}, "
                         f"not in [{before[key]}, {after[key]}]")
            checked += 1
    print(f"{checked} samples of {len(series)} series between the debugfs reads")
    if len(series) < 18 or checked < 18:
        sys.exit(f"too few: {len(series)} series, {checked} samples in [{t0}, {t1 - 1}]")


def monotonic(url, job, seconds):
    selector = f'{{job="{job}",__name__=~"rvvstat_.+(_total|_bucket|_count|_sum)"}}[{seconds}s]'
    series = query(url, selector)["result"]
    samples = 0
    for s in series:
        values = [float(v) for _, v in s["values"]]
        samples += len(values)
        for a, b in zip(values, values[1:]):
            if b < a:
                sys.exit(f"{s['metric']} went down from {a} to {b}")
    print(f"{len(series)} series, {samples} samples, none went down")
    if samples < 2 * len(series) or len(series) < 30:
        sys.exit("too few samples to tell")


def dashboard(url, path):
    with open(path) as f:
        board = json.load(f)
    exprs = [t["expr"] for p in board["panels"] for t in p.get("targets", [])]
    for expr in exprs:
        # What Grafana puts for them: every instance, a few scrapes' range.
        concrete = expr.replace("$instance", ".*").replace("$__rate_interval", "15s")
        result = query(url, concrete)["result"]
        if not result:
            sys.exit(f"no data: {concrete}")
        print(f"{len(result)} series: {concrete}")
    if len(exprs) < 10:
        sys.exit(f"only {len(exprs)} expressions")


if __name__ == "__main__":
    url, what, *args = sys.argv[1:]
    if what == "between" and args[-1] == "--latest":
        between(url, *args[:-1], latest=True)
    else:
        {"wait": wait, "between": between, "monotonic": monotonic,
         "dashboard": dashboard}[what](url, *args)
