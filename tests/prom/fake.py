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

Each request is logged on stderr, with its path.
"""
import base64
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

EMPTY = {"status": "success", "data": {"resultType": "vector", "result": []}}


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
        mode = self.mode
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
        else:
            self.answer(404, b"", "text/plain")

    do_POST = do_GET

    def log_message(self, fmt, *args):
        sys.stderr.write("fake %s: %s\n" % (self.mode, fmt % args))


ThreadingHTTPServer.daemon_threads = True
servers = []
for arg in sys.argv[1:]:
    mode, _, port = arg.partition("=")
    handler = type("H_" + mode, (H,), {"mode": mode})
    servers.append(ThreadingHTTPServer(("127.0.0.1", int(port)), handler))
for s in servers[1:]:
    threading.Thread(target=s.serve_forever, daemon=True).start()
servers[0].serve_forever()
