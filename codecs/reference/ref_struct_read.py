"""A Struct reader written from docs/design/struct-mapping.md alone, for the batch reference decoder
(ref_batch.py): Python's struct.unpack_from field by field, the presence bitmap first, appended string
bytes after the in-place part. decode(layout, fields, data) returns the typed record; every refusal is a
RefDecodeError.
"""

import math
import struct

from ref_bitpacked import RefDecodeError, js_round, short_decimals

INT_CODES = {(8, True): "b", (8, False): "B", (16, True): "h", (16, False): "H", (32, True): "i", (32, False): "I", (64, True): "q", (64, False): "Q"}


def smallest_code(lo, hi):
    if lo >= 0:
        for code, top in (("B", 2**8 - 1), ("H", 2**16 - 1), ("I", 2**32 - 1), ("Q", 2**64 - 1)):
            if hi <= top:
                return code
    for code, bits in (("b", 8), ("h", 16), ("i", 32), ("q", 64)):
        if -(2 ** (bits - 1)) <= lo and hi <= 2 ** (bits - 1) - 1:
            return code
    raise RefDecodeError("layout", f"raw range {lo}..{hi} needs more than 64 bits")


def decimal_value(raw, step, offset=0):
    d_step, d_offset = short_decimals(step), short_decimals(offset)
    if d_step is not None and d_offset is not None:
        ten = 10 ** max(d_step, d_offset)
        return (raw * round(step * ten) + round(offset * ten)) / ten
    return raw * step + offset


def count_optional(fields):
    n = 0
    for f in fields:
        if f.get("presence", "required") == "optional":
            n += 1
        if f["type"]["kind"] == "group":
            n += count_optional(f["type"]["fields"])
    return n


class Reader:
    def __init__(self, layout, data):
        settings = layout.get("struct") or {}
        self.order = "<" if settings.get("endianness") == "little" else ">"
        self.default_mode = settings.get("stringMode", "u16-appended")
        self.data = data
        self.pos = 0
        self.appended = []  # (container, key, length, decode) filled after the in-place part

    def take(self, code, what):
        fmt = self.order + code
        size = struct.calcsize(fmt)
        if self.pos + size > len(self.data):
            raise RefDecodeError("truncated", f"{what}: needs {size} bytes at {self.pos}, the message has {len(self.data)}")
        v = struct.unpack_from(fmt, self.data, self.pos)[0]
        self.pos += size
        return v

    def raw(self, n, what):
        if self.pos + n > len(self.data):
            raise RefDecodeError("truncated", f"{what}: needs {n} bytes at {self.pos}")
        b = self.data[self.pos : self.pos + n]
        self.pos += n
        return bytes(b)


def mode_of(f, t, reader):
    if t.get("fixed"):
        return "fixed"
    return ((f.get("options") or {}).get("struct") or {}).get("stringMode") or reader.default_mode


def text_of(t, b, what):
    if t["kind"] == "bytes":
        return b
    try:
        s = b.decode("utf-8")
    except UnicodeDecodeError:
        raise RefDecodeError("utf8", f"{what}: invalid UTF-8") from None
    if t["kind"] == "timestamp":
        import ref_batch

        return ref_batch.parse_time(s, t["textFormat"])
    return s


def read_sized(reader, f, t, what, put):
    """strings, bytes and text timestamps in their string mode; put(value) now or after the in-place part"""
    mode = mode_of(f, t, reader)
    # a text timestamp's length is fixed by its format; strings and bytes are bounded by maxLength
    n = text_length(t["textFormat"]) if t["kind"] == "timestamp" else t["maxLength"]
    if mode == "fixed":
        b = reader.raw(n, what)
        if t["kind"] == "string":
            if b"\0" in b:
                b, rest = b.split(b"\0", 1)
                if rest.strip(b"\0"):
                    raise RefDecodeError("charset", f"{what}: bytes after the NUL padding")
        put(text_of(t, b, what))
        return
    length = reader.take("B" if mode.startswith("u8") else "H", what + " length")
    if length > n:
        raise RefDecodeError("count", f"{what}: length {length} over {n}")
    if mode.endswith("inline"):
        put(text_of(t, reader.raw(length, what), what))
    else:
        reader.appended.append((length, lambda b: put(text_of(t, b, what)), what))


def text_length(fmt):
    """The formatted text's length: every token and literal has a fixed width (YYYY 4, the others 2)."""
    return len(fmt)


def read_scalar(reader, f, t, what, put):
    kind = t["kind"]
    if kind in ("string", "bytes") or (kind == "timestamp" and t["encoding"] == "text"):
        read_sized(reader, f, t, what, put)
        return
    if kind == "bool":
        v = reader.take("B", what)
        if v not in (0, 1):
            raise RefDecodeError("range", f"{what}: bool {v}")
        put(v == 1)
    elif kind == "enum":
        v = reader.take("B" if all(e["value"] <= 255 for e in t["values"]) else "H", what)
        for e in t["values"]:
            if e["value"] == v:
                put(e["name"])
                return
        raise RefDecodeError("range", f"{what}: unknown enum value {v}")
    elif kind == "int":
        put(reader.take(INT_CODES[(t["bits"], t["signed"])], what))
    elif kind == "float":
        put(reader.take("f" if t["bits"] == 32 else "d", what))
    elif kind == "fixed":
        scale, offset = t["scale"], t.get("offset", 0)
        lo, hi = js_round((t["min"] - offset) / scale), js_round((t["max"] - offset) / scale)
        raw = reader.take(smallest_code(lo, hi), what)
        if not lo <= raw <= hi:
            raise RefDecodeError("range", f"{what}: raw {raw} outside {lo}..{hi}")
        put(min(max(decimal_value(raw, scale, offset), t["min"]), t["max"]))
    elif kind == "timestamp":
        r = t.get("resolution", 1)
        lo = 0 if t.get("min") is None else t["min"]
        hi = 2**32 - 1 if t.get("max") is None else t["max"]
        if float(r).is_integer() and lo >= 0 and hi <= 2**32 - 1:
            put(reader.take("I", what))
        else:
            ticks = reader.take("q", what)
            # not on the page (a doc gap): our decoder refuses ticks a double cannot hold exactly
            if abs(ticks) > 2**53 - 1:
                raise RefDecodeError("range", f"{what}: {ticks} ticks are beyond 2^53")
            put(decimal_value(ticks, r))
    else:
        raise RefDecodeError("layout", f"{what}: unknown kind {kind}")


def read_fields(reader, fields, out, present, prefix):
    for f in fields:
        t = f["type"]
        what = prefix + f["key"]
        if f.get("presence", "required") == "optional":
            i = present["next"]
            present["next"] += 1
            if not present["bits"][i]:
                if t["kind"] == "group":
                    # members of an absent group take no byte and their bits must be 0
                    start = present["next"]
                    present["next"] += count_optional(t["fields"])
                    if any(present["bits"][start : present["next"]]):
                        raise RefDecodeError("range", f"{what}: presence bits set under an absent group")
                continue
        if t["kind"] == "group":
            sub = {}
            out[f["key"]] = sub
            read_fields(reader, t["fields"], sub, present, what + ".")
        elif t["kind"] == "array":
            n = t["maxCount"] if t.get("fixed") else reader.take("H" if t["maxCount"] > 255 else "B", what + " count")
            if n > t["maxCount"]:
                raise RefDecodeError("count", f"{what}: count {n} over {t['maxCount']}")
            items = [None] * n
            out[f["key"]] = items
            for i in range(n):
                read_scalar(reader, f, t["of"], f"{what}[{i}]", lambda v, i=i, items=items: items.__setitem__(i, v))
        else:
            read_scalar(reader, f, t, what, lambda v, k=f["key"]: out.__setitem__(k, v))


def decode(layout, fields, data):
    reader = Reader(layout, data)
    n = count_optional(fields)
    bits = []
    if n:
        bitmap = reader.raw(math.ceil(n / 8), "presence bitmap")
        bits = [(bitmap[i // 8] >> (i % 8)) & 1 == 1 for i in range(n)]
        if any((bitmap[i // 8] >> (i % 8)) & 1 for i in range(n, len(bitmap) * 8)):
            raise RefDecodeError("range", "presence bits beyond the optional fields")
    out = {}
    read_fields(reader, fields, out, {"bits": bits, "next": 0}, "")
    for length, put, what in reader.appended:
        put(reader.raw(length, what))
    if reader.pos != len(data):
        raise RefDecodeError("trailing", f"{len(data) - reader.pos} bytes after the message")
    return out
