#!/usr/bin/env bash
# Creates .venv at the repo root with the Python reference peers the cross-implementation tests run
# (cbor2, msgpack, protobuf, grpcio-tools). Safe to run again: it only installs what is missing.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv"
# services/requirements.txt: acmecse, the real oneM2M CSE the embedded one is tested against
# services/loadgen/requirements.txt: locust, which runs the exported locustfile
# planning/reference/requirements.txt: liblora, the independent LoRa time on air (planning/test/loraAirtime.test.ts)
requirements=("$root/codecs/reference/requirements.txt" "$root/services/requirements.txt" "$root/services/loadgen/requirements.txt" "$root/planning/reference/requirements.txt")

# a venv copied from another machine or left half-made has no working interpreter: rebuild it
if [[ -x "$venv/bin/python" ]] && ! "$venv/bin/python" -c "import sys" >/dev/null 2>&1; then
  rm -rf "$venv"
fi
if [[ ! -x "$venv/bin/python" ]]; then
  python3 -m venv "$venv"
fi

# pip would reach the network even when everything is pinned and present; skip it when the set matches
if "$venv/bin/python" - "${requirements[@]}" <<'PY' >/dev/null 2>&1; then
import sys
from importlib.metadata import version, PackageNotFoundError
for line in (l for f in sys.argv[1:] for l in open(f)):
    line = line.split("#")[0].strip()
    if not line:
        continue
    name, _, want = line.partition("==")
    try:
        if version(name) != want:
            sys.exit(1)
    except PackageNotFoundError:
        sys.exit(1)
PY
  echo "setup-python: $venv already has $(sed 's/ *#.*//' "${requirements[@]}" | tr '\n' ' ')"
  exit 0
fi

"$venv/bin/python" -m pip install --disable-pip-version-check --no-input --quiet "${requirements[@]/#/-r}"
echo "setup-python: installed $(sed 's/ *#.*//' "${requirements[@]}" | tr '\n' ' ')into $venv"
