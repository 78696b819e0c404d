// Worker entry: the designer's sizes, attribution and byte map run here so typing never waits for encoding.
import "../jitless.ts";
import type { Layout } from "#codecs";
import { Engine, Scheduler } from "./engine.ts";
import type { CancelRequest, ComputeRequest, PostedRequest, WorkerResult } from "./protocol.ts";

const scope = self as unknown as DedicatedWorkerGlobalScope;
const channel = new MessageChannel();
const waiting: (() => void)[] = [];
channel.port1.onmessage = () => waiting.shift()?.();
const yieldToEvents = () =>
  new Promise<void>((resolve) => {
    waiting.push(resolve);
    channel.port2.postMessage(0);
  });

// about one frame: long enough for the page to draw the first pass of a large run before refinement starts
const REFINE_AFTER_MS = 16;

const scheduler = new Scheduler(
  new Engine(() => performance.now()),
  (r: WorkerResult) => scope.postMessage(r),
  yieldToEvents,
  () => new Promise((resolve) => setTimeout(resolve, REFINE_AFTER_MS)),
);

// one parse per layout: repeated requests for it (a new seed, the byte map) reuse the object, which keeps the
// engine's caches keyed on it
let parsed: { key: number; layout: Layout } | null = null;

scope.onmessage = (ev: MessageEvent<PostedRequest | CancelRequest>) => {
  if (ev.data?.type === "cancel") return scheduler.cancel(ev.data.seq);
  if (ev.data?.type !== "compute") return;
  const { layoutJson, ...rest } = ev.data;
  if (parsed?.key !== rest.layoutKey) parsed = { key: rest.layoutKey, layout: JSON.parse(layoutJson) as Layout };
  const req: ComputeRequest = { ...rest, layout: parsed.layout };
  scheduler.submit(req);
};
