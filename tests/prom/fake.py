#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Prometheus servers that answer badly, for check --prometheus's faults
(tests/cli/prometheus.sh), each on its 127.0.0.1:PORT, until killed (one
process: Python starts slowly):

    fake.py MODE=PORT...
      slow      sleeps 60 s before each answer (a good one)
      error     {"status":"error",...} with HTTP 400, as Prometheus does
      http500   HTTP 500, a text body
      nonjson   HTTP 200, an HTML page
      warnings  a successful answer with "warnings" (partial data)
      auth      an error naming whether the request carried HTTP basic
                authentication as u:secret ("credentials_received") or
                not ("unauthorized", HTTP 401)
      drip      a good, empty answer to each request, after 2 s
      big:N     each query a valid vector of N MB of abidep series (the
                index, /api/v1/series, their label sets), as a fleet's
                Prometheus might answer, but every time
      amplify:N one valid vector of N MB, its samples' labels each
                a few bytes: small as text, large once parsed

MODE=PORT; a mode's :N is part of MODE.

Each request is logged on stderr, with its path.
"""
import base64
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

EMPTY = {"status": "success", "data": {"resultType": "vector", "result": []}}


def big_answers(mb):
    """A vector and the index's label sets, each about @mb MB: distinct
    uses of a deprecated file by many executables on many hosts."""
    metrics = []
    size = 0
    i = 0
    while size < mb * 1000000:
        m = {"__name__": "abidep_deprecated_access_total",
             "entry": "/sys/class/rc/rcN/current_protocol",
             "file": "/sys/class/rc/rc0/current_protocol",
             "exe": "/usr/local/bin/tool-%d" % i, "package": "", "uid": "0",
             "host": "host-%d" % (i % 1000), "op": "read",
             "instance": "10.0.%d.%d:9100" % (i // 250 % 250, i % 250), "job": "abidep"}
        metrics.append(m)
        size += len(json.dumps(m)) + 30
        i += 1
    vector = {"status": "success", "data": {"resultType": "vector", "result":
              [{"metric": m, "value": [1700000000, "1"]} for m in metrics]}}
    return json.dumps(vector).encode(), json.dumps({"status": "success", "data": metrics}).encode()


def amplify_answer(mb):
    """A vector of about @mb MB whose samples have 200 labels of 1-byte
    names and empty values each."""
    labels = "{" + ",".join('"%c%c":""' % (65 + k // 26, 97 + k % 26) for k in range(200)) + "}"
    one = '{"metric":%s,"value":[1700000000,"1"]}' % labels
    n = mb * 1000000 // (len(one) + 1)
    return ('{"status":"success","data":{"resultType":"vector","result":[' +
            ",".join([one] * n) + "]}}").encode()


class H(BaseHTTPRequestHandler):
    mode = None

    def answer(self, code, body, ctype="application/json"):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        mode, _, arg = self.mode.partition(":")
        if mode == "slow":
            time.sleep(60)
            self.answer(200, EMPTY)
        elif mode == "error":
            self.answer(400, {"status": "error", "errorType": "bad_data",
                              "error": "parse error: unexpected end of input"})
        elif mode == "http500":
            self.answer(500, b"internal server error\n", "text/plain")
        elif mode == "nonjson":
            self.answer(200, b"<html><body>Prometheus Time Series</body></html>\n",
                        "text/html")
        elif mode == "auth":
            want = "Basic " + base64.b64encode(b"u:secret").decode()
            if self.headers.get("Authorization") == want:
                self.answer(400, {"status": "error", "errorType": "credentials_received",
                                  "error": "the test's fake server"})
            else:
                self.answer(401, {"status": "error", "errorType": "unauthorized",
                                  "error": "no credentials"})
        elif mode == "warnings":
            self.answer(200, dict(EMPTY, warnings=["partial data: a store did not answer"]))
        elif mode == "drip":
            time.sleep(2)
            self.answer(200, EMPTY)
        elif mode == "big":
            # Made once per server (its handler class): big:2 and big:8 differ.
            if not hasattr(type(self), "made"):
                type(self).made = big_answers(int(arg))
            self.answer(200, type(self).made[self.path.startswith("/api/v1/series")])
        elif mode == "amplify":
            if not hasattr(type(self), "made"):
                type(self).made = amplify_answer(int(arg))
            self.answer(200, type(self).made)
        else:
            self.answer(404, b"", "text/plain")

    do_POST = do_GET

    def log_message(self, fmt, *args):
        sys.stderr.write("fake %s: %s\n" % (self.mode, fmt % args))


ThreadingHTTPServer.daemon_threads = True
servers = []
for arg in sys.argv[1:]:
    mode, _, port = arg.partition("=")
    handler = type("H_" + mode.partition(":")[0], (H,), {"mode": mode})
    servers.append(ThreadingHTTPServer(("127.0.0.1", int(port)), handler))
for s in servers[1:]:
    threading.Thread(target=s.serve_forever, daemon=True).start()
servers[0].serve_forever()
