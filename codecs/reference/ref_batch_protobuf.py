"""Protobuf for the batch reference decoder (ref_batch.py): Google's protobuf runtime parses a message
with a .proto of the wire layout (the exporter's, compiled by grpc_tools.protoc as ref_protobuf.py
does), and each proto value is turned back into the typed value of the wire field that ref_batch.py
derived itself: fixed-point and epoch timestamps travel as raw integers (steps of their scale or
resolution), enums as their numbers, text timestamps as their text.
"""

from google.protobuf.message import DecodeError as ProtoDecodeError

import ref_batch
from ref_bitpacked import RefDecodeError, short_decimals
from ref_protobuf import FD, compile_proto


def proto_name(key):
    s = "".join(c if c.isalnum() and c.isascii() or c == "_" else "_" for c in key)
    return "_" + s if s[:1].isdigit() else s


def from_steps(raw, step, offset=0):
    """raw × step + offset, the double nearest the decimal when step and offset are short decimals."""
    d_step, d_offset = short_decimals(step), short_decimals(offset)
    if d_step is not None and d_offset is not None:
        ten = 10 ** max(d_step, d_offset)
        return (raw * round(step * ten) + round(offset * ten)) / ten
    return raw * step + offset


def scalar(t, v):
    kind = t["kind"]
    if kind == "enum":
        for e in t["values"]:
            if e["value"] == v:
                return e["name"]
        raise RefDecodeError("range", f"{v} is not a value of the enum")
    if kind == "fixed":
        return from_steps(v, t["scale"], t.get("offset", 0))
    if kind == "timestamp":
        if t["encoding"] == "text":
            return ref_batch.parse_time(v, t["textFormat"])
        return from_steps(v, t.get("resolution", 1))
    if kind == "bytes":
        return bytes(v)
    return v


def message_to_record(fields, msg):
    out = {}
    for f in fields:
        t = f["type"]
        expand = ((f.get("options") or {}).get("protobuf") or {}).get("expand")
        if expand:  # a fixed array sent as one scalar field per element, key_<suffix>
            out[f["key"]] = [scalar(t["of"], getattr(msg, proto_name(f"{f['key']}_{s}"))) for s in expand]
            continue
        name = proto_name(f["key"])
        fd = msg.DESCRIPTOR.fields_by_name[name]
        value = getattr(msg, name)
        if fd.label == FD.LABEL_REPEATED:
            out[f["key"]] = [scalar(t["of"], x) for x in value]
        elif fd.has_presence and not msg.HasField(name):
            continue
        elif t["kind"] == "group":
            out[f["key"]] = message_to_record(t["fields"], value)
        else:
            out[f["key"]] = scalar(t, value)
    return out


class ProtobufWire:
    def __init__(self, plan, proto, message):
        self.plan = plan
        self.cls = getattr(compile_proto(proto), message)

    def decode(self, data):
        msg = self.cls()
        try:
            msg.ParseFromString(data)
        except ProtoDecodeError as e:
            raise RefDecodeError("truncated", f"protobuf: {e}") from None
        return message_to_record(self.plan.fields, msg)
