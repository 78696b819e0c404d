// Result contents (TS-0004 rcn) per operation, the subtree a retrieve with rcn 4/5/6/8 reaches, and
// the filter criteria beyond the basic ones (exa/exb, sza/szb, cty, attribute conditions, arp). The
// standard profile on a test clock, so times are known exactly.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { M2mClient, M2mResponse } from "./client.ts";
import { startTestCse, type TestCse } from "./fixture.ts";

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 0, 1, 0, 0, 0);
let clock = T0;
let cse: TestCse;
let c: M2mClient;
const AE = "/Mobius/app";

function expectRsc(r: M2mResponse, status: number, rsc: number): void {
  expect({ status: r.status, rsc: r.rsc }).toEqual({ status, rsc });
  if (status >= 400) expect(r.body["m2m:dbg"]).toEqual(expect.any(String));
}

beforeAll(async () => {
  cse = await startTestCse({ profile: "standard", now: () => clock });
  c = cse.client("Cowner");
  expectRsc(await c.create("/Mobius", 2, { "m2m:ae": { rn: "app", api: "Napp", rr: false, srv: ["3"] } }), 201, 2001);
  // app/t (text instances "aa", "ab", "b" of 2, 2, 1 bytes), app/j (a JSON instance), app/t/inner
  expectRsc(await c.create(AE, 3, { "m2m:cnt": { rn: "t", lbl: ["text"] } }), 201, 2001);
  for (const [rn, con] of [
    ["aa", "aa"],
    ["ab", "ab"],
    ["b", "b"],
  ])
    expectRsc(await c.create(`${AE}/t`, 4, { "m2m:cin": { rn, con, cnf: "text/plain:0" } }), 201, 2001);
  clock = T0 + HOUR;
  expectRsc(await c.create(AE, 3, { "m2m:cnt": { rn: "j", et: "20270101T000000" } }), 201, 2001);
  expectRsc(
    await c.create(`${AE}/j`, 4, { "m2m:cin": { rn: "rec", con: { v: 1 }, cnf: "application/json:0" } }),
    201,
    2001,
  );
  expectRsc(await c.create(`${AE}/t`, 3, { "m2m:cnt": { rn: "inner" } }), 201, 2001);
});
afterAll(() => cse.close());

const names = (list: { nm?: string; rn?: string }[] | undefined) => (list ?? []).map((x) => x.nm ?? x.rn);

describe("retrieve with rcn 4, 5, 6 and 8 (the subtree, lvl limiting it)", () => {
  it("rcn=4 nests every level under its parent; rcn=8 the same without the target's attributes", async () => {
    const ae = (await c.retrieve(`${AE}?rcn=4`)).body["m2m:ae"];
    expect(ae.rn).toBe("app");
    expect(names(ae["m2m:cnt"])).toEqual(["t", "j"]);
    const t = ae["m2m:cnt"][0];
    expect(names(t["m2m:cin"])).toEqual(["aa", "ab", "b"]);
    expect(names(t["m2m:cnt"])).toEqual(["inner"]);
    expect(names(ae["m2m:cnt"][1]["m2m:cin"])).toEqual(["rec"]);
    const only = (await c.retrieve(`${AE}?rcn=8`)).body["m2m:ae"];
    expect(Object.keys(only)).toEqual(["m2m:cnt"]);
    expect(only["m2m:cnt"]).toEqual(ae["m2m:cnt"]);
  });

  it("lists a match whose parent the filter leaves out under the nearest listed ancestor", async () => {
    const only = (await c.retrieve(`${AE}?rcn=8&ty=4`)).body["m2m:ae"];
    expect(Object.keys(only)).toEqual(["m2m:cin"]);
    expect(names(only["m2m:cin"])).toEqual(["aa", "ab", "b", "rec"]);
  });

  it("lvl=1 keeps the direct children", async () => {
    const ae = (await c.retrieve(`${AE}?rcn=4&lvl=1`)).body["m2m:ae"];
    expect(names(ae["m2m:cnt"])).toEqual(["t", "j"]);
    expect(ae["m2m:cnt"][0]).not.toHaveProperty("m2m:cin");
  });

  it("rcn=5 adds references (ch), rcn=6 gives them alone (m2m:rrl), with name, type and path", async () => {
    const ae = (await c.retrieve(`${AE}?rcn=5&ty=3`)).body["m2m:ae"];
    expect(ae.rn).toBe("app");
    expect(ae.ch).toEqual([
      { nm: "t", typ: 3, val: "Mobius/app/t" },
      { nm: "j", typ: 3, val: "Mobius/app/j" },
      { nm: "inner", typ: 3, val: "Mobius/app/t/inner" },
    ]);
    expect((await c.retrieve(`${AE}?rcn=6&ty=3`)).body).toEqual({ "m2m:rrl": { rrf: ae.ch } });
    expect((await c.retrieve(`${AE}/t/inner?rcn=6`)).body).toEqual({ "m2m:rrl": { rrf: [] } });
  });

  it("discovery answers references with rcn=6, paths without rcn or with 11, and nothing else", async () => {
    expect(names((await c.retrieve(`${AE}?fu=1&ty=4&rcn=6`)).body["m2m:rrl"].rrf)).toEqual(["aa", "ab", "b", "rec"]);
    expect((await c.retrieve(`${AE}?fu=1&ty=3&rcn=11`)).body["m2m:uril"]).toHaveLength(3);
    for (const rcn of [1, 4, 5, 8, 9]) expectRsc(await c.retrieve(`${AE}?fu=1&rcn=${rcn}`), 400, 4000);
    expectRsc(await c.retrieve(`${AE}?rcn=11`), 400, 4000);
  });
});

describe("filter criteria beyond ty, lbl and times", () => {
  const found = async (q: string) => {
    const r = await c.retrieve(`${AE}?fu=1&${q}`);
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
    const cnts = (await c.retrieve(`${AE}?rcn=8&cni=1`)).body["m2m:ae"];
    expect(names(cnts["m2m:cnt"])).toEqual(["j"]);
    expectRsc(await c.retrieve(`${AE}?fu=1&xyz=1`), 400, 4000);
  });

  it("arp replaces each result by the resource at that relative path below it, where there is one", async () => {
    expect(await found("ty=3&lbl=text&arp=inner")).toEqual(["inner"]);
    expect(await found("ty=3&arp=missing")).toEqual([]);
    expectRsc(await c.retrieve(`${AE}?fu=1&arp=../x`), 400, 4000);
  });
});

describe("result content of create, update and delete", () => {
  it("create: rcn 0 nothing, 2 the address, 3 address and resource, 9 what the CSE set", async () => {
    const nothing = await c.create(`${AE}?rcn=0`, 3, { "m2m:cnt": { rn: "r0" } });
    expectRsc(nothing, 201, 2001);
    expect(nothing.body).toBe("");
    const address = await c.create(`${AE}?rcn=2`, 3, { "m2m:cnt": { rn: "r2" } });
    expect(address.body).toEqual({ "m2m:uri": "Mobius/app/r2" });
    expect(address.headers.get("content-location")).toBe("Mobius/app/r2");
    const both = await c.create(`${AE}?rcn=3`, 3, { "m2m:cnt": { rn: "r3" } });
    expect(both.body["m2m:rce"]).toMatchObject({ uri: "Mobius/app/r3", "m2m:cnt": { rn: "r3", ty: 3 } });
    const set = (await c.create(`${AE}?rcn=9`, 3, { "m2m:cnt": { rn: "r9", mni: 5, lbl: ["x"] } })).body["m2m:cnt"];
    expect(set).not.toHaveProperty("mni");
    expect(set).not.toHaveProperty("lbl");
    expect(set).not.toHaveProperty("rn");
    expect(set).toMatchObject({ ty: 3, st: 0, mbs: 3153600000 });
  });

  it("update: rcn 0 nothing, 9 what the CSE changed; other rcn refused", async () => {
    expect((await c.update(`${AE}/r0?rcn=0`, { "m2m:cnt": { lbl: ["a"] } })).body).toBe("");
    const changed = (await c.update(`${AE}/r0?rcn=9`, { "m2m:cnt": { mni: 7 } })).body["m2m:cnt"];
    expect(changed).not.toHaveProperty("mni");
    expect(changed).toMatchObject({ st: 2, lbl: ["a"] });
    expectRsc(await c.update(`${AE}/r0?rcn=2`, { "m2m:cnt": { mni: 1 } }), 400, 4000);
  });

  it("delete: rcn 0 nothing, 6 the references of what went with it", async () => {
    expectRsc(await c.create(`${AE}/r2`, 4, { "m2m:cin": { rn: "gone", con: "x" } }), 201, 2001);
    const refs = await c.delete(`${AE}/r2?rcn=6`);
    expectRsc(refs, 200, 2002);
    expect(refs.body).toEqual({ "m2m:rrl": { rrf: [{ nm: "gone", typ: 4, val: "Mobius/app/r2/gone" }] } });
    expect((await c.delete(`${AE}/r3?rcn=0`)).body).toBe("");
  });
});
