// Runs the fit advisor off the UI thread: thousands of encodes and decodes per request.
import { adviseStaged } from "#planning/advisor";
import type { AdviseAnswer, AdviseRequest } from "./protocol.ts";

const post = (a: AdviseAnswer) => (self as unknown as Worker).postMessage(a);

self.onmessage = (ev: MessageEvent<AdviseRequest>) => {
  const r = ev.data;
  const t0 = performance.now();
  let last = 0;
  // the budget stage runs after the advice is on screen: its progress is not the page's progress bar
  let staged = false;
  try {
    const advice = adviseStaged(r.layout, {
      targetBytes: r.targetBytes,
      format: r.format,
      samples: r.samples,
      seed: r.seed,
      limits: r.limits,
      deployed: r.deployed,
      onProgress: (p) => {
        // a few updates a second are enough for a progress bar
        const now = performance.now();
        if (staged || now - last < 100) return;
        last = now;
        post({ type: "progress", seq: r.seq, ...p });
      },
    });
    post({ type: "result", seq: r.seq, result: advice.result, ms: performance.now() - t0 });
    if (!advice.result.plan.budgetPending) return;
    staged = true;
    post({ type: "budget", seq: r.seq, budget: advice.budget(), ms: performance.now() - t0 });
  } catch (e) {
    post({ type: "error", seq: r.seq, message: e instanceof Error ? e.message : String(e) });
  }
};
