// Device routes: paths fixed to a layout and format (the paper's /container-data, Astrocast's push
// callback, any path from --route or the config file) answer 200 with a small JSON body after the
// record is committed, and refuse bad input 4xx with the reason (undecodable payloads kept as
// dead letters), exactly as /ingest does.
import { writeFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { parseLayout, presetById } from "#codecs";
import { client, encodedSamples, tempDir } from "./support.ts";
import { UsageError } from "../../shared/cliErrors.ts";
import { bufferFileName } from "../src/buffer/schema.ts";
import { parseDecoderArgs } from "../src/config.ts";
import { startWorker, type RunningWorker } from "../src/worker.ts";

const running: RunningWorker[] = [];
afterEach(async () => {
  for (const w of running.splice(0)) await w.close();
});

async function decoder(extra: string[] = [], dataDir = tempDir()) {
  const cfg = parseDecoderArgs(["--data-dir", dataDir, "--preset", "paper", "--preset", "kineis-tracker", ...extra]);
  const w = await startWorker(cfg, { index: 0, forwards: [], log: () => {} });
  running.push(w);
  return { w, c: client(`http://127.0.0.1:${w.port}`), dataDir };
}

const OCTETS = { "content-type": "application/octet-stream" };
const JSON_TYPE = { "content-type": "application/json" };
const b64 = (b: Uint8Array) => Buffer.from(b).toString("base64");

describe("device routes", () => {
  it("POST /container-data (paper, Protobuf by default) answers 200 once the record is on disk", async () => {
    const { c, dataDir } = await decoder();
    const [msg] = encodedSamples("protobuf", 1, 3);
    const r = await c.post("/container-data", msg!, OCTETS);
    expect(r.status, r.body).toBe(200);
    const body = JSON.parse(r.body);
    expect(body).toMatchObject({ layout: "paper", format: "protobuf", duplicate: false });
    // acknowledged means committed: another connection to the buffer file sees it
    const db = new Database(path.join(dataDir, bufferFileName(0)), { readonly: true });
    expect(db.prepare("SELECT message_id FROM records").pluck().all()).toEqual([body.messageId]);
    db.close();
    // a trailing slash is the same path; GET is not ingest
    expect((await c.post("/container-data/", msg!, OCTETS)).status).toBe(200);
    const get = await c.get("/container-data");
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe("POST");
  });

  it("takes Astrocast's push body and the paper receiver's {data, guid}; the message GUID makes retries duplicates", async () => {
    const { c, w } = await decoder();
    const [a, b] = encodedSamples("protobuf", 2, 4);
    const push = {
      messageGuid: "6f1c2b9e-6a51-4d55-9b0c-1d2e3f405162",
      deviceGuid: "c984ff2b-e4d0-417f-8ea3-11d74a55d251",
      deviceGroupGuid: "00000000-0000-0000-0000-000000000000",
      createdDate: "2026-11-24T10:00:00Z",
      receivedDate: "2026-11-24T10:00:05Z",
      latitude: null,
      longitude: null,
      data: b64(a!),
      messageSize: a!.length,
    };
    const first = await c.post("/astrocast-callback", JSON.stringify(push), JSON_TYPE);
    expect(first.status, first.body).toBe(200);
    expect(JSON.parse(first.body)).toMatchObject({ messageId: push.messageGuid, duplicate: false });
    // the portal retries until it sees 200: the same message is stored once
    const again = await c.post("/astrocast-callback", JSON.stringify(push), JSON_TYPE);
    expect(again.status).toBe(200);
    expect(JSON.parse(again.body)).toMatchObject({ messageId: push.messageGuid, duplicate: true });
    const paper = await c.post(
      "/astrocast-callback",
      JSON.stringify({ data: b64(b!), guid: "dev-guid-1", sequenceNumber: 7 }),
      JSON_TYPE,
    );
    expect(paper.status, paper.body).toBe(200);
    expect(JSON.parse(paper.body).messageId).toBe("dev-guid-1.7");
    expect(w.buffer.counters()).toMatchObject({ accepted: 2, duplicates: 1 });
  });

  it("refuses bad input with the reason and keeps undecodable payloads as dead letters", async () => {
    const { c, w } = await decoder();
    const bad = await c.post(
      "/astrocast-callback",
      JSON.stringify({ data: b64(new Uint8Array([0xff, 0xff, 0xff])), guid: "g" }),
      JSON_TYPE,
    );
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toMatchObject({ error: "undecodable" });
    const notJson = await c.post("/astrocast-callback", "{nope", JSON_TYPE);
    expect(notJson.status).toBe(400);
    expect(JSON.parse(notJson.body).reason).toMatch(/not JSON/);
    const noData = await c.post("/astrocast-callback", JSON.stringify({ guid: "g" }), JSON_TYPE);
    expect(noData.status).toBe(400);
    expect(JSON.parse(noData.body).reason).toMatch(/^callback data:/);
    const badDate = await c.post(
      "/astrocast-callback",
      JSON.stringify({ data: "AA==", receivedDate: "yesterday" }),
      JSON_TYPE,
    );
    expect(badDate.status).toBe(400);
    expect(JSON.parse(badDate.body).reason).toMatch(/receivedDate: is not a date/);
    const garbage = await c.post("/container-data", new Uint8Array([0x0a, 0xff]), OCTETS);
    expect(garbage.status).toBe(400);
    expect(JSON.parse(garbage.body).error).toBe("undecodable");
    expect(w.buffer.counters()).toMatchObject({ accepted: 0, dead_letters: 2, rejected: 5 });
  });

  it("maps any path from --route and the config file to its layout and format; --route wins per path", async () => {
    const dir = tempDir();
    const config = path.join(dir, "decoder.json");
    writeFileSync(
      config,
      JSON.stringify({
        routes: {
          "/container-data": "paper:cbor",
          "/uplink/kineis": "kineis-tracker:struct",
          "/hook": "paper:struct-zlib:envelope",
        },
      }),
    );
    const { c } = await decoder(["--config", config, "--route", "/uplink/kineis=kineis-tracker:protobuf"]);
    const routes = JSON.parse((await c.get("/api/routes")).body).routes;
    expect(routes).toEqual([
      { path: "/container-data", layout: "paper", format: "cbor", body: "auto" },
      { path: "/uplink/kineis", layout: "kineis-tracker", format: "protobuf", body: "auto" },
      { path: "/hook", layout: "paper", format: "struct-zlib", body: "envelope" },
      { path: "/astrocast-callback", layout: "paper", format: "protobuf", body: "envelope" },
    ]);
    const cbor = await c.post("/container-data", encodedSamples("cbor", 1, 5)[0]!, OCTETS);
    expect(JSON.parse(cbor.body)).toMatchObject({ format: "cbor" });
    const k = encodedSamples("protobuf", 1, 6, parseLayout(presetById("kineis-tracker")!.layout))[0]!;
    expect((await c.post("/uplink/kineis", k, OCTETS)).status).toBe(200);
    const hook = await c.post(
      "/hook",
      JSON.stringify({ data: b64(encodedSamples("struct-zlib", 1, 7)[0]!) }),
      JSON_TYPE,
    );
    expect(hook.status, hook.body).toBe(200);
    const none = await c.post("/elsewhere", k, OCTETS);
    expect(none.status).toBe(404);
    expect(JSON.parse(none.body).reason).toMatch(/POST \/container-data/);
  });

  it("refuses unusable routes at start with the reason", () => {
    const parse =
      (...a: string[]) =>
      () =>
        parseDecoderArgs(["--data-dir", tempDir(), ...a]);
    expect(parse("--route", "/ingest=paper:cbor")).toThrow(/decoder's own endpoint/);
    expect(parse("--route", "/api/x=paper:cbor")).toThrow(UsageError);
    expect(parse("--route", "/x=paper:yaml")).toThrow(/"yaml" is not a format/);
    expect(parse("--route", "x=paper:cbor")).toThrow(/must start with \//);
    expect(parse("--route", "/x")).toThrow(/PATH=LAYOUT:FORMAT/);
    expect(parse("--route", "/x=:cbor")).toThrow(/names no layout/);
    const f = path.join(tempDir(), "c.json");
    writeFileSync(f, JSON.stringify({ routes: { "/a": "paper:cbor" }, extra: 1 }));
    expect(parse("--config", f)).toThrow(/--config .*extra/);
  });
});
