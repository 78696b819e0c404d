// Runs the firmware's host build with its UART (stdin/stdout) attached to the DevKit simulator of
// devkit-bridge, the same module model the studio's DevKit page talks to, and collects its log.
import { spawnOwned } from "#codecs-test/helpers/processes/owned.ts";
import { realClock } from "#devkit-bridge/clock.ts";
import type { Link } from "#devkit-bridge/link/types.ts";
import { SimulatedDevice, type DeviceOptions } from "#devkit-bridge/sim/device.ts";

export interface FirmwareRun {
  device: SimulatedDevice;
  /** payloads the module accepted, in order */
  enqueued: { id: number; data: Uint8Array }[];
  /** resolves when the process exits */
  done: Promise<{ code: number | null; log: string[] }>;
  /** calls `fn` once when a log line matching `re` has appeared `times` times */
  when(re: RegExp, times: number, fn: () => void): void;
}

export function runFirmware(
  exe: string,
  args: string[],
  opts: Partial<DeviceOptions> = {},
  wrapper: string[] = [],
): FirmwareRun {
  const [cmd, ...pre] = [...wrapper, exe];
  // owned: a firmware still running when its test ends (failed, timed out) is stopped, wrapper included
  const { child } = spawnOwned(cmd!, [...pre, ...args], { stdio: ["pipe", "pipe", "pipe"] });
  const data = new Set<(c: Uint8Array) => void>();
  const closed = new Set<(r: Error | null) => void>();
  let open = true;
  const link: Link = {
    description: "firmware host build",
    get isOpen() {
      return open;
    },
    async write(bytes) {
      if (open) child.stdin!.write(bytes);
    },
    onData(l) {
      data.add(l);
      return () => data.delete(l);
    },
    onClose(l) {
      closed.add(l);
      return () => closed.delete(l);
    },
    async close() {
      open = false;
    },
  };
  child.stdin!.on("error", () => undefined);
  child.stdout!.on("data", (c: Buffer) => {
    for (const l of data) l(new Uint8Array(c));
  });
  const device = new SimulatedDevice({ clock: realClock, processingMs: 2, ...opts });
  const enqueued: FirmwareRun["enqueued"] = [];
  // the model reports ids only: the bytes are read off the queue right when they arrive
  device.model.on((e) => {
    if (e.kind === "enqueued") enqueued.push({ id: e.id, data: device.model.queue.find((q) => q.id === e.id)!.data });
  });
  device.attach(link);

  const log: string[] = [];
  const watchers: { re: RegExp; times: number; fn: () => void; fired: boolean }[] = [];
  let partial = "";
  child.stderr!.on("data", (c: Buffer) => {
    partial += c.toString();
    const lines = partial.split("\n");
    partial = lines.pop()!;
    for (const line of lines) {
      log.push(line);
      for (const w of watchers) {
        if (!w.fired && log.filter((l) => w.re.test(l)).length >= w.times) {
          w.fired = true;
          w.fn();
        }
      }
    }
  });
  const done = new Promise<{ code: number | null; log: string[] }>((resolve) => {
    child.on("close", (code) => {
      open = false;
      for (const l of closed) l(null);
      device.stop();
      if (partial) log.push(partial);
      resolve({ code, log });
    });
  });
  return {
    device,
    enqueued,
    done,
    when(re, times, fn) {
      watchers.push({ re, times, fn, fired: false });
    },
  };
}
