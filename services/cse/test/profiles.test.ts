// What `--profile mobius` reproduces of a real Mobius (docs/onem2m-http.md, "Measured behaviour of
// a real Mobius") and how `--profile standard` answers the same requests instead. Both CSEs run
// on a clock the test moves, so Mobius' time windows for la/ol are exercised without waiting.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { M2mClient, M2mResponse } from "./client.ts";
import { startTestCse, type TestCse } from "./fixture.ts";

const T0 = Date.UTC(2026, 10, 24, 12, 0, 0);
const MINUTE = 60_000;
let clock = T0;

let mobius: TestCse;
let standard: TestCse;

beforeAll(async () => {
  [mobius, standard] = await Promise.all([
    startTestCse({ profile: "mobius", now: () => clock }),
    startTestCse({ profile: "standard", now: () => clock }),
  ]);
});
afterAll(() => Promise.all([mobius.close(), standard.close()]));

function expectRsc(r: M2mResponse, status: number, rsc: number): void {
  expect({ status: r.status, rsc: r.rsc }).toEqual({ status, rsc });
}

const ae = (rn: string, extra: Record<string, unknown> = {}) => ({
  "m2m:ae": { rn, api: `N${rn}`, rr: false, srv: ["3"], ...extra },
});

async function setUp(c: M2mClient, rn: string): Promise<string> {
  expectRsc(await c.create("/Mobius", 2, ae(rn)), 201, 2001);
  expectRsc(await c.create(`/Mobius/${rn}`, 3, { "m2m:cnt": { rn: "up" } }), 201, 2001);
  return `/Mobius/${rn}/up`;
}

describe("la and ol", () => {
  it("mobius: by name within the most recent 1, 5, 25 … minute window; standard: by creation", async () => {
    clock = T0;
    const paths = {
      mobius: await setUp(mobius.client("Cla"), "win"),
      standard: await setUp(standard.client("Cla"), "win"),
    };
    const add = async (rn: string) => {
      for (const cse of [mobius, standard] as const) {
        const path = cse === mobius ? paths.mobius : paths.standard;
        expectRsc(await cse.client("Cla").create(path, 4, { "m2m:cin": { rn, con: rn } }), 201, 2001);
      }
    };
    const rn = async (cse: TestCse, which: "la" | "ol") =>
      (await cse.client("Cla").retrieve(`${cse === mobius ? paths.mobius : paths.standard}/${which}`)).body["m2m:cin"]
        .rn;

    await add("zzz");
    clock = T0 + 3 * MINUTE;
    for (const name of ["b", "a", "c"]) await add(name);
    // the last minute holds b, a, c: zzz (3 minutes old) is outside Mobius' window
    expect([await rn(mobius, "la"), await rn(mobius, "ol")]).toEqual(["c", "a"]);
    await add("aa");
    expect([await rn(mobius, "la"), await rn(mobius, "ol")]).toEqual(["c", "a"]);
    expect([await rn(standard, "la"), await rn(standard, "ol")]).toEqual(["aa", "zzz"]);
    // 17 minutes after the newest: the window widens to 25 minutes and takes zzz in again
    clock = T0 + 20 * MINUTE;
    expect([await rn(mobius, "la"), await rn(mobius, "ol")]).toEqual(["zzz", "a"]);
    expect([await rn(standard, "la"), await rn(standard, "ol")]).toEqual(["aa", "zzz"]);
    clock = T0;
  });

  it("mobius answers a create under la with 409/4005, standard with 405/4005", async () => {
    expectRsc(await mobius.client("Cla").create("/Mobius/win/up/la", 4, { "m2m:cin": { con: "x" } }), 409, 4005);
    expectRsc(await standard.client("Cla").create("/Mobius/win/up/la", 4, { "m2m:cin": { con: "x" } }), 405, 4005);
  });
});

describe("AE registration", () => {
  it("needs rr on both; mobius takes rr as a string, standard also needs srv", async () => {
    expectRsc(await mobius.client("Crr1").create("/Mobius", 2, { "m2m:ae": { rn: "rr1", api: "Nrr" } }), 400, 4000);
    expectRsc(
      await standard.client("Crr1").create("/Mobius", 2, { "m2m:ae": { rn: "rr1", api: "Nrr", srv: ["3"] } }),
      400,
      4000,
    );
    expectRsc(
      await standard.client("Crr1").create("/Mobius", 2, { "m2m:ae": { rn: "rr1", api: "Nrr", rr: false } }),
      400,
      4000,
    );
    const m = await mobius.client("Crr1").create("/Mobius", 2, { "m2m:ae": { rn: "rr1", api: "Nrr", rr: "false" } });
    expectRsc(m, 201, 2001);
    expect(m.body["m2m:ae"].rr).toBe(false);
    expectRsc(await standard.client("Crr2").create("/Mobius", 2, ae("rr2", { rr: "false" })), 400, 4000);
  });

  it("identifies the AE by its AE-ID, without a creator attribute, on both", async () => {
    for (const cse of [mobius, standard]) {
      const r = await cse.client("Cid").create("/Mobius", 2, ae("id"));
      expectRsc(r, 201, 2001);
      expect(r.body["m2m:ae"]).toMatchObject({ ri: "Cid", aei: "Cid" });
      expect(r.body["m2m:ae"]).not.toHaveProperty("cr");
      expect(r.headers.get("content-location")).toBe("Mobius/id");
    }
  });

  it("answers the same originator registering another AE with 409/4106 (mobius) or 403/4117 (standard)", async () => {
    expectRsc(await mobius.client("Cid").create("/Mobius", 2, ae("id2")), 409, 4106);
    expectRsc(await standard.client("Cid").create("/Mobius", 2, ae("id2")), 403, 4117);
  });
});

describe("a self-registered AE belongs to its AE-ID", () => {
  it.each(["mobius", "standard"] as const)(
    "%s: a bare C cannot delete it, the AE itself may update and delete it",
    async (name) => {
      const cse = name === "mobius" ? mobius : standard;
      const anyone = cse.client("C");
      const r = await anyone.create("/Mobius", 2, ae("self"));
      expectRsc(r, 201, 2001);
      const aei = r.body["m2m:ae"].aei as string;
      expect(aei).toMatch(/^C\d+$/);
      expectRsc(await anyone.delete("/Mobius/self"), 403, 4103);
      expectRsc(await anyone.update("/Mobius/self", { "m2m:ae": { lbl: ["taken"] } }), 403, 4103);
      const own = await cse.client(aei).update("/Mobius/self", { "m2m:ae": { lbl: ["mine"] } });
      expectRsc(own, 200, 2004);
      expect(own.body["m2m:ae"].lbl).toEqual(["mine"]);
      expectRsc(await cse.client(aei).delete("/Mobius/self"), 200, 2002);
    },
  );
});

describe("content", () => {
  it("mobius gives a con string holding JSON back as the object, and a number as text; standard keeps both", async () => {
    for (const cse of [mobius, standard]) await setUp(cse.client("Ccon"), "con");
    const json = '{"temp":21.5,"door":"closed"}';
    for (const [cse, expected] of [
      [mobius, [{ temp: 21.5, door: "closed" }, "42", "not {json"]],
      [standard, [json, 42, "not {json"]],
    ] as const) {
      const c = cse.client("Ccon");
      for (const [i, con] of [json, 42, "not {json"].entries())
        expectRsc(await c.create("/Mobius/con/up", 4, { "m2m:cin": { rn: `c${i}`, con } }), 201, 2001);
      for (const [i, want] of expected.entries())
        expect((await c.retrieve(`/Mobius/con/up/c${i}`)).body["m2m:cin"].con).toEqual(want);
    }
  });
});

describe("discovery", () => {
  it("mobius keeps the alphabetically smallest lim names, lists them by name descending, refuses rcn=11; standard: creation order", async () => {
    for (const cse of [mobius, standard]) {
      const c = cse.client("Cdisc");
      await setUp(c, "disc");
      for (const rn of ["m", "b", "x", "a"])
        expectRsc(await c.create("/Mobius/disc/up", 4, { "m2m:cin": { rn, con: rn } }), 201, 2001);
    }
    const names = async (cse: TestCse, q: string) =>
      ((await cse.client("Cdisc").retrieve(`/Mobius/disc/up?fu=1&ty=4${q}`)).body["m2m:uril"] as string[]).map((p) =>
        p.split("/").pop(),
      );
    expect(await names(mobius, "")).toEqual(["x", "m", "b", "a"]);
    expect(await names(mobius, "&lim=2")).toEqual(["b", "a"]);
    expect(await names(standard, "")).toEqual(["m", "b", "x", "a"]);
    expect(await names(standard, "&lim=2")).toEqual(["m", "b"]);
    expect((await mobius.client("Cdisc").retrieve("/Mobius/disc/up?fu=1&ty=4")).body["m2m:uril"][0]).toBe(
      "Mobius/disc/up/x",
    );
    expectRsc(await mobius.client("Cdisc").retrieve("/Mobius/disc/up?fu=1&rcn=11"), 400, 4000);
    expectRsc(await standard.client("Cdisc").retrieve("/Mobius/disc/up?fu=1&rcn=11"), 200, 2000);
  });

  it("mobius answers at most 2000 paths, standard all of them", async () => {
    for (const cse of [mobius, standard]) {
      const c = cse.client("Cmany");
      await setUp(c, "many");
      // 2010 instances in bounded batches: enough to pass the cap, few enough to stay quick
      for (let i = 0; i < 2010; i += 201)
        await Promise.all(
          Array.from({ length: Math.min(201, 2010 - i) }, (_, k) =>
            c.create("/Mobius/many/up", 4, { "m2m:cin": { rn: `n${String(i + k).padStart(4, "0")}`, con: "x" } }),
          ),
        );
    }
    const count = async (cse: TestCse, q = "") =>
      ((await cse.client("Cmany").retrieve(`/Mobius/many/up?fu=1&ty=4${q}`)).body["m2m:uril"] as string[]).length;
    expect(await count(mobius)).toBe(2000);
    expect(await count(mobius, "&lim=5000")).toBe(2000);
    expect(await count(standard)).toBe(2010);
    // 4 020 creates: 8–10 s under a 2-CPU burner, 60 s at load 20; the timeout bounds a hang only
  }, 240_000);
});
