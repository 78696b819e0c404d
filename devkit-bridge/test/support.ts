// Rigs the tests share: a client wired to the simulator in memory on a virtual clock.
import { AstronodeClient, type ClientOptions, type FrameLogEntry } from "../src/client/client.ts";
import { VirtualClock } from "../src/clock.ts";
import { memoryPair, type MemoryPair } from "../src/link/memory.ts";
import { SimulatedDevice, type DeviceOptions, type Exchange } from "../src/sim/device.ts";

export interface MemoryRig {
  clock: VirtualClock;
  client: AstronodeClient;
  device: SimulatedDevice;
  pair: MemoryPair;
  exchanges: Exchange[];
  frames: FrameLogEntry[];
  /** runs virtual time until the promise settles */
  run<T>(p: Promise<T>): Promise<T>;
  /** plugs the cable back in: a new link pair, the same module */
  replug(): void;
}

export function memoryRig(opts: Partial<DeviceOptions> = {}, clientOpts: ClientOptions = {}): MemoryRig {
  const clock = new VirtualClock();
  const exchanges: Exchange[] = [];
  const frames: FrameLogEntry[] = [];
  const device = new SimulatedDevice({ rtcAtStart: 270_000_000, ...opts, clock, onExchange: (e) => exchanges.push(e) });
  let pair = memoryPair();
  device.attach(pair.device);
  const client = new AstronodeClient(pair.host, { clock, onFrame: (f) => frames.push(f), ...clientOpts });
  const rig: MemoryRig = {
    clock,
    client,
    device,
    get pair() {
      return pair;
    },
    exchanges,
    frames,
    run: (p) => clock.runUntil(p),
    replug() {
      pair = memoryPair();
      device.attach(pair.device);
      client.attach(pair.host);
    },
  };
  device.onUnplug = () => pair.unplug();
  return rig;
}
