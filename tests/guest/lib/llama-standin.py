#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""A stand-in for llama-server's /health, /metrics and /slots, in their real
formats (shared/notes/llama-server.md), for rvvtop's tests of the states a
real llama-server cannot be made to show on demand: loading, slow answers,
down, a restart with counters going back, and live rates checked against
exactly what was served (rvvtop-tests.sh runs the rest against the real
server), and the llama panel of rvvtop-live-tests.sh's screens. Deterministic: every /slots answer is one more step of a
generation, and every body served is logged as a JSON line, so the test
computes what rvvtop must report from what was served. rvvtop-tests.sh's
standin_speaks_like_the_real_server checks these formats against the real
server's, captured in the same run: change them only to follow it.

Slot 0 never serves a request (it lists only id, n_ctx, speculative,
is_processing). Slot 1 decodes 30 tokens per /slots request and takes a new
task every third request (so tasks change between rvvtop's readings).
/metrics counters move only when a task ends, as the real ones do.

Faults a real server does not show on demand, for rvvtop's states:
--health-status and --metrics-status answer with that HTTP status,
--metrics-value writes tokens_predicted_total as given (1e400, -3),
--metrics-slow delays /metrics alone, --metrics-huge sends 5 MiB.
--api-key KEY answers /metrics and /slots only with that key, as
llama-server's --api-key does (Authorization: Bearer KEY, or X-Api-Key).

PORT 0 takes a free port; --port-file FILE names the port it listens on,
written once it listens (so a test on a shared host picks no port that may
be taken).

  llama-standin.py PORT LOG [--port-file FILE] [--loading] [--no-metrics]
                   [--no-slots] [--restart-after N] [--slow MS]
                   [--health-status N] [--metrics-status N]
                   [--metrics-value TEXT] [--metrics-slow MS] [--metrics-huge]
                   [--api-key KEY]
"""
import argparse
import http.server
import json
import os
import time

TOKENS_PER_STEP = 30
STEPS_PER_TASK = 3
PROMPT_PER_TASK = 100


class State:
    def __init__(self, args):
        self.args = args
        self.step = 0          # /slots answers so far
        self.metrics_calls = 0
        self.prompt_total = 0
        self.predicted_total = 0
        self.log = open(args.log, "a", buffering=1)

    def slot1(self):
        task = 17 + self.step // STEPS_PER_TASK
        decoded = 5 + TOKENS_PER_STEP * (self.step % STEPS_PER_TASK)
        return task, decoded

    def advance(self):
        task, decoded = self.slot1()
        self.step += 1
        if self.slot1()[0] != task:  # the task ended: counters move now
            self.predicted_total += decoded
            self.prompt_total += PROMPT_PER_TASK


def metrics_body(state):
    def number(v):
        # Default C++ stream precision: six significant digits.
        return f"{v:.6g}"
    lines = [
        "# HELP llamacpp:prompt_tokens_total Number of prompt tokens processed.",
        "# TYPE llamacpp:prompt_tokens_total counter",
        f"llamacpp:prompt_tokens_total {number(state.prompt_total)}",
        "# HELP llamacpp:prompt_seconds_total Prompt process time",
        "# TYPE llamacpp:prompt_seconds_total counter",
        "llamacpp:prompt_seconds_total 12.5",
        "# HELP llamacpp:tokens_predicted_total Number of generation tokens processed.",
        "# TYPE llamacpp:tokens_predicted_total counter",
        "llamacpp:tokens_predicted_total "
        + (state.args.metrics_value or number(state.predicted_total)),
        "# TYPE llamacpp:n_decode_total counter",
        f"llamacpp:n_decode_total {number(state.step)}",
        "# HELP llamacpp:predicted_tokens_seconds Average generation throughput in tokens/s.",
        "# TYPE llamacpp:predicted_tokens_seconds gauge",
        "llamacpp:predicted_tokens_seconds 7.5",
        "# TYPE llamacpp:requests_processing gauge",
        "llamacpp:requests_processing 1",
        "# TYPE llamacpp:requests_deferred gauge",
        "llamacpp:requests_deferred 0",
    ]
    if state.args.metrics_huge:  # a comment line past rvvtop's 4 MiB cap
        lines.insert(0, "# " + "x" * (5 << 20))
    return "\n".join(lines) + "\n"


def slots_body(state):
    task, decoded = state.slot1()
    return [
        {"id": 0, "n_ctx": 2048, "speculative": False, "is_processing": False},
        {"id": 1, "id_task": task, "n_ctx": 2048, "speculative": False,
         "is_processing": True, "params": {"n_predict": -1},
         "next_token": [{"has_next_token": True, "n_remain": -1,
                         "n_decoded": decoded}]},
    ]


def handler_for(state):
    class Handler(http.server.BaseHTTPRequestHandler):
        def reply(self, status, body, kind="application/json"):
            data = body.encode()
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def authorized(self):
            key = self.headers.get("Authorization") or self.headers.get("X-Api-Key") or ""
            if key.startswith("Bearer "):
                key = key[len("Bearer "):]
            return key == state.args.api_key

        def do_GET(self):
            args = state.args
            if args.slow:
                time.sleep(args.slow / 1000)
            if args.api_key and self.path in ("/metrics", "/slots") and not self.authorized():
                self.reply(401, json.dumps({"error": {
                    "message": "Invalid API Key", "type": "authentication_error",
                    "code": 401}}))
                return
            if self.path == "/health":
                if args.health_status:
                    self.reply(args.health_status, json.dumps({"error": {
                        "code": args.health_status, "message": "injected"}}))
                elif args.loading:
                    self.reply(503, json.dumps({"error": {
                        "code": 503, "message": "Loading model",
                        "type": "unavailable_error"}}))
                else:
                    self.reply(200, json.dumps({"status": "ok"}))
            elif self.path == "/metrics":
                if args.metrics_slow:
                    time.sleep(args.metrics_slow / 1000)
                if args.metrics_status:
                    self.reply(args.metrics_status, json.dumps({"error": {
                        "code": args.metrics_status, "message": "injected"}}))
                    return
                if args.no_metrics:
                    self.reply(501, json.dumps({"error": {
                        "code": 501, "message": "This server does not support metrics endpoint. Start it with `--metrics`",
                        "type": "not_supported_error"}}))
                    return
                state.metrics_calls += 1
                if args.restart_after and state.metrics_calls == args.restart_after + 1:
                    state.prompt_total = state.predicted_total = 0
                body = metrics_body(state)
                state.log.write(json.dumps({"path": "/metrics",
                                            "prompt": state.prompt_total,
                                            "predicted": state.predicted_total}) + "\n")
                self.reply(200, body, "text/plain; version=0.0.4")
            elif self.path == "/slots":
                if args.no_slots:
                    self.reply(501, json.dumps({"error": {
                        "code": 501, "message": "This server does not support slots endpoint. Start it with `--slots`",
                        "type": "not_supported_error"}}))
                    return
                body = slots_body(state)
                state.log.write(json.dumps({"path": "/slots", "slots": body}) + "\n")
                self.reply(200, json.dumps(body))
                state.advance()
            else:
                self.reply(404, json.dumps({"error": {"code": 404, "message": "File Not Found"}}))

        def log_message(self, *args):
            pass
    return Handler


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("port", type=int)
    parser.add_argument("log")
    parser.add_argument("--port-file")
    parser.add_argument("--loading", action="store_true")
    parser.add_argument("--no-metrics", action="store_true")
    parser.add_argument("--no-slots", action="store_true")
    parser.add_argument("--restart-after", type=int, default=0)
    parser.add_argument("--slow", type=int, default=0)
    parser.add_argument("--health-status", type=int, default=0)
    parser.add_argument("--metrics-status", type=int, default=0)
    parser.add_argument("--metrics-value")
    parser.add_argument("--metrics-slow", type=int, default=0)
    parser.add_argument("--metrics-huge", action="store_true")
    parser.add_argument("--api-key")
    args = parser.parse_args()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", args.port),
                                             handler_for(State(args)))
    if args.port_file:  # whole or not at all: the reader polls for it
        with open(args.port_file + ".tmp", "w") as f:
            f.write(f"{server.server_address[1]}\n")
        os.rename(args.port_file + ".tmp", args.port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
