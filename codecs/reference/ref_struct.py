"""Reference Struct and zlib bytes from Python's struct and zlib modules (the paper's client).

stdin (JSON object, every key optional):
  "pack":    [{"format": ">HHB...", "values": [<value>, ...]}, ...]
             struct.pack(format, *values) for each; values arrive tagged because JSON cannot
             carry them exactly:
               ["i", "<decimal>"]     an int of any size
               ["f", "<16 hex>"]      a float, IEEE 754 binary64 big-endian bits (NaN, -0.0 exact)
               ["s", "<hex>"]         bytes for an "Ns" code
  "paper":   [{"msisdn": "...", ...}, ...]
             the paper's own packing of its all-string record, written from its description
             (keys in record order; strings: length as H in place, bytes appended; uints B;
             floats f; acc: three f from the space-separated text), independent of our plan
  "zlib":    true  -> also zlib.compress(data, 9) of every packed / paper stream
  "inflate": ["<hex>", ...]   zlib.decompress of each
  "compress": ["<hex>", ...]  zlib.compress(data, 9) of each (npm run measure:deflate)

stdout: {"zlib_version": "1.2.13", "python_version": "3.11.7", "compress": [hex], "pack": [{"data": hex, "zlib": hex}], "paper": [...],
         "inflate": [hex or {"error": message}]}
"""

import json
import platform
import struct
import sys
import zlib

PAPER_STRINGS = {"msisdn", "iso6346", "time", "cgi", "door"}
PAPER_UINTS = {"rssi", "ble-m", "bat-soc", "gnss", "nsat"}


def value(tagged):
    kind, text = tagged
    if kind == "i":
        return int(text)
    if kind == "f":
        return struct.unpack(">d", bytes.fromhex(text))[0]
    if kind == "s":
        return bytes.fromhex(text)
    raise ValueError(f"unknown tag {kind!r}")


def pack_paper(record):
    fmt = ">"
    values = []
    appended = b""
    for key, text in record.items():
        if key in PAPER_STRINGS:
            raw = text.encode("utf-8")
            fmt += "H"
            values.append(len(raw))
            appended += raw
        elif key in PAPER_UINTS:
            fmt += "B"
            values.append(int(text))
        elif key == "acc":
            xs = [float(x) for x in text.split(" ")]
            fmt += "f" * len(xs)
            values.extend(xs)
        else:
            fmt += "f"
            values.append(float(text))
    return struct.pack(fmt, *values) + appended


def with_zlib(data, compress):
    out = {"data": data.hex()}
    if compress:
        out["zlib"] = zlib.compress(data, 9).hex()
    return out


def main():
    req = json.load(sys.stdin)
    compress = bool(req.get("zlib"))
    out = {"zlib_version": zlib.ZLIB_RUNTIME_VERSION, "python_version": platform.python_version()}
    out["compress"] = [zlib.compress(bytes.fromhex(h), 9).hex() for h in req.get("compress", [])]
    out["pack"] = [with_zlib(struct.pack(item["format"], *[value(v) for v in item["values"]]), compress) for item in req.get("pack", [])]
    out["paper"] = [with_zlib(pack_paper(rec), compress) for rec in req.get("paper", [])]
    inflated = []
    for h in req.get("inflate", []):
        try:
            inflated.append(zlib.decompress(bytes.fromhex(h)).hex())
        except zlib.error as e:
            inflated.append({"error": str(e)})
    out["inflate"] = inflated
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
