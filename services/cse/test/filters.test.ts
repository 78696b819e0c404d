// Filter criteria (TS-0004 7.3.3.17: ty, lbl, crb/cra, ms/us, sts/stb, lim, ofst, lvl, fo) in
// discovery and in a retrieve with rcn=4/8, and the rule that nothing given is silently ignored.
// The CSE runs on a clock the test sets, so creation and modification times are known exactly.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { M2mClient, M2mResponse } from "./client.ts";
import { startTestCse, type TestCse } from "./fixture.ts";

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 0, 1, 0, 0, 0);
let clock = T0;
let cse: TestCse;
let c: M2mClient;
const BASE = "/Mobius/app/f";

function expectRsc(r: M2mResponse, status: number, rsc: number): void {
  expect({ status: r.status, rsc: r.rsc }).toEqual({ status, rsc });
  if (status >= 400) expect(r.body["m2m:dbg"]).toEqual(expect.any(String));
}

beforeAll(async () => {
  cse = await startTestCse({ profile: "standard", now: () => clock });
  c = cse.client("Cowner");
  expectRsc(await c.create("/Mobius", 2, { "m2m:ae": { rn: "app", api: "Napp", rr: false, srv: ["3"] } }), 201, 2001);
  // 00:00 f; 01:00 f/old (lbl a); 02:00 f/old/i1..i3; 03:00 f/new (lbl b); 04:00 f/old updated
  expectRsc(await c.create("/Mobius/app", 3, { "m2m:cnt": { rn: "f" } }), 201, 2001);
  clock = T0 + HOUR;
  expectRsc(await c.create(BASE, 3, { "m2m:cnt": { rn: "old", lbl: ["a"] } }), 201, 2001);
  clock = T0 + 2 * HOUR;
  for (const rn of ["i1", "i2", "i3"])
    expectRsc(
      await c.create(`${BASE}/old`, 4, { "m2m:cin": { rn, con: rn, lbl: rn === "i2" ? ["b"] : [] } }),
      201,
      2001,
    );
  clock = T0 + 3 * HOUR;
  expectRsc(await c.create(BASE, 3, { "m2m:cnt": { rn: "new", lbl: ["b"] } }), 201, 2001);
  clock = T0 + 4 * HOUR;
  expectRsc(await c.update(`${BASE}/old`, { "m2m:cnt": { lbl: ["a", "touched"] } }), 200, 2004);
});
afterAll(() => cse.close());

const found = async (q: string) => {
  const r = await c.retrieve(`${BASE}?fu=1&${q}`);
  expectRsc(r, 200, 2000);
  return (r.body["m2m:uril"] as string[]).map((p) => p.slice("Mobius/app/f/".length));
};

describe("discovery filter criteria", () => {
  it("crb/cra select by creation time (crb before 2000 finds nothing)", async () => {
    expect(await found("ty=4&crb=20000101T000000")).toEqual([]);
    expect(await found("ty=4&cra=20000101T000000")).toEqual(["old/i1", "old/i2", "old/i3"]);
    expect(await found("crb=20260101T020000")).toEqual(["old"]);
    expect(await found("cra=20260101T020000")).toEqual(["new"]);
    expect(await found("cra=20260101T010000&crb=20260101T030000")).toEqual(["old/i1", "old/i2", "old/i3"]);
  });

  it("ms/us select by last modification", async () => {
    expect(await found("ms=20260101T033000")).toEqual(["old"]);
    expect(await found("ty=3&us=20260101T033000")).toEqual(["new"]);
  });

  it("sts/stb select by state tag (containers and instances only)", async () => {
    // old: st 4 (three instances, one update); the instances st 1, 2, 3; new: st 0
    expect(await found("stb=1")).toEqual(["old", "old/i2", "old/i3"]);
    expect(await found("stb=1&sts=4")).toEqual(["old/i2", "old/i3"]);
    expect(await found("sts=1")).toEqual(["new"]);
  });

  it("lvl limits the depth, ofst and lim page through the result", async () => {
    expect(await found("lvl=1")).toEqual(["old", "new"]);
    expect(await found("lvl=2&ty=4")).toEqual(["old/i1", "old/i2", "old/i3"]);
    expect(await found("ofst=1&lim=2")).toEqual(["old/i1", "old/i2"]);
    expect(await found("ofst=10")).toEqual([]);
  });

  it("fo=1 (default) needs every condition, fo=2 any; several values of one condition are alternatives", async () => {
    expect(await found("ty=4&lbl=b")).toEqual(["old/i2"]);
    expect(await found("ty=4&lbl=b&fo=1")).toEqual(["old/i2"]);
    expect(await found("ty=4&lbl=b&fo=2")).toEqual(["old/i1", "old/i2", "old/i3", "new"]);
    expect(await found("lbl=a&lbl=b")).toEqual(["old", "old/i2", "new"]);
    expect(await found("ty=3&crb=20000101T000000&fo=2")).toEqual(["old", "new"]);
  });

  it("refuses unknown arguments and values it cannot honour with 400/4000 and a reason", async () => {
    for (const q of [
      "foo=1",
      "ty=4&rt=1",
      "crb=yesterday",
      "cra=20261301T000000",
      "fo=3",
      "lvl=0",
      "ofst=-1",
      "sts=x",
      "drt=2",
      "lim=1&lim=2",
    ]) {
      const r = await c.retrieve(`${BASE}?fu=1&${q}`);
      expectRsc(r, 400, 4000);
    }
    expect((await c.retrieve(`${BASE}?fu=1&drt=2`)).body["m2m:dbg"]).toMatch(/structured/);
    expect((await c.retrieve(`${BASE}?fu=1&foo=1`)).body["m2m:dbg"]).toMatch(/"foo" is not supported/);
    expect(await found("drt=1&ty=3")).toEqual(["old", "new"]);
  });
});

describe("retrieve with child resources (rcn=4, rcn=8)", () => {
  it("rcn=4 gives the container with its instances, rcn=8 only the instances", async () => {
    const r = await c.retrieve(`${BASE}/old?rcn=4`);
    expectRsc(r, 200, 2000);
    const cnt = r.body["m2m:cnt"];
    expect(cnt).toMatchObject({ rn: "old", cni: 3, st: 4 });
    expect(cnt["m2m:cin"].map((i: { rn: string; con: string }) => [i.rn, i.con])).toEqual([
      ["i1", "i1"],
      ["i2", "i2"],
      ["i3", "i3"],
    ]);
    const only = await c.retrieve(`${BASE}/old?rcn=8`);
    expectRsc(only, 200, 2000);
    expect(Object.keys(only.body["m2m:cnt"])).toEqual(["m2m:cin"]);
    expect(only.body["m2m:cnt"]["m2m:cin"]).toEqual(cnt["m2m:cin"]);
  });

  it("applies lim, ofst and the conditions to the children; children of several types are grouped by type", async () => {
    const names = async (q: string) =>
      ((await c.retrieve(`${BASE}/old?rcn=4&${q}`)).body["m2m:cnt"]["m2m:cin"] ?? []).map((i: { rn: string }) => i.rn);
    expect(await names("lim=2")).toEqual(["i1", "i2"]);
    expect(await names("lim=1&ofst=2")).toEqual(["i3"]);
    expect(await names("lbl=b")).toEqual(["i2"]);
    expect(await names("crb=20000101T000000")).toEqual([]);
    const f = (await c.retrieve(`${BASE}?rcn=8`)).body["m2m:cnt"];
    expect(Object.keys(f)).toEqual(["m2m:cnt"]);
    expect(f["m2m:cnt"].map((x: { rn: string }) => x.rn)).toEqual(["old", "new"]);
    expect((await c.retrieve(`${BASE}/new?rcn=4`)).body["m2m:cnt"]).not.toHaveProperty("m2m:cin");
  });

  it("refuses conditions on a plain retrieve and rcn values it does not give", async () => {
    expectRsc(await c.retrieve(`${BASE}/old?crb=20000101T000000`), 400, 4000);
    expectRsc(await c.retrieve(`${BASE}/old?fu=2&lim=1`), 400, 4000);
    expectRsc(await c.retrieve(`${BASE}/old?rcn=7`), 400, 4000);
    expectRsc(await c.retrieve(`${BASE}/old?rcn=9`), 400, 4000);
    expectRsc(await c.retrieve(`${BASE}/old?fu=2`), 200, 2000);
  });
});
