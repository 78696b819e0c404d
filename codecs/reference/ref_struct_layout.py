"""Struct bytes for any layout, written from docs/design/struct-mapping.md with Python's struct
module: the format string is built here from the layout JSON, independently of the TypeScript plan.

stdin: {"layout": <parsed *.satlayout.json, defaults applied>, "records": [<record>, ...]}
       Record values arrive tagged where JSON cannot carry them exactly:
         {"f": "<16 hex>"}  a number, IEEE 754 binary64 big-endian bits (ints, floats, NaN, -0.0)
         {"i": "<decimal>"} a 64-bit integer
         {"b": "<hex>"}     bytes
       strings, booleans, lists and objects (groups) as they are; enums by name.
stdout: {"zlib_version": "...", "records": [{"format": ">B...", "data": hex, "zlib": hex}, ...]}
"""

import datetime
import json
import math
import struct
import sys
import zlib

INT_CODES = {(8, False): "B", (8, True): "b", (16, False): "H", (16, True): "h", (32, False): "I", (32, True): "i", (64, False): "Q", (64, True): "q"}
PREFIX = {"u8-appended": "B", "u8-inline": "B", "u16-appended": "H", "u16-inline": "H"}
U32_MAX = 2**32 - 1


def untag(v):
    if isinstance(v, dict):
        if set(v) == {"f"}:
            return struct.unpack(">d", bytes.fromhex(v["f"]))[0]
        if set(v) == {"i"}:
            return int(v["i"])
        if set(v) == {"b"}:
            return bytes.fromhex(v["b"])
        return {k: untag(x) for k, x in v.items()}
    if isinstance(v, list):
        return [untag(x) for x in v]
    return v


def decimals_of(resolution):
    """d when resolution is 10^-d (0.1, 0.01 ...), else 0."""
    d = round(-math.log10(resolution))
    return d if d > 0 and abs(10**-d - resolution) < 1e-12 else 0


def smallest_int_code(lo, hi):
    for bits in (8, 16, 32, 64):
        if lo >= 0 and hi <= 2**bits - 1:
            return INT_CODES[(bits, False)]
    for bits in (8, 16, 32, 64):
        if lo >= -(2 ** (bits - 1)) and hi <= 2 ** (bits - 1) - 1:
            return INT_CODES[(bits, True)]
    raise ValueError(f"raw range {lo}..{hi} needs more than 64 bits")


def format_time(fmt, seconds, resolution):
    """The layout's textFormat (YYYY YY MM DD hh mm ss, ".s…" after ss), UTC."""
    d = decimals_of(resolution)
    ticks = round(seconds * 10**d)
    whole, frac = divmod(ticks, 10**d) if d else (round(seconds), 0)
    t = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc) + datetime.timedelta(seconds=whole)
    out = ""
    i = 0
    fields = [("YYYY", f"{t.year:04d}"), ("YY", f"{t.year % 100:02d}"), ("MM", f"{t.month:02d}"), ("DD", f"{t.day:02d}"), ("hh", f"{t.hour:02d}"), ("mm", f"{t.minute:02d}"), ("ss", f"{t.second:02d}")]
    while i < len(fmt):
        for token, text in fields:
            if fmt.startswith(token, i):
                out += text
                i += len(token)
                if token == "ss" and fmt.startswith(".s", i):
                    width = len(fmt[i + 1 :]) - len(fmt[i + 1 :].lstrip("s"))
                    digits = f"{frac:0{d}d}" if d else ""
                    out += "." + (digits + "0" * width)[:width]
                    i += 1 + width
                break
        else:
            out += fmt[i]
            i += 1
    return out


class Packer:
    def __init__(self, layout):
        self.order = ">" if layout["struct"]["endianness"] == "big" else "<"
        self.default_mode = layout["struct"]["stringMode"]
        self.fields = layout["fields"]
        self.optional = []
        self.count_optional(self.fields)

    def count_optional(self, fields):
        for f in fields:
            if f["presence"] == "optional":
                self.optional.append(f["id"])
            if f["type"]["kind"] == "group":
                self.count_optional(f["type"]["fields"])

    def pack(self, record):
        self.fmt, self.values, self.tail_fmt, self.tail_values = "", [], "", []
        self.present = set()
        self.walk(self.fields, record)
        head_fmt, head_values = "", []
        if self.optional:
            n = len(self.optional)
            bitmap = bytearray((n + 7) // 8)
            for i, fid in enumerate(self.optional):
                if fid in self.present:
                    bitmap[i // 8] |= 1 << (i % 8)
            head_fmt, head_values = f"{len(bitmap)}s", [bytes(bitmap)]
        fmt = self.order + head_fmt + self.fmt + self.tail_fmt
        return fmt, struct.pack(fmt, *head_values, *self.values, *self.tail_values)

    def walk(self, fields, record):
        for f in fields:
            v = record.get(f["key"])
            if v is None:
                continue
            if f["presence"] == "optional":
                self.present.add(f["id"])
            mode = (f.get("options") or {}).get("struct", {}).get("stringMode", self.default_mode)
            t = f["type"]
            if t["kind"] == "group":
                self.walk(t["fields"], v)
            elif t["kind"] == "array":
                if not t.get("fixed"):
                    self.put("H" if t["maxCount"] > 255 else "B", len(v))
                for x in v:
                    self.scalar(t["of"], x, mode)
            else:
                self.scalar(t, v, mode)

    def put(self, code, value):
        self.fmt += code
        self.values.append(value)

    def text(self, raw, mode, max_length):
        if mode == "fixed":
            self.put(f"{max_length}s", raw)
        elif mode.endswith("inline"):
            self.put(PREFIX[mode], len(raw))
            self.put(f"{len(raw)}s", raw)
        else:
            self.put(PREFIX[mode], len(raw))
            self.tail_fmt += f"{len(raw)}s"
            self.tail_values.append(raw)

    def scalar(self, t, v, mode):
        kind = t["kind"]
        if kind == "bool":
            self.put("B", 1 if v else 0)
        elif kind == "enum":
            values = {e["name"]: e["value"] for e in t["values"]}
            self.put("B" if max(values.values()) <= 255 else "H", values[v])
        elif kind == "int":
            self.put(INT_CODES[(t["bits"], t["signed"])], int(v))
        elif kind == "float":
            self.put("f" if t["bits"] == 32 else "d", float(v))
        elif kind == "fixed":
            scale, offset = t["scale"], t["offset"]
            lo, hi = round((t["min"] - offset) / scale), round((t["max"] - offset) / scale)
            self.put(smallest_int_code(lo, hi), round((v - offset) / scale))
        elif kind == "timestamp" and t["encoding"] == "epoch":
            res = t["resolution"]
            lo, hi = t.get("min", 0), t.get("max", U32_MAX)
            if res >= 1 and float(res).is_integer() and lo >= 0 and hi <= U32_MAX:
                self.put("I", round(v / res) * int(res))
            else:
                d = decimals_of(res)
                self.put("q", round(v * 10**d) if d else round(v / res))
        elif kind == "timestamp":
            text = format_time(t["textFormat"], v, t["resolution"]).encode("utf-8")
            self.text(text, mode, len(text))
        elif kind == "string":
            self.text(v.encode("utf-8"), "fixed" if t.get("fixed") else mode, t["maxLength"])
        elif kind == "bytes":
            self.text(bytes(v), "fixed" if t.get("fixed") else mode, t["maxLength"])
        else:
            raise ValueError(f"unknown type {kind}")


def main():
    req = json.load(sys.stdin)
    packer = Packer(req["layout"])
    out = []
    for rec in req["records"]:
        fmt, data = packer.pack(untag(rec))
        out.append({"format": fmt, "data": data.hex(), "zlib": zlib.compress(data, 9).hex()})
    json.dump({"zlib_version": zlib.ZLIB_RUNTIME_VERSION, "records": out}, sys.stdout)


if __name__ == "__main__":
    main()
