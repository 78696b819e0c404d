// Worker entry: the designer's sizes, attribution and byte map run here so typing never waits for encoding.
import "../jitless.ts";
import { Engine, Scheduler } from "./engine.ts";
import type { ComputeRequest, WorkerResult } from "./protocol.ts";

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

scope.onmessage = (ev: MessageEvent<ComputeRequest>) => {
  if (ev.data?.type === "compute") scheduler.submit(ev.data);
};
