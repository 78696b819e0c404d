// Worker entry: the designer's sizes, attribution and byte map run here so typing never waits for encoding.
import "../jitless.ts";
import { Engine, Scheduler } from "./engine.ts";
import { LayoutReader } from "./layoutPosts.ts";
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

// about one frame: long enough for the page to draw posted sizes (an estimate, a milestone) before the next pass
const REFINE_AFTER_MS = 16;

const scheduler = new Scheduler(
  new Engine(() => performance.now()),
  (r: WorkerResult) => scope.postMessage(r),
  yieldToEvents,
  () => new Promise((resolve) => setTimeout(resolve, REFINE_AFTER_MS)),
);

// every post is read as it arrives (the next one is written against it); repeated requests for a layout (a new
// seed, the byte map) get the same object, and an edit keeps the objects of the fields it did not replace, which
// keeps the engine's caches keyed on them
const layouts = new LayoutReader();

scope.onmessage = (ev: MessageEvent<PostedRequest | CancelRequest>) => {
  if (ev.data?.type === "cancel") return scheduler.cancel(ev.data.seq);
  if (ev.data?.type !== "compute") return;
  const req: ComputeRequest = { ...ev.data, layout: layouts.read(ev.data.layout) };
  scheduler.submit(req);
};
