// The buffer's writer thread: every write of one buffer happens here, so the fsync of a commit
// (milliseconds on real disks) never stalls the HTTP event loop, and requests that arrive meanwhile
// form the next group commit.
import { parentPort, workerData } from "node:worker_threads";
import { RecordBuffer, type BufferOptions } from "./buffer.ts";
import type { WriterResponse } from "./writer.ts";
import { answerWriterRequests, bookkeeping } from "./writerPort.ts";

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

answerWriterRequests(port, (m) => {
  switch (m.op) {
    case "write":
      return buffer.write(m.items);
    case "close":
      return buffer.close();
    default:
      return bookkeeping(buffer, m);
  }
});
