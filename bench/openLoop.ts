// Open-loop load: requests leave on a fixed schedule whatever the server does, and each latency is
// measured from the moment the request was due (a slow server cannot slow the clock down and hide
// its queue). The maximum is the highest rate the target keeps up with.
import { leanClient } from "#services/shared/leanHttp.ts";

export interface StepResult {
  rate: number;
  seconds: number;
  offered: number;
  ok: number;
  errors: number;
  achieved: number;
  p50: number;
  p99: number;
  /** why the step does not count as sustained; null when it does */
  failed: string | null;
}

export interface Target {
  url: string;
  path: string;
  headers: Record<string, string>;
  body: (i: number) => Uint8Array;
  /** extra check after a step (the decoder: did forwarding keep up?) */
  after?: (rate: number) => Promise<string | null>;
}

const P99_LIMIT_MS = 250;
const CONNECTIONS = 256;

function quantile(sorted: number[], q: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! : NaN;
}

export async function step(t: Target, rate: number, seconds: number, prefix: string): Promise<StepResult> {
  const c = leanClient(t.url, CONNECTIONS, 10_000);
  const latencies: number[] = [];
  let ok = 0;
  let errors = 0;
  let sent = 0;
  const inflight: Promise<void>[] = [];
  const t0 = performance.now();
  const total = Math.round(rate * seconds);
  while (sent < total) {
    const due = Math.min(total, Math.floor(((performance.now() - t0) / 1000) * rate));
    for (; sent < due; sent++) {
      const i = sent;
      const dueAt = t0 + (i / rate) * 1000;
      inflight.push(
        c.post(t.path, t.body(i), { ...t.headers, "x-satpayload-message-id": `${prefix}-${i}` }).then(
          (r) => {
            if (r.status >= 200 && r.status < 300) {
              ok++;
              latencies.push(performance.now() - dueAt);
            } else errors++;
          },
          () => {
            errors++;
          },
        ),
      );
    }
    await new Promise((r) => setTimeout(r, 1));
  }
  await Promise.all(inflight);
  const wall = (performance.now() - t0) / 1000;
  c.close();
  latencies.sort((a, b) => a - b);
  const p99 = quantile(latencies, 0.99);
  let failed: string | null = null;
  if (errors) failed = `${errors} errors`;
  else if (p99 > P99_LIMIT_MS) failed = `p99 ${p99.toFixed(0)} ms > ${P99_LIMIT_MS} ms (queueing)`;
  else if (t.after) failed = await t.after(rate);
  return { rate, seconds, offered: total, ok, errors, achieved: ok / wall, p50: quantile(latencies, 0.5), p99, failed };
}

/** Doubles the rate until a step fails, then narrows down between the last pass and the fail. */
export async function findMax(
  t: Target,
  opts: { start: number; seconds: number; refine: number; log: (s: StepResult) => void; between?: () => Promise<void> },
): Promise<{ max: StepResult | null; steps: StepResult[] }> {
  const steps: StepResult[] = [];
  let pass: StepResult | null = null;
  let fail: number | null = null;
  let rate = opts.start;
  let n = 0;
  // not measured: JIT warm-up, connections, containers created for the devices
  await opts.between?.();
  await step({ ...t, after: undefined }, opts.start, 2, "warmup");
  const run = async (r: number) => {
    await opts.between?.();
    const s = await step(t, r, opts.seconds, `s${n++}`);
    steps.push(s);
    opts.log(s);
    return s;
  };
  while (fail === null) {
    const s = await run(rate);
    if (s.failed) fail = rate;
    else {
      pass = s;
      rate *= 2;
    }
    if (rate > 200_000) break;
  }
  for (let k = 0; k < opts.refine && fail !== null; k++) {
    const lo = pass?.rate ?? 0;
    const mid = Math.round((lo + fail) / 2 / 50) * 50;
    if (mid <= lo || mid >= fail) break;
    const s = await run(mid);
    if (s.failed) fail = mid;
    else pass = s;
  }
  return { max: pass, steps };
}
