// Store what was sent (issue 22, item 4): readings written the way the paper author's CBOR and
// MessagePack senders write them (latitude and longitude with 4 decimals where the paper's layout
// declares 2) go through a decoder process with its in-process CSE; every stored record — the
// buffer's `con` and the oneM2M instance's — is compared field by field with what the Python
// sender sent. The expected values are the sender's own texts, never our decoder's output.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { Encoder } from "cbor-x";
import { beforeAll, describe, expect, it } from "vitest";
import { parseRouteSpec, RouteSpecError } from "#contracts/decoder/routes.ts";
import { m2mGet, spawnDecoder, tempDir, type DecoderProcess } from "./support.ts";
import { UsageError } from "../../shared/cliErrors.ts";
import { repoRoot } from "../../shared/launch.ts";
import { parseDecoderArgs } from "../src/config.ts";

const PYTHON = path.join(repoRoot, ".venv/bin/python");
const CLIENTS = path.join(repoRoot, "services/decoder/test/paper-clients");

interface Sent {
  status: number;
  answer: {
    messageId?: string;
    device?: string;
    error?: string;
    reason?: string;
    flagged?: { field: string; kind: string; sent: string; allowed: string }[];
  };
  sent: Record<string, string>;
}

function send(url: string, format: string, count: number, seed: number): Promise<Sent[]> {
  const out = path.join(tempDir("satpayload-fidelity-"), "sent.jsonl");
  return new Promise((resolve, reject) => {
    execFile(
      PYTHON,
      [path.join(CLIENTS, "fidelity_sender.py"), url, format, String(count), out, String(seed)],
      { cwd: CLIENTS, timeout: 120_000 },
      (err, _stdout, stderr) => {
        if (err) return reject(new Error(`${err.message}\n${stderr}`));
        resolve(
          readFileSync(out, "utf8")
            .trim()
            .split("\n")
            .map((l) => JSON.parse(l) as Sent),
        );
      },
    );
  });
}

/** a digit other than 0 after the second decimal: what 2 declared decimals cannot write */
const finerThan2 = (text: string) => /\.\d{2}\d*[1-9]/.test(text);

let decoder: DecoderProcess;
/** every reading accepted on the flagging routes, for the counts */
const accepted: Record<string, string>[] = [];
let dataDir: string;
let cseBase: string;

async function start(): Promise<void> {
  dataDir = tempDir();
  decoder = await spawnDecoder([
    "--data-dir",
    dataDir,
    "--preset",
    "paper",
    "--embedded-cse",
    "--cse-port",
    "0",
    // the author's senders post to /container-data; the other formats get paths of their own here
    "--route",
    "/container-data=paper:cbor",
    "--route",
    "/msgpack=paper:msgpack",
    "--route",
    "/struct-zlib=paper:struct-zlib",
    "--route",
    "/strict=paper:cbor:precision=refuse",
    "--route",
    "/wide=paper:cbor:range=flag",
  ]);
  cseBase = String(decoder.listening.cseBaseUrl);
}

/** every stored row by message id, read from the buffer file by another connection */
function storedRows(): Map<string, { rn: string; device: string; con: Record<string, unknown> }> {
  const db = new Database(path.join(dataDir, "buffer-0.sqlite"), { readonly: true });
  try {
    const rows = db.prepare("SELECT message_id AS id, rn, device, con FROM records").all() as {
      id: string;
      rn: string | null;
      device: string;
      con: string;
    }[];
    return new Map(
      rows.map((r) => [
        r.id,
        { rn: r.rn ?? r.id, device: r.device, con: JSON.parse(r.con) as Record<string, unknown> },
      ]),
    );
  } finally {
    db.close();
  }
}

async function instanceCon(device: string, rn: string): Promise<unknown> {
  const r = await m2mGet(cseBase, `decoder/${device}/${rn}`);
  expect(r.status, `${device}/${rn}`).toBe(200);
  return (r.json as { "m2m:cin": { con: unknown } })["m2m:cin"].con;
}

/** fields of `a` and `b` that differ, as "key: sent → stored" */
function differences(
  sent: Record<string, string>,
  stored: unknown,
  same: (k: string, a: string, b: unknown) => boolean,
) {
  const s = stored as Record<string, unknown>;
  const keys = new Set([...Object.keys(sent), ...Object.keys(s)]);
  return [...keys].filter((k) => !same(k, sent[k]!, s[k])).map((k) => `${k}: ${sent[k]} → ${String(s[k])}`);
}

describe("stored records are what the devices sent", () => {
  // the decoder lives for the whole file (a process started inside a test ends with that test)
  beforeAll(start, 120_000);

  it.each([
    ["cbor", "/container-data", 200, 11],
    ["msgpack", "/msgpack", 200, 12],
  ] as const)(
    "%s, 4-decimal coordinates: all records stored, each con (buffer and instance) equal to what was sent",
    async (format, route, count, seed) => {
      const sent = await send(`${decoder.url}${route}`, format, count, seed);
      expect(sent.map((s) => s.status)).toEqual(sent.map(() => 200));
      const rows = storedRows();
      let equal = 0;
      for (const s of sent) {
        const row = rows.get(s.answer.messageId!);
        expect(row, s.answer.messageId).toBeDefined();
        // every field, and the device's key order
        expect(JSON.stringify(row!.con)).toBe(JSON.stringify(s.sent));
        expect(JSON.stringify(await instanceCon(row!.device, row!.rn))).toBe(JSON.stringify(s.sent));
        // the answer names what went beyond the layout: the coordinates finer than 2 decimals
        const finer = ["latitude", "longitude"].filter((k) => finerThan2(s.sent[k]!));
        expect((s.answer.flagged ?? []).map((x) => `${x.field}:${x.kind}:${x.sent}`)).toEqual(
          finer.map((k) => `${k}:precision:${s.sent[k]}`),
        );
        equal++;
      }
      expect(equal).toBe(count);
      accepted.push(...sent.map((x) => x.sent));
      console.log(`fidelity ${format}: ${count} sent, ${rows.size} stored so far, ${equal} equal field by field`);
    },
    180_000,
  );

  it("struct-zlib: every float is the float32 the device packed, not its rounding to the declared decimals", async () => {
    const sent = await send(`${decoder.url}/struct-zlib`, "struct-zlib", 100, 13);
    expect(sent.map((s) => s.status)).toEqual(sent.map(() => 200));
    const rows = storedRows();
    // the wire carries float32 for these fields (the paper's struct packing): that is all it can say
    const floats = new Set([
      "temperature",
      "humidity",
      "pressure",
      "latitude",
      "longitude",
      "altitude",
      "speed",
      "heading",
      "hdop",
    ]);
    const f32 = (t: string) => Math.fround(Number(t));
    const same = (k: string, a: string, b: unknown) =>
      typeof b === "string" &&
      (floats.has(k)
        ? f32(a) === f32(b)
        : k === "acc"
          ? a.split(" ").every((x, i) => f32(x) === f32(b.split(" ")[i] ?? "NaN"))
          : a === b);
    let equal = 0;
    for (const s of sent) {
      const row = rows.get(s.answer.messageId!)!;
      expect(differences(s.sent, row.con, same)).toEqual([]);
      expect(differences(s.sent, await instanceCon(row.device, row.rn), same)).toEqual([]);
      // 31.6225 is written as such (float32 holds 6 significant digits exactly), never as 31.62; a
      // reading the declared 2 decimals hold ("31.6200") comes in the layout's text form, "31.62"
      const lat = s.sent.latitude!;
      expect(row.con.latitude).toBe(finerThan2(lat) ? lat.replace(/0+$/, "") : lat.slice(0, lat.indexOf(".") + 3));
      equal++;
    }
    expect(equal).toBe(100);
    accepted.push(...sent.map((x) => x.sent));
  }, 180_000);

  it("flag counts per field in /api/stats add up to what was sent", async () => {
    const stats = (await (await fetch(`${decoder.url}/api/stats`)).json()) as {
      records: number;
      flagged: { records: number; fields: { field: string; kind: string; count: number }[] };
    };
    expect(stats.records).toBe(500);
    const lat = stats.flagged.fields.find((f) => f.field === "latitude" && f.kind === "precision");
    const lon = stats.flagged.fields.find((f) => f.field === "longitude" && f.kind === "precision");
    // counted from the texts the senders wrote
    const all = accepted;
    expect(all.length).toBe(500);
    expect(lat?.count).toBe(all.filter((r) => finerThan2(r.latitude!)).length);
    expect(lon?.count).toBe(all.filter((r) => finerThan2(r.longitude!)).length);
    expect(stats.flagged.records).toBe(all.filter((r) => finerThan2(r.latitude!) || finerThan2(r.longitude!)).length);
    expect(stats.flagged.fields.map((f) => f.field).sort()).toEqual(["latitude", "longitude"]);
  }, 180_000);

  it("precision=refuse: each finer reading refused 400 with field, value and what the layout allows, kept as a dead letter", async () => {
    const before = storedRows().size;
    const sent = await send(`${decoder.url}/strict`, "cbor", 50, 14);
    const refused = sent.filter((s) => finerThan2(s.sent.latitude!) || finerThan2(s.sent.longitude!));
    expect(refused.length).toBeGreaterThan(0);
    for (const s of sent) {
      const finer = ["latitude", "longitude"].filter((k) => finerThan2(s.sent[k]!));
      if (!finer.length) {
        expect(s.status).toBe(200);
        continue;
      }
      expect(s.status).toBe(400);
      expect(s.answer.error).toBe("undecodable");
      expect(s.answer.reason).toBe(
        `cbor: ${finer.map((k) => `${k}: "${s.sent[k]}" is more precise than the layout allows (at most 2 decimals)`).join("; ")}`,
      );
    }
    expect(storedRows().size - before).toBe(sent.length - refused.length);
    const dead = (await (await fetch(`${decoder.url}/api/dead-letters?limit=1000`)).json()) as {
      deadLetters: { reason: string }[];
    };
    expect(dead.deadLetters.filter((d) => d.reason.includes("is more precise than the layout allows")).length).toBe(
      refused.length,
    );
  }, 180_000);

  it("range: refused by default quoting the sent text; kept as sent and flagged where the route says range=flag", async () => {
    const far = async (route: string) => (await send(`${decoder.url}${route}`, "cbor", 1, 15))[0]!;
    // the sender's coordinates are within range: move one out through the decoder's own answer
    const one = await far("/container-data");
    expect(one.status).toBe(200);
    const body = new Encoder({ useRecords: false, variableMapSize: true }).encode({
      ...one.sent,
      latitude: "95.1234",
      longitude: "28.74",
    });
    const post = (p: string) =>
      fetch(`${decoder.url}${p}`, {
        method: "POST",
        headers: { "content-type": "application/octet-stream" },
        body: new Uint8Array(body),
      });
    const refused = await post("/container-data");
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      error: "undecodable",
      reason: "cbor: latitude: 95.1234 is outside -90..90",
    });
    const kept = await post("/wide");
    expect(kept.status).toBe(200);
    const answer = (await kept.json()) as { messageId: string; flagged: unknown };
    expect(answer.flagged).toEqual([
      { field: "latitude", kind: "precision", sent: "95.1234", allowed: "at most 2 decimals" },
      { field: "latitude", kind: "range", sent: "95.1234", allowed: "-90..90" },
    ]);
    expect(storedRows().get(answer.messageId)!.con.latitude).toBe("95.1234");
  }, 120_000);
});

describe("the per-route choice", () => {
  it("route specs and flags take flag or refuse, and nothing else", () => {
    expect(parseRouteSpec("/a=paper:cbor:precision=refuse")).toMatchObject({ format: "cbor", precision: "refuse" });
    expect(parseRouteSpec("/a=paper:cbor:raw:range=flag:precision=flag")).toMatchObject({
      body: "raw",
      range: "flag",
      precision: "flag",
    });
    expect(parseRouteSpec("/a=paper:cbor")).not.toHaveProperty("precision");
    expect(() => parseRouteSpec("/a=paper:cbor:precision=round")).toThrow(RouteSpecError);
    expect(() => parseRouteSpec("/a=paper:cbor:precision=refuse:precision=flag")).toThrow("given twice");
    const args = (more: string[]) => parseDecoderArgs(["--data-dir", tempDir(), ...more]);
    expect(args([]).fidelity).toEqual({ precision: "flag", range: "refuse" });
    expect(args(["--precision", "refuse", "--range", "flag"]).fidelity).toEqual({ precision: "refuse", range: "flag" });
    expect(() => args(["--precision", "round"])).toThrow(UsageError);
  });
});
