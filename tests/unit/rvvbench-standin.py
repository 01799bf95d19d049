#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A stand-in for llama-server's streaming endpoints with injected timing,
for tests/unit/rvvbench-check. It speaks the real formats (chunked HTTP/1.1,
SSE "data:" events): /completion token events then {"stop": true,
"tokens_predicted", "timings"}; /v1/chat/completions a role-only chunk at
once, content chunks, a finish_reason chunk, a usage chunk, "data: [DONE]".

The behaviour is in the path, before the endpoint, so one server serves
every scenario: /d=150,i=30,n=6,ka=1,split=1/completion.
  d=MS      first token event D ms after the request was read (default 100)
  hd=MS     the 200 status line and headers HD ms after it (default 0; < D)
  i=MS      then one every I ms (default 20); gaps are slept, never shorter
  n=N       token events (default 8)
  per=K     tokens per event: the server's counts say N*K (default 1)
  pm=MS     timings.prompt_ms (default D/2)
  ka=1      a ": keep-alive" comment I/3 after each token event
  split=1   every event written in three pieces at odd byte offsets, all but
            the last ahead of its time, so it completes on schedule
  status=C  answer C (not 200) with a JSON error body
  err=K     after K token events, data: {"error": ...} and the end
  trunc=K   after K token events, close without the last event
  stall=K   after K token events, wait stallms (default 10000), then close
  odd=http500  requests whose prompt index is odd get HTTP 500
  utf8=1    error messages (status=, err=) are 200 "é", as raw UTF-8
/completion's id_slot is the prompt's index (Request S-I:) mod 3.
The last token event, the final event(s) and [DONE] go out in one write.
  rvvbench-standin.py [--log FILE]   prints its port, serves until killed
"""
import argparse
import json
import re
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

log_lock = threading.Lock()
log_file = None


def message(p, plain="injected"):
    """An error message: multi-byte UTF-8 that a byte cut would split, with utf8=1."""
    return "\u00e9" * 200 if p.get("utf8") == "1" else plain


def params(path):
    """The scenario and the endpoint of a request path."""
    m = re.match(r"^/([^/]*)(/completion|/v1/chat/completions)$", path)
    if not m:
        m = re.match(r"^()(/completion|/v1/chat/completions)$", path)
    if not m:
        return None, None
    p = {}
    for item in filter(None, m.group(1).split(",")):
        k, _, v = item.partition("=")
        p[k] = v
    return p, m.group(2)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def setup(self):
        super().setup()
        # Each event leaves when written: Nagle would hold a small write back
        # until the client's (delayed) ACK and bunch tokens together.
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, *args):
        pass

    def chunk(self, data):
        if data:
            self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
            self.wfile.flush()

    def send_event(self, data, due, split, lead):
        """Writes one event so that it is complete at due, never before; with
        split, its first two pieces go out ahead, at odd byte offsets."""
        if split and len(data) > 20:
            time.sleep(max(0.0, due - lead - time.monotonic()))
            self.chunk(data[:7])
            time.sleep(lead / 2)
            self.chunk(data[7:19])
            data = data[19:]
        time.sleep(max(0.0, due - time.monotonic()))
        self.chunk(data)

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        req = json.loads(body)
        p, endpoint = params(self.path)
        if log_file:
            with log_lock, open(log_file, "a") as f:
                f.write(json.dumps({"path": self.path, "body": req}) + "\n")
        if p is None:
            return self.reply(404, {"error": {"code": 404, "message": "no such path"}})
        chat = endpoint != "/completion"
        prompt = req["messages"][0]["content"] if chat else req["prompt"]
        index = int(re.match(r"Request \d+-(\d+):", prompt).group(1))
        status = int(p.get("status", 200))
        if p.get("odd") == "http500" and index % 2:
            status = 500
        if status != 200:
            return self.reply(status, {"error": {"code": status, "message": message(p)}})
        self.stream(p, chat, index % 3)

    def reply(self, status, obj):
        data = json.dumps(obj, ensure_ascii=False).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def stream(self, p, chat, slot):
        d, i = float(p.get("d", 100)) / 1000, float(p.get("i", 20)) / 1000
        n, per = int(p.get("n", 8)), int(p.get("per", 1))
        pm = float(p.get("pm", d * 1000 / 2))
        ka, split = p.get("ka") == "1", p.get("split") == "1"
        cut = {k: int(p[k]) for k in ("err", "trunc", "stall") if k in p}
        read = time.monotonic()
        time.sleep(float(p.get("hd", 0)) / 1000)
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        self.wfile.flush()
        ev = lambda obj: b"data: " + json.dumps(obj, ensure_ascii=False).encode() + b"\n\n"
        cid = "chatcmpl-standin"
        if chat:  # the role-only chunk, at once: not a token
            self.chunk(ev({"id": cid, "object": "chat.completion.chunk", "choices": [
                {"index": 0, "finish_reason": None, "delta": {"role": "assistant", "content": None}}]}))
        lead = min(0.004, i / 4, d / 4)
        prev = read if "hd" in p else time.monotonic()
        for k in range(1, n + 1):
            kind = next((key for key, v in cut.items() if v == k - 1), None)
            if kind == "err":
                self.chunk(ev({"error": {"code": 500, "message": message(p, "injected failure"),
                                         "type": "server_error"}}))
                break
            if kind == "stall":
                time.sleep(float(p.get("stallms", 10000)) / 1000)
            if kind:
                self.close_connection = True
                return
            if chat:
                data = ev({"id": cid, "object": "chat.completion.chunk", "choices": [
                    {"index": 0, "finish_reason": None, "delta": {"content": " tok%d" % k}}]})
            else:
                data = ev({"index": 0, "content": " tok%d" % k, "tokens": [k] * per, "stop": False,
                           "id_slot": slot, "tokens_predicted": k * per, "tokens_evaluated": 7})
            if k == n:
                data += self.final(chat, n * per, pm, (n - 1) * i * 1000, slot)
            self.send_event(data, prev + (d if k == 1 else i), split, lead)
            prev = time.monotonic()
            if ka and k < n:
                time.sleep(i / 3)
                self.chunk(b": keep-alive\n\n")
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    @staticmethod
    def final(chat, tokens, pm, predicted_ms, slot):
        timings = {"prompt_n": 7, "prompt_ms": pm, "prompt_per_token_ms": pm / 7,
                   "predicted_n": tokens, "predicted_ms": predicted_ms}
        ev = lambda obj: b"data: " + json.dumps(obj).encode() + b"\n\n"
        if not chat:
            return ev({"index": 0, "content": "", "tokens": [], "id_slot": slot, "stop": True,
                       "model": "stand-in", "tokens_predicted": tokens, "tokens_evaluated": 7,
                       "stop_type": "limit", "timings": timings})
        cid = "chatcmpl-standin"
        return (ev({"id": cid, "object": "chat.completion.chunk", "choices": [
                    {"index": 0, "finish_reason": "length", "delta": {}}]})
                + ev({"id": cid, "object": "chat.completion.chunk", "choices": [],
                      "usage": {"completion_tokens": tokens, "prompt_tokens": 7,
                                "total_tokens": tokens + 7}, "timings": timings})
                + b"data: [DONE]\n\n")


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # A client that hangs up (a timeout, a stall) is part of the tests.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def main():
    global log_file
    ap = argparse.ArgumentParser()
    ap.add_argument("--log")
    log_file = ap.parse_args().log
    srv = Server(("127.0.0.1", 0), Handler)
    print(srv.server_address[1], flush=True)
    srv.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
