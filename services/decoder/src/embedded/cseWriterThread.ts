// --embedded-cse's writer thread: it owns the buffer's writing connection and the embedded CSE
// that shares it (with the CSE's HTTP port for readers and subscribers), so each group commit is
// one transaction holding the records and their contentInstances, as on the main thread before —
// but the HTTP ingest and decode of the next requests run on the main thread meanwhile, on the
// other core. The protocol is the buffer writer thread's (WriterRequest / WriterResponse).
import { parentPort, workerData } from "node:worker_threads";
import { RecordBuffer, type BufferOptions } from "../buffer/buffer.ts";
import type { WriterResponse } from "../buffer/writer.ts";
import { answerWriterRequests, bookkeeping } from "../buffer/writerPort.ts";
import type { CseTarget } from "../config.ts";
import { Checkpointer } from "./checkpointer.ts";
import { InProcessCse, type EmbeddedCseConfig } from "./inProcessCse.ts";
import { InProcessWriter } from "./inProcessWriter.ts";
import { deliverLeftovers } from "./leftovers.ts";

export interface CseWriterThreadData {
  file: string;
  options: BufferOptions;
  cse: EmbeddedCseConfig;
  target: CseTarget;
  /** fsync the WAL before answering (--synchronous full) */
  durable: boolean;
}

/** what the thread reports once it can write (the ready message's value) */
export interface CseWriterReady {
  target: CseTarget;
}

const data = workerData as CseWriterThreadData;
const port = parentPort!;
const post = (m: WriterResponse) => port.postMessage(m);
const log = (line: string) => post({ id: -1, log: line });

async function start(): Promise<{
  buffer: RecordBuffer;
  cse: InProcessCse;
  writer: InProcessWriter;
  checkpointer: Checkpointer;
}> {
  // NORMAL: InProcessWriter syncs the WAL itself, off this thread's event loop, before it answers
  const buffer = new RecordBuffer(data.file, { ...data.options, synchronous: "normal" });
  let checkpointer: Checkpointer | undefined;
  let cse: InProcessCse | undefined;
  try {
    checkpointer = new Checkpointer(buffer.db, { everyMs: 250, nativeBinding: data.options.nativeBinding, log });
    await checkpointer.ready;
    cse = await InProcessCse.start(buffer.db, data.cse, data.target, log);
    await deliverLeftovers(buffer, cse, log);
    return { buffer, cse, writer: new InProcessWriter(buffer, cse, data.durable), checkpointer };
  } catch (e) {
    await cse?.close();
    await checkpointer?.close();
    buffer.close();
    throw e;
  }
}

async function serve(): Promise<void> {
  let running: Awaited<ReturnType<typeof start>>;
  try {
    running = await start();
  } catch (e) {
    post({ id: 0, ok: false, error: (e as Error).message });
    process.exit(1);
  }
  const { buffer, cse, writer, checkpointer } = running;
  post({ id: 0, ok: true, value: { target: cse.target } satisfies CseWriterReady });

  // retries run one after the other: two deliveries of the same pending records interleaved would
  // each verify and repair the same names (counted twice, an older repair name written back)
  let retries: Promise<unknown> = Promise.resolve();
  answerWriterRequests(port, async (m) => {
    switch (m.op) {
      case "write":
        return writer.write(m.items);
      case "retry": {
        const run = retries.then(async () => {
          // refused records back to pending, then into the CSE at once: no forwarder runs for this buffer
          const n = buffer.retryRefused(m.filter);
          if (n > 0) await deliverLeftovers(buffer, cse, log);
          return n;
        });
        retries = run.catch(() => {});
        return run;
      }
      case "close":
        await writer.close();
        await cse.close();
        await checkpointer.close();
        return buffer.close();
      default:
        return bookkeeping(buffer, m);
    }
  });
}

void serve();
