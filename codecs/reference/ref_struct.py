"""The paper's own Struct packing and zlib from Python's struct and zlib modules (the paper's client);
any layout is packed by ref_struct_layout.py.

stdin (JSON object, every key optional):
  "paper":   [{"msisdn": "...", ...}, ...]
             the paper's own packing of its all-string record, written from its description
             (keys in record order; strings: length as H in place, bytes appended; uints B;
             floats f; acc: three f from the space-separated text), independent of our plan
  "zlib":    true  -> also zlib.compress(data, 9) of every paper stream
  "inflate": ["<hex>", ...]   zlib.decompress of each
  "compress": ["<hex>", ...]  zlib.compress(data, 9) of each (npm run measure:deflate)

stdout: {"zlib_version": "1.2.13", "python_version": "3.11.7", "compress": [hex], "paper": [{"data": hex, "zlib": hex}],
         "inflate": [hex or {"error": message}]}
"""

import json
import platform
import struct
import sys
import zlib

PAPER_STRINGS = {"msisdn", "iso6346", "time", "cgi", "door"}
PAPER_UINTS = {"rssi", "ble-m", "bat-soc", "gnss", "nsat"}


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
