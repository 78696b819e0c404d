// "Simulated DevKit" in the port list: the byte-exact simulator on a pseudo-terminal when socat is there (so
// the real serial binding is used, as with hardware), in memory otherwise.
import { realClock } from "#devkit-bridge/clock.ts";
import { PortError } from "#devkit-bridge/errors.ts";
import { memoryPair } from "#devkit-bridge/link/memory.ts";
import { openSerial } from "#devkit-bridge/link/serial.ts";
import type { LinkFactory } from "#devkit-bridge/link/types.ts";
import { MODULE_BAUD } from "#devkit-bridge/protocol/frame.ts";
import { SimulatedDevice, type DeviceOptions } from "#devkit-bridge/sim/device.ts";
import type { ProductId } from "#devkit-bridge/sim/model.ts";
import { startPtySimulator } from "#devkit-bridge/sim/pty.ts";

export const SIM_PORTS: readonly { id: string; productId: ProductId; label: string }[] = [
  { id: "sim:astronode-s", productId: 3, label: "Simulated DevKit — Astronode S" },
  { id: "sim:wifi-devkit", productId: 4, label: "Simulated DevKit — Wi-Fi DevKit" },
];

export interface RunningSimulator {
  device: SimulatedDevice;
  /** the pty path, null when it runs in memory */
  path: string | null;
  open: LinkFactory;
  note: string;
  close(): Promise<void>;
}

export async function startSimulator(
  productId: ProductId,
  opts: Partial<DeviceOptions> = {},
): Promise<RunningSimulator> {
  // the line runs at the module's 9600 baud (pty or memory) unless told otherwise
  const options: DeviceOptions = {
    clock: realClock,
    productId,
    pass: { auto: true, delayMs: 8000 },
    baud: MODULE_BAUD,
    ...opts,
  };
  try {
    const pty = await startPtySimulator(options);
    return {
      device: pty.device,
      path: pty.path,
      open: () => openSerial(pty.path),
      note: `on ${pty.path}`,
      close: () => pty.close(),
    };
  } catch (e) {
    if (!(e instanceof PortError)) throw e;
    const device = new SimulatedDevice(options);
    return {
      device,
      path: null,
      open: async () => {
        const pair = memoryPair();
        device.attach(pair.device);
        return pair.host;
      },
      note: `in memory (${e.message})`,
      close: async () => device.stop(),
    };
  }
}
