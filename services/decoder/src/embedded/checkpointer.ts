// Starts the checkpointer thread for a buffer whose connection also serves the in-process CSE's
// readers: that connection's automatic checkpoints are turned off and this thread runs them
// instead, every `everyMs`, so no commit or read of the CSE waits for a checkpoint's fsyncs.
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type Database from "better-sqlite3";

export class Checkpointer {
  private readonly worker: Worker;
  readonly ready: Promise<void>;

  constructor(
    connection: Database.Database,
    opts: { everyMs: number; nativeBinding: string | undefined; log: (m: string) => void },
  ) {
    // the thread runs TypeScript under tsx's require hook, as the buffer's writer thread does
    const req = createRequire(import.meta.url);
    const boot = `require(${JSON.stringify(req.resolve("tsx/cjs/api"))}).require(${JSON.stringify(fileURLToPath(new URL("./checkpointThread.ts", import.meta.url)))}, __filename);`;
    this.worker = new Worker(boot, {
      eval: true,
      workerData: { file: connection.name, everyMs: opts.everyMs, nativeBinding: opts.nativeBinding },
    });
    this.ready = new Promise((resolve, reject) => {
      this.worker.once("error", reject);
      this.worker.on("message", (m: { ready?: boolean; error?: string }) => {
        if (m.ready) resolve();
        if (m.error) opts.log(`checkpoint failed (the next one retries): ${m.error}`);
      });
    });
    // without it the WAL would only be checkpointed by this thread: the connection never stalls on one
    connection.pragma("wal_autocheckpoint = 0");
  }

  async close(): Promise<void> {
    this.worker.postMessage("close");
    await new Promise<void>((resolve) => {
      this.worker.once("exit", () => resolve());
      setTimeout(() => void this.worker.terminate().then(() => resolve()), 2000).unref();
    });
  }
}
