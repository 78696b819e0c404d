"""Reads SenML CBOR packs with cbor2 (the paper's Python client library) for bench/test/senml.test.ts.

stdin:  {"hex": ["<pack as hex>", ...]}
stdout: [{"pack": [{"<label>": value, ...}, ...], "canonical": <length of cbor2.dumps(pack, canonical=True)>}, ...]
"""

import json
import sys

import cbor2

out = []
for h in json.load(sys.stdin)["hex"]:
    pack = cbor2.loads(bytes.fromhex(h))
    out.append({"pack": [{str(k): v for k, v in r.items()} for r in pack], "canonical": len(cbor2.dumps(pack, canonical=True))})
json.dump(out, sys.stdout)
