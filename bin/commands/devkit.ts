// `satpayload devkit simulate | ports | send`: the DevKit bench from a terminal.
import { hexToBytes } from "#codecs";
import { DevkitConnection } from "#devkit-bridge/client/connection.ts";
import { realClock } from "#devkit-bridge/clock.ts";
import { DevkitError, ModuleError } from "#devkit-bridge/errors.ts";
import { listPorts } from "#devkit-bridge/link/ports.ts";
import { openSerial } from "#devkit-bridge/link/serial.ts";
import { ERR } from "#devkit-bridge/protocol/codes.ts";
import { MODULE_BAUD } from "#devkit-bridge/protocol/frame.ts";
import { startPtySimulator } from "#devkit-bridge/sim/pty.ts";
import { platformById } from "#planning";
import { InputError, intFlag, parseFlags, table, UsageError, write } from "./common.ts";

export const devkitHelp = `satpayload devkit simulate [--product astronode-s|wifi-devkit] [--pass-delay MS] [--no-auto-pass] [--no-line-rate] [--first-request-lost] [--json]
  Starts the simulated Astronode S on a pseudo-terminal (needs socat) and prints its device path; runs until Ctrl+C.
  It paces the line at the module's 9600 baud (--no-line-rate: as fast as the pty); --first-request-lost leaves
  the first request after power-up or a reset unanswered, as real modules may.
satpayload devkit ports [--json]
  Lists serial ports, saying which cannot be opened and why (dialout group, missing udev).
satpayload devkit send --port PATH --hex HEX [--wait-ack SECONDS]
  Enqueues HEX (at most 160 bytes) on the module at PATH and prints its payload id; --wait-ack polls for the
  satellite acknowledgement.
`;

export async function devkitCommand(argv: string[]): Promise<void> {
  const [sub, ...rest] = argv;
  if (sub === "simulate") return simulate(rest);
  if (sub === "ports") return ports(rest);
  if (sub === "send") return send(rest);
  throw new UsageError(`devkit needs a subcommand: simulate, ports or send${sub ? ` (not "${sub}")` : ""}`);
}

async function simulate(argv: string[]): Promise<void> {
  const f = parseFlags(argv, {
    product: { type: "string", default: "astronode-s" },
    "pass-delay": { type: "string" },
    "no-auto-pass": { type: "boolean", default: false },
    "no-line-rate": { type: "boolean", default: false },
    "first-request-lost": { type: "boolean", default: false },
    json: { type: "boolean", default: false },
  });
  if (f.product !== "astronode-s" && f.product !== "wifi-devkit")
    throw new UsageError(`--product is astronode-s or wifi-devkit, not "${f.product}"`);
  const delayMs = intFlag(f["pass-delay"], "--pass-delay", 8000, 0, 3_600_000);
  let sim;
  try {
    sim = await startPtySimulator({
      clock: realClock,
      productId: f.product === "wifi-devkit" ? 4 : 3,
      pass: { auto: !f["no-auto-pass"], delayMs },
      baud: f["no-line-rate"] ? null : MODULE_BAUD,
      faults: { firstRequestLost: f["first-request-lost"] },
    });
  } catch (e) {
    if (e instanceof DevkitError) throw new InputError(e.message);
    throw e;
  }
  const model = sim.device.model;
  if (f.json)
    write(
      `${JSON.stringify({ schema: "satpayload.devkit-simulate/1", path: sim.path, productId: model.identity.productId })}\n`,
    );
  else {
    // the path first and alone, so scripts can read one line
    write(`${sim.path}\n`);
    process.stderr.write(
      `simulated ${model.identity.productNumber} (product ${model.identity.productId}) on ${sim.path}; satellite pass ${model.pass.auto ? `${delayMs} ms after each enqueue` : "off"}; line ${sim.device.baud ? `${sim.device.baud} baud` : "unpaced"}; first request after a restart ${f["first-request-lost"] ? "lost" : "answered"}. Ctrl+C stops it.\n`,
    );
  }
  model.on((e) => {
    if (e.kind === "pass" && e.sent.length) process.stderr.write(`satellite pass: acknowledged ${e.sent.join(", ")}\n`);
  });
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  await sim.close();
}

async function ports(argv: string[]): Promise<void> {
  const { json } = parseFlags(argv, { json: { type: "boolean", default: false } });
  const out = await listPorts();
  if (json) return write(`${JSON.stringify({ schema: "satpayload.devkit-ports/1", ...out }, null, 2)}\n`);
  if (!out.ports.length) write("no serial ports found (plug the DevKit in, or run `satpayload devkit simulate`)\n");
  else
    write(
      table(
        ["port", "likely DevKit", "usable"],
        out.ports.map((p) => [p.label, p.likelyDevkit ? "yes" : "", p.accessible ? "yes" : `no: ${p.hint ?? ""}`]),
        3,
      ),
    );
  for (const p of out.problems) process.stderr.write(`note: ${p}\n`);
}

async function send(argv: string[]): Promise<void> {
  const f = parseFlags(argv, {
    port: { type: "string" },
    hex: { type: "string" },
    "wait-ack": { type: "string" },
    id: { type: "string" },
  });
  if (!f.port) throw new UsageError("--port is required (see `satpayload devkit ports`)");
  if (f.hex === undefined) throw new UsageError("--hex is required");
  const data = hexToBytes(f.hex.replace(/^\s*0x/i, "").replace(/[\s:]/g, ""));
  if (!data) throw new InputError(`--hex is not hex: "${f.hex}" (pairs of 0-9, a-f)`);
  const limit = platformById("astrocast")?.uplinkBytes ?? 160;
  if (data.length > limit)
    throw new InputError(`the payload is ${data.length} bytes: ${data.length - limit} over the Astronode's ${limit}`);
  const waitS = intFlag(f["wait-ack"], "--wait-ack", 0, 0, 86_400);
  let id = intFlag(f.id, "--id", Math.floor(Math.random() * 65_535), 0, 65_535);
  const port = f.port;
  let conn: DevkitConnection | null = null;
  try {
    conn = await DevkitConnection.open({ open: () => openSerial(port) });
    const c = conn.client;
    for (let tries = 0; ; tries++) {
      try {
        await c.call("PLD_ER", { id, data });
        break;
      } catch (e) {
        if (!(e instanceof ModuleError && e.code === ERR.DUPLICATE_ID) || f.id !== undefined || tries > 8) throw e;
        id = (id + 1) & 0xffff;
      }
    }
    write(`queued ${data.length} bytes as payload id ${id}\n`);
    if (!waitS) return;
    const cfg = await c.call("CFG_RR", {});
    if (!cfg.satAck)
      throw new InputError(
        "the module does not report satellite acks (CFG_WR bit 0 is off), so there is nothing to wait for",
      );
    const end = Date.now() + waitS * 1000;
    while (Date.now() < end) {
      if ((await c.call("EVT_RR", {})).satAck) {
        const acked = (await c.call("SAK_RR", {})).id;
        await c.call("SAK_CR", {});
        write(`satellite acknowledged payload id ${acked}\n`);
        if (acked === id) return;
      }
      await new Promise((r) => setTimeout(r, 500));
    }
    throw new InputError(`no acknowledgement for payload ${id} within ${waitS} s (it stays queued)`);
  } catch (e) {
    if (e instanceof DevkitError) throw new InputError(e.message);
    throw e;
  } finally {
    await conn?.close();
  }
}
