"""A sender that writes readings the way the paper author's own CBOR and MessagePack Locust senders
were observed to (their public repository, run on this machine): every value a string, latitude and
longitude with 4 decimals although the paper's layout declares 2, acceleration and pressure with 4,
the UTC time truncated to tenths. It POSTs each reading as application/octet-stream to a device
route and writes one JSON line per request: the HTTP status, the decoder's answer and the reading
it sent, so a test can compare every stored record with what was sent, field by field.

usage: fidelity_sender.py URL FORMAT COUNT OUT [SEED]   (FORMAT: cbor, msgpack or struct-zlib)
"""

import json
import random
import sys
import urllib.error
import urllib.request
from datetime import datetime, timedelta, timezone

import paper_device


def reading(rng, now):
    """One container reading in the author's observed style (values and widths, not his code)."""
    at = now - timedelta(minutes=rng.randint(0, 60), seconds=rng.random() * 60)
    tenths = at.microsecond // 100000  # truncated, not rounded, as his senders print it
    return {
        "msisdn": "39360050%d" % rng.randint(4800, 4999),
        "iso6346": "LMCU%07d" % rng.randint(1, 40),
        "time": at.strftime("%d%m%y %H%M%S") + ".%d" % tenths,
        "rssi": str(rng.randint(15, 35)),
        "cgi": "999-01-1-31D41",
        "ble-m": str(rng.randint(0, 1)),
        "bat-soc": str(int(96 - rng.random() * 20)),
        "acc": "%.4f %.4f %.4f" % (-993.9 + rng.random() * 20, -27.1 + rng.random() * 10, -52.0 + rng.random() * 10),
        "temperature": "%.2f" % (17 + rng.random() * 10),
        "humidity": "%.2f" % (61 + rng.random() * 20),
        "pressure": "%.4f" % (1002.4 + rng.random() * 20),
        "door": rng.choice("DOCT"),
        "gnss": str(rng.randint(0, 1)),
        "latitude": "%.4f" % (31.61 + rng.random() * 0.5),
        "longitude": "%.4f" % (28.49 + rng.random() * 0.5),
        "altitude": "%.2f" % (39.5 + rng.random() * 20),
        "speed": "%.1f" % (rng.random() * 40),
        "heading": "%.2f" % (rng.random() * 360),
        "nsat": "%02d" % rng.randint(4, 12),
        "hdop": "%.1f" % (0.5 + rng.random() * 5),
    }


ENCODERS = {"cbor": paper_device.cbor, "msgpack": paper_device.msgpack, "struct-zlib": paper_device.struct_zlib}


def main():
    url, fmt, count, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    seed = int(sys.argv[5]) if len(sys.argv) > 5 else 1
    rng = random.Random(seed)
    now = datetime.now(timezone.utc)
    encode = ENCODERS[fmt]
    with open(out, "w", encoding="utf-8") as f:
        for _ in range(count):
            rec = reading(rng, now)
            req = urllib.request.Request(url, data=encode(rec), headers={"Content-Type": "application/octet-stream"})
            try:
                with urllib.request.urlopen(req, timeout=30) as r:
                    status, body = r.status, r.read().decode()
            except urllib.error.HTTPError as e:
                status, body = e.code, e.read().decode()
            f.write(json.dumps({"status": status, "answer": json.loads(body), "sent": rec}) + "\n")


if __name__ == "__main__":
    main()
