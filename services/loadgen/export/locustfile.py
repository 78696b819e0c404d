"""SatPayload Studio's device model for Locust: the same fleet `satpayload loadtest` simulates.

Each Locust user is one device with its own identity and its own HTTP session (its own keep-alive
connection, or a new connection per request when the pool file says so). A device POSTs one
pre-encoded payload from the pool file, waits for the answer, then waits the think time of the pool
file's model (default between(1, 3) s, as Kumar et al. 2026 measured). Nothing is encoded during
the test.

    locust -f locustfile.py --host http://127.0.0.1:8080 --headless -u 2000 -r 100 -t 5m
    SATPAYLOAD_POOL=other-pool.json locust -f locustfile.py ...

Distributed (one master, N workers, each on its own machine or core):

    locust -f locustfile.py --master --host http://decoder:8080 --headless -u 2000 -r 100 -t 5m --expect-workers 4
    locust -f locustfile.py --worker --master-host <master address>
"""

import base64
import itertools
import json
import os
import random
import time
import uuid

from locust import HttpUser, between, constant, task

POOL_FILE = os.environ.get("SATPAYLOAD_POOL", os.path.join(os.path.dirname(os.path.abspath(__file__)), "payload-pool.json"))

with open(POOL_FILE, "r", encoding="utf-8") as f:
    POOL = json.load(f)
if POOL.get("schema") != "satpayload.pool/1":
    raise SystemExit(f"{POOL_FILE} is not a satpayload.pool/1 file")

PAYLOADS = [base64.b64decode(p) for p in POOL["payloads"]]
HEADERS = dict(POOL["headers"])
STRIDE = int(POOL.get("stride", 0))
MODEL = POOL.get("model", {})
WAIT = MODEL.get("wait", {"kind": "uniform", "min": 1, "max": 3})
PATH = MODEL.get("path", "/ingest")
KEEP_ALIVE = MODEL.get("connection", "keep-alive") == "keep-alive"
TIMEOUT_S = MODEL.get("timeoutMs", 30000) / 1000

# a worker process numbers its own devices; the run tag keeps ids unique across workers and runs
RUN_TAG = "lc" + uuid.uuid4().hex[:8]
_device_numbers = itertools.count()


def _exponential(mean):
    def wait(_user):
        return random.expovariate(1 / mean)

    return wait


if WAIT["kind"] == "uniform":
    WAIT_TIME = between(WAIT["min"], WAIT["max"])
elif WAIT["kind"] == "constant":
    WAIT_TIME = constant(WAIT["seconds"])
elif WAIT["kind"] == "exponential":
    WAIT_TIME = _exponential(WAIT["mean"])
else:
    raise SystemExit(f"unknown wait distribution {WAIT['kind']!r} in {POOL_FILE}")


class Device(HttpUser):
    wait_time = WAIT_TIME

    def on_start(self):
        self.number = next(_device_numbers)
        self.device_name = f"dev-{self.number:06d}"
        self.seq = 0
        # as the studio's generator: with a stride, payload i carries device (i mod stride)'s identity
        # and each device sends its own; without one, devices start at different places of the pool
        if STRIDE:
            self.next, self.step = self.number % STRIDE, STRIDE
        else:
            self.next, self.step = (self.number * 7919) % len(PAYLOADS), 1

    @task
    def send(self):
        body = PAYLOADS[self.next]
        self.next = (self.next + self.step) % len(PAYLOADS)
        headers = dict(HEADERS)
        headers["x-satpayload-device"] = self.device_name
        headers["x-satpayload-message-id"] = f"{RUN_TAG}.{self.number}.{self.seq}.{int(time.time() * 1000)}"
        if not KEEP_ALIVE:
            headers["connection"] = "close"
        self.seq += 1
        # 2xx only is success, as in the studio (Locust would accept 3xx too)
        with self.client.post(PATH, data=body, headers=headers, name="ingest", timeout=TIMEOUT_S, catch_response=True) as r:
            if 200 <= r.status_code < 300:
                r.success()
            else:
                r.failure(f"HTTP {r.status_code}")
