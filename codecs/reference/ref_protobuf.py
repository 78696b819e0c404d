"""Reference peer for the protobuf codec: Google's protobuf runtime on our generated .proto files.

Reads JSON on stdin:
  {"jobs": [{"name": str, "proto": path of a .proto file (its directory is writable),
             "message": top-level message name,
             "records": [record, ...],   # build each message, SerializeToString
             "parse": [hex, ...]}]}      # ParseFromString each, report the field values
A record maps proto field names to values. JSON cannot carry every protobuf value, so some are
tagged objects:
  {"i": "<decimal>"}       64-bit integers (int64, uint64, sint64, fixed64, sfixed64)
  {"f": "<16 hex digits>"} float and double, as the big-endian IEEE 754 binary64 bits
                           (exact, and carries NaN, infinities and -0.0)
  {"b": "<hex>"}           bytes
Booleans, 32-bit integers, enum numbers and strings are plain JSON; a nested message is an
object and a repeated field a list. Every field given is set, defaults included: deciding
what proto3 leaves out is the runtime's job, which is what the test checks.
Parsed values use the same encoding; a field with explicit presence (`optional`, messages)
appears only when present, implicit-presence fields always appear (with their default).
Writes {"results": [{"encoded": [hex, ...], "parsed": [record, ...]}]} to stdout.
"""

import importlib.util
import json
import os
import struct
import subprocess
import sys

from google.protobuf.descriptor import FieldDescriptor as FD

INT64_TYPES = {FD.TYPE_INT64, FD.TYPE_UINT64, FD.TYPE_SINT64, FD.TYPE_FIXED64, FD.TYPE_SFIXED64}
FLOAT_TYPES = {FD.TYPE_FLOAT, FD.TYPE_DOUBLE}


def compile_proto(path):
    folder, name = os.path.split(os.path.abspath(path))
    subprocess.run(
        [sys.executable, "-m", "grpc_tools.protoc", f"-I{folder}", f"--python_out={folder}", name],
        check=True,
    )
    module_path = os.path.join(folder, name[: -len(".proto")] + "_pb2.py")
    spec = importlib.util.spec_from_file_location(f"ref_{name[:-6]}_pb2", module_path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def from_json(fd, v):
    if isinstance(v, dict):
        if "i" in v:
            return int(v["i"])
        if "f" in v:
            return struct.unpack(">d", bytes.fromhex(v["f"]))[0]
        if "b" in v:
            return bytes.fromhex(v["b"])
        raise ValueError(f"{fd.name}: unknown tagged value {v}")
    return v


def fill(msg, record):
    fields = msg.DESCRIPTOR.fields_by_name
    for name, value in record.items():
        fd = fields[name]
        if fd.type == FD.TYPE_MESSAGE:
            sub = getattr(msg, name)
            # an empty nested message is still present: SetInParent records that
            sub.SetInParent()
            fill(sub, value)
        elif fd.label == FD.LABEL_REPEATED:
            getattr(msg, name).extend(from_json(fd, x) for x in value)
        else:
            setattr(msg, name, from_json(fd, value))


def to_json(fd, v):
    if fd.type == FD.TYPE_MESSAGE:
        return dump(v)
    if fd.type in FLOAT_TYPES:
        return {"f": struct.pack(">d", v).hex()}
    if fd.type in INT64_TYPES:
        return {"i": str(v)}
    if fd.type == FD.TYPE_BYTES:
        return {"b": bytes(v).hex()}
    return v


def dump(msg):
    out = {}
    for fd in msg.DESCRIPTOR.fields:
        value = getattr(msg, fd.name)
        if fd.label == FD.LABEL_REPEATED:
            out[fd.name] = [to_json(fd, x) for x in value]
        elif fd.has_presence:
            if msg.HasField(fd.name):
                out[fd.name] = to_json(fd, value)
        else:
            out[fd.name] = to_json(fd, value)
    return out


def run(job):
    cls = getattr(compile_proto(job["proto"]), job["message"])
    encoded = []
    for record in job.get("records", []):
        msg = cls()
        fill(msg, record)
        encoded.append(msg.SerializeToString().hex())
    parsed = []
    for hex_bytes in job.get("parse", []):
        msg = cls()
        msg.ParseFromString(bytes.fromhex(hex_bytes))
        parsed.append(dump(msg))
    return {"encoded": encoded, "parsed": parsed}


def main():
    request = json.load(sys.stdin)
    json.dump({"results": [run(job) for job in request["jobs"]]}, sys.stdout)


if __name__ == "__main__":
    main()
