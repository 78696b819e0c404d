// Resource rules: AE registration, containers and their limits, content instances, la/ol,
// discovery, conflicts and the creator/superuser access rule.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { M2mClient, type M2mResponse } from "./client.ts";
import { M2M_TIME, M2M_TIME_FRACTION, startTestCse, type TestCse } from "./fixture.ts";

let cse: TestCse;
let owner: M2mClient;
let other: M2mClient;
let admin: M2mClient;

beforeAll(async () => {
  // the standard profile: la/ol and discovery in creation order (the Mobius profile: mobius.test.ts)
  cse = await startTestCse({ profile: "standard" });
  owner = cse.client("Cowner");
  other = cse.client("Cother");
  admin = cse.client("Sponde");
  expect(
    (await owner.create("/Mobius", 2, { "m2m:ae": { rn: "app", api: "Napp", rr: true, srv: ["3"] } })).status,
  ).toBe(201);
});
afterAll(() => cse.close());

function expectRsc(r: M2mResponse, status: number, rsc: number): void {
  expect({ status: r.status, rsc: r.rsc, body: r.status >= 400 ? r.body : undefined }).toEqual({
    status,
    rsc,
    body: r.status >= 400 ? { "m2m:dbg": expect.any(String) } : undefined,
  });
}

async function container(rn: string, attrs: Record<string, unknown> = {}): Promise<string> {
  const r = await owner.create("/Mobius/app", 3, { "m2m:cnt": { rn, ...attrs } });
  expectRsc(r, 201, 2001);
  return `/Mobius/app/${rn}`;
}

async function instance(path: string, con: unknown, rn?: string): Promise<M2mResponse> {
  return owner.create(path, 4, { "m2m:cin": rn === undefined ? { con } : { rn, con } });
}

const cnt = async (path: string) => (await owner.retrieve(path)).body["m2m:cnt"];
const names = async (path: string) =>
  ((await owner.retrieve(`${path}?fu=1&ty=4`)).body["m2m:uril"] as string[]).map((p) => p.split("/").pop());

describe("AE", () => {
  it("registers an AE with the originator as AE-ID and the common attributes", async () => {
    const r = await cse
      .client("Cdecoder")
      .create("/Mobius", 2, { "m2m:ae": { rn: "decoder", api: "Ndecoder", rr: false, srv: ["3"], lbl: ["stack"] } });
    expectRsc(r, 201, 2001);
    const cb = (await owner.retrieve("/Mobius")).body["m2m:cb"];
    const ae = r.body["m2m:ae"];
    expect(ae).toMatchObject({
      rn: "decoder",
      ty: 2,
      api: "Ndecoder",
      aei: "Cdecoder",
      rr: false,
      srv: ["3"],
      lbl: ["stack"],
      pi: cb.ri,
    });
    // as ACME and Mobius: the AE is identified by its AE-ID and has no creator attribute
    expect(ae.ri).toBe("Cdecoder");
    expect(ae).not.toHaveProperty("cr");
    // ct and lt with the fraction of the second, as ACME writes them; the default et to the second
    for (const t of ["ct", "lt"]) expect(ae[t]).toMatch(M2M_TIME_FRACTION);
    expect(ae.et).toMatch(M2M_TIME);
    expect((await cse.client("Cdecoder").retrieve("/Mobius/decoder")).body["m2m:ae"]).toEqual(ae);
  });

  it("wants an api starting with N or R (a lower-case r before release 4), as TS-0001 and ACME", async () => {
    const register = (rn: string, api: string, rvi = "3") =>
      new M2mClient(cse.url, `C${rn}`, rvi).create("/Mobius", 2, { "m2m:ae": { rn, api, rr: false, srv: ["3"] } });
    expectRsc(await register("plain", "0.2.481.2.0001.001.000111"), 400, 4000);
    expectRsc(await register("x", "Xwrong"), 400, 4000);
    expectRsc(await register("reg", "Rabc.com.example"), 201, 2001);
    expectRsc(await register("nonreg", "Nacme"), 201, 2001);
    expectRsc(await register("lower3", "racme", "3"), 201, 2001);
    expectRsc(await register("lower4", "racme", "4"), 400, 4000);
  });

  it("answers 409/4105 for a name that is taken, 403/4117 for an originator already registered", async () => {
    expectRsc(
      await cse.client("Cnew").create("/Mobius", 2, { "m2m:ae": { rn: "decoder", api: "Nx", rr: false, srv: ["3"] } }),
      409,
      4105,
    );
    expectRsc(
      await cse
        .client("Cdecoder")
        .create("/Mobius", 2, { "m2m:ae": { rn: "decoder2", api: "Nx", rr: false, srv: ["3"] } }),
      403,
      4117,
    );
  });

  it("assigns an AE-ID to a bare C originator", async () => {
    const r = await cse
      .client("C")
      .create("/Mobius", 2, { "m2m:ae": { rn: "anon", api: "Nanon", rr: false, srv: ["3"] } });
    expectRsc(r, 201, 2001);
    expect(r.body["m2m:ae"].aei).toMatch(/^C\d+$/);
    expect(r.body["m2m:ae"]).not.toHaveProperty("cr");
  });

  it("answers 403/4126 for an originator outside the allowed AE originators", async () => {
    const strict = await startTestCse({ allowedAeOriginators: ["C*", "S*"] });
    try {
      expectRsc(
        await strict.client("admin").create("/Mobius", 2, { "m2m:ae": { rn: "x", api: "Nx", rr: false, srv: ["3"] } }),
        403,
        4126,
      );
      expectRsc(
        await strict.client("Cok").create("/Mobius", 2, { "m2m:ae": { rn: "x", api: "Nx", rr: false, srv: ["3"] } }),
        201,
        2001,
      );
    } finally {
      await strict.close();
    }
  });

  it("lets only the creator or the superuser update, and refuses attributes that cannot change", async () => {
    expectRsc(await other.update("/Mobius/app", { "m2m:ae": { lbl: ["x"] } }), 403, 4103);
    const r = await owner.update("/Mobius/app", { "m2m:ae": { lbl: ["mine"], rr: false } });
    expectRsc(r, 200, 2004);
    expect(r.body["m2m:ae"]).toMatchObject({ lbl: ["mine"], rr: false, api: "Napp" });
    expectRsc(await admin.update("/Mobius/app", { "m2m:ae": { lbl: ["admin"] } }), 200, 2004);
    expect((await owner.retrieve("/Mobius/app")).body["m2m:ae"].lbl).toEqual(["admin"]);
    expectRsc(await owner.update("/Mobius/app", { "m2m:ae": { api: "Nnew" } }), 400, 4000);
    expectRsc(await owner.update("/Mobius/app", { "m2m:ae": { rn: "renamed" } }), 400, 4000);
    // an update that names no attribute changes only lt (ACME answers it the same)
    const empty = await owner.update("/Mobius/app", { "m2m:ae": {} });
    expectRsc(empty, 200, 2004);
    expect(empty.body["m2m:ae"].lbl).toEqual(["admin"]);
  });
});

describe("container and contentInstance", () => {
  it("creates a container with Mobius' default limits and empty counters", async () => {
    await container("defaults");
    expect(await cnt("/Mobius/app/defaults")).toMatchObject({
      mni: 3153600000,
      mbs: 3153600000,
      mia: 31536000,
      cni: 0,
      cbs: 0,
      st: 0,
    });
    // cr only when the create asks for it with cr: null (TS-0001, ACME); the owner is the creator either way
    expect(await cnt("/Mobius/app/defaults")).not.toHaveProperty("cr");
    await container("asked", { cr: null });
    expect(await cnt("/Mobius/app/asked")).toMatchObject({ cr: "Cowner" });
    expectRsc(await other.delete("/Mobius/app/defaults"), 403, 4103);
  });

  it("stores string and JSON content with cnf, cs in UTF-8 bytes and st counting up", async () => {
    const p = await container("content");
    const a = await owner.create(p, 4, { "m2m:cin": { rn: "a", cnf: "text/plain:0", con: "héllo" } });
    expectRsc(a, 201, 2001);
    expect(a.body["m2m:cin"]).toMatchObject({
      rn: "a",
      ty: 4,
      con: "héllo",
      cnf: "text/plain:0",
      cs: 6,
      st: 1,
    });
    expect(a.body["m2m:cin"]).not.toHaveProperty("cr");
    const record = { temp: 21.5, id: "MSCU1234565", ok: true, list: [1, 2] };
    const b = await owner.create(p, 4, { "m2m:cin": { rn: "b", cnf: "application/json:0", con: record } });
    expect(b.body["m2m:cin"]).toMatchObject({ con: record, cs: Buffer.byteLength(JSON.stringify(record)), st: 2 });
    expect((await owner.retrieve(`${p}/b`)).body["m2m:cin"]).toEqual(b.body["m2m:cin"]);
    expect(await cnt(p)).toMatchObject({ cni: 2, cbs: 6 + Buffer.byteLength(JSON.stringify(record)), st: 2 });
  });

  it("names an instance after its ri when no rn is given", async () => {
    const r = await instance(await container("auto"), "x");
    expect(r.body["m2m:cin"].rn).toBe(r.body["m2m:cin"].ri);
    expect(r.body["m2m:cin"].ri).toMatch(/^4-\d{23}$/);
  });

  it("answers 409/4105 when an instance's rn is taken and leaves the container as it was", async () => {
    const p = await container("idempotent");
    expectRsc(await instance(p, { n: 1 }, "msg-1"), 201, 2001);
    const before = await cnt(p);
    expectRsc(await instance(p, { n: 1 }, "msg-1"), 409, 4105);
    expect(await cnt(p)).toEqual(before);
  });

  it("refuses to update an instance, even for its creator (405/4005)", async () => {
    const p = await container("frozen");
    await instance(p, "x", "one");
    expectRsc(await owner.update(`${p}/one`, { "m2m:cin": { con: "y" } }), 405, 4005);
    expectRsc(await admin.update(`${p}/one`, { "m2m:cin": { con: "y" } }), 405, 4005);
  });

  it("retrieves by structured path through nested containers", async () => {
    await container("outer");
    expectRsc(await owner.create("/Mobius/app/outer", 3, { "m2m:cnt": { rn: "inner" } }), 201, 2001);
    await instance("/Mobius/app/outer/inner", "deep", "leaf");
    expect((await owner.retrieve("/Mobius/app/outer/inner/leaf")).body["m2m:cin"].con).toBe("deep");
    expect((await owner.retrieve("/Mobius/app/outer/inner/")).body["m2m:cnt"].rn).toBe("inner");
  });

  it("decodes percent-encoded path segments", async () => {
    const p = await container("space");
    expectRsc(await instance(p, "x", "a:b@c"), 201, 2001);
    expect((await owner.retrieve(`${p}/a%3Ab%40c`)).body["m2m:cin"].rn).toBe("a:b@c");
  });
});

describe("disableRetrieval, dataGenerationTime, deletionCnt, contentInfo and removing attributes", () => {
  it("disr: instances of the container cannot be read or deleted one by one, nor listed; trimming goes on", async () => {
    const p = await container("vault", { disr: true, mni: 2 });
    for (const rn of ["v1", "v2", "v3"]) expectRsc(await instance(p, rn, rn), 201, 2001);
    expect(await cnt(p)).toMatchObject({ disr: true, cni: 2 });
    for (const path of [`${p}/v3`, `${p}/la`, `${p}/ol`]) expectRsc(await owner.retrieve(path), 405, 4005);
    expectRsc(await owner.delete(`${p}/v3`), 405, 4005);
    expectRsc(await admin.delete(`${p}/la`), 405, 4005);
    expect((await owner.retrieve(`${p}?fu=1`)).body["m2m:uril"]).toEqual([]);
    expect((await owner.retrieve(`${p}?rcn=6`)).body["m2m:rrl"].rrf).toEqual([]);
  });

  it("disr true → false deletes the instances kept unreadable; null or false → false keeps them", async () => {
    const p = "/Mobius/app/vault";
    const off = await owner.update(p, { "m2m:cnt": { disr: false } });
    expectRsc(off, 200, 2004);
    expect(off.body["m2m:cnt"]).toMatchObject({ disr: false, cni: 0, cbs: 0 });
    expectRsc(await instance(p, "w1", "w1"), 201, 2001);
    const removed = await owner.update(p, { "m2m:cnt": { disr: null } });
    expect(removed.body["m2m:cnt"]).not.toHaveProperty("disr");
    expectRsc(await owner.update(p, { "m2m:cnt": { disr: false } }), 200, 2004);
    expectRsc(await owner.retrieve(`${p}/w1`), 200, 2000);
    // the container can go as a whole, disr or not
    expectRsc(await owner.update(p, { "m2m:cnt": { disr: true } }), 200, 2004);
    expectRsc(await owner.delete(p), 200, 2002);
  });

  it("keeps dgt as given; dcnt deletes an instance after that many retrievals", async () => {
    const p = await container("counted");
    const made = await owner.create(p, 4, { "m2m:cin": { rn: "d", con: "x", dgt: "20260301T101500,250", dcnt: 3 } });
    expectRsc(made, 201, 2001);
    expect(made.body["m2m:cin"]).toMatchObject({ dgt: "20260301T101500,250", dcnt: 3 });
    const seen = [];
    for (let i = 0; i < 3; i++) seen.push((await owner.retrieve(`${p}/d`)).body["m2m:cin"].dcnt);
    expect(seen).toEqual([3, 2, 1]);
    expectRsc(await owner.retrieve(`${p}/d`), 404, 4004);
    expect(await cnt(p)).toMatchObject({ cni: 0, cbs: 0 });
    expectRsc(await owner.create(p, 4, { "m2m:cin": { con: "x", dcnt: 0 } }), 400, 4000);
    expectRsc(await owner.create(p, 4, { "m2m:cin": { con: "x", dgt: "yesterday" } }), 400, 4000);
  });

  it("wants cnf as type/subtype:encoding (0, 1 or 2), optionally :security (0–5)", async () => {
    const p = await container("formats");
    for (const cnf of ["text/plain:0", "application/json:0", "application/octet-stream:2", "text/plain:0:1"])
      expectRsc(await owner.create(p, 4, { "m2m:cin": { cnf, con: "x" } }), 201, 2001);
    for (const cnf of ["text", "text:0", "text/plain", "text/plain:9", "text/plain:0:0:0", "text/plain:0:6", 5])
      expectRsc(await owner.create(p, 4, { "m2m:cin": { cnf, con: "x" } }), 400, 4000);
  });

  it("removes an optional attribute set to null in an update, and refuses null for the others", async () => {
    const p = await container("nulls", { lbl: ["nullme"] });
    expect((await owner.retrieve("/Mobius/app?fu=1&lbl=nullme")).body["m2m:uril"]).toEqual(["Mobius/app/nulls"]);
    const u = await owner.update(p, { "m2m:cnt": { lbl: null } });
    expectRsc(u, 200, 2004);
    expect(u.body["m2m:cnt"]).not.toHaveProperty("lbl");
    expect((await owner.retrieve("/Mobius/app?fu=1&lbl=nullme")).body["m2m:uril"]).toEqual([]);
    expectRsc(await owner.update(p, { "m2m:cnt": { mni: null } }), 400, 4000);
  });
});

describe("la and ol", () => {
  it("answers 404/4004 on an empty container", async () => {
    const p = await container("empty");
    expectRsc(await owner.retrieve(`${p}/la`), 404, 4004);
    expectRsc(await owner.retrieve(`${p}/ol`), 404, 4004);
  });

  it("returns the latest and the oldest instance", async () => {
    const p = await container("order");
    for (const n of ["first", "second", "third"]) await instance(p, n, n);
    expect((await owner.retrieve(`${p}/la`)).body["m2m:cin"].rn).toBe("third");
    expect((await owner.retrieve(`${p}/ol`)).body["m2m:cin"].rn).toBe("first");
    expect((await owner.retrieve(`${p}/latest`)).body["m2m:cin"].rn).toBe("third");
  });

  it("refuses creating under or updating la/ol (405/4005) and the names la/ol (409/4005)", async () => {
    const p = await container("virtual");
    await instance(p, "x", "x");
    expectRsc(await owner.create(`${p}/la`, 4, { "m2m:cin": { con: "y" } }), 405, 4005);
    expectRsc(await owner.create(`${p}/ol`, 4, { "m2m:cin": { con: "y" } }), 405, 4005);
    expectRsc(await owner.update(`${p}/la`, { "m2m:cin": { con: "y" } }), 405, 4005);
    expectRsc(await instance(p, "y", "la"), 409, 4005);
    expectRsc(await instance(p, "y", "ol"), 409, 4005);
    expectRsc(await owner.create("/Mobius/app", 3, { "m2m:cnt": { rn: "la" } }), 409, 4005);
  });

  it("has no la under a resource that is not a container", async () => {
    expectRsc(await owner.retrieve("/Mobius/app/la"), 404, 4004);
  });

  it("deletes the latest instance through la and keeps the counters right", async () => {
    const p = await container("pop");
    await instance(p, "aa", "a");
    await instance(p, "bbb", "b");
    const r = await owner.delete(`${p}/la`);
    expectRsc(r, 200, 2002);
    expect(r.body["m2m:cin"].rn).toBe("b");
    expect(await cnt(p)).toMatchObject({ cni: 1, cbs: 2 });
    expect((await owner.retrieve(`${p}/la`)).body["m2m:cin"].rn).toBe("a");
  });
});

describe("discovery", () => {
  let base: string;
  /** discovery lists CSE-relative paths, without the leading "/" (ACME and Mobius alike) */
  let listed: string;
  beforeAll(async () => {
    base = await container("disc");
    listed = base.slice(1);
    await owner.create(base, 3, { "m2m:cnt": { rn: "c1", lbl: ["key:a", "shared"] } });
    await owner.create(base, 3, { "m2m:cnt": { rn: "c2", lbl: ["key:b", "shared"] } });
    for (const n of ["i1", "i2", "i3"])
      await owner.create(`${base}/c1`, 4, { "m2m:cin": { rn: n, con: n, lbl: n === "i2" ? ["key:a"] : [] } });
  });

  it("lists every resource below the target by structured path, in creation order", async () => {
    const r = await owner.retrieve(`${base}?fu=1`);
    expectRsc(r, 200, 2000);
    expect(r.body).toEqual({
      "m2m:uril": [`${listed}/c1`, `${listed}/c2`, `${listed}/c1/i1`, `${listed}/c1/i2`, `${listed}/c1/i3`],
    });
  });

  it("filters by ty, by lbl (any of the values) and caps with lim", async () => {
    expect((await owner.retrieve(`${base}?fu=1&ty=4`)).body["m2m:uril"]).toEqual([
      `${listed}/c1/i1`,
      `${listed}/c1/i2`,
      `${listed}/c1/i3`,
    ]);
    expect((await owner.retrieve(`${base}?fu=1&ty=3`)).body["m2m:uril"]).toEqual([`${listed}/c1`, `${listed}/c2`]);
    expect((await owner.retrieve(`${base}?fu=1&lbl=key:a`)).body["m2m:uril"]).toEqual([
      `${listed}/c1`,
      `${listed}/c1/i2`,
    ]);
    expect((await owner.retrieve(`${base}?fu=1&lbl=key:a&ty=3`)).body["m2m:uril"]).toEqual([`${listed}/c1`]);
    expect((await owner.retrieve(`${base}?fu=1&lbl=key:a&lbl=key:b&ty=3`)).body["m2m:uril"]).toEqual([
      `${listed}/c1`,
      `${listed}/c2`,
    ]);
    expect((await owner.retrieve(`${base}?fu=1&lbl=key:a+key:b&ty=3`)).body["m2m:uril"]).toEqual([
      `${listed}/c1`,
      `${listed}/c2`,
    ]);
    expect((await owner.retrieve(`${base}?fu=1&ty=3+4&lim=3`)).body["m2m:uril"]).toEqual([
      `${listed}/c1`,
      `${listed}/c2`,
      `${listed}/c1/i1`,
    ]);
    expect((await owner.retrieve(`${base}?fu=1&ty=4&lim=0`)).body["m2m:uril"]).toEqual([]);
    expect((await owner.retrieve(`${base}?fu=1&lbl=none`)).body["m2m:uril"]).toEqual([]);
  });

  it("does not list a sibling whose name starts like the target", async () => {
    await container("disc-sibling");
    await instance("/Mobius/app/disc-sibling", "x", "stray");
    expect((await owner.retrieve(`${base}?fu=1&ty=4`)).body["m2m:uril"]).not.toContain("Mobius/app/disc-sibling/stray");
  });

  it("takes rcn=11 as ACME clients send it, and fu=2 as a plain retrieve", async () => {
    expect((await owner.retrieve(`${base}/c1?fu=1&ty=4&rcn=11`)).body["m2m:uril"]).toHaveLength(3);
    expect((await owner.retrieve(`${base}/c1?fu=2`)).body["m2m:cnt"].rn).toBe("c1");
  });

  it("reflects label updates", async () => {
    expectRsc(await owner.update(`${base}/c2`, { "m2m:cnt": { lbl: ["key:a"] } }), 200, 2004);
    expect((await owner.retrieve(`${base}?fu=1&ty=3&lbl=key:a`)).body["m2m:uril"]).toEqual([
      `${listed}/c1`,
      `${listed}/c2`,
    ]);
    expect((await owner.retrieve(`${base}?fu=1&ty=3&lbl=key:b`)).body["m2m:uril"]).toEqual([]);
  });
});

describe("container limits", () => {
  it("trims the oldest instances beyond mni", async () => {
    const p = await container("mni", { mni: 2 });
    for (const n of ["a", "b", "c"]) expectRsc(await instance(p, n, n), 201, 2001);
    expect(await names(p)).toEqual(["b", "c"]);
    expect(await cnt(p)).toMatchObject({ cni: 2, cbs: 2, st: 3 });
    expectRsc(await owner.retrieve(`${p}/a`), 404, 4004);
  });

  it("trims the oldest instances until the new one fits in mbs", async () => {
    const p = await container("mbs", { mni: 2, mbs: 10 });
    for (const n of ["a", "b", "c"]) await instance(p, "0123", n);
    expect(await names(p)).toEqual(["b", "c"]);
    await instance(p, "01234567", "d");
    expect(await names(p)).toEqual(["d"]);
    expect(await cnt(p)).toMatchObject({ cni: 1, cbs: 8 });
  });

  it("refuses an instance larger than mbs with 406/5207 and trims nothing", async () => {
    const p = await container("toobig", { mbs: 10 });
    await instance(p, "0123", "keep");
    expectRsc(await instance(p, "01234567890"), 406, 5207);
    expect(await names(p)).toEqual(["keep"]);
    expect(await cnt(p)).toMatchObject({ cni: 1, cbs: 4 });
  });

  it("refuses every instance in a container with mni=0 (406/5207)", async () => {
    const p = await container("closed", { mni: 0 });
    expectRsc(await instance(p, "x"), 406, 5207);
    expect(await cnt(p)).toMatchObject({ cni: 0, cbs: 0 });
  });

  it("applies lowered limits at once when the container is updated", async () => {
    const p = await container("shrink");
    for (const n of ["a", "b", "c", "d"]) await instance(p, "xx", n);
    const r = await owner.update(p, { "m2m:cnt": { mni: 3, mbs: 4 } });
    expectRsc(r, 200, 2004);
    expect(r.body["m2m:cnt"]).toMatchObject({ mni: 3, mbs: 4, cni: 2, cbs: 4 });
    expect(await names(p)).toEqual(["c", "d"]);
  });

  it("keeps every rule when many instances arrive at once (one group commit)", async () => {
    const p = await container("burst", { mni: 25 });
    const first = await Promise.all(Array.from({ length: 40 }, (_, i) => instance(p, { i }, `m${i % 20}`)));
    const created = first.filter((r) => r.status === 201).map((r) => r.body["m2m:cin"].rn as string);
    expect(created.sort()).toEqual(Array.from({ length: 20 }, (_, i) => `m${i}`).sort());
    for (const r of first.filter((x) => x.status !== 201)) expectRsc(r, 409, 4105);
    expect(await cnt(p)).toMatchObject({ cni: 20, st: 20 });
    const second = await Promise.all(Array.from({ length: 30 }, (_, i) => instance(p, { i }, `n${i}`)));
    for (const r of second) expectRsc(r, 201, 2001);
    const after = await cnt(p);
    expect(after).toMatchObject({ cni: 25, st: 50 });
    const left = await names(p);
    expect(left).toHaveLength(25);
    expect((await owner.retrieve(`${p}/la`)).body["m2m:cin"].rn).toBe(left[24]);
    const sizes = await Promise.all(
      left.map(async (n) => (await owner.retrieve(`${p}/${n}`)).body["m2m:cin"].cs as number),
    );
    expect(after.cbs).toBe(sizes.reduce((a, b) => a + b, 0));
  });

  it("frees the name of a trimmed instance (a resend after trimming is created again)", async () => {
    const p = await container("reuse", { mni: 1 });
    expectRsc(await instance(p, "x", "msg-1"), 201, 2001);
    expectRsc(await instance(p, "y", "msg-2"), 201, 2001);
    expectRsc(await instance(p, "x", "msg-1"), 201, 2001);
  });

  it("drops instances older than mia seconds when the next one arrives", async () => {
    const p = await container("aged", { mia: 1 });
    await instance(p, "x", "old");
    await new Promise((r) => setTimeout(r, 1100));
    await instance(p, "y", "new");
    expect(await names(p)).toEqual(["new"]);
    expect(await cnt(p)).toMatchObject({ cni: 1, cbs: 1 });
  });
});

describe("access rule (standard): without ACPs only the owner and the superuser reach a resource, as TS-0001 and ACME", () => {
  it("refuses another originator reading, adding and subscribing (403/4103); its discovery finds nothing", async () => {
    const p = await container("private");
    await instance(p, "x", "mine");
    expectRsc(await other.retrieve(p), 403, 4103);
    expectRsc(await other.retrieve(`${p}/mine`), 403, 4103);
    expectRsc(await other.retrieve(`${p}/la`), 403, 4103);
    expectRsc(await other.retrieve(`${p}?rcn=4`), 403, 4103);
    expectRsc(await other.create(p, 4, { "m2m:cin": { con: "x" } }), 403, 4103);
    expectRsc(await other.create("/Mobius/app", 3, { "m2m:cnt": { rn: "intruder" } }), 403, 4103);
    expectRsc(
      await other.create(p, 23, { "m2m:sub": { rn: "watch", nu: ["http://127.0.0.1:9/n"], enc: { net: [3] } } }),
      403,
      4103,
    );
    const found = await other.retrieve(`${p}?fu=1`);
    expectRsc(found, 200, 2000);
    expect(found.body["m2m:uril"]).toEqual([]);
    expect(await names(p)).toEqual(["mine"]);
  });

  it("lets registered AEs read the CSEBase, and only the superuser add anything but an AE below it", async () => {
    expectRsc(await owner.retrieve("/Mobius"), 200, 2000);
    expectRsc(await cse.client("Cstranger").retrieve("/Mobius"), 403, 4103);
    expectRsc(await owner.create("/Mobius", 3, { "m2m:cnt": { rn: "top" } }), 403, 4103);
    expectRsc(await admin.create("/Mobius", 3, { "m2m:cnt": { rn: "top" } }), 201, 2001);
    expectRsc(await admin.delete("/Mobius/top"), 200, 2002);
  });

  it("gives an instance to its container's owner, whoever created it", async () => {
    const p = await container("delivered");
    expectRsc(await admin.create(p, 4, { "m2m:cin": { rn: "fromAdmin", con: "x" } }), 201, 2001);
    expectRsc(await owner.retrieve(`${p}/fromAdmin`), 200, 2000);
    expectRsc(await owner.delete(`${p}/fromAdmin`), 200, 2002);
  });

  it("refuses update and delete by anyone else with 403/4103", async () => {
    const p = await container("guarded");
    await instance(p, "x", "mine");
    expectRsc(await other.update(p, { "m2m:cnt": { mni: 1 } }), 403, 4103);
    expectRsc(await other.delete(`${p}/mine`), 403, 4103);
    expectRsc(await other.delete(p), 403, 4103);
    expectRsc(await other.delete("/Mobius/app"), 403, 4103);
    expect((await owner.retrieve(`${p}/mine`)).status).toBe(200);
  });

  it("lets the superuser delete anything; deleting removes the whole subtree", async () => {
    const p = await container("doomed");
    await owner.create(p, 3, { "m2m:cnt": { rn: "child" } });
    await instance(`${p}/child`, "x", "leaf");
    const r = await admin.delete(p);
    expectRsc(r, 200, 2002);
    expect(r.body["m2m:cnt"].rn).toBe("doomed");
    expectRsc(await owner.retrieve(p), 404, 4004);
    expectRsc(await owner.retrieve(`${p}/child/leaf`), 404, 4004);
    expect(
      (await owner.retrieve("/Mobius?fu=1")).body["m2m:uril"].filter((u: string) => u.startsWith(p.slice(1))),
    ).toEqual([]);
    expectRsc(await admin.delete(p), 404, 4004);
  });

  it("frees the AE-ID when an AE is deleted", async () => {
    const c = cse.client("Cshort");
    expectRsc(await c.create("/Mobius", 2, { "m2m:ae": { rn: "short", api: "Ns", rr: false, srv: ["3"] } }), 201, 2001);
    expectRsc(await c.delete("/Mobius/short"), 200, 2002);
    expectRsc(
      await c.create("/Mobius", 2, { "m2m:ae": { rn: "short2", api: "Ns", rr: false, srv: ["3"] } }),
      201,
      2001,
    );
  });
});

describe("access rule (mobius): anyone reads and adds, only the creator or the superuser changes", () => {
  let mobius: TestCse;
  let mOwner: M2mClient;
  let mOther: M2mClient;
  beforeAll(async () => {
    mobius = await startTestCse({ profile: "mobius" });
    mOwner = mobius.client("Cowner");
    mOther = mobius.client("Cother");
    expectRsc(await mOwner.create("/Mobius", 2, { "m2m:ae": { rn: "app", api: "Napp", rr: true } }), 201, 2001);
    expectRsc(await mOwner.create("/Mobius/app", 3, { "m2m:cnt": { rn: "open" } }), 201, 2001);
  });
  afterAll(() => mobius.close());

  it("lets another originator create, retrieve, discover and subscribe", async () => {
    const p = "/Mobius/app/open";
    expectRsc(await mOther.create(p, 4, { "m2m:cin": { rn: "theirs", con: "x" } }), 201, 2001);
    expectRsc(await mOther.retrieve(p), 200, 2000);
    expect((await mOther.retrieve(`${p}?fu=1`)).body["m2m:uril"]).toEqual(["Mobius/app/open/theirs"]);
    expectRsc(
      await mOther.create(p, 23, { "m2m:sub": { rn: "watch", nu: ["http://127.0.0.1:9/n"], enc: { net: [3] } } }),
      201,
      2001,
    );
  });

  it("lets the creator of an instance delete it inside someone else's container, and nobody else change it", async () => {
    const p = "/Mobius/app/open";
    expectRsc(await mOther.create(p, 4, { "m2m:cin": { rn: "mine", con: "x" } }), 201, 2001);
    expectRsc(await mOwner.delete(`${p}/mine`), 403, 4103);
    expectRsc(await mOther.delete(`${p}/mine`), 200, 2002);
    expectRsc(await mOther.update(p, { "m2m:cnt": { mni: 1 } }), 403, 4103);
  });
});
