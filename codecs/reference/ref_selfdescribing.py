"""Reference encodings of records with the libraries the paper's Python client used (json, cbor2,
msgpack). The plain record, the map a device writes, is built here from the typed values and the
layout JSON, independently of the TypeScript text conversion (src/text/plain.ts): each field's text
representation ("as": "string") is applied with Python's own formatting.

stdin:  {"layout": <parsed *.satlayout.json, defaults applied>, "records": [<typed record>, ...]}
        Typed values arrive tagged as for ref_struct_layout.py ({"f": "<16 hex>"} a number as its
        binary64 bits, {"i": "<decimal>"} a 64-bit integer, {"b": "<hex>"} bytes; strings, booleans,
        lists and groups as they are; enums by name).
stdout: {"results": [{"json_python": hex, "json_compact": hex, "cbor": hex, "msgpack": hex,
                      "cbor_int": hex, "msgpack_int": hex}, ...]}
        cbor_int / msgpack_int: the same dict with each key replaced by the field's layout number
        (options.protobuf.number, present on every field of a parsed layout), groups likewise.

What the layout says, as a Python device writes it:
  no text representation: ints as int, float32 fields' values as float32 (CBOR 0xfa, MessagePack
  0xca, JSON the shortest digits that read back to the float32), float64 and fixed-point as float,
  epoch timestamps as int when whole, text timestamps in their textFormat (UTC), enums as their
  number, bytes as bytes (JSON: base64 text), groups as maps and arrays as lists;
  "as": "string": f"{v:.{decimals}f}" when decimals are given, else str(int) / repr(float); the
  integer part zero-padded to `pad` digits after the sign; booleans "1"/"0"; enums by name; bytes
  as hex; array elements each as text, joined by `separator` when one is given.
"""

import base64
import json
import math
import struct
import sys

import cbor2
import msgpack

from ref_struct_layout import format_time, untag as untag_typed


class F32:
    """A float32 field's value; Python has no float32, so the encoders are told explicitly."""

    __slots__ = ("v",)

    def __init__(self, v):
        self.v = v


def shortest_f32(v):
    """The float a device's printf of its float32 yields: the fewest digits reading back to v."""
    if math.isnan(v) or math.isinf(v):
        return v
    for p in range(1, 10):
        text = "%.*e" % (p - 1, v)
        try:
            back = struct.unpack(">f", struct.pack(">f", float(text)))[0]
        except OverflowError:  # rounds past the largest float32: not v
            continue
        if back == v:
            return float(text)
    return v


def pad_integer(text, width):
    """Zero-pads the integer part of a number's text to `width` digits, the sign kept in front."""
    sign = "-" if text.startswith("-") else ""
    body = text[len(sign):]
    whole, dot, frac = body.partition(".")
    return sign + whole.zfill(width) + dot + frac


def number_text(v, rep):
    decimals = rep.get("decimals")
    if decimals is not None:
        return f"{v:.{decimals}f}"
    return str(v) if isinstance(v, int) else repr(float(v))


def scalar_text(t, v, rep):
    kind = t["kind"]
    if kind == "bool":
        text = "1" if v else "0"
    elif kind in ("enum", "string"):
        text = v
    elif kind == "bytes":
        text = bytes(v).hex()
    elif kind == "timestamp" and t["encoding"] == "text":
        text = format_time(t["textFormat"], v, t["resolution"])
    elif kind == "timestamp":
        whole = float(v).is_integer() and rep.get("decimals") is None
        text = str(int(v)) if whole else number_text(float(v), rep)
    elif kind == "int":
        text = str(int(v))
    else:  # float, fixed
        text = number_text(float(v), rep)
    if rep.get("pad") is not None and kind in ("int", "float", "fixed", "enum"):
        text = pad_integer(text, rep["pad"])
    return text


def scalar_plain(t, v, target):
    kind = t["kind"]
    if kind == "enum":
        return next(e["value"] for e in t["values"] if e["name"] == v)
    if kind == "timestamp" and t["encoding"] == "text":
        return format_time(t["textFormat"], v, t["resolution"])
    if kind == "timestamp":
        return int(v) if float(v).is_integer() else float(v)
    if kind == "bytes":
        return base64.b64encode(bytes(v)).decode("ascii") if target == "json" else bytes(v)
    if kind == "int":
        return int(v)
    if kind == "float" and t["bits"] == 32:
        return shortest_f32(float(v)) if target == "json" else F32(float(v))
    if kind in ("float", "fixed"):
        return float(v)
    return v  # bool, string


def field_plain(f, v, target, by_number=False):
    t = f["type"]
    rep = f.get("text") or {}
    as_text = rep.get("as") == "string"
    if t["kind"] == "group":
        return record_plain(t["fields"], v, target, by_number)
    if t["kind"] == "array":
        if as_text:
            texts = [scalar_text(t["of"], x, rep) for x in v]
            return rep["separator"].join(texts) if rep.get("separator") is not None else texts
        return [scalar_plain(t["of"], x, target) for x in v]
    return scalar_text(t, v, rep) if as_text else scalar_plain(t, v, target)


def record_plain(fields, record, target, by_number=False):
    """The map a device writes: the layout's keys in layout order, absent optional fields left out;
    by_number: each key is the field's number instead (integer-keyed CBOR / MessagePack)."""
    return {
        (f["options"]["protobuf"]["number"] if by_number else f["key"]): field_plain(f, record[f["key"]], target, by_number)
        for f in fields
        if record.get(f["key"]) is not None
    }


def cbor_default(encoder, value):
    # cbor2 writes every float as a double; a float32 field goes out as CBOR float32 (0xfa),
    # the one thing written by hand. Maps, keys, strings, ints and bytes stay cbor2's.
    if isinstance(value, F32):
        encoder.write(struct.pack(">Bf", 0xFA, value.v))
        return
    raise TypeError("cannot encode %r" % type(value))


DOUBLE = msgpack.Packer(use_bin_type=True)
SINGLE = msgpack.Packer(use_bin_type=True, use_single_float=True)


def msgpack_pack(value):
    # msgpack's float width is per Packer, so containers are walked and each float32 field's value
    # packed by a use_single_float Packer; headers, keys and every other value stay msgpack's.
    if isinstance(value, F32):
        return SINGLE.pack(value.v)
    if isinstance(value, list):
        return DOUBLE.pack_array_header(len(value)) + b"".join(msgpack_pack(x) for x in value)
    if isinstance(value, dict):
        out = [DOUBLE.pack_map_header(len(value))]
        for k, v in value.items():
            out.append(DOUBLE.pack(k))
            out.append(msgpack_pack(v))
        return b"".join(out)
    return DOUBLE.pack(value)


def encode_all(fields, record):
    as_json = record_plain(fields, record, "json")
    return {
        "json_python": json.dumps(as_json).encode("utf-8").hex(),
        "json_compact": json.dumps(as_json, separators=(",", ":"), ensure_ascii=False).encode("utf-8").hex(),
        "cbor": cbor2.dumps(record_plain(fields, record, "cbor"), default=cbor_default).hex(),
        "msgpack": msgpack_pack(record_plain(fields, record, "msgpack")).hex(),
        "cbor_int": cbor2.dumps(record_plain(fields, record, "cbor", True), default=cbor_default).hex(),
        "msgpack_int": msgpack_pack(record_plain(fields, record, "msgpack", True)).hex(),
    }


def main():
    request = json.load(sys.stdin)
    fields = request["layout"]["fields"]
    json.dump({"results": [encode_all(fields, untag_typed(r)) for r in request["records"]]}, sys.stdout)


if __name__ == "__main__":
    main()
