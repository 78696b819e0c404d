"""An independent reader of the bit-packed format, written from docs/design/bitpacked-mapping.md alone
(not from the TypeScript codec): the batch reference decoder (ref_batch.py) reads the delta form's
bit-packed messages with it, and on its own it checks the TypeScript encoder.

stdin:  {"layout": <parsed *.satlayout.json, defaults applied>, "messages": ["<hex>", ...]}
stdout: {"results": [{"record": <tagged typed record>} | {"error": {"kind": "...", "message": "..."}}, ...]}
        tagged as ref_struct_layout.py reads them: {"f": "<16 hex>"} a float as its binary64 bits,
        {"i": "<decimal>"} an integer, {"b": "<hex>"} bytes; str, bool, lists and dicts as they are.

Values come back as the typed record holds them: bool, enum name (str), int (Python int), float,
timestamp seconds (float or int), str, bytes, lists, dicts. Every refusal is a RefDecodeError with a
kind ("truncated", "range", "count", "padding", ...), never a wrong value.
"""

import math
import struct


class RefDecodeError(Exception):
    def __init__(self, kind, message):
        super().__init__(f"{kind}: {message}")
        self.kind = kind


def bits_for(n):
    """bits(n) = ceil(log2(n + 1)): the width that holds every integer 0..n (0 bits for n = 0)."""
    return int(n).bit_length()


def js_round(x):
    """Math.round: half-way cases go up, towards +infinity."""
    return math.floor(x + 0.5)


class BitReader:
    """Most significant bit first, no alignment between fields."""

    def __init__(self, data):
        self.data = bytes(data)
        self.pos = 0  # in bits

    def read(self, width, what):
        if width == 0:
            return 0
        if self.pos + width > len(self.data) * 8:
            raise RefDecodeError("truncated", f"{what} needs {width} bits at bit {self.pos}, the message has {len(self.data) * 8}")
        v = 0
        for _ in range(width):
            byte = self.data[self.pos >> 3]
            v = (v << 1) | ((byte >> (7 - (self.pos & 7))) & 1)
            self.pos += 1
        return v

    def finish(self):
        """The message ends with zero bits up to the next byte; whole bytes after it are refused."""
        end = (self.pos + 7) // 8
        if end < len(self.data):
            raise RefDecodeError("trailing", f"{len(self.data) - end} bytes after the message")
        while self.pos < end * 8:
            if self.read(1, "padding") != 0:
                raise RefDecodeError("padding", "non-zero padding bits")


INT_LIMITS = {
    (8, True): (-(2**7), 2**7 - 1),
    (16, True): (-(2**15), 2**15 - 1),
    (32, True): (-(2**31), 2**31 - 1),
    (64, True): (-(2**63), 2**63 - 1),
    (8, False): (0, 2**8 - 1),
    (16, False): (0, 2**16 - 1),
    (32, False): (0, 2**32 - 1),
    (64, False): (0, 2**64 - 1),
}


def int_range(t):
    lo, hi = INT_LIMITS[(t["bits"], t["signed"])]
    if t.get("min") is not None:
        lo = max(lo, math.ceil(t["min"]))
    if t.get("max") is not None:
        hi = min(hi, math.floor(t["max"]))
    return lo, hi


def short_decimals(x):
    """Decimal places of x when it is a short decimal (0.01 -> 2, 60 -> 0); None otherwise.
    The doc names examples (0.01, 0.0001, 0.1, 60) but no bound: up to 15 places, 1e-9 relative slack."""
    for d in range(16):
        s = x * 10**d
        if abs(s - round(s)) <= 1e-9 * max(1.0, abs(s)):
            return d
    return None


def to_f32(x):
    return struct.unpack(">f", struct.pack(">f", x))[0]


class Grid:
    """A quantised number: lo + q*step, q in 0..q_max, never above hi."""

    def __init__(self, lo, hi, step):
        self.lo, self.hi, self.step = lo, hi, step
        self.q_max = js_round((hi - lo) / step)
        self.width = bits_for(self.q_max)
        d_lo, d_step = short_decimals(lo), short_decimals(step)
        self.d = None if d_lo is None or d_step is None else max(d_lo, d_step)

    def value(self, q):
        if self.d is not None:
            scale = 10**self.d
            v = (round(self.lo * scale) + q * round(self.step * scale)) / scale
        else:
            v = self.lo + q * self.step
        return min(v, self.hi)


def raw_float(reader, bits, what):
    raw = reader.read(bits, what)
    return struct.unpack(">f" if bits == 32 else ">d", raw.to_bytes(bits // 8, "big"))[0]


def timestamp_window(t):
    lo, hi = t.get("min"), t.get("max")
    if lo is not None and hi is not None:
        return lo, hi
    if lo is not None:
        return lo, lo + 2**32 - 1
    if hi is not None:
        return 0, hi
    return 0, 2**32 - 1


def text_resolution(fmt):
    """The resolution of a text timestamp's format: tenths for 'ss.s', 1 s otherwise (the doc's example)."""
    i = fmt.find("ss.")
    if i < 0:
        return 1
    n = 0
    while i + 3 + n < len(fmt) and fmt[i + 3 + n] == "s":
        n += 1
    return 10.0**-n


def read_quantised(reader, lo, hi, step, raw_bits, what, f32=False):
    g = Grid(lo, hi, step)
    if g.width >= raw_bits or g.q_max > 2**53:
        v = raw_float(reader, raw_bits if raw_bits in (32, 64) else 64, what)
        if math.isnan(v) or math.isinf(v) or v < lo or v > hi:
            raise RefDecodeError("range", f"{what}: raw value {v} outside [{lo}, {hi}]")
        return v
    q = reader.read(g.width, what)
    if q > g.q_max:
        raise RefDecodeError("range", f"{what}: step index {q} beyond {g.q_max}")
    v = g.value(q)
    return to_f32(v) if f32 else v


CHARSETS = {
    "digits": (4, "0123456789", 15),
    "hex": (4, "0123456789ABCDEF", None),
    "upper-alnum": (6, "@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_ !\"#$%&'()*+,-./0123456789:;<=>?", 0),
    "alnum": (6, "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", 62),
    "ascii": (7, None, 0),
}


def read_string(reader, t, what):
    charset = t.get("charset", "utf8")
    fixed = t.get("fixed", False)
    n = t["maxLength"]
    length = n if fixed else reader.read(bits_for(n), what + " length")
    if length > n:
        raise RefDecodeError("count", f"{what}: length {length} over maxLength {n}")
    if charset == "utf8":
        raw = bytes(reader.read(8, what) for _ in range(length))
        if fixed and b"\0" in raw:
            raw, rest = raw.split(b"\0", 1)
            if rest.strip(b"\0"):
                raise RefDecodeError("charset", f"{what}: characters after the padding")
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as e:
            raise RefDecodeError("utf8", f"{what}: {e}") from None
    width, alphabet, pad = CHARSETS[charset]
    out = []
    padded = False
    for _ in range(length):
        s = reader.read(width, what)
        if pad is not None and s == pad and fixed:
            padded = True
            continue
        if padded:
            raise RefDecodeError("charset", f"{what}: a character after the padding")
        if charset == "ascii":
            if not 0x20 <= s <= 0x7E:
                raise RefDecodeError("charset", f"{what}: symbol {s} is not ascii")
            out.append(chr(s))
        else:
            ch = alphabet[s] if s < len(alphabet) else None
            if ch is None or (charset == "upper-alnum" and not (ch.isdigit() or "A" <= ch <= "Z" or ch in " -")):
                raise RefDecodeError("charset", f"{what}: symbol {s} is not a character of {charset}")
            out.append(ch)
    return "".join(out)


def read_scalar(reader, t, what):
    kind = t["kind"]
    if kind == "bool":
        return reader.read(1, what) == 1
    if kind == "enum":
        values = t["values"]
        i = reader.read(bits_for(len(values) - 1), what)
        if i >= len(values):
            raise RefDecodeError("range", f"{what}: enum index {i} of {len(values)} values")
        return values[i]["name"]
    if kind == "int":
        lo, hi = int_range(t)
        raw = reader.read(bits_for(hi - lo), what)
        if raw > hi - lo:
            raise RefDecodeError("range", f"{what}: {lo + raw} beyond {hi}")
        return lo + raw
    if kind == "float":
        raw_bits = t["bits"]
        if t.get("min") is not None and t.get("max") is not None and t.get("precision") is not None:
            return read_quantised(reader, t["min"], t["max"], t["precision"], raw_bits, what, f32=raw_bits == 32)
        v = raw_float(reader, raw_bits, what)
        if math.isnan(v) or math.isinf(v):
            raise RefDecodeError("range", f"{what}: {v}")
        if (t.get("min") is not None and v < t["min"]) or (t.get("max") is not None and v > t["max"]):
            raise RefDecodeError("range", f"{what}: {v} outside the declared range")
        return v
    if kind == "fixed":
        scale, offset = t["scale"], t.get("offset", 0)
        raw_lo = js_round((t["min"] - offset) / scale)
        raw_hi = js_round((t["max"] - offset) / scale)
        raw = reader.read(bits_for(raw_hi - raw_lo), what)
        if raw > raw_hi - raw_lo:
            raise RefDecodeError("range", f"{what}: raw {raw} beyond {raw_hi - raw_lo}")
        # The doc says raw*scale + offset; our decoder returns the double nearest the decimal value
        # when scale and offset are short decimals (43.68772, not 4368772 * 1e-5 = 43.687720000000006),
        # as it does for quantised floats: a doc gap, read here like the grid of a quantised number.
        d_scale, d_offset = short_decimals(scale), short_decimals(offset)
        if d_scale is not None and d_offset is not None:
            ten = 10 ** max(d_scale, d_offset)
            return ((raw_lo + raw) * round(scale * ten) + round(offset * ten)) / ten
        return (raw_lo + raw) * scale + offset
    if kind == "timestamp":
        lo, hi = timestamp_window(t)
        r = text_resolution(t["textFormat"]) if t["encoding"] == "text" else t.get("resolution", 1)
        return read_quantised(reader, lo, hi, r, 64, what)
    if kind == "string":
        return read_string(reader, t, what)
    if kind == "bytes":
        n = t["maxLength"]
        length = n if t.get("fixed", False) else reader.read(bits_for(n), what + " length")
        if length > n:
            raise RefDecodeError("count", f"{what}: length {length} over maxLength {n}")
        return bytes(reader.read(8, what) for _ in range(length))
    raise RefDecodeError("layout", f"{what}: unknown kind {kind}")


def read_field(reader, f, what):
    t = f["type"]
    if f.get("presence", "required") == "optional" and reader.read(1, what + " presence") == 0:
        return None
    if t["kind"] == "group":
        return read_record(t["fields"], reader, what + ".")
    if t["kind"] == "array":
        n = t["maxCount"]
        count = n if t.get("fixed", False) else reader.read(bits_for(n), what + " count")
        if count > n:
            raise RefDecodeError("count", f"{what}: count {count} over maxCount {n}")
        return [read_scalar(reader, t["of"], f"{what}[{i}]") for i in range(count)]
    return read_scalar(reader, t, what)


def read_record(fields, reader, prefix=""):
    out = {}
    for f in fields:
        v = read_field(reader, f, prefix + f["key"])
        if v is not None:
            out[f["key"]] = v
    return out


def decode(layout, data):
    reader = BitReader(data)
    rec = read_record(layout["fields"], reader)
    reader.finish()
    return rec


def tag(v):
    """A decoded value as JSON that keeps every bit (see the module docstring)."""
    if isinstance(v, bool) or isinstance(v, str) or v is None:
        return v
    if isinstance(v, int):
        return {"i": str(v)}
    if isinstance(v, float):
        return {"f": struct.pack(">d", v).hex()}
    if isinstance(v, bytes):
        return {"b": v.hex()}
    if isinstance(v, list):
        return [tag(x) for x in v]
    return {k: tag(x) for k, x in v.items()}


def decode_all(decode_one, messages):
    out = []
    for h in messages:
        try:
            out.append({"record": tag(decode_one(bytes.fromhex(h)))})
        except RefDecodeError as e:
            out.append({"error": {"kind": e.kind, "message": str(e)}})
    return out


def main():
    import json
    import sys

    req = json.load(sys.stdin)
    json.dump({"results": decode_all(lambda b: decode(req["layout"], b), req["messages"])}, sys.stdout)


if __name__ == "__main__":
    main()
