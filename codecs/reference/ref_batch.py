"""Reference decoder of batch messages (issue #27), written from docs/design/batch-wire.md and
docs/design/bitpacked-mapping.md alone, never from the TypeScript (codecs/src/batch/, the bit-packed
codec). It derives the wire layout from the user's layout itself, reads the bytes with an independent
reader per format (ref_bitpacked.py for bit-packing; ref_struct_read.py, from struct-mapping.md, for
Struct and, after zlib.decompress, Struct+Zlib; cbor2, msgpack and Python's json, the paper's
client libraries, for the self-describing formats; Google's protobuf runtime on a message built from
the derived wire layout with the descriptor API), then rebuilds the readings as the page says.

stdin:  {"layout": <parsed *.satlayout.json with "batch", defaults applied>,
         "jobs": [{"format": "bitpacked"|"struct"|"struct-zlib"|"cbor"|"msgpack"|"json"|"protobuf"
                             |"cbor-int"|"msgpack-int", "form": "delta"|"columns",
                   "maxReadings": N, "messages": ["<hex>", ...],
                   "proto": "<path of the wire layout's .proto>", "message": "<its message>"  (protobuf only),
                   "keys": {"<number>": "<wire key>", ...}  (cbor-int / msgpack-int only: the wire
                   layout's field numbers, as the integer-keys export hands them to a receiver)}]}
stdout: {"results": [[{"once": {...}, "readings": [{...}, ...]} | {"error": {"kind", "message"}}, ...], ...],
         "wire": [<the derived wire layout's fields of each job>, ...]}
        values tagged as ref_bitpacked.tag does ({"f"} floats as binary64 bits, {"i"} ints, {"b"} bytes).
Every refusal is an error entry, never a reading the message cannot vouch for.
"""

import base64
import datetime
import json
import math
import re
import struct
import sys
import zlib

import ref_bitpacked as bp
import ref_struct_read
from ref_bitpacked import RefDecodeError, js_round, to_f32

INT_BITS = (8, 16, 32, 64)


# ---------------------------------------------------------------------------------------------------
# Leaves, units and the wire layout (batch-wire.md: "Leaves and their keys", "Units", "The wire layout")


def int_type(lo, hi):
    """int[lo, hi]: signed when lo < 0, of the smallest of 8, 16, 32, 64 bits that holds the range."""
    signed = lo < 0
    for bits in INT_BITS:
        tlo, thi = bp.INT_LIMITS[(bits, signed)]
        if tlo <= lo and hi <= thi:
            return {"kind": "int", "bits": bits, "signed": signed, "min": lo, "max": hi}
    raise RefDecodeError("layout", f"int[{lo}, {hi}] needs more than 64 bits")


def pow10_decimals(step):
    """d when step is a power of ten below one: d = round(-log10 step), d > 0 and |10^-d - step| < 1e-12
    (batch-wire.md, Units); such steps multiply by 10^d on the way in and divide by it on the way out."""
    if step <= 0:
        return None
    d = round(-math.log10(step))
    return d if d > 0 and abs(10.0**-d - step) < 1e-12 else None


class Units:
    """A numeric leaf counted in whole steps of its declared precision, from 0."""

    def __init__(self, t):
        self.t = t
        kind = t["kind"]
        self.offset = t.get("offset", 0) if kind == "fixed" else 0
        self.step = {"int": 1, "fixed": t.get("scale"), "float": t.get("precision")}.get(kind) or t.get("resolution", 1)
        self.d = pow10_decimals(self.step)
        if kind == "int":
            lo, hi = bp.INT_LIMITS[(t["bits"], t["signed"])]
            self.lo = lo if t.get("min") is None else t["min"]
            self.hi = hi if t.get("max") is None else t["max"]
        elif kind == "timestamp":
            self.lo = 0 if t.get("min") is None else self.to_units(t["min"])
            self.hi = self.to_units(4294967295 if t.get("max") is None else t["max"])
        else:
            self.lo, self.hi = self.to_units(t["min"]), self.to_units(t["max"])
        self.lo, self.hi = int(self.lo), int(self.hi)

    def to_units(self, v):
        if self.d is not None:
            return js_round((v - self.offset) * 10**self.d)
        return js_round((v - self.offset) / self.step)

    def value(self, u):
        if self.t["kind"] == "int":
            return u
        v = (u / 10**self.d if self.d is not None else u * self.step) + self.offset
        return to_f32(v) if self.t["kind"] == "float" and self.t["bits"] == 32 else v


def delta_units(t):
    """Units for a leaf the delta form sends as differences; None for a leaf sent as a column."""
    kind = t["kind"]
    if kind == "int" and t["bits"] != 64:
        return Units(t)
    if kind == "fixed":
        return Units(t)
    if kind == "float" and all(t.get(k) is not None for k in ("precision", "min", "max")):
        return Units(t)
    if kind == "timestamp" and t["encoding"] == "epoch":
        return Units(t)
    return None


def leaves_of(f):
    """(key, path, type) of each value a reading holds of top-level field f, depth first."""
    out = []

    def walk(field, key, path):
        t = field["type"]
        if t["kind"] == "group":
            for g in t["fields"]:
                walk(g, f"{key}_{g['key']}", path + [g["key"]])
        elif t["kind"] == "array":
            for i in range(t["maxCount"]):
                out.append((f"{key}_{i}", path + [i], t["of"]))
        else:
            out.append((key, path, t))

    walk(f, f["key"], [f["key"]])
    return out


def keyframes(n, k):
    """kf(n) = floor((n - 1) / K): how many of n readings are keyframes (0 when K = 0 or n = 1)."""
    return 0 if not k or n <= 1 else (n - 1) // k


def is_keyframe(i, k):
    return bool(k) and i >= 1 and i % k == 0


def text_without_separator(f):
    rep = f.get("text")
    if rep and rep.get("as") == "string" and "separator" in rep:
        rep = {k: v for k, v in rep.items() if k != "separator"}
    return rep


def time_resolution(t):
    return bp.text_resolution(t["textFormat"]) if t["encoding"] == "text" else t.get("resolution", 1)


def wire_field(key, t, text=None, presence="required"):
    f = {"id": key, "key": key, "name": key, "presence": presence, "type": t}
    if text:
        f["text"] = text
    return f


def array(of, max_count):
    return {"kind": "array", "of": of, "maxCount": max_count, "fixed": False}


class Plan:
    """The wire layout of a layout's batch for one form and maxReadings, and how to read it back."""

    def __init__(self, layout, form, max_readings):
        self.layout, self.form, self.max = layout, form, max_readings
        batch = layout["batch"]
        self.k = batch.get("keyframeEvery") or 0
        self.interval = batch["intervalSeconds"]
        rates = {p["field"]: p.get("maxRate") for p in batch["perReading"]}
        self.per_reading = [f for f in layout["fields"] if f["id"] in rates]
        self.once = [f for f in layout["fields"] if f["id"] not in rates]
        self.time = next((f for f in self.per_reading if f["id"] == batch.get("time")), None)
        self.fields = []  # the wire layout
        self.leaves = []  # (key, path, type, units or None, D)
        if form == "delta":
            self.fields.append(wire_field("count", int_type(0, max_readings)))
        for f in layout["fields"]:
            if f["id"] not in rates:
                self.fields.append(f)
                continue
            if form == "delta" and f is self.time:
                self.fields.append(f)
                r = time_resolution(f["type"])
                self.max_offset = 2 * (max_readings - 1) * js_round(self.interval / r)
                if max_readings - 1 > 0:
                    self.fields.append(wire_field(f"{f['key']}_t", array(int_type(0, self.max_offset), max_readings - 1)))
                continue
            for key, path, t in leaves_of(f):
                units = delta_units(t) if form == "delta" else None
                if units is None:
                    self.leaves.append((key, path, t, None, None))
                    self.fields.append(wire_field(key, array(t, max_readings), text_without_separator(f)))
                    continue
                span = units.hi - units.lo
                rate = rates[f["id"]]
                if rate is None:
                    d = span
                else:
                    q = rate * self.interval / units.step
                    d = min(span, (round(q) if abs(q - round(q)) <= 1e-9 else math.ceil(q)) + 1)
                self.leaves.append((key, path, t, units, d))
                self.fields.append(wire_field(key, int_type(units.lo, units.hi)))
                n_d = max_readings - 1 - keyframes(max_readings, self.k)
                if n_d > 0:
                    self.fields.append(wire_field(f"{key}_d", array(int_type(-d, d), n_d)))
                n_k = keyframes(max_readings, self.k)
                if n_k > 0:
                    self.fields.append(wire_field(f"{key}_k", array(int_type(units.lo, units.hi), n_k)))

    def readings(self, wire):
        """batch-wire.md "Decoding", steps 2-6, on the wire record as the format decoded it."""
        if self.form == "delta":
            n = wire.get("count", 0)
        else:
            first = self.leaves[0][0] if self.leaves else None
            n = len(wire.get(first, [])) if first else 0
        if not isinstance(n, int) or not 1 <= n <= self.max:
            raise RefDecodeError("count", f"{n} readings; a message holds 1 to {self.max}")
        readings = [{} for _ in range(n)]
        for key, path, t, units, d in self.leaves:
            values = self.leaf_values(wire, key, units, d, n)
            for i, v in enumerate(values):
                put(readings[i], path, v)
        if self.form == "delta" and self.time is not None:
            self.times(wire, readings, n)
        once = {f["key"]: wire[f["key"]] for f in self.once if f["key"] in wire}
        return once, readings

    def leaf_values(self, wire, key, units, d, n):
        if units is None:
            col = wire.get(key, [])
            if len(col) != n:
                raise RefDecodeError("count", f"{key}: {len(col)} values for {n} readings")
            return col
        diffs, keys = wire.get(f"{key}_d", []), wire.get(f"{key}_k", [])
        kf = keyframes(n, self.k)
        if len(keys) != kf or 1 + len(diffs) + len(keys) != n:
            raise RefDecodeError("count", f"{key}: 1 + {len(diffs)} differences + {len(keys)} keyframes for {n} readings")
        if key not in wire:
            raise RefDecodeError("count", f"{key}: no first reading")
        u = wire[key]
        us = [u]
        di, ki = iter(diffs), iter(keys)
        for i in range(1, n):
            if is_keyframe(i, self.k):
                u = next(ki)
            else:
                step = next(di)
                if abs(step) > d:
                    raise RefDecodeError("overflow", f"{key}: difference {step} beyond ±{d}")
                u += step
            if not units.lo <= u <= units.hi:
                raise RefDecodeError("overflow", f"{key}: reading {i} at {u} units, outside {units.lo}..{units.hi}")
            us.append(u)
        if not units.lo <= us[0] <= units.hi:
            raise RefDecodeError("range", f"{key}: {us[0]} units outside {units.lo}..{units.hi}")
        return [units.value(x) for x in us]

    def times(self, wire, readings, n):
        f = self.time
        key = f["key"]
        if key not in wire:
            raise RefDecodeError("count", f"{key}: no base time")
        offsets = wire.get(f"{key}_t", [])
        if len(offsets) != n - 1:
            raise RefDecodeError("count", f"{key}: {len(offsets)} offsets for {n} readings")
        r = time_resolution(f["type"])
        d = pow10_decimals(r)
        t0 = wire[key]
        base = js_round(t0 * 10**d) if d is not None else js_round(t0 / r)
        readings[0][key] = t0
        for i, off in enumerate(offsets, start=1):
            if not 0 <= off <= self.max_offset:
                raise RefDecodeError("overflow", f"{key}_t: offset {off} outside 0..{self.max_offset}")
            ticks = base + off
            readings[i][key] = ticks / 10**d if d is not None else ticks * r


def put(rec, path, v):
    at = rec
    for step, nxt in zip(path, path[1:]):
        if step not in at:
            at[step] = [] if isinstance(nxt, int) else {}
        at = at[step]
    last = path[-1]
    if isinstance(last, int):
        while len(at) <= last:
            at.append(None)
    at[last] = v


# ---------------------------------------------------------------------------------------------------
# Self-describing formats: the plain record back to typed values (each field's text representation)


def parse_time(text, fmt):
    """A text timestamp in its layout format (YYYY YY MM DD hh mm ss, '.s…' after ss), UTC; YY is 20YY."""
    i = j = 0
    parts = {"YYYY": 1970, "MM": 1, "DD": 1, "hh": 0, "mm": 0, "ss": 0}
    frac = 0.0
    tokens = ("YYYY", "YY", "MM", "DD", "hh", "mm", "ss")
    while i < len(fmt):
        tok = next((t for t in tokens if fmt.startswith(t, i)), None)
        if tok is None:
            if j >= len(text) or text[j] != fmt[i]:
                raise RefDecodeError("text", f'"{text}" does not match {fmt}')
            i += 1
            j += 1
            continue
        width = len(tok)
        digits = text[j : j + width]
        if len(digits) != width or not digits.isdigit():
            raise RefDecodeError("text", f'"{text}" does not match {fmt}')
        parts["YYYY" if tok == "YY" else tok] = int(digits) + (2000 if tok == "YY" else 0)
        i += width
        j += width
        if tok == "ss" and fmt.startswith(".s", i):
            n = len(fmt[i + 1 :]) - len(fmt[i + 1 :].lstrip("s"))
            frac_text = text[j + 1 : j + 1 + n]
            if text[j : j + 1] != "." or len(frac_text) != n or not frac_text.isdigit():
                raise RefDecodeError("text", f'"{text}" does not match {fmt}')
            frac = int(frac_text) / 10**n
            i += 1 + n
            j += 1 + n
    if j != len(text):
        raise RefDecodeError("text", f'"{text}" does not match {fmt}')
    try:
        t = datetime.datetime(parts["YYYY"], parts["MM"], parts["DD"], parts["hh"], parts["mm"], parts["ss"], tzinfo=datetime.timezone.utc)
    except ValueError:
        raise RefDecodeError("text", f'"{text}" is not a date and time of the calendar') from None
    whole = int(t.timestamp())
    return whole + frac if frac else whole


CHARSET_OK = {
    "utf8": lambda s: True,
    "ascii": lambda s: all(0x20 <= ord(c) <= 0x7E for c in s),
    "digits": lambda s: all(c in "0123456789" for c in s),
    "hex": lambda s: all(c in "0123456789abcdefABCDEF" for c in s),
    "upper-alnum": lambda s: all(c in "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ -" for c in s),
    "alnum": lambda s: all(c.isascii() and c.isalnum() for c in s),
}


NUMBER_TEXT = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")
NON_FINITE = {"NaN": math.nan, "nan": math.nan, "Infinity": math.inf, "inf": math.inf, "+inf": math.inf, "-Infinity": -math.inf, "-inf": -math.inf}
# JSON carries bytes without a text form as base64; CBOR and MessagePack carry them as bytes, text as hex
JSON_MODE = [False]


def number_text(text, integer):
    """A number written as text: the whole (trimmed) text must be one; integers digits only."""
    t = text.strip()
    if integer:
        return int(t) if re.fullmatch(r"[+-]?\d+", t) else None
    if NUMBER_TEXT.match(t):
        return float(t)
    return NON_FINITE.get(t)


def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def bad(what, v, expected):
    raise RefDecodeError("type", f"{what}: {v!r} is not {expected}")


def scalar_from_plain(t, v, as_text, what):
    """One plain value (as cbor2, msgpack or json decoded it) as its typed value, refusing anything else."""
    kind = t["kind"]
    if kind == "enum":
        for e in t["values"]:
            if (isinstance(v, str) and v == e["name"]) or (is_number(v) and v == e["value"]):
                return e["name"]
        bad(what, v, "a value of the enum")
    if kind == "timestamp" and t["encoding"] == "text":
        if not isinstance(v, str):
            bad(what, v, "a text timestamp")
        out = parse_time(v, t["textFormat"])
    elif kind == "bytes":
        if isinstance(v, str):
            try:
                out = base64.b64decode(v, validate=True) if JSON_MODE[0] and not as_text else bytes.fromhex(v)
            except ValueError:
                bad(what, v, "bytes")
        elif isinstance(v, (bytes, bytearray)):
            out = bytes(v)
        else:
            bad(what, v, "bytes")
        if len(out) > t["maxLength"]:
            raise RefDecodeError("count", f"{what}: {len(out)} bytes, at most {t['maxLength']}")
        return out
    elif kind == "string":
        if not isinstance(v, str):
            bad(what, v, "a string")
        if len(v.encode("utf-8", "surrogatepass")) > t["maxLength"] or not CHARSET_OK[t.get("charset", "utf8")](v):
            bad(what, v, f"a string of at most {t['maxLength']} bytes in {t.get('charset', 'utf8')}")
        return v
    elif kind == "bool":
        if isinstance(v, bool):
            return v
        if v in ("1", "0", "true", "false"):  # a string is read as the field's text, with or without a text form
            return v in ("1", "true")
        bad(what, v, "a boolean")
    elif isinstance(v, str):
        out = number_text(v, kind == "int")
        if out is None:
            bad(what, v, kind)
    elif kind == "int":
        if not isinstance(v, int) or isinstance(v, bool):
            bad(what, v, "an integer")
        out = v
    else:
        if not is_number(v):
            bad(what, v, "a number")
        out = float(v) if kind in ("float", "fixed") else v
    if kind == "float" and t["bits"] == 32:
        out = to_f32(out)
    check_range(t, out, what)
    return out


def check_range(t, v, what):
    kind = t["kind"]
    if kind == "int":
        lo, hi = bp.INT_LIMITS[(t["bits"], t["signed"])]
        lo, hi = max(lo, t["min"]) if t.get("min") is not None else lo, min(hi, t["max"]) if t.get("max") is not None else hi
        if not lo <= v <= hi:
            raise RefDecodeError("range", f"{what}: {v} outside {lo}..{hi}")
    elif kind in ("float", "fixed", "timestamp") and not math.isnan(v):
        if (kind == "fixed" or kind == "timestamp") and math.isinf(v):
            raise RefDecodeError("range", f"{what}: {v}")
        if (t.get("min") is not None and v < t["min"]) or (t.get("max") is not None and v > t["max"]):
            raise RefDecodeError("range", f"{what}: {v} outside {t.get('min')}..{t.get('max')}")


def field_from_plain(f, v, what):
    t = f["type"]
    as_text = (f.get("text") or {}).get("as") == "string"
    if t["kind"] == "group":
        if not isinstance(v, dict):
            bad(what, v, "a map")
        return record_from_plain(t["fields"], v, what + ".")
    if t["kind"] == "array":
        sep = (f.get("text") or {}).get("separator")
        items = (v.split(sep) if v else []) if isinstance(v, str) and sep is not None else v
        if not isinstance(items, list):
            bad(what, v, "an array")
        if len(items) > t["maxCount"] or (t.get("fixed") and len(items) != t["maxCount"]):
            raise RefDecodeError("count", f"{what}: {len(items)} elements, at most {t['maxCount']}")
        return [scalar_from_plain(t["of"], x, as_text, f"{what}[{i}]") for i, x in enumerate(items)]
    return scalar_from_plain(t, v, as_text, what)


def record_from_plain(fields, obj, prefix=""):
    if not isinstance(obj, dict):
        raise RefDecodeError("type", f"{prefix or 'the message'} is not a map")
    known = {f["key"] for f in fields}
    for k in obj:
        if k not in known:
            raise RefDecodeError("type", f"{prefix}{k} is not a field of the wire layout")
    out = {}
    for f in fields:
        v = obj.get(f["key"])
        if v is None:
            if f.get("presence", "required") == "required":
                raise RefDecodeError("count", f"{prefix}{f['key']} is missing")
            continue
        out[f["key"]] = field_from_plain(f, v, prefix + f["key"])
    return out


def check_wire(fields, rec):
    """The checks step 1 leaves to the format for the self-describing ones: int bounds and array counts."""
    for f in fields:
        v = rec.get(f["key"])
        if v is None:
            continue
        t = f["type"]
        items = v if t["kind"] == "array" else [v]
        if t["kind"] == "array" and len(items) > t["maxCount"]:
            raise RefDecodeError("count", f"{f['key']}: {len(items)} values, at most {t['maxCount']}")
        of = t["of"] if t["kind"] == "array" else t
        if of["kind"] == "int" and of.get("min") is not None:
            for x in items:
                if not isinstance(x, int) or not of["min"] <= x <= of["max"]:
                    raise RefDecodeError("overflow", f"{f['key']}: {x} outside {of['min']}..{of['max']}")


def decode_cbor(data):
    import cbor2

    try:
        return cbor2.loads(data)
    except Exception as e:  # cbor2 raises several kinds for truncated or malformed input
        raise RefDecodeError("truncated", f"cbor2: {e}") from None


def decode_msgpack(data):
    import msgpack

    try:
        return msgpack.unpackb(data, raw=False, strict_map_key=False)
    except Exception as e:
        raise RefDecodeError("truncated", f"msgpack: {e}") from None


def decode_json(data):
    try:
        return json.loads(data.decode("utf-8"))
    except Exception as e:
        raise RefDecodeError("truncated", f"json: {e}") from None


SELF_DESCRIBING = {"cbor": decode_cbor, "msgpack": decode_msgpack, "json": decode_json}
INTEGER_KEYED = {"cbor-int": decode_cbor, "msgpack-int": decode_msgpack}


def named(doc, keys):
    """An integer-keyed document (the wire layout is flat) with each number replaced by its key."""
    if not isinstance(doc, dict):
        raise RefDecodeError("type", "the message is not a map")
    out = {}
    for k, v in doc.items():
        if isinstance(k, bool) or not isinstance(k, int) or str(k) not in keys:
            raise RefDecodeError("type", f"key {k!r} is not a field number of the wire layout")
        out[keys[str(k)]] = v
    return out


def decode_message(plan, fmt, data, protobuf=None, keys=None):
    if fmt == "bitpacked":
        wire = bp.decode({"fields": plan.fields}, data)
    elif fmt in INTEGER_KEYED:
        JSON_MODE[0] = False
        wire = record_from_plain(plan.fields, named(INTEGER_KEYED[fmt](data), keys))
        check_wire(plan.fields, wire)
    elif fmt in SELF_DESCRIBING:
        JSON_MODE[0] = fmt == "json"
        wire = record_from_plain(plan.fields, SELF_DESCRIBING[fmt](data))
        check_wire(plan.fields, wire)
    elif fmt in ("struct", "struct-zlib"):
        if fmt == "struct-zlib":
            try:
                data = zlib.decompress(data)
            except zlib.error as e:
                raise RefDecodeError("truncated", f"zlib: {e}") from None
        wire = ref_struct_read.decode(plan.layout, plan.fields, data)
        check_wire(plan.fields, wire)
    elif fmt == "protobuf":
        wire = protobuf.decode(data)
        check_wire(plan.fields, wire)
    else:
        raise RefDecodeError("format", f"no reference reader for {fmt}")
    once, readings = plan.readings(wire)
    return {"once": once, "readings": readings}


def decode_all(plan, fmt, messages, protobuf, keys=None):
    out = []
    for h in messages:
        try:
            out.append({k: bp.tag(v) for k, v in decode_message(plan, fmt, bytes.fromhex(h), protobuf, keys).items()})
        except RefDecodeError as e:
            out.append({"error": {"kind": e.kind, "message": str(e)}})
    return out


def main():
    req = json.load(sys.stdin)
    layout = req["layout"]
    results, wires = [], []
    for job in req["jobs"]:
        plan = Plan(layout, job["form"], job["maxReadings"])
        protobuf = None
        if job["format"] == "protobuf":
            from ref_batch_protobuf import ProtobufWire

            protobuf = ProtobufWire(plan, job["proto"], job["message"])
        results.append(decode_all(plan, job["format"], job["messages"], protobuf, job.get("keys")))
        wires.append(plan.fields)
    json.dump({"results": results, "wire": wires}, sys.stdout)


if __name__ == "__main__":
    main()
