"""The paper's container device, written from its description (Kumar et al. 2026, Section 3.2: the
20-field record with every value a string, its value ranges, and the encodings its Locust clients
used: cbor2, msgpack, struct+zlib, protoc-generated classes). Not the paper's own code. Payloads are
made before the load starts, as the paper's clients did, so the run measures the server.

Each client also writes, when its run stops, the records it got HTTP 200 for, as the decoder should
have stored them (SATPAYLOAD_SENT_FILE, JSON): the text record itself for CBOR and MessagePack; for
Struct+Zlib and Protobuf, which carry float32 values, each number as the device prints the float32 it
sent, with the decimals it wrote."""

import json
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

# which of the paper's keys are strings and unsigned integers in its typed formats
STRINGS = ref_struct.PAPER_STRINGS
UINTS = ref_struct.PAPER_UINTS


def record(rng, device):
    """One reading of container `device` (0..199) in the paper's value ranges, every value a string
    as the device emits it."""
    return {
        "msisdn": "39360050%d" % (4800 + device),
        "iso6346": "LMCU%07d" % device,
        "time": "%02d%02d25 %02d%02d%02d.%d" % (rng.randint(1, 28), rng.randint(1, 12), rng.randint(0, 23), rng.randint(0, 59), rng.randint(0, 59), rng.randint(0, 9)),
        "rssi": str(rng.randint(15, 35)),
        "cgi": "999-01-1-31D41",
        "ble-m": str(rng.randint(0, 1)),
        "bat-soc": str(int(rng.uniform(76, 96))),
        "acc": "%.4f %.4f %.4f" % (-993.9 + rng.uniform(0, 20), -27.1 + rng.uniform(0, 10), -52 + rng.uniform(0, 10)),
        "temperature": "%.2f" % (17 + rng.uniform(0, 10)),
        "humidity": "%.2f" % rng.uniform(61, 81),
        "pressure": "%.4f" % rng.uniform(1002.4, 1022.4),
        "door": rng.choice("DOCT"),
        "gnss": str(rng.randint(0, 1)),
        "latitude": "%.2f" % rng.uniform(31.61, 32.11),
        "longitude": "%.2f" % rng.uniform(28.49, 28.99),
        "altitude": "%.2f" % rng.uniform(39.5, 59.5),
        "speed": "%.1f" % rng.uniform(0, 40),
        "heading": "%.2f" % rng.uniform(0, 360),
        "nsat": "%02d" % rng.randint(4, 12),
        "hdop": "%.1f" % rng.uniform(0.5, 5.5),
    }


def float32_text(text):
    """The float32 the typed formats carry for `text`, printed with the decimals the device wrote."""
    decimals = len(text.partition(".")[2])
    sent = struct.unpack(">f", struct.pack(">f", float(text)))[0]
    return "%.*f" % (decimals, sent)


def as_sent(rec, typed):
    """What the device sent, as text: the record itself, or its numbers as the float32s sent."""
    if not typed:
        return dict(rec)
    out = {}
    for key, text in rec.items():
        if key in STRINGS or key in UINTS:
            out[key] = text
        else:
            out[key] = " ".join(float32_text(x) for x in text.split(" "))
    return out


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
    """container.ContainerData of container.proto (written from the paper's description), compiled
    by protoc once."""
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


# the typed formats carry numbers, the others the text record
struct_zlib.typed = protobuf.typed = True
cbor.typed = msgpack.typed = False


def readings(encode, device, count=50, seed=None):
    """`count` readings of `device`: (payload, the record as sent)."""
    rng = random.Random(seed if seed is not None else device)
    out = []
    for _ in range(count):
        rec = record(rng, device)
        out.append((encode(rec), as_sent(rec, encode.typed)))
    return out


def device_user(encode):
    """A device (a Locust HttpUser) sending readings encoded by `encode`: each POSTs its
    pre-encoded readings as application/octet-stream to /container-data; only HTTP 200 counts."""
    import itertools

    from locust import HttpUser, between, events, task

    # made before the load starts (as the paper's clients did): 20 devices x 50 readings
    devices = 20
    pools = [readings(encode, device) for device in range(devices)]
    started = itertools.count()
    delivered = []

    @events.test_stop.add_listener
    def write_delivered(**_kwargs):
        target = os.environ.get("SATPAYLOAD_SENT_FILE")
        if target:
            with open(target, "w", encoding="utf-8") as f:
                json.dump(delivered, f)

    class ContainerDevice(HttpUser):
        wait_time = between(0.05, 0.2)

        def on_start(self):
            self.readings = itertools.cycle(pools[next(started) % devices])

        @task
        def send(self):
            payload, sent = next(self.readings)
            with self.client.post("/container-data", data=payload, headers={"Content-Type": "application/octet-stream"}, name="container-data", catch_response=True) as r:
                if r.status_code == 200:
                    r.success()
                    delivered.append(sent)
                else:
                    r.failure(f"HTTP {r.status_code}: {r.text[:200]}")

    return ContainerDevice
