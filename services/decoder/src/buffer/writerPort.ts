// The thread side of the writer protocol (WriterRequest → WriterResponse), shared by the buffer's
// writer thread and the in-process CSE's: each request is answered with its id, a failure as its
// message; after "close" the port closes.
import type { MessagePort } from "node:worker_threads";
import type { RecordBuffer } from "./buffer.ts";
import type { WriterRequest, WriterResponse } from "./writer.ts";

/** The forwarder's bookkeeping, the same on every writer thread. */
export function bookkeeping(
  buffer: RecordBuffer,
  m: Extract<WriterRequest, { op: "mark" | "rename" | "refuse" | "retry" | "count" | "status" }>,
): unknown {
  switch (m.op) {
    case "mark":
      return buffer.markForwarded(m.seqs, m.at);
    case "rename":
      return buffer.rename(m.seq, m.rn);
    case "refuse":
      return buffer.refuse(m.refusals);
    case "retry":
      return buffer.retryRefused(m.filter);
    case "count":
      return buffer.count(m.counter, m.n);
    case "status":
      return buffer.setStatus(m.key, m.value);
  }
}

export function answerWriterRequests(port: MessagePort, handle: (m: WriterRequest) => unknown): void {
  const post = (m: WriterResponse) => port.postMessage(m);
  port.on("message", (m: WriterRequest) => {
    let value: unknown;
    try {
      value = handle(m);
    } catch (e) {
      return post({ id: m.id, ok: false, error: (e as Error).message });
    }
    void Promise.resolve(value).then(
      (v) => {
        post({ id: m.id, ok: true, value: v });
        if (m.op === "close") port.close();
      },
      (e: unknown) => post({ id: m.id, ok: false, error: (e as Error).message }),
    );
  });
}
