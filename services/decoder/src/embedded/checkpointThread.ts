// The in-process CSE's checkpointer thread: copies the WAL into the database file with its own
// connection, so the checkpoint's writes and fsyncs never run inside a commit on the CSE's writer
// thread (where SQLite's automatic checkpoint would run them, holding every batch meanwhile).
import { parentPort, workerData } from "node:worker_threads";
import Database from "better-sqlite3";

const { file, everyMs, nativeBinding } = workerData as {
  file: string;
  everyMs: number;
  nativeBinding: string | undefined;
};
const db = new Database(file, nativeBinding ? { nativeBinding } : {});
const port = parentPort!;
// PASSIVE: copies what no reader still needs, never waits for a lock, never blocks a writer
const timer = setInterval(() => {
  try {
    db.pragma("wal_checkpoint(PASSIVE)");
  } catch (e) {
    port.postMessage({ error: (e as Error).message });
  }
}, everyMs);
port.on("message", (m: unknown) => {
  if (m !== "close") return;
  clearInterval(timer);
  db.close();
  port.close();
});
port.postMessage({ ready: true });
