// The buffer's writer thread: every write of one buffer happens here, so the fsync of a commit
// (milliseconds on real disks) never stalls the HTTP event loop, and requests that arrive meanwhile
// form the next group commit.
import { parentPort, workerData } from "node:worker_threads";
import { RecordBuffer, type BufferOptions } from "./buffer.ts";
import type { WriterRequest, WriterResponse } from "./writer.ts";

const { file, options } = workerData as { file: string; options: BufferOptions };
const port = parentPort!;
let buffer: RecordBuffer;
try {
  buffer = new RecordBuffer(file, options);
  port.postMessage({ id: 0, ok: true, value: null } satisfies WriterResponse);
} catch (e) {
  port.postMessage({ id: 0, ok: false, error: (e as Error).message } satisfies WriterResponse);
  process.exit(1);
}

port.on("message", (m: WriterRequest) => {
  let reply: WriterResponse;
  try {
    switch (m.op) {
      case "write":
        reply = { id: m.id, ok: true, value: buffer.write(m.items) };
        break;
      case "mark":
        reply = { id: m.id, ok: true, value: buffer.markForwarded(m.seqs, m.at) };
        break;
      case "failure":
        buffer.countForwardFailure(m.n);
        reply = { id: m.id, ok: true, value: null };
        break;
      case "status":
        buffer.setStatus(m.key, m.value);
        reply = { id: m.id, ok: true, value: null };
        break;
      case "close":
        buffer.close();
        port.postMessage({ id: m.id, ok: true, value: null } satisfies WriterResponse);
        port.close();
        return;
    }
  } catch (e) {
    reply = { id: m.id, ok: false, error: (e as Error).message };
  }
  port.postMessage(reply);
});
