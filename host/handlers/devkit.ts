// HostApi handlers of the DevKit bench; the state lives in one DevkitService per host.
import type Database from "better-sqlite3";
import { z } from "zod";
import { bytesToHex, hexToBytes } from "#codecs";
import {
  DOWNLINK_SIZES,
  checkWifi,
  toE7,
  rtcToDate,
  PRODUCT_NAMES,
  type CommandName,
} from "#devkit-bridge/protocol/commands.ts";
import { MODULE_BAUD } from "#devkit-bridge/protocol/frame.ts";
import type { Res } from "../api/contract.ts";
import { moduleConfig, type DEVKIT_COMMANDS } from "../api/devkit.ts";
import type { ProjectStore } from "../db/projects.ts";
import { designPayload, checkFits } from "../devkit/design.ts";
import { DevkitService } from "../devkit/service.ts";
import { HostError } from "../errors.ts";
import type { HandlerMap } from "./dispatch.ts";
import type { HostEvents } from "./events.ts";

type DevkitHandlers = Pick<HandlerMap, Extract<keyof HandlerMap, `devkit.${string}`>>;

/** the bench of each host, so tests and shells can stop it (ports, simulator, database handle) */
const services = new WeakMap<HostEvents, DevkitService>();

export function devkitServiceOf(events: HostEvents): DevkitService | undefined {
  return services.get(events);
}

/** Answers as JSON: byte fields become hex, unknown TLV items {type, hex}. */
export function jsonAnswer(v: unknown): unknown {
  if (v instanceof Uint8Array) return bytesToHex(v).toUpperCase();
  if (Array.isArray(v)) return v.map(jsonAnswer);
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, jsonAnswer(x)]));
  return v;
}

function bytesFromHex(text: string, what: string): Uint8Array {
  const clean = text.replace(/^\s*0x/i, "").replace(/[\s:]/g, "");
  const b = hexToBytes(clean);
  if (!b)
    throw new HostError("bad_request", `${what} is not hex (pairs of 0-9, A-F)`, [{ path: "hex", message: "not hex" }]);
  return b;
}

const position = z.union([
  z.object({ latE7: z.number().int(), lonE7: z.number().int() }),
  z.object({ lat: z.number(), lon: z.number() }),
]);

/** devkit.command's arguments per command, in JSON terms */
const COMMAND_ARGS: Partial<Record<(typeof DEVKIT_COMMANDS)[number], z.ZodType>> = {
  CFG_WR: moduleConfig,
  WIF_WR: z.object({ ssid: z.string(), password: z.string(), token: z.string() }),
  SSC_WR: z.object({ period: z.number().int().min(0).max(255), force: z.boolean().default(false) }),
  PLD_ER: z.object({ hex: z.string().max(2000) }),
  GEO_WR: position,
};

export function createDevkitHandlers({
  store,
  db,
  events,
  info,
}: {
  store: ProjectStore;
  db: Database.Database;
  events: HostEvents;
  info: Res<"app.info">;
}): DevkitHandlers {
  const svc = new DevkitService(events, db);
  services.set(events, svc);
  events.onClose(() => svc.dispose());

  const enqueueHex = async (hex: string) => {
    const data = bytesFromHex(hex, "the payload");
    checkFits(data.length, `the payload`);
    return svc.enqueue(data, { projectId: null, layoutVersion: null, format: null, sample: null, seed: null });
  };

  return {
    "devkit.ports": () => svc.ports(),
    "devkit.connect": ({ port }) => svc.connect(port),
    "devkit.disconnect": () => svc.disconnect(),
    "devkit.status": () => svc.status(),
    "devkit.info": () =>
      svc.run(async (c) => {
        const cfg = await c.call("CFG_RR", {});
        const guid = await c.call("MGI_RR", {});
        const serial = await c.call("MSN_RR", {});
        const pn = await c.call("MPN_RR", {});
        const rtc = await c.call("RTC_RR", {});
        const nco = await c.call("NCO_RR", {});
        const { productId, hardwareRevision, firmware, ...config } = cfg;
        return {
          productId,
          productName: PRODUCT_NAMES[productId] ?? `product ${productId}`,
          hardwareRevision,
          firmware: `${firmware.major}.${firmware.minor}.${firmware.revision}`,
          guid: guid.text,
          serial: serial.text,
          productNumber: pn.text,
          rtcSeconds: rtc.seconds,
          rtc: rtcToDate(rtc.seconds).toISOString(),
          nextContactS: nco.seconds,
          config,
        };
      }),
    "devkit.configure": ({ config, position, save }) =>
      svc.run(async (c) => {
        await c.call("CFG_WR", config);
        svc.rememberConfig(config);
        if (position) await c.call("GEO_WR", { latE7: toE7(position.lat), lonE7: toE7(position.lon) });
        if (save) await c.call("CFG_SR", {});
        return { config, saved: save };
      }),
    "devkit.wifi": ({ ssid, password, token, save }) => {
      const problems = checkWifi({ ssid, password, token });
      if (problems.length)
        throw new HostError(
          "bad_request",
          "the Wi-Fi settings cannot be sent",
          problems.map((p) => ({ path: p.field, message: p.message })),
        );
      return svc.run(async (c) => {
        await c.call("WIF_WR", { ssid, password, token });
        if (save) await c.call("CFG_SR", {});
        return { saved: save };
      });
    },
    "devkit.search": ({ period, force }) =>
      svc.run(async (c) => (await c.call("SSC_WR", { period, force }), { ok: true as const })),
    "devkit.queue": () =>
      svc.run(async (c) => {
        const mst = await c.call("MST_RR", {});
        return { module: jsonAnswer(mst) as Record<string, unknown>, ours: svc.openTransmissions() };
      }),
    "devkit.sendDesign": async ({ projectId, format, sample, seed }) => {
      const project = store.open(projectId);
      const layout = project.layout as Parameters<typeof designPayload>[0];
      let data: Uint8Array;
      try {
        data = designPayload(layout, format, sample, seed);
      } catch (e) {
        throw new HostError("bad_request", `sample ${sample} cannot be encoded as ${format}: ${(e as Error).message}`);
      }
      checkFits(data.length, `the ${format} payload of sample ${sample}`);
      return svc.enqueue(data, { projectId, layoutVersion: project.version, format, sample, seed });
    },
    "devkit.enqueueHex": ({ hex }) => enqueueHex(hex),
    "devkit.dequeue": () => svc.dequeue(),
    "devkit.free": async () => (await svc.free(), { ok: true as const }),
    "devkit.poll": () => svc.poll(),
    "devkit.polling": ({ enabled, intervalMs }) => svc.setPolling(enabled, intervalMs),
    "devkit.downlinkRead": () =>
      svc.run(async (c) => {
        try {
          const cmd = await c.call("CMD_RR", {});
          return {
            createdAt: rtcToDate(cmd.createdAt).toISOString(),
            hex: bytesToHex(cmd.data).toUpperCase(),
            bytes: cmd.data.length,
          };
        } catch (e) {
          if ((e as { errorName?: string }).errorName === "NO_COMMAND") return null;
          throw e;
        }
      }),
    "devkit.downlinkClear": () => svc.run(async (c) => (await c.call("CMD_CR", {}), { ok: true as const })),
    "devkit.counters": () =>
      svc.run(async (c) => {
        const per = await c.call("PER_RR", {});
        const mst = await c.call("MST_RR", {});
        const lcd = await c.call("LCD_RR", {});
        const end = await c.call("END_RR", {});
        return { per: jsonAnswer(per), mst: jsonAnswer(mst), lcd: jsonAnswer(lcd), end: jsonAnswer(end) } as Record<
          "per" | "mst" | "lcd" | "end",
          Record<string, unknown>
        >;
      }),
    "devkit.countersClear": () => svc.run(async (c) => (await c.call("PER_CR", {}), { ok: true as const })),
    "devkit.command": async ({ name, args }) => {
      const schema = COMMAND_ARGS[name];
      const parsed = schema ? schema.safeParse(args) : { success: true as const, data: {} };
      if (!parsed.success)
        throw new HostError(
          "bad_request",
          `arguments of ${name}`,
          parsed.error.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message })),
        );
      const a = parsed.data as Record<string, unknown>;
      // enqueueing goes through the recorded path so the transmission lands in the database too
      if (name === "PLD_ER") return { answer: await enqueueHex(a.hex as string) };
      if (name === "CFG_WR") svc.rememberConfig(a as z.infer<typeof moduleConfig>);
      const req = name === "GEO_WR" && "lat" in a ? { latE7: toE7(a.lat as number), lonE7: toE7(a.lon as number) } : a;
      return { answer: jsonAnswer(await svc.run((c) => c.call(name as CommandName, req as never))) };
    },
    "devkit.log": ({ limit }) => svc.log.recent(limit),
    "devkit.logExport": ({ format }) => {
      const stamp = new Date().toISOString().replace(/[:.]/g, "-").slice(0, 19);
      return {
        fileName: `devkit-log-${stamp}.${format === "jsonl" ? "jsonl" : "txt"}`,
        content: svc.log.export(format),
      };
    },
    "devkit.logClear": () => (svc.log.clear(), { ok: true as const }),
    "devkit.transmissions": ({ projectId, limit }) => svc.store.list(limit, projectId),
    "devkit.simPass": () => {
      const p = svc.simulator().device.model.satellitePass();
      return { sent: p.sent, downlink: p.downlink };
    },
    "devkit.simDownlink": ({ hex }) => {
      const data = bytesFromHex(hex, "the downlink");
      if (!(DOWNLINK_SIZES as readonly number[]).includes(data.length))
        throw new HostError("bad_request", `a downlink command holds 8 or 40 bytes, this one ${data.length}`, [
          { path: "hex", message: "8 or 40 bytes" },
        ]);
      const model = svc.simulator().device.model;
      model.injectDownlink(data);
      return { waiting: model.waitingDownlinks };
    },
    "devkit.simReset": () => {
      svc.simulator().device.reset();
      svc.client().markRestarted();
      return { ok: true as const };
    },
    "devkit.simSettings": ({ autoPass, passDelayMs, lineRate, firstRequestLost }) => {
      const device = svc.simulator().device;
      const pass = device.model.pass;
      if (autoPass !== undefined) pass.auto = autoPass;
      if (passDelayMs !== undefined) pass.delayMs = passDelayMs;
      if (lineRate !== undefined) device.baud = lineRate ? MODULE_BAUD : null;
      if (firstRequestLost !== undefined) device.faults.set({ firstRequestLost });
      return {
        autoPass: pass.auto,
        passDelayMs: pass.delayMs,
        lineRate: device.baud !== null,
        firstRequestLost: device.faults.current.firstRequestLost,
      };
    },
  };
}
