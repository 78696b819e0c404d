// The buffer's durability split: acknowledged records are committed with synchronous=FULL (fsync),
// the forwarder's bookkeeping (marks, failure counts, state) without an fsync of its own. Whatever
// ran last, the connection is back at FULL for the next record batch, and nothing committed is lost
// when the file is opened again (a crashed process reopens it).
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { tempDir } from "./support.ts";
import { RecordBuffer, type NewRecord } from "../src/buffer/buffer.ts";

const FULL = 2;

function record(i: number): NewRecord {
  return {
    messageId: `m-${i}`,
    receivedAt: 1_700_000_000_000 + i,
    layout: "paper",
    format: "protobuf",
    device: `d${i % 3}`,
    size: 10,
    jsonSize: 40,
    con: `{"i":"${i}"}`,
  };
}

describe("record buffer", () => {
  it("returns to synchronous=FULL after each bookkeeping write, and keeps records, marks and state across a reopen", () => {
    const file = path.join(tempDir("satpayload-buffer-"), "buffer-0.sqlite");
    const b = new RecordBuffer(file);
    expect(b.db.pragma("synchronous", { simple: true })).toBe(FULL);
    const seqs = b.write([1, 2, 3, 4].map((i) => ({ kind: "record" as const, record: record(i) }))).map((r) => r!.seq);
    expect(b.markForwarded(seqs.slice(0, 2))).toBe(2);
    expect(b.db.pragma("synchronous", { simple: true })).toBe(FULL);
    b.setStatus("forwarder", { state: "idle" });
    expect(b.db.pragma("synchronous", { simple: true })).toBe(FULL);
    b.count("forward_failures");
    expect(b.db.pragma("synchronous", { simple: true })).toBe(FULL);
    b.write([{ kind: "record", record: record(5) }]);
    b.close();

    const reader = new Database(file, { readonly: true });
    try {
      expect(
        reader.prepare("SELECT message_id FROM records WHERE forwarded_at IS NULL ORDER BY seq").pluck().all(),
      ).toEqual(["m-3", "m-4", "m-5"]);
      const counters = Object.fromEntries(
        (reader.prepare("SELECT name, value FROM counters").all() as { name: string; value: number }[]).map((r) => [
          r.name,
          r.value,
        ]),
      );
      expect(counters).toMatchObject({ accepted: 5, forwarded: 2, forward_failures: 1 });
      expect(
        JSON.parse(reader.prepare("SELECT value FROM status WHERE key = 'forwarder'").pluck().get() as string),
      ).toEqual({ state: "idle" });
    } finally {
      reader.close();
    }
  });

  it("stays at synchronous=NORMAL when the decoder was started with --synchronous normal", () => {
    const b = new RecordBuffer(path.join(tempDir("satpayload-buffer-"), "buffer-0.sqlite"), { synchronous: "normal" });
    try {
      b.markForwarded(b.write([{ kind: "record", record: record(1) }]).map((r) => r!.seq));
      expect(b.db.pragma("synchronous", { simple: true })).toBe(1);
    } finally {
      b.close();
    }
  });
});
