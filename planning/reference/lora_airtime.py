"""LoRa time on air by liblora (PyPI, Michael Kuyper's library derived from Semtech's Basic MAC), for the proof in
planning/test/loraAirtime.test.ts. Reads [{sf, bw, plen}] as JSON on stdin, writes the microseconds liblora gives
(rounded up to a whole microsecond by liblora itself). Low data rate optimisation is left to liblora's own rule."""
import json
import sys

from loramsg import airtime

cases = json.load(sys.stdin)
json.dump([airtime(bw=c["bw"], sf=c["sf"], plen=c["plen"], cr=1, ih=0, crc=1, npreamble=8) for c in cases], sys.stdout)
