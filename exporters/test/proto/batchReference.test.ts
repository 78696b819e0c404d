// Protobuf's own runtime (Python, upb) reads our batch messages (issue #27, point 6): the .proto the
// exporter writes for a batch's wire layout, compiled by protoc; the readings are rebuilt by the
// reference decoder written from docs/design/batch-wire.md (codecs/reference/ref_batch.py), which
// derives the wire layout itself. Both forms, several layouts and seeds: the readings are exactly
// those our decoder returns. A truncated message is refused by both.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import {
  type BatchForm,
  type BatchRecord,
  batchCodecFor,
  DecodeError,
  generateBatches,
  type Layout,
  parseLayout,
  presetById,
  readingsThatFit,
} from "#codecs";
import { buoyBatch } from "#codecs-test/fixtures/batchExample.ts";
import { gpsTrackBatchInput } from "#codecs-test/fixtures/gpsTrack.ts";
import { runPython, safeBigints, untagFromPython } from "#codecs-test/helpers/python.ts";
import { generateProto } from "../../src/proto.ts";

const SCRIPT = "codecs/reference/ref_batch.py";
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
type Result = { once?: unknown; readings?: unknown[]; error?: { kind: string; message: string } };

const dir = mkdtempSync(path.join(tmpdir(), "satpayload-batch-proto-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const LAYOUTS: [string, Layout][] = [
  ["paper tracker", parseLayout(presetById("paper-tracker")!.layout)],
  ["GPS track", parseLayout(gpsTrackBatchInput)],
  ["buoy", parseLayout(buoyBatch)],
];

function protoJob(layout: Layout, form: BatchForm, name: string, batchesOf: (n: number) => BatchRecord[]) {
  const r = layout.batch!.readings;
  const n = r.kind === "fixed" ? r.count : readingsThatFit(layout, "protobuf", form, 160) || 4;
  const codec = batchCodecFor(layout, "protobuf", form, n);
  const proto = path.join(dir, `${name}_${form}.proto`);
  // a package of its own per form: one Python process loads both, and the package is not on the wire
  writeFileSync(proto, generateProto({ ...codec.wireLayout, package: `${name}_${form}` }));
  const batches = batchesOf(n);
  const messages = batches.map((b) => codec.encode(b));
  return {
    codec,
    messages,
    job: {
      format: "protobuf",
      form,
      maxReadings: n,
      proto,
      message: codec.wireLayout.message,
      messages: messages.map(hex),
    },
  };
}

describe("Google's protobuf runtime reads batch messages through the exported .proto", () => {
  test.each(LAYOUTS)("%s: columns and delta, 3 seeds, the readings our decoder returns", (name, layout) => {
    const slug = name.replace(/\W+/g, "_");
    const runs = (["columns", "delta"] as const).map((form) =>
      protoJob(layout, form, slug, (n) =>
        [1, 7, 2024].flatMap((seed) => generateBatches(layout, Math.ceil(120 / n), n, seed)),
      ),
    );
    const out = runPython(SCRIPT, { layout, jobs: runs.map((r) => r.job) }) as { results: Result[][] };
    runs.forEach(({ codec, messages, job }, k) => {
      const results = out.results[k]!;
      expect(results).toHaveLength(messages.length);
      expect(
        results.filter((r) => r.error).map((r) => r.error!.message),
        job.form,
      ).toEqual([]);
      results.forEach((r, i) =>
        expect(untagFromPython({ once: r.once, readings: r.readings }), `${job.form} message ${i}`).toEqual(
          safeBigints(codec.decode(messages[i]!)),
        ),
      );
    });
  });

  test("a message cut inside a field is refused by the runtime and by our decoder", () => {
    const layout = LAYOUTS[1]![1];
    const { codec, messages, job } = protoJob(layout, "delta", "cut", (n) => generateBatches(layout, 1, n, 3));
    const good = messages[0]!;
    const cuts = [good.subarray(0, good.length - 1), good.subarray(0, 3)];
    const out = runPython(SCRIPT, { layout, jobs: [{ ...job, messages: cuts.map(hex) }] }) as { results: Result[][] };
    expect(out.results[0]!.map((r) => r.error?.kind)).toEqual(cuts.map(() => "truncated"));
    for (const c of cuts) expect(() => codec.decode(c)).toThrow(DecodeError);
  });
});
