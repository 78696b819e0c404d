// The HTTP binding: headers, the CSEBase, and every refusal of a malformed request with its
// HTTP status, X-M2M-RSC and m2m:dbg reason (docs/onem2m-http.md, "Status codes").
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { M2mClient, M2mResponse } from "./client.ts";
import { M2M_TIME, startTestCse, type TestCse } from "./fixture.ts";

let cse: TestCse;
let c: M2mClient;

beforeAll(async () => {
  cse = await startTestCse({ maxBodyBytes: 64 * 1024 });
  c = cse.client("Cdecoder");
  expect(
    (await c.create("/Mobius", 2, { "m2m:ae": { rn: "decoder", api: "Ndecoder", rr: false, srv: ["3"] } })).status,
  ).toBe(201);
  expect((await c.create("/Mobius/decoder", 3, { "m2m:cnt": { rn: "up" } })).status).toBe(201);
  expect((await c.create("/Mobius/decoder/up", 4, { "m2m:cin": { rn: "m1", con: "x" } })).status).toBe(201);
});
afterAll(() => cse.close());

function refused(r: M2mResponse, status: number, rsc: number, reason: RegExp): void {
  expect({ status: r.status, rsc: r.rsc }).toEqual({ status, rsc });
  expect(r.headers.get("content-type")).toBe("application/json");
  expect(Object.keys(r.body)).toEqual(["m2m:dbg"]);
  expect(r.body["m2m:dbg"]).toMatch(reason);
}

const headers = (h: Record<string, string>) => ({
  "X-M2M-RI": "r1",
  "X-M2M-Origin": "Cdecoder",
  "X-M2M-RVI": "3",
  ...h,
});

describe("CSEBase and headers", () => {
  it("answers the CSEBase at /Mobius with CSE-ID /Mobius2 and its address", async () => {
    const r = await c.retrieve("/Mobius");
    expect({ status: r.status, rsc: r.rsc }).toEqual({ status: 200, rsc: 2000 });
    const cb = r.body["m2m:cb"];
    expect(cb).toMatchObject({ rn: "Mobius", ty: 5, csi: "/Mobius2", pi: "", poa: [cse.url] });
    expect(cb.srt).toEqual(expect.arrayContaining([2, 3, 4, 5, 23]));
    expect(cb.ct).toMatch(M2M_TIME);
  });

  it("echoes X-M2M-RI and X-M2M-RVI and always sends X-M2M-RSC", async () => {
    const ok = await c.raw({
      method: "GET",
      path: "/Mobius",
      headers: headers({ "X-M2M-RI": "abc-123", "X-M2M-RVI": "2a" }),
    });
    expect(ok.headers.get("x-m2m-ri")).toBe("abc-123");
    expect(ok.headers.get("x-m2m-rvi")).toBe("2a");
    expect(ok.headers.get("x-m2m-rsc")).toBe("2000");
    const err = await c.raw({ method: "GET", path: "/Mobius/nothing", headers: headers({ "X-M2M-RI": "e-1" }) });
    expect(err.headers.get("x-m2m-ri")).toBe("e-1");
    expect(err.headers.get("x-m2m-rvi")).toBe("3");
    expect(err.headers.get("x-m2m-rsc")).toBe("4004");
  });

  it("takes a request without X-M2M-RVI as release 2a, like Mobius", async () => {
    const r = await c.raw({ method: "GET", path: "/Mobius", headers: { "X-M2M-RI": "r", "X-M2M-Origin": "Cdecoder" } });
    expect(r.status).toBe(200);
    expect(r.headers.get("x-m2m-rvi")).toBe("2a");
  });

  it("has CORS on, including preflight", async () => {
    const r = await c.retrieve("/Mobius");
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    expect(r.headers.get("access-control-expose-headers")).toMatch(/X-M2M-RSC/);
    const pre = await c.raw({
      method: "OPTIONS",
      path: "/Mobius/decoder",
      headers: {
        Origin: "http://example.test",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "x-m2m-ri, x-m2m-origin, content-type",
      },
    });
    expect(pre.status).toBe(200);
    expect(pre.headers.get("x-m2m-rsc")).toBe("2000");
    expect(pre.headers.get("access-control-allow-methods")).toMatch(/POST/);
    expect(pre.headers.get("access-control-allow-headers")).toMatch(/X-M2M-Origin/);
  });

  it("names the created resource in Content-Location", async () => {
    const r = await c.create("/Mobius/decoder/up", 4, { "m2m:cin": { rn: "located", con: "x" } });
    expect(r.status).toBe(201);
    // CSE-relative, without a leading "/", as Mobius and ACME write it
    expect(r.headers.get("content-location")).toBe("Mobius/decoder/up/located");
  });
});

describe("bad requests: 400/4000", () => {
  it("refuses a request without X-M2M-RI", async () => {
    refused(
      await c.raw({ method: "GET", path: "/Mobius", headers: { "X-M2M-Origin": "Cdecoder", "X-M2M-RVI": "3" } }),
      400,
      4000,
      /X-M2M-RI/,
    );
    refused(
      await c.raw({ method: "GET", path: "/Mobius", headers: headers({ "X-M2M-RI": "" }) }),
      400,
      4000,
      /X-M2M-RI/,
    );
  });

  it("refuses a request without X-M2M-Origin", async () => {
    refused(
      await c.raw({ method: "GET", path: "/Mobius", headers: { "X-M2M-RI": "r", "X-M2M-RVI": "3" } }),
      400,
      4000,
      /X-M2M-Origin/,
    );
  });

  it("refuses a create without ty in Content-Type", async () => {
    const body = JSON.stringify({ "m2m:cin": { con: "x" } });
    refused(
      await c.raw({
        method: "POST",
        path: "/Mobius/decoder/up",
        headers: headers({ "Content-Type": "application/json" }),
        body,
      }),
      400,
      4000,
      /ty=/,
    );
    refused(
      await c.raw({ method: "POST", path: "/Mobius/decoder/up", headers: headers({}), body }),
      400,
      4000,
      /Content-Type/,
    );
    refused(
      await c.raw({
        method: "POST",
        path: "/Mobius/decoder/up",
        headers: headers({ "Content-Type": "application/json;ty=four" }),
        body,
      }),
      400,
      4000,
      /ty=four/,
    );
    refused(
      await c.raw({
        method: "POST",
        path: "/Mobius/decoder/up",
        headers: headers({ "Content-Type": "application/xml;ty=4" }),
        body,
      }),
      400,
      4000,
      /JSON/,
    );
  });

  it("accepts the oneM2M JSON media type as well", async () => {
    const body = JSON.stringify({ "m2m:cin": { con: "x" } });
    const r = await c.raw({
      method: "POST",
      path: "/Mobius/decoder/up",
      headers: headers({ "Content-Type": "application/vnd.onem2m-res+json; ty=4" }),
      body,
    });
    expect(r.status).toBe(201);
  });

  it("refuses bad JSON and a missing body", async () => {
    const h = headers({ "Content-Type": "application/json;ty=4" });
    refused(
      await c.raw({ method: "POST", path: "/Mobius/decoder/up", headers: h, body: '{"m2m:cin":{"con":' }),
      400,
      4000,
      /not valid JSON/,
    );
    refused(await c.raw({ method: "POST", path: "/Mobius/decoder/up", headers: h }), 400, 4000, /JSON body/);
    refused(
      await c.raw({ method: "POST", path: "/Mobius/decoder/up", headers: h, body: "[1,2]" }),
      400,
      4000,
      /m2m:cin/,
    );
  });

  it("refuses a body rooted in another type than ty", async () => {
    refused(await c.create("/Mobius/decoder", 3, { "m2m:cin": { rn: "q" } }), 400, 4000, /m2m:cnt/);
    refused(await c.create("/Mobius/decoder", 3, { "m2m:cnt": { rn: "q" }, extra: 1 }), 400, 4000, /m2m:cnt/);
    refused(await c.update("/Mobius/decoder", { "m2m:cnt": { lbl: ["x"] } }), 400, 4000, /m2m:ae/);
  });

  it("refuses unknown, read-only and badly typed attributes", async () => {
    refused(
      await c.create("/Mobius/decoder", 3, { "m2m:cnt": { rn: "q", foo: 1 } }),
      400,
      4000,
      /m2m:cnt\.foo is not a known attribute/,
    );
    refused(
      await c.create("/Mobius/decoder", 3, { "m2m:cnt": { rn: "q", cni: 3 } }),
      400,
      4000,
      /cni is set by the CSE/,
    );
    refused(
      await c.create("/Mobius/decoder", 3, { "m2m:cnt": { rn: "q", mni: "lots" } }),
      400,
      4000,
      /mni must be a non-negative integer/,
    );
    refused(await c.create("/Mobius/decoder", 3, { "m2m:cnt": { rn: "q", mbs: -1 } }), 400, 4000, /mbs/);
    refused(
      await c.create("/Mobius/decoder", 3, { "m2m:cnt": { rn: "q", lbl: "one" } }),
      400,
      4000,
      /lbl must be an array/,
    );
    refused(
      await c.create("/Mobius/decoder", 3, { "m2m:cnt": { rn: "q", et: "tomorrow" } }),
      400,
      4000,
      /et must be a time/,
    );
    refused(await c.create("/Mobius/decoder", 3, { "m2m:cnt": { rn: "a/b" } }), 400, 4000, /one segment/);
    refused(await c.create("/Mobius/decoder", 3, { "m2m:cnt": { rn: "" } }), 400, 4000, /rn must be/);
    refused(await c.create("/Mobius", 2, { "m2m:ae": { rn: "x", rr: false } }), 400, 4000, /api is mandatory/);
    refused(
      await c.create("/Mobius", 2, { "m2m:ae": { rn: "x", api: "Nx", rr: "no" } }),
      400,
      4000,
      /rr must be a boolean/,
    );
    refused(await c.create("/Mobius/decoder/up", 4, { "m2m:cin": { rn: "q" } }), 400, 4000, /con is mandatory/);
    refused(await c.create("/Mobius/decoder/up", 4, { "m2m:cin": { con: null } }), 400, 4000, /con cannot be null/);
    refused(
      await c.create("/Mobius", 2, { "m2m:ae": { rn: "x", api: "Nx", rr: false, cr: null } }),
      400,
      4000,
      /an AE has no creator attribute/,
    );
    refused(
      await c.create("/Mobius/decoder", 3, { "m2m:cnt": { rn: "q", cr: "Cdecoder" } }),
      400,
      4000,
      /cr is set by the CSE: send "cr": null/,
    );
  });

  it("refuses malformed discovery parameters", async () => {
    refused(await c.retrieve("/Mobius/decoder?fu=3"), 400, 4000, /fu=3/);
    refused(await c.retrieve("/Mobius/decoder?fu=1&ty=cin"), 400, 4000, /ty=cin/);
    refused(await c.retrieve("/Mobius/decoder?fu=1&lim=-1"), 400, 4000, /lim=-1/);
    refused(await c.retrieve("/Mobius/decoder?fu=1&rcn=4"), 400, 4000, /rcn=4/);
    refused(await c.retrieve("/Mobius/decoder?rcn=7"), 400, 4000, /rcn=7 does not apply to the retrieve operation/);
    refused(await c.retrieve("/Mobius/decoder?rcn=11"), 400, 4000, /rcn=11 .* needs fu=1/);
  });

  it("refuses filter criteria on a create, update or delete instead of ignoring them", async () => {
    refused(
      await c.delete("/Mobius/decoder/up?crb=20000101T000000"),
      400,
      4000,
      /crb do not apply to the delete operation/,
    );
    refused(
      await c.update("/Mobius/decoder/up?fu=1", { "m2m:cnt": { lbl: ["x"] } }),
      400,
      4000,
      /fu do not apply to the update operation/,
    );
    refused(
      await c.create("/Mobius/decoder/up?rcn=4", 4, { "m2m:cin": { con: "x" } }),
      400,
      4000,
      /rcn=4 does not apply to the create operation/,
    );
    refused(
      await c.update("/Mobius/decoder/up?rcn=2", { "m2m:cnt": { lbl: ["x"] } }),
      400,
      4000,
      /rcn=2 does not apply to the update operation/,
    );
    expect((await c.create("/Mobius/decoder/up?rcn=1", 4, { "m2m:cin": { con: "x" } })).status).toBe(201);
  });

  it("answers 413 with a reason for a body over the limit", async () => {
    const big = JSON.stringify({ "m2m:cin": { con: "x".repeat(70 * 1024) } });
    const r = await c.raw({
      method: "POST",
      path: "/Mobius/decoder/up",
      headers: headers({ "Content-Type": "application/json;ty=4" }),
      body: big,
    });
    expect({ status: r.status, rsc: r.rsc }).toEqual({ status: 413, rsc: 4000 });
    expect(r.body["m2m:dbg"]).toMatch(/65536/);
  });
});

describe("other refusals", () => {
  it("answers 501/4001 for a release version it does not know", async () => {
    refused(
      await c.raw({ method: "GET", path: "/Mobius", headers: headers({ "X-M2M-RVI": "9" }) }),
      501,
      4001,
      /release version "9"/,
    );
  });

  it("answers 404/4004 for a path that names nothing", async () => {
    refused(await c.retrieve("/Mobius/nothing"), 404, 4004, /\/Mobius\/nothing/);
    refused(await c.retrieve("/Other/decoder"), 404, 4004, /CSE base is \/Mobius/);
    refused(await c.retrieve("/"), 404, 4004, /no resource/);
    refused(await c.create("/Mobius/nothing", 3, { "m2m:cnt": {} }), 404, 4004, /no resource/);
  });

  it("answers 405/4005 for operations that are not allowed", async () => {
    refused(await c.create("/Mobius", 5, { "m2m:cb": { rn: "x" } }), 405, 4005, /CSEBase cannot be created/);
    refused(await c.update("/Mobius", { "m2m:cb": { lbl: ["x"] } }), 405, 4005, /cannot be updated/);
    refused(await c.delete("/Mobius"), 405, 4005, /CSEBase cannot be deleted/);
    refused(await c.raw({ method: "PATCH", path: "/Mobius", headers: headers({}) }), 405, 4005, /PATCH/);
  });

  it("answers 403/4108 for a child type the parent cannot have", async () => {
    refused(
      await c.create("/Mobius/decoder/up/m1", 3, { "m2m:cnt": { rn: "q" } }),
      403,
      4108,
      /type 3 cannot be a child/,
    );
    refused(await c.create("/Mobius/decoder", 4, { "m2m:cin": { con: "x" } }), 403, 4108, /type 4 cannot be a child/);
    refused(await c.create("/Mobius", 4, { "m2m:cin": { con: "x" } }), 403, 4108, /type 4/);
  });

  it("answers 501/5001 for resource types it does not implement", async () => {
    refused(await c.create("/Mobius", 1, { "m2m:acp": { rn: "acp" } }), 501, 5001, /type 1 is not implemented/);
  });
});
