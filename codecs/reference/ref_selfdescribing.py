"""Reference encodings of plain records with the libraries the paper's Python client used.

stdin:  {"records": [<tagged map>, ...]}
stdout: {"results": [{"json_python": hex, "json_compact": hex, "cbor": hex, "msgpack": hex}, ...]}

JSON cannot carry every plain value exactly, so values arrive tagged:
  "text" / true / false / null     as themselves
  ["i", "<decimal>"]               an int (any size)
  ["f32", "<8 hex>"]               a float32 field's value, IEEE 754 big-endian bits
  ["f64", "<16 hex>"]              a float64 value, big-endian bits (NaN, -0.0 and infinities exact)
  ["b", "<hex>"]                   bytes
  ["a", [<value>, ...]]            an array
  ["m", [["key", <value>], ...]]   a map, keys in order
"""

import base64
import json
import math
import struct
import sys

import cbor2
import msgpack


class F32:
    """A float32 field's value; Python has no float32, so the encoders are told explicitly."""

    __slots__ = ("v",)

    def __init__(self, v):
        self.v = v


def f32_bits(h):
    return struct.unpack(">f", bytes.fromhex(h))[0]


def f64_bits(h):
    return struct.unpack(">d", bytes.fromhex(h))[0]


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


def untag(t, target):
    """Tagged value -> Python value for one target: "json", "cbor" or "msgpack"."""
    if t is None or isinstance(t, (bool, str)):
        return t
    tag, body = t
    if tag == "i":
        return int(body)
    if tag == "f32":
        v = f32_bits(body)
        return shortest_f32(v) if target == "json" else F32(v)
    if tag == "f64":
        return f64_bits(body)
    if tag == "b":
        raw = bytes.fromhex(body)
        return base64.b64encode(raw).decode("ascii") if target == "json" else raw
    if tag == "a":
        return [untag(x, target) for x in body]
    if tag == "m":
        return {k: untag(v, target) for k, v in body}
    raise ValueError("unknown tag %r" % tag)


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


def encode_all(tagged):
    as_json = untag(tagged, "json")
    return {
        "json_python": json.dumps(as_json).encode("utf-8").hex(),
        "json_compact": json.dumps(as_json, separators=(",", ":"), ensure_ascii=False).encode("utf-8").hex(),
        "cbor": cbor2.dumps(untag(tagged, "cbor"), default=cbor_default).hex(),
        "msgpack": msgpack_pack(untag(tagged, "msgpack")).hex(),
    }


def main():
    request = json.load(sys.stdin)
    json.dump({"results": [encode_all(r) for r in request["records"]]}, sys.stdout)


if __name__ == "__main__":
    main()
