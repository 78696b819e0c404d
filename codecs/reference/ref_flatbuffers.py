"""FlatBuffers peer: builds records with the code flatc --python --gen-object-api generated from our .fbs
and the official flatbuffers runtime (Builder, Pack, Finish), and reads our bytes back with the same
generated accessors (GetRootAs, InitFromObj).

stdin JSON: {"dir": generated code, "namespace": "pkg", "root": "Telemetry",
             "records": [table], "ours": [hex]}
  table = {"$table": "Name", "fields": [value, ...]}: one value per non-deprecated field in id order
          (the object API's attributes are assigned in that order), None for absent
  value = {"f": binary64 hex} | {"i": "decimal"} | {"b": hex bytes} | bool | str | [value] | table | None
stdout JSON: {"built": [hex], "read": [table]} (read tables in the same form, strings as text)
"""
import importlib
import json
import struct
import sys

import flatbuffers


def untag(v):
    if isinstance(v, dict) and list(v) == ["f"]:
        return struct.unpack(">d", bytes.fromhex(v["f"]))[0]
    if isinstance(v, dict) and list(v) == ["i"]:
        return int(v["i"])
    if isinstance(v, dict) and list(v) == ["b"]:
        return list(bytes.fromhex(v["b"]))
    if isinstance(v, dict) and "$table" in v:
        return build(v)
    if isinstance(v, list):
        return [untag(x) for x in v]
    return v


def table_class(name, suffix=""):
    module = importlib.import_module(f"{NAMESPACE}.{name}")
    return getattr(module, name + suffix)


def build(t):
    obj = table_class(t["$table"], "T")()
    names = list(vars(obj))
    if len(names) != len(t["fields"]):
        raise ValueError(f"{t['$table']}: {len(names)} attributes, {len(t['fields'])} values")
    for name, value in zip(names, t["fields"]):
        setattr(obj, name, untag(value))
    return obj


def tag(v):
    if v is None or isinstance(v, bool):
        return v
    if isinstance(v, int):
        return {"i": str(v)}
    if isinstance(v, float):
        return {"f": struct.pack(">d", v).hex()}
    if isinstance(v, bytes):
        return v.decode("utf-8")
    if isinstance(v, str):
        return v
    if isinstance(v, list):
        return [tag(x) for x in v]
    if hasattr(v, "tolist"):
        # the object API reads scalar vectors as numpy arrays when numpy is installed
        return tag(v.tolist())
    if not hasattr(v, "__dict__"):
        raise TypeError(f"unexpected {type(v)} {v!r}")
    # a generated object-API table: its attributes in field order
    return {"$table": type(v).__name__[:-1], "fields": [tag(x) for x in vars(v).values()]}


def main():
    global NAMESPACE
    inp = json.load(sys.stdin)
    sys.path.insert(0, inp["dir"])
    NAMESPACE = inp["namespace"]
    built = []
    for rec in inp["records"]:
        b = flatbuffers.Builder(0)
        b.Finish(build(rec).Pack(b))
        built.append(bytes(b.Output()).hex())
    root = table_class(inp["root"])
    root_t = table_class(inp["root"], "T")
    read = []
    for h in inp["ours"]:
        buf = bytearray.fromhex(h)
        read.append(tag(root_t.InitFromObj(root.GetRootAs(buf, 0))))
    json.dump({"built": built, "read": read}, sys.stdout)


if __name__ == "__main__":
    main()
