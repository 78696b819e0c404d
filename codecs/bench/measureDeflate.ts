// `npm run measure:deflate [-- --records N]`: the Struct+Zlib claim, measured. N paper records
// (seed 1) go through our deflate (pako, zlib's classic hash), Python's zlib.compress(data, 9) (the
// reference venv: what the paper's client ran) and a few other deflaters; the counts, the size
// difference histograms and the versions land in codecs/src/formats/deflateMeasured.json, which the
// codec's description (shown in the UI and the CLI) and docs/design/struct-mapping.md are built from.
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { deflateSync } from "node:zlib";
import { Z_FILTERED, deflate as pakoDeflate } from "pako";
import { zlibCompress } from "../src/formats/deflate.ts";
import { renderDeflateTable, type DeflateMeasurement, type SizeComparison } from "../src/formats/deflateMeasurement.ts";
import { compileStruct } from "../src/formats/struct/codec.ts";
import { parseLayout } from "../src/layout/validate.ts";
import { paperPreset } from "../src/presets/paper.ts";
import { generateSamples } from "../src/samples/generate.ts";
import { repoRoot, runPython } from "../test/helpers/python.ts";

const SEED = 1;
const DATA = path.join(repoRoot, "codecs/src/formats/deflateMeasured.json");
const DOC = path.join(repoRoot, "docs/design/struct-mapping.md");
const BEGIN = "<!-- measure:deflate:begin -->";
const END = "<!-- measure:deflate:end -->";

const { values } = parseArgs({ options: { records: { type: "string", default: "10000" } } });
const records = Number(values.records);
if (!Number.isInteger(records) || records < 1)
  throw new Error(`--records must be a positive integer, got ${values.records}`);

const layout = parseLayout(paperPreset);
const struct = compileStruct(layout);
const streams = generateSamples(layout, records, SEED).map((r) => struct.encode(r));
process.stderr.write(`${records} paper records (seed ${SEED}) → Python zlib.compress(data, 9)…\n`);
const py = runPython("codecs/reference/ref_struct.py", {
  compress: streams.map((s) => Buffer.from(s).toString("hex")),
}) as { zlib_version: string; python_version: string; compress: string[] };
const reference = py.compress.map((h) => Buffer.from(h, "hex"));

function compare(label: string, deflate: (s: Uint8Array) => Uint8Array): SizeComparison {
  const hist: Record<string, number> = {};
  let identical = 0;
  let bytes = 0;
  streams.forEach((s, i) => {
    const out = deflate(s);
    const ref = reference[i]!;
    bytes += out.length;
    if (Buffer.compare(Buffer.from(out), ref) === 0) identical++;
    const d = String(out.length - ref.length);
    hist[d] = (hist[d] ?? 0) + 1;
  });
  const deltaHistogram = Object.fromEntries(Object.entries(hist).sort((a, b) => Number(a[0]) - Number(b[0])));
  process.stderr.write(`${label}: ${identical}/${records} identical\n`);
  return { label, identical, meanBytes: bytes / records, deltaHistogram };
}

const pakoVersion = (
  JSON.parse(readFileSync(path.join(repoRoot, "node_modules/pako/package.json"), "utf8")) as { version: string }
).version;
const node = `Node ${process.versions.node} zlib ${process.versions.zlib}`;
const measurement: DeflateMeasurement = {
  generatedBy: "npm run measure:deflate",
  date: new Date().toISOString(),
  preset: "paper",
  seed: SEED,
  records,
  versions: {
    pako: pakoVersion,
    zlib: py.zlib_version,
    python: py.python_version,
    node: process.versions.node,
    nodeZlib: process.versions.zlib,
  },
  referenceMeanBytes: reference.reduce((a, b) => a + b.length, 0) / records,
  codec: compare(`this codec: pako ${pakoVersion}, legacyHash: true, reused state`, zlibCompress),
  others: [
    compare(`pako ${pakoVersion} legacyHash: true (one-shot deflate)`, (s) =>
      pakoDeflate(s, { level: 9, legacyHash: true }),
    ),
    compare(`pako ${pakoVersion} default`, (s) => pakoDeflate(s, { level: 9 })),
    compare(`pako ${pakoVersion} default, memLevel 9`, (s) => pakoDeflate(s, { level: 9, memLevel: 9 })),
    compare(`pako ${pakoVersion} default, Z_FILTERED`, (s) => pakoDeflate(s, { level: 9, strategy: Z_FILTERED })),
    compare(`${node} deflateSync level 9`, (s) => deflateSync(s, { level: 9 })),
    compare(`${node} deflateSync level 9, memLevel 9`, (s) => deflateSync(s, { level: 9, memLevel: 9 })),
  ],
};

const tmp = `${DATA}.tmp`;
writeFileSync(tmp, `${JSON.stringify(measurement, null, 2)}\n`);
renameSync(tmp, DATA);

const doc = readFileSync(DOC, "utf8");
const a = doc.indexOf(BEGIN);
const b = doc.indexOf(END);
if (a < 0 || b < a) throw new Error(`${DOC} has no ${BEGIN} … ${END} section`);
writeFileSync(`${DOC}.tmp`, `${doc.slice(0, a + BEGIN.length)}\n${renderDeflateTable(measurement)}\n${doc.slice(b)}`);
renameSync(`${DOC}.tmp`, DOC);
console.log(
  `${measurement.codec.identical}/${records} identical to Python zlib ${py.zlib_version}; wrote ${path.relative(repoRoot, DATA)} and ${path.relative(repoRoot, DOC)}`,
);
