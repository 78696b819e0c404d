// How a real Mobius answers a discovery by label, measured 2026-11-27 (IoTKETI/Mobius on MariaDB
// 10.11, docs/stack.md "A real Mobius"): `?fu=1&ty=4&lbl=msgid:<id>` under the container of an instance
// labelled `msgid:<id>` answered `{"m2m:uril":[]}`, and the same value given twice
// (`lbl=msgid:<id>&lbl=msgid:<id>`) listed the instance. Mobius stores labels as JSON indented by 4
// and reads one value with a pattern that text never matches. The `mobius` profile answers the same,
// so a client that finds records by label on the embedded CSE finds them on Mobius too.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestCse, type TestCse } from "./fixture.ts";

let mobius: TestCse;
let standard: TestCse;

beforeAll(async () => {
  [mobius, standard] = await Promise.all([startTestCse({ profile: "mobius" }), startTestCse({ profile: "standard" })]);
  for (const cse of [mobius, standard]) {
    const c = cse.client("Clabels");
    expect((await c.create("/Mobius", 2, { "m2m:ae": { rn: "app", api: "Napp", rr: false, srv: ["3"] } })).status).toBe(
      201,
    );
    expect((await c.create("/Mobius/app", 3, { "m2m:cnt": { rn: "up", lbl: ["fleet:a"] } })).status).toBe(201);
    for (const [rn, lbl] of [
      ["i1", "msgid:dev-1"],
      ["i2", "msgid:dev-10"],
    ] as const)
      expect(
        (await c.create("/Mobius/app/up", 4, { "m2m:cin": { rn, lbl: [lbl], cnf: "text/plain:0", con: rn } })).status,
      ).toBe(201);
  }
});
afterAll(async () => {
  await Promise.all([mobius.close(), standard.close()]);
});

const found = async (cse: TestCse, query: string) =>
  ((await cse.client("Clabels").retrieve(`/Mobius/app?fu=1&${query}`)).body["m2m:uril"] as string[]).sort();

describe("discovery by label", () => {
  it("mobius: one lbl value finds no instance; the value twice finds it, and only it", async () => {
    expect(await found(mobius, "ty=4&lbl=msgid:dev-1")).toEqual([]);
    expect(await found(mobius, "ty=4&lbl=msgid:dev-1&lbl=msgid:dev-1")).toEqual(["Mobius/app/up/i1"]);
    expect(await found(mobius, "lbl=msgid:dev-1&lbl=msgid:dev-10")).toEqual(["Mobius/app/up/i1", "Mobius/app/up/i2"]);
  });

  it("mobius: a container's label is still found with one value (only instances were measured)", async () => {
    expect(await found(mobius, "ty=3&lbl=fleet:a")).toEqual(["Mobius/app/up"]);
  });

  it("standard: one value and the value twice both find the instance (TS-0004, ACME)", async () => {
    expect(await found(standard, "ty=4&lbl=msgid:dev-1")).toEqual(["Mobius/app/up/i1"]);
    expect(await found(standard, "ty=4&lbl=msgid:dev-1&lbl=msgid:dev-1")).toEqual(["Mobius/app/up/i1"]);
  });
});
