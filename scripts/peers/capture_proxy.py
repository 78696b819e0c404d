"""A recording proxy for real-peer runs: forwards every request to TARGET unchanged and writes one JSON
line per exchange (path, status, request body as base64, response body), so what a client nobody here
wrote actually sent can be compared afterwards with what the stack stored (compare_stored.py).

usage: capture_proxy.py LISTEN_PORT TARGET_URL OUT.jsonl      (binds 127.0.0.1 only; Ctrl-C / SIGTERM stops)
"""

import base64
import http.client
import json
import signal
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

port, target, out_path = int(sys.argv[1]), urlsplit(sys.argv[2]), sys.argv[3]
out = open(out_path, "a", encoding="utf-8")
lock = threading.Lock()
local = threading.local()


def upstream():
    # one keep-alive connection per handler thread
    if getattr(local, "conn", None) is None:
        local.conn = http.client.HTTPConnection(target.hostname, target.port, timeout=60)
    return local.conn


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def relay(self):
        n = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(n) if n else b""
        headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "connection")}
        for attempt in (0, 1):
            try:
                c = upstream()
                c.request(self.command, self.path, body=body or None, headers=headers)
                r = c.getresponse()
                data = r.read()
                break
            except (ConnectionError, http.client.HTTPException):
                local.conn = None
                if attempt:
                    raise
        # logged before answering: a client that gives up now (Locust stopping) still sent this one
        if self.command == "POST":
            line = {"path": self.path, "status": r.status, "request": base64.b64encode(body).decode(), "response": data.decode("utf-8", "replace")}
            with lock:
                out.write(json.dumps(line) + "\n")
                out.flush()
        self.send_response(r.status)
        for k, v in r.getheaders():
            if k.lower() not in ("connection", "transfer-encoding", "content-length", "keep-alive"):
                self.send_header(k, v)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_POST = relay
    do_GET = relay


# Locust starts its users at once: the default backlog of 5 would refuse connections
ThreadingHTTPServer.request_queue_size = 512
server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
server.daemon_threads = True
signal.signal(signal.SIGTERM, lambda *_: threading.Thread(target=server.shutdown).start())
print(json.dumps({"event": "listening", "url": f"http://127.0.0.1:{server.server_address[1]}"}), flush=True)
try:
    server.serve_forever()
except KeyboardInterrupt:
    pass
out.close()
