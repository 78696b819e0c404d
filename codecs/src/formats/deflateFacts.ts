// What the product states about its deflate, from the last `npm run measure:deflate` (never typed in).
import measured from "./deflateMeasured.json" with { type: "json" };
import { meanDelta, type DeflateMeasurement } from "./deflateMeasurement.ts";

export const DEFLATE_MEASUREMENT: DeflateMeasurement = measured;

/** pako's default hash (the one Chromium's and so Node's zlib use): the comparison the UI cites */
const defaultHash = DEFLATE_MEASUREMENT.others.find((c) => c.label.endsWith(" default"));

export const DEFLATE_FACTS = {
  implementation: `pako ${DEFLATE_MEASUREMENT.versions.pako}`,
  options: { level: 9, windowBits: 15, memLevel: 8, strategy: "default", legacyHash: true },
  reference: `zlib ${DEFLATE_MEASUREMENT.versions.zlib} (Python ${DEFLATE_MEASUREMENT.versions.python} zlib.compress(data, 9))`,
  /** e.g. "byte-identical to … on all 10 000 paper records measured 2026-11-24" */
  claim: `${DEFLATE_MEASUREMENT.codec.identical === DEFLATE_MEASUREMENT.records ? "byte-identical to" : `identical in ${DEFLATE_MEASUREMENT.codec.identical} of`} zlib ${DEFLATE_MEASUREMENT.versions.zlib} (Python ${DEFLATE_MEASUREMENT.versions.python}) on ${DEFLATE_MEASUREMENT.codec.identical === DEFLATE_MEASUREMENT.records ? "all " : ""}${DEFLATE_MEASUREMENT.records} ${DEFLATE_MEASUREMENT.preset} records measured ${DEFLATE_MEASUREMENT.date.slice(0, 10)}`,
  defaultHashMeanDelta: defaultHash ? Number(meanDelta(defaultHash, DEFLATE_MEASUREMENT).toFixed(3)) : undefined,
  /** not measured: miniz (tdefl) has its own match finder, so its sizes will differ by a few bytes */
  unmeasured: ["miniz / tdefl", "zlib-ng", "zlib ≥ 1.3 on the device"],
} as const;
