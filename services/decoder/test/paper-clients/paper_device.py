"""The paper's device: its all-string container record (Kumar et al. 2026, Section 3.2) and the
encodings its Locust clients used (cbor2, msgpack, struct+zlib, protoc-generated classes).
Payloads are made before the load starts, as the paper's clients did, so the run measures the
server, not the encoder."""

import os
import random
import struct
import subprocess
import sys
import zlib

# the paper's struct packing, kept once for the reference tests and these clients: beside this file
# when the clients are copied to run, else in the repository's codecs/reference
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "codecs", "reference"))
import ref_struct  # noqa: E402

# which of the paper's keys are strings and unsigned bytes in its typed formats
STRINGS = ref_struct.PAPER_STRINGS
UINTS = ref_struct.PAPER_UINTS


def record(rng, device):
    """One reading of container `device` (an int), every value a string as the device emits it."""
    return {
        "msisdn": "3936%08d" % device,
        "iso6346": "LMCU%07d" % device,
        "time": "%02d%02d25 %02d%02d%02d.%d" % (rng.randint(1, 28), rng.randint(1, 12), rng.randint(0, 23), rng.randint(0, 59), rng.randint(0, 59), rng.randint(0, 9)),
        "rssi": str(rng.randint(0, 99)),
        "cgi": "999-01-1-31D41",
        "ble-m": str(rng.randint(0, 1)),
        "bat-soc": str(rng.randint(0, 100)),
        "acc": "%.4f %.4f %.4f" % (rng.uniform(-1000, 1000), rng.uniform(-100, 100), rng.uniform(-100, 100)),
        "temperature": "%.2f" % rng.uniform(-20, 40),
        "humidity": "%.2f" % rng.uniform(10, 95),
        "pressure": "%.4f" % rng.uniform(950, 1050),
        "door": rng.choice("DO"),
        "gnss": "1",
        "latitude": "%.2f" % rng.uniform(-60, 60),
        "longitude": "%.2f" % rng.uniform(-170, 170),
        "altitude": "%.2f" % rng.uniform(0, 100),
        "speed": "%.1f" % rng.uniform(0, 30),
        "heading": "%.2f" % rng.uniform(0, 359),
        "nsat": "%02d" % rng.randint(4, 12),
        "hdop": "%.1f" % rng.uniform(0.5, 5),
    }


def struct_zlib(rec):
    """The paper's Struct (big-endian, string lengths as H in place and the bytes appended, uints
    as B, floats as f, acc as three f; the packing of codecs/reference/ref_struct.py), then
    zlib.compress(…, 9)."""
    return zlib.compress(ref_struct.pack_paper(rec), 9)


def cbor(rec):
    import cbor2

    return cbor2.dumps(rec)


def msgpack(rec):
    import msgpack as mp

    return mp.packb(rec)


_container_pb2 = None


def protobuf(rec):
    """container.ContainerData from container.proto next to this file, compiled by protoc once."""
    global _container_pb2
    if _container_pb2 is None:
        here = os.path.dirname(os.path.abspath(__file__))
        subprocess.run([sys.executable, "-m", "grpc_tools.protoc", f"-I{here}", f"--python_out={here}", "container.proto"], check=True)
        sys.path.insert(0, here)
        import container_pb2

        _container_pb2 = container_pb2
    msg = _container_pb2.ContainerData()
    for key, text in rec.items():
        name = key.replace("-", "_")
        if key in STRINGS:
            setattr(msg, name, text)
        elif key in UINTS:
            setattr(msg, name, int(text))
        elif key == "acc":
            msg.acc_x, msg.acc_y, msg.acc_z = (float(x) for x in text.split(" "))
        else:
            setattr(msg, name, float(text))
    return msg.SerializeToString()


def payloads(encode, device, count=50, seed=None):
    rng = random.Random(seed if seed is not None else device)
    return [encode(record(rng, device)) for _ in range(count)]


def device_user(encode):
    """A paper-style device (a Locust HttpUser) sending readings encoded by `encode`: each POSTs its
    pre-encoded readings as application/octet-stream to /container-data; only HTTP 200 counts."""
    import itertools

    from locust import HttpUser, between, task

    # made before the load starts (as the paper's clients did): 20 devices x 50 readings
    devices = 20
    pools = [payloads(encode, device) for device in range(devices)]
    started = itertools.count()

    class ContainerDevice(HttpUser):
        wait_time = between(0.05, 0.2)

        def on_start(self):
            self.readings = itertools.cycle(pools[next(started) % devices])

        @task
        def send(self):
            with self.client.post("/container-data", data=next(self.readings), headers={"Content-Type": "application/octet-stream"}, name="container-data", catch_response=True) as r:
                if r.status_code == 200:
                    r.success()
                else:
                    r.failure(f"HTTP {r.status_code}: {r.text[:200]}")

    return ContainerDevice
