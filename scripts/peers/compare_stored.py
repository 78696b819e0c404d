"""Compares what a client sent (a capture_proxy.py log) with what the stack stored, record by record and
field by field: the buffer's `con` (SQLite, read-only) and the oneM2M instance's `con` (the CSE's API).
What was sent is read from the captured bytes with the libraries the paper author's senders use (cbor2,
msgpack, his protoc-generated module, Python's struct and zlib), never with our decoder.

usage: compare_stored.py --capture FILE --format cbor|msgpack|protobuf|struct-zlib --buffer DB --cse URL
                         [--pb2-dir DIR] [--ae decoder]
  cbor/msgpack: the stored record must equal the sent document exactly (every key, value and order);
  protobuf/struct-zlib: the wire carries numbers, so each stored text must read back to the very value
  sent (float32 fields compared as float32), strings and integers exactly.
Prints one JSON summary line; exits 1 if any record differs or is missing.
"""

import argparse
import base64
import json
import sqlite3
import struct
import sys
import urllib.request
import zlib

STRINGS = ["msisdn", "iso6346", "time", "cgi", "door"]
UINTS = ["rssi", "ble-m", "bat-soc", "gnss", "nsat"]
FLOATS = ["temperature", "humidity", "pressure", "latitude", "longitude", "altitude", "speed", "heading", "hdop"]
# the order the author's struct sender packs (strings' lengths in place, their bytes appended)
STRUCT_ORDER = ["msisdn", "iso6346", "time", "rssi", "cgi", "ble-m", "bat-soc", "acc", "temperature", "humidity",
                "pressure", "door", "gnss", "latitude", "longitude", "altitude", "speed", "heading", "nsat", "hdop"]


def f32(x):
    return struct.unpack(">f", struct.pack(">f", float(x)))[0]


def sent_struct(body):
    raw = zlib.decompress(body)
    fmt = ">" + "".join("H" if k in STRINGS else "B" if k in UINTS else "fff" if k == "acc" else "f" for k in STRUCT_ORDER)
    values = list(struct.unpack_from(fmt, raw))
    pos = struct.calcsize(fmt)
    out = {}
    for k in STRUCT_ORDER:
        if k == "acc":
            out[k] = values[:3]
            del values[:3]
        else:
            out[k] = values.pop(0)
    for k in STRUCT_ORDER:
        if k in STRINGS:
            n = out[k]
            out[k] = raw[pos:pos + n].decode("utf-8")
            pos += n
    if pos != len(raw):
        raise ValueError(f"{len(raw) - pos} trailing bytes")
    return out


def sent_protobuf(body, pb2):
    m = pb2.ContainerData()
    m.ParseFromString(body)
    out = {k: getattr(m, k.replace("-", "_")) for k in STRINGS + UINTS + FLOATS}
    out["acc"] = [m.acc_x, m.acc_y, m.acc_z]
    return out


def typed_equal(sent, stored):
    """field names of a typed (binary) message whose stored text does not read back to the sent value"""
    bad = []
    for k, v in sent.items():
        s = stored.get(k)
        if not isinstance(s, str):
            bad.append(k)
        elif k in STRINGS:
            bad += [] if s == v else [k]
        elif k in UINTS:
            bad += [] if s.isdigit() and int(s) == v else [k]
        elif k == "acc":
            parts = s.split(" ")
            bad += [] if len(parts) == 3 and all(f32(p) == f32(x) for p, x in zip(parts, v)) else [k]
        else:
            bad += [] if f32(s) == f32(v) else [k]
    extra = set(stored) - set(sent)
    return bad + sorted(extra)


def cse_con(cse, ae, device, rn):
    req = urllib.request.Request(f"{cse}/{ae}/{device}/{rn}", headers={"X-M2M-Origin": "Ccompare", "X-M2M-RI": "c", "X-M2M-RVI": "3", "Accept": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())["m2m:cin"]["con"]


def main():
    a = argparse.ArgumentParser()
    a.add_argument("--capture", required=True)
    a.add_argument("--format", required=True, choices=["cbor", "msgpack", "protobuf", "struct-zlib"])
    a.add_argument("--buffer", required=True)
    a.add_argument("--cse", required=True)
    a.add_argument("--ae", default="decoder")
    a.add_argument("--pb2-dir")
    o = a.parse_args()
    if o.format == "cbor":
        import cbor2
        read = cbor2.loads
    elif o.format == "msgpack":
        import msgpack
        read = lambda b: msgpack.unpackb(b, raw=False)  # noqa: E731
    elif o.format == "protobuf":
        sys.path.insert(0, o.pb2_dir)
        import container_data_pb2
        read = lambda b: sent_protobuf(b, container_data_pb2)  # noqa: E731
    else:
        read = sent_struct
    db = sqlite3.connect(f"file:{o.buffer}?mode=ro", uri=True)
    rows = {mid: (rn or mid, dev, json.loads(con)) for mid, rn, dev, con in db.execute("SELECT message_id, rn, device, con FROM records")}
    summary = {"format": o.format, "posts": 0, "ok200": 0, "stored": 0, "equal_buffer": 0, "equal_cse": 0, "differences": []}
    for line in open(o.capture, encoding="utf-8"):
        x = json.loads(line)
        summary["posts"] += 1
        if x["status"] != 200:
            summary["differences"].append({"status": x["status"], "response": x["response"][:200]})
            continue
        summary["ok200"] += 1
        sent = read(base64.b64decode(x["request"]))
        mid = json.loads(x["response"])["messageId"]
        if mid not in rows:
            summary["differences"].append({"missing": mid})
            continue
        summary["stored"] += 1
        rn, device, con = rows[mid]
        instance = cse_con(o.cse, o.ae, device, rn)
        for where, stored in (("buffer", con), ("cse", instance)):
            if o.format in ("cbor", "msgpack"):
                bad = [] if json.dumps(stored) == json.dumps(sent) else [k for k in set(sent) | set(stored) if stored.get(k) != sent.get(k)] or ["key order"]
            else:
                bad = typed_equal(sent, stored)
            if bad:
                if len(summary["differences"]) < 5:
                    summary["differences"].append({where: mid, "fields": {k: [sent.get(k), stored.get(k)] for k in bad if k != "key order"}})
            else:
                summary[f"equal_{where}"] += 1
    print(json.dumps(summary))
    ok = summary["posts"] == summary["ok200"] == summary["stored"] == summary["equal_buffer"] == summary["equal_cse"]
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
