"""The paper's protobuf device client: each simulated device POSTs its pre-encoded readings as
application/octet-stream to /container-data; only HTTP 200 counts as delivered."""

import itertools

from locust import HttpUser, between, task

import paper_device

# made before the load starts (as the paper's clients did): 20 devices x 50 readings
DEVICES = 20
PAYLOADS = [paper_device.payloads(paper_device.protobuf, device) for device in range(DEVICES)]
_devices = itertools.count()


class ContainerDevice(HttpUser):
    wait_time = between(0.05, 0.2)

    def on_start(self):
        self.readings = itertools.cycle(PAYLOADS[next(_devices) % DEVICES])

    @task
    def send(self):
        with self.client.post("/container-data", data=next(self.readings), headers={"Content-Type": "application/octet-stream"}, name="container-data", catch_response=True) as r:
            if r.status_code == 200:
                r.success()
            else:
                r.failure(f"HTTP {r.status_code}: {r.text[:200]}")
