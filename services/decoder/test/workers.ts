// Decoder workers in the test's own process (their buffer and forwarder reachable for assertions),
// forwarding to a CSE with fast retries, closed after each test; and what tests do to them and to
// the CSE around them: lose every delivered mark, prepare the decoder's AE and containers.
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, expect } from "vitest";
import { m2mWrite } from "./support.ts";
import { bufferFileName } from "../src/buffer/schema.ts";
import { parseDecoderArgs } from "../src/config.ts";
import { startWorker, type RunningWorker } from "../src/worker.ts";

export function testWorkers(preset: string) {
  const running: RunningWorker[] = [];
  afterEach(async () => {
    for (const w of running.splice(0)) await w.close();
  });

  const start = async (dataDir: string, cse: string, extra: string[] = []): Promise<RunningWorker> => {
    const cfg = parseDecoderArgs([
      "--data-dir",
      dataDir,
      "--preset",
      preset,
      "--cse",
      cse,
      "--retry-base-ms",
      "20",
      "--retry-max-ms",
      "200",
      ...extra,
    ]);
    const w = await startWorker(cfg, { index: 0, forwards: [0], log: () => {} });
    running.push(w);
    return w;
  };

  const stop = async (w: RunningWorker): Promise<void> => {
    await w.close();
    running.splice(running.indexOf(w), 1);
  };

  /**
   * As after a crash between the CSE's answers and the buffer's marks: stops `w`, sets every
   * record back to pending (counters too) and starts a worker on the same buffer.
   */
  const restartWithLostMarks = async (
    w: RunningWorker,
    dataDir: string,
    cse: string,
    extra: string[] = [],
  ): Promise<RunningWorker> => {
    await stop(w);
    const db = new Database(path.join(dataDir, bufferFileName(0)));
    db.prepare("UPDATE records SET forwarded_at = NULL WHERE refused_at IS NULL").run();
    db.prepare("UPDATE counters SET value = 0 WHERE name = 'forwarded'").run();
    db.close();
    return start(dataDir, cse, extra);
  };

  return { start, stop, restartWithLostMarks };
}

/** registers the decoder's AE (as its originator, Cdecoder) and these containers, as an operator preparing the CSE would */
export async function prepareDecoderAe(base: string, containers: Record<string, object>): Promise<void> {
  const ae = await m2mWrite(
    base,
    "POST",
    "",
    { "m2m:ae": { rn: "decoder", api: "Ndecoder", rr: false, srv: ["3"] } },
    "Cdecoder",
    2,
  );
  expect(ae.status, JSON.stringify(ae.json)).toBe(201);
  for (const [rn, attrs] of Object.entries(containers)) {
    const cnt = await m2mWrite(base, "POST", "decoder", { "m2m:cnt": { rn, ...attrs } }, "Cdecoder", 3);
    expect(cnt.status, JSON.stringify(cnt.json)).toBe(201);
  }
}
