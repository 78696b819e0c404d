// Every receiver the gateway bench times decodes exactly what the sender encoded: the official SBE
// Java codecs (SbeTool), protobufjs static code and flatc's TypeScript accessors are the references
// nobody here wrote; our three decoders must report the same source values, and each digest must be
// the one the bench checks.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codecFor } from "#codecs";
import { compileSbe, protobufCodec } from "#codecs/plans";
import { loadFlatcTelemetry, writeFlatcModule } from "../flatcTelemetry.ts";
import { frameAll } from "../framing.ts";
import {
  buildJavaReceiver,
  DECODING_KINDS,
  formatOf,
  startReceiver,
  type Receiver,
  type ReceiverKind,
} from "../receivers.ts";
import { loadStaticModule, writeStaticModule } from "../staticProtobuf.ts";
import { digestOf, framesDigestOf, PAYLOAD_LIMITS, telemetryLayout, telemetryRecords } from "../telemetry.ts";

const COUNT = 100;
const dir = mkdtempSync(path.join(os.tmpdir(), "gateway-bench-test-"));
const running: Receiver[] = [];

afterAll(async () => {
  await Promise.all(running.map((r) => r.stop()));
  rmSync(dir, { recursive: true, force: true });
});

describe.each(PAYLOAD_LIMITS)("payloads up to %i bytes", (limit) => {
  const layout = telemetryLayout(limit);
  const records = telemetryRecords(limit, COUNT, 7);
  const expected = records.map((r) => ({
    id: String(r.id),
    timestamp: String(r.timestamp),
    payload: r.payload as string,
  }));
  const sbe = records.map((r) => compileSbe(layout).encode(r));
  const protobuf = records.map((r) => protobufCodec.compile(layout).encode(r));
  const flatbuffers = records.map((r) => codecFor(layout, "flatbuffers").encode(r));
  const streams = { sbe, protobuf, flatbuffers };
  let staticModule = "";
  let flatcModule = "";
  let javaClasses = "";

  beforeAll(() => {
    const sub = mkdtempSync(path.join(dir, `p${limit}-`));
    staticModule = writeStaticModule(layout, sub);
    flatcModule = writeFlatcModule(layout, sub);
    javaClasses = buildJavaReceiver(limit);
  }, 300_000);

  it("the records use the whole range the seeds allow", () => {
    const lengths = records.map((r) => Buffer.byteLength(r.payload as string));
    expect(Math.min(...lengths)).toBeGreaterThanOrEqual(1);
    expect(Math.max(...lengths)).toBeLessThanOrEqual(limit);
    expect(Math.max(...lengths)).toBeGreaterThan(limit * 0.8);
    expect(records.every((r) => (r.timestamp as bigint) > 2n ** 60n)).toBe(true);
  });

  it("protobufjs static code writes the bytes our protobuf encoder sends", () => {
    const T = loadStaticModule(staticModule);
    const theirs = records.map((r) =>
      Buffer.from(T.encode({ id: String(r.id), timestamp: String(r.timestamp), payload: r.payload }).finish()).toString(
        "hex",
      ),
    );
    expect(theirs).toEqual(protobuf.map((b) => Buffer.from(b).toString("hex")));
  });

  it("flatc's TypeScript accessors read every value our FlatBuffers encoder wrote", () => {
    const read = loadFlatcTelemetry(flatcModule);
    const got = flatbuffers.map((b) => {
      const m = read(b);
      return { id: String(m.id()), timestamp: String(m.timestamp()), payload: m.payload() };
    });
    expect(got).toEqual(expected);
  });

  it.each(DECODING_KINDS)(
    "%s decodes every value the sender encoded",
    async (kind: ReceiverKind) => {
      const r = await startReceiver(kind, { maxPayload: limit, verify: true, staticModule, flatcModule, javaClasses });
      running.push(r);
      const bytes = streams[formatOf(kind)];
      const { result, records: got } = await r.send(frameAll(bytes));
      expect(got).toEqual(expected);
      expect(result.messages).toBe(COUNT);
      expect(result.bytes).toBe(bytes.reduce((n, b) => n + 4 + b.length, 0));
      expect(result.digest).toBe(digestOf(records));

      // a stream cut inside a frame is reported, and the receiver takes the next batch
      const cut = frameAll(bytes.slice(0, 3));
      await expect(r.send(cut.subarray(0, cut.length - 2))).rejects.toThrow(/inside a frame/);
      const again = await r.send(frameAll(bytes.slice(0, 10)));
      expect(again.result.digest).toBe(digestOf(records.slice(0, 10)));
    },
    120_000,
  );

  it("the framing-only floor counts every frame and reads no content", async () => {
    const r = await startReceiver("frames-only", { maxPayload: limit });
    running.push(r);
    const { result } = await r.send(frameAll(sbe));
    expect(result.messages).toBe(COUNT);
    expect(result.digest).toBe(framesDigestOf(sbe));
    expect(result.digest).not.toBe(digestOf(records));
  }, 120_000);
});
