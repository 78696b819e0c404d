// --replicas N: the primary forks N workers that share one port (node:cluster), restarts any that
// crash (same index, so it reopens its own buffer and resumes forwarding), and stops them on signal.
import cluster, { type Worker } from "node:cluster";
import { readdirSync } from "node:fs";
import { BUFFER_FILE } from "./buffer/schema.ts";
import type { DecoderConfig } from "./config.ts";

export const WORKER_INDEX_ENV = "SATPAYLOAD_DECODER_WORKER";

export type PrimaryMessage = { type: "shutdown" };
export type ListeningPorts = {
  port: number;
  mqttPort?: number | undefined;
  coapPort?: number | undefined;
  cseBaseUrl?: string | undefined;
};
export type WorkerMessage = { type: "listening" } & ListeningPorts;

/**
 * Buffers on disk beyond the deployment's count (a run with more replicas left them) still get
 * forwarded: buffer j ≥ total by the worker whose buffer is j mod total, if that worker is ours.
 */
export function forwardedBy(index: number, total: number, dataDir: string): number[] {
  const out = [index];
  let names: string[] = [];
  try {
    names = readdirSync(dataDir);
  } catch {
    return out;
  }
  for (const n of names) {
    const m = BUFFER_FILE.exec(n);
    const j = m ? Number(m[1]) : -1;
    if (j >= total && j % total === index) out.push(j);
  }
  return out.sort((a, b) => a - b);
}

const STOP_GRACE_MS = 10_000;
const STABLE_MS = 30_000;

export function runPrimary(
  cfg: DecoderConfig,
  onListening: (ports: ListeningPorts) => void,
  log: (m: string) => void,
): { stop(): Promise<void> } {
  const workers = new Map<number, { worker: Worker; startedAt: number; restarts: number; port?: number }>();
  let stopping = false;
  let announced = false;

  const fork = (index: number, restarts: number) => {
    const worker = cluster.fork({ [WORKER_INDEX_ENV]: String(index) });
    const entry: { worker: Worker; startedAt: number; restarts: number; port?: number } = {
      worker,
      startedAt: Date.now(),
      restarts,
    };
    workers.set(index, entry);
    worker.on("message", (m: WorkerMessage) => {
      if (m?.type !== "listening") return;
      entry.port = m.port;
      if (!announced && workers.size === cfg.replicas && [...workers.values()].every((w) => w.port !== undefined)) {
        announced = true;
        onListening(m);
      }
    });
    worker.on("exit", (code, signal) => {
      if (workers.get(index)?.worker !== worker) return;
      if (stopping) return void workers.delete(index);
      const stable = Date.now() - entry.startedAt > STABLE_MS;
      const n = stable ? 0 : entry.restarts + 1;
      const delay = Math.min(10_000, 250 * 2 ** n);
      log(`worker ${index} exited (${signal ?? `code ${code}`}); restarting in ${delay} ms`);
      setTimeout(() => {
        if (!stopping) fork(index, n);
      }, delay);
    });
  };
  for (let i = 0; i < cfg.replicas; i++) fork(cfg.bufferIndex + i, 0);

  return {
    stop: async () => {
      stopping = true;
      const exits = [...workers.values()].map(
        ({ worker }) =>
          new Promise<void>((resolve) => {
            if (worker.isDead()) return resolve();
            const t = setTimeout(() => {
              worker.process.kill("SIGKILL");
            }, STOP_GRACE_MS);
            worker.once("exit", () => {
              clearTimeout(t);
              resolve();
            });
            try {
              worker.send({ type: "shutdown" } satisfies PrimaryMessage);
            } catch {
              worker.process.kill("SIGTERM");
            }
          }),
      );
      await Promise.all(exits);
    },
  };
}
