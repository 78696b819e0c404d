// Filter criteria (TS-0004 7.3.3.17) in discovery and in a retrieve with rcn 4/5/6/8, result
// contents per operation, and the rule that nothing given is silently ignored.
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

// Result contents (TS-0004 rcn) per operation, the subtree a retrieve with rcn 4/5/6/8 reaches, and
// the filter criteria beyond the basic ones (exa/exb, sza/szb, cty, attribute conditions, arp), on
// an AE of their own: rc/t (text instances "aa", "ab", "b"; rc/t/inner), rc/j (a JSON instance).
const AE = "/Mobius/rc";
const names = (list: { nm?: string; rn?: string }[] | undefined) => (list ?? []).map((x) => x.nm ?? x.rn);

describe("result contents and the newer filter criteria", () => {
  let rc: M2mClient;
  beforeAll(async () => {
    clock = T0;
    rc = cse.client("Crc");
    expectRsc(await rc.create("/Mobius", 2, { "m2m:ae": { rn: "rc", api: "Nrc", rr: false, srv: ["3"] } }), 201, 2001);
    expectRsc(await rc.create(AE, 3, { "m2m:cnt": { rn: "t", lbl: ["text"] } }), 201, 2001);
    for (const [rn, con] of [
      ["aa", "aa"],
      ["ab", "ab"],
      ["b", "b"],
    ])
      expectRsc(await rc.create(`${AE}/t`, 4, { "m2m:cin": { rn, con, cnf: "text/plain:0" } }), 201, 2001);
    clock = T0 + HOUR;
    expectRsc(await rc.create(AE, 3, { "m2m:cnt": { rn: "j", et: "20270101T000000" } }), 201, 2001);
    expectRsc(
      await rc.create(`${AE}/j`, 4, { "m2m:cin": { rn: "rec", con: { v: 1 }, cnf: "application/json:0" } }),
      201,
      2001,
    );
    expectRsc(await rc.create(`${AE}/t`, 3, { "m2m:cnt": { rn: "inner" } }), 201, 2001);
  });

  describe("retrieve with rcn 4, 5, 6 and 8 (the subtree, lvl limiting it)", () => {
    it("rcn=4 nests every level under its parent; rcn=8 the same without the target's attributes", async () => {
      const ae = (await rc.retrieve(`${AE}?rcn=4`)).body["m2m:ae"];
      expect(ae.rn).toBe("rc");
      expect(names(ae["m2m:cnt"])).toEqual(["t", "j"]);
      const t = ae["m2m:cnt"][0];
      expect(names(t["m2m:cin"])).toEqual(["aa", "ab", "b"]);
      expect(names(t["m2m:cnt"])).toEqual(["inner"]);
      expect(names(ae["m2m:cnt"][1]["m2m:cin"])).toEqual(["rec"]);
      const only = (await rc.retrieve(`${AE}?rcn=8`)).body["m2m:ae"];
      expect(Object.keys(only)).toEqual(["m2m:cnt"]);
      expect(only["m2m:cnt"]).toEqual(ae["m2m:cnt"]);
    });

    it("lists a match whose parent the filter leaves out under the nearest listed ancestor", async () => {
      const only = (await rc.retrieve(`${AE}?rcn=8&ty=4`)).body["m2m:ae"];
      expect(Object.keys(only)).toEqual(["m2m:cin"]);
      expect(names(only["m2m:cin"])).toEqual(["aa", "ab", "b", "rec"]);
    });

    it("lvl=1 keeps the direct children", async () => {
      const ae = (await rc.retrieve(`${AE}?rcn=4&lvl=1`)).body["m2m:ae"];
      expect(names(ae["m2m:cnt"])).toEqual(["t", "j"]);
      expect(ae["m2m:cnt"][0]).not.toHaveProperty("m2m:cin");
    });

    it("rcn=5 adds references (ch), rcn=6 gives them alone (m2m:rrl), with name, type and path", async () => {
      const ae = (await rc.retrieve(`${AE}?rcn=5&ty=3`)).body["m2m:ae"];
      expect(ae.rn).toBe("rc");
      expect(ae.ch).toEqual([
        { nm: "t", typ: 3, val: "Mobius/rc/t" },
        { nm: "j", typ: 3, val: "Mobius/rc/j" },
        { nm: "inner", typ: 3, val: "Mobius/rc/t/inner" },
      ]);
      expect((await rc.retrieve(`${AE}?rcn=6&ty=3`)).body).toEqual({ "m2m:rrl": { rrf: ae.ch } });
      expect((await rc.retrieve(`${AE}/t/inner?rcn=6`)).body).toEqual({ "m2m:rrl": { rrf: [] } });
    });

    it("discovery answers references with rcn=6, paths without rcn or with 11, and nothing else", async () => {
      expect(names((await rc.retrieve(`${AE}?fu=1&ty=4&rcn=6`)).body["m2m:rrl"].rrf)).toEqual(["aa", "ab", "b", "rec"]);
      expect((await rc.retrieve(`${AE}?fu=1&ty=3&rcn=11`)).body["m2m:uril"]).toHaveLength(3);
      for (const rcn of [1, 4, 5, 8, 9]) expectRsc(await rc.retrieve(`${AE}?fu=1&rcn=${rcn}`), 400, 4000);
      expectRsc(await rc.retrieve(`${AE}?rcn=11`), 400, 4000);
    });
  });

  describe("filter criteria beyond ty, lbl and times", () => {
    const found = async (q: string) => {
      const r = await rc.retrieve(`${AE}?fu=1&${q}`);
      expectRsc(r, 200, 2000);
      return (r.body["m2m:uril"] as string[]).map((p) => p.split("/").pop());
    };

    it("sza/szb select instances by content size, cty by content type (a media type matches any encoding)", async () => {
      expect(await found("sza=2")).toEqual(["aa", "ab", "rec"]);
      expect(await found("szb=2")).toEqual(["b"]);
      expect(await found("cty=text/plain:0")).toEqual(["aa", "ab", "b"]);
      expect(await found("cty=application/json")).toEqual(["rec"]);
      expect(await found("cty=text/plain:1")).toEqual([]);
    });

    it("exb/exa select by expiration time", async () => {
      expect(await found("ty=3&exb=20270101T000001")).toEqual(["j"]);
      expect(await found("ty=3&exa=20270101T000001")).toEqual(["t", "inner"]);
    });

    it("an attribute given as a condition must equal it, or match its * and ? wildcards", async () => {
      expect(await found("ty=4&con=a*")).toEqual(["aa", "ab"]);
      expect(await found("ty=4&con=a?")).toEqual(["aa", "ab"]);
      expect(await found("rn=b")).toEqual(["b"]);
      expect(await found("cni=3")).toEqual(["t"]);
      expect(await found("cs=1")).toEqual(["b"]);
      const cnts = (await rc.retrieve(`${AE}?rcn=8&cni=1`)).body["m2m:ae"];
      expect(names(cnts["m2m:cnt"])).toEqual(["j"]);
      expectRsc(await rc.retrieve(`${AE}?fu=1&xyz=1`), 400, 4000);
    });

    it("arp replaces each result by the resource at that relative path below it, where there is one", async () => {
      expect(await found("ty=3&lbl=text&arp=inner")).toEqual(["inner"]);
      expect(await found("ty=3&arp=missing")).toEqual([]);
      expectRsc(await rc.retrieve(`${AE}?fu=1&arp=../x`), 400, 4000);
    });
  });

  describe("result content of create, update and delete", () => {
    it("create: rcn 0 nothing, 2 the address, 3 address and resource, 9 what the CSE set", async () => {
      const nothing = await rc.create(`${AE}?rcn=0`, 3, { "m2m:cnt": { rn: "r0" } });
      expectRsc(nothing, 201, 2001);
      expect(nothing.body).toBe("");
      const address = await rc.create(`${AE}?rcn=2`, 3, { "m2m:cnt": { rn: "r2" } });
      expect(address.body).toEqual({ "m2m:uri": "Mobius/rc/r2" });
      expect(address.headers.get("content-location")).toBe("Mobius/rc/r2");
      const both = await rc.create(`${AE}?rcn=3`, 3, { "m2m:cnt": { rn: "r3" } });
      expect(both.body["m2m:rce"]).toMatchObject({ uri: "Mobius/rc/r3", "m2m:cnt": { rn: "r3", ty: 3 } });
      const set = (await rc.create(`${AE}?rcn=9`, 3, { "m2m:cnt": { rn: "r9", mni: 5, lbl: ["x"] } })).body["m2m:cnt"];
      expect(set).not.toHaveProperty("mni");
      expect(set).not.toHaveProperty("lbl");
      expect(set).not.toHaveProperty("rn");
      expect(set).toMatchObject({ ty: 3, st: 0, mbs: 3153600000 });
    });

    it("update: rcn 0 nothing, 9 what the CSE changed; other rcn refused", async () => {
      expect((await rc.update(`${AE}/r0?rcn=0`, { "m2m:cnt": { lbl: ["a"] } })).body).toBe("");
      const changed = (await rc.update(`${AE}/r0?rcn=9`, { "m2m:cnt": { mni: 7 } })).body["m2m:cnt"];
      expect(changed).not.toHaveProperty("mni");
      expect(changed).toMatchObject({ st: 2, lbl: ["a"] });
      expectRsc(await rc.update(`${AE}/r0?rcn=2`, { "m2m:cnt": { mni: 1 } }), 400, 4000);
    });

    it("delete: rcn 0 nothing, 6 the references of what went with it", async () => {
      expectRsc(await rc.create(`${AE}/r2`, 4, { "m2m:cin": { rn: "gone", con: "x" } }), 201, 2001);
      const refs = await rc.delete(`${AE}/r2?rcn=6`);
      expectRsc(refs, 200, 2002);
      expect(refs.body).toEqual({ "m2m:rrl": { rrf: [{ nm: "gone", typ: 4, val: "Mobius/rc/r2/gone" }] } });
      expect((await rc.delete(`${AE}/r3?rcn=0`)).body).toBe("");
    });
  });
});
