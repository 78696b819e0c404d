// The serial ports a DevKit could be on, with what stands in the way when one cannot be used: listing never
// throws, problems come back as sentences.
import { constants } from "node:fs";
import { access, readdir, readFile, stat } from "node:fs/promises";
import { SerialPort } from "serialport";

export interface PortInfo {
  path: string;
  manufacturer?: string;
  serialNumber?: string;
  vendorId?: string;
  productId?: string;
  /** what the picker shows */
  label: string;
  /** a USB-UART bridge of the kind DevKits and ESP32 boards carry */
  likelyDevkit: boolean;
  /** false: we may not open it; `hint` says how to fix that */
  accessible: boolean;
  hint?: string;
}

export interface PortListing {
  ports: PortInfo[];
  /** sentences about what could not be listed or checked */
  problems: string[];
}

type Raw = {
  path: string;
  manufacturer?: string | undefined;
  serialNumber?: string | undefined;
  vendorId?: string | undefined;
  productId?: string | undefined;
};

export interface ListDeps {
  list?: () => Promise<Raw[]>;
  /** resolves when the current user may read and write the path */
  access?: (path: string) => Promise<void>;
  platform?: NodeJS.Platform;
  devDir?: string;
}

/** USB vendor ids of the bridges on Astronode DevKits and ESP32 boards (FTDI, Silicon Labs, WCH, Espressif, Prolific) */
const BRIDGE_VENDORS: Record<string, string> = {
  "0403": "FTDI",
  "10c4": "Silicon Labs CP210x",
  "1a86": "WCH CH340",
  "303a": "Espressif",
  "067b": "Prolific",
};

async function groupOf(path: string): Promise<string | null> {
  try {
    const gid = (await stat(path)).gid;
    const line = (await readFile("/etc/group", "utf8")).split("\n").find((l) => l.split(":")[2] === String(gid));
    return line?.split(":")[0] ?? null;
  } catch {
    return null;
  }
}

/** Without udev (containers, minimal systems) the list is empty or fails; the device nodes are still there. */
async function scanDev(devDir: string): Promise<Raw[]> {
  try {
    return (await readdir(devDir)).filter((n) => /^tty(USB|ACM)\d+$/.test(n)).map((n) => ({ path: `${devDir}/${n}` }));
  } catch {
    return [];
  }
}

export async function listPorts(deps: ListDeps = {}): Promise<PortListing> {
  const platform = deps.platform ?? process.platform;
  const problems: string[] = [];
  let raw: Raw[] = [];
  try {
    raw = await (deps.list ?? (() => SerialPort.list()))();
  } catch (e) {
    const msg = (e as Error).message ?? String(e);
    problems.push(
      platform === "linux"
        ? `could not ask udev for serial ports (${msg}); install udev (the "udevadm" tool) for names and USB ids. Ports found under /dev are listed without them.`
        : `could not list serial ports: ${msg}`,
    );
  }
  if (platform === "linux") {
    const known = new Set(raw.map((r) => r.path));
    for (const r of await scanDev(deps.devDir ?? "/dev")) if (!known.has(r.path)) raw.push(r);
  }
  const check = deps.access ?? ((p: string) => access(p, constants.R_OK | constants.W_OK));
  const ports: PortInfo[] = [];
  for (const r of raw) {
    const vendor = r.vendorId ? BRIDGE_VENDORS[r.vendorId.toLowerCase()] : undefined;
    const likelyDevkit = !!vendor || /tty(USB|ACM)|usbserial|usbmodem|SLAB/.test(r.path);
    let accessible = true;
    let hint: string | undefined;
    try {
      await check(r.path);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      accessible = false;
      if (code === "EACCES" || code === "EPERM") {
        const group = platform === "linux" ? ((await groupOf(r.path)) ?? "dialout") : null;
        hint = group
          ? `no permission: add yourself to the "${group}" group (sudo usermod -aG ${group} $USER), then log out and back in`
          : "no permission to open this port";
      } else hint = `cannot be opened (${code ?? (e as Error).message})`;
    }
    const what = [r.manufacturer ?? vendor, r.serialNumber ? `SN ${r.serialNumber}` : undefined]
      .filter(Boolean)
      .join(", ");
    ports.push({
      path: r.path,
      ...(r.manufacturer ? { manufacturer: r.manufacturer } : {}),
      ...(r.serialNumber ? { serialNumber: r.serialNumber } : {}),
      ...(r.vendorId ? { vendorId: r.vendorId } : {}),
      ...(r.productId ? { productId: r.productId } : {}),
      label: what ? `${r.path} (${what})` : r.path,
      likelyDevkit,
      accessible,
      ...(hint ? { hint } : {}),
    });
  }
  // likely DevKits first, then by name, so the picker's default is the sensible one
  ports.sort((a, b) => Number(b.likelyDevkit) - Number(a.likelyDevkit) || a.path.localeCompare(b.path));
  if (platform === "linux" && ports.some((p) => !p.accessible && p.hint?.startsWith("no permission")))
    problems.push(
      'some ports need membership of the "dialout" group (see each port); until then they cannot be opened',
    );
  return { ports, problems };
}
