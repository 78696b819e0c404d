// The shape of the Struct+Zlib deflate measurement (codecs/src/formats/deflateMeasured.json, written
// by `npm run measure:deflate`) and its table for docs/design/struct-mapping.md.

/** One deflater's output against Python's zlib.compress(data, 9), record by record. */
export interface SizeComparison {
  label: string;
  /** records whose bytes equal the reference's */
  identical: number;
  meanBytes: number;
  /** size minus the reference's size (bytes, as a string key) → number of records */
  deltaHistogram: { [delta: string]: number | undefined };
}

export interface DeflateMeasurement {
  generatedBy: string;
  /** ISO 8601 time of the run */
  date: string;
  preset: string;
  seed: number;
  records: number;
  versions: { pako: string; zlib: string; python: string; node: string; nodeZlib: string };
  referenceMeanBytes: number;
  /** what the Struct+Zlib codec emits */
  codec: SizeComparison;
  others: SizeComparison[];
}

export function meanDelta(c: SizeComparison, m: DeflateMeasurement): number {
  return c.meanBytes - m.referenceMeanBytes;
}

const count = (n: number): string => n.toLocaleString("en").replace(/,/g, " ");
const histogram = (h: SizeComparison["deltaHistogram"]): string =>
  Object.entries(h)
    .map(([d, n]) => `${d}: ${count(n ?? 0)}`)
    .join(", ");

export function renderDeflateTable(m: DeflateMeasurement): string {
  const row = (c: SizeComparison, bold = false): string => {
    const cells = [
      c.label,
      count(c.identical),
      c.meanBytes.toFixed(3),
      `${meanDelta(c, m) >= 0 ? "+" : ""}${meanDelta(c, m).toFixed(3)}`,
      histogram(c.deltaHistogram),
    ];
    return `| ${(bold ? cells.map((x) => `**${x}**`) : cells).join(" | ")} |`;
  };
  return [
    `${count(m.records)} ${m.preset}-preset records (seed ${m.seed}), measured ${m.date.slice(0, 10)} by \`${m.generatedBy}\`:`,
    `Python ${m.versions.python} with zlib ${m.versions.zlib} as the reference, pako ${m.versions.pako}, Node ${m.versions.node} (zlib ${m.versions.nodeZlib}).`,
    "",
    "| implementation | identical bytes | mean size | mean Δ | Δ histogram (bytes: records) |",
    "|---|---|---|---|---|",
    `| Python zlib ${m.versions.zlib} \`zlib.compress(data, 9)\` (reference) | — | ${m.referenceMeanBytes.toFixed(3)} | — | — |`,
    row(m.codec, true),
    ...m.others.map((c) => row(c)),
  ].join("\n");
}
