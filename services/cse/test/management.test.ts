// Device management resources: a <node> (ty 14) for a device, with <mgmtObj> children (ty 13)
// whose JSON root names the specialization (m2m:bat battery, m2m:mem memory) and whose mgd must
// match it. Both profiles take them (Mobius has nod and mgo too).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { M2mClient, M2mResponse } from "./client.ts";
import { startTestCse, type TestCse } from "./fixture.ts";

let cse: TestCse;
let admin: M2mClient;

beforeAll(async () => {
  cse = await startTestCse({ profile: "standard" });
  admin = cse.client("Sponde");
});
afterAll(() => cse.close());

function expectRsc(r: M2mResponse, status: number, rsc: number): void {
  expect({ status: r.status, rsc: r.rsc }).toEqual({ status, rsc });
  if (status >= 400) expect(r.body["m2m:dbg"]).toEqual(expect.any(String));
}

describe("node and mgmtObj", () => {
  it("creates a node with its nodeID and battery and memory objects below it", async () => {
    const node = await admin.create("/Mobius", 14, { "m2m:nod": { rn: "dev1", ni: "urn:dev:1", lbl: ["sat"] } });
    expectRsc(node, 201, 2001);
    expect(node.body["m2m:nod"]).toMatchObject({ rn: "dev1", ty: 14, ni: "urn:dev:1", lbl: ["sat"] });
    const bat = await admin.create("/Mobius/dev1", 13, {
      "m2m:bat": { rn: "battery", mgd: 1006, btl: 87, bts: 1, dc: "main cell" },
    });
    expectRsc(bat, 201, 2001);
    expect(bat.body["m2m:bat"]).toMatchObject({ ty: 13, mgd: 1006, btl: 87, bts: 1, dc: "main cell" });
    expectRsc(
      await admin.create("/Mobius/dev1", 13, { "m2m:mem": { rn: "mem", mgd: 1003, mma: 10, mmt: 64 } }),
      201,
      2001,
    );
    const children = (await admin.retrieve("/Mobius/dev1?rcn=8")).body["m2m:nod"];
    expect(Object.keys(children).sort()).toEqual(["m2m:bat", "m2m:mem"]);
    const refs = (await admin.retrieve("/Mobius/dev1?rcn=6")).body["m2m:rrl"].rrf;
    expect(refs).toEqual([
      { nm: "battery", typ: 13, val: "Mobius/dev1/battery", spty: 1006 },
      { nm: "mem", typ: 13, val: "Mobius/dev1/mem", spty: 1003 },
    ]);
  });

  it("updates a battery's level, keeping its specialization", async () => {
    const u = await admin.update("/Mobius/dev1/battery", { "m2m:bat": { btl: 42 } });
    expectRsc(u, 200, 2004);
    expect(u.body["m2m:bat"]).toMatchObject({ btl: 42, mgd: 1006 });
    expectRsc(await admin.update("/Mobius/dev1/battery", { "m2m:mem": { mma: 1 } }), 400, 4000);
    expectRsc(await admin.update("/Mobius/dev1/battery", { "m2m:bat": { mgd: 1003 } }), 400, 4000);
  });

  it("refuses a missing nodeID, a mgd that does not match the root, values out of range and misplaced types", async () => {
    expectRsc(await admin.create("/Mobius", 14, { "m2m:nod": { rn: "nameless" } }), 400, 4000);
    expectRsc(await admin.create("/Mobius/dev1", 13, { "m2m:bat": { mgd: 1003, btl: 1, bts: 1 } }), 400, 4000);
    expectRsc(await admin.create("/Mobius/dev1", 13, { "m2m:bat": { mgd: 1006, btl: 101, bts: 1 } }), 400, 4000);
    expectRsc(await admin.create("/Mobius/dev1", 13, { "m2m:bat": { mgd: 1006, btl: 10, bts: 9 } }), 400, 4000);
    expectRsc(await admin.create("/Mobius/dev1", 13, { "m2m:bat": { mgd: 1006, btl: 10 } }), 400, 4000);
    expectRsc(await admin.create("/Mobius/dev1", 13, { "m2m:fwr": { mgd: 1001 } }), 400, 4000);
    expectRsc(await admin.create("/Mobius", 13, { "m2m:bat": { mgd: 1006, btl: 1, bts: 1 } }), 403, 4108);
    expectRsc(await admin.create("/Mobius/dev1", 3, { "m2m:cnt": { rn: "c" } }), 403, 4108);
  });

  it("lets only the superuser add a node under the CSEBase on the standard profile (private without ACPs)", async () => {
    const c = cse.client("Cdev");
    expectRsc(
      await c.create("/Mobius", 2, { "m2m:ae": { rn: "devapp", api: "Nd", rr: false, srv: ["3"] } }),
      201,
      2001,
    );
    expectRsc(await c.create("/Mobius", 14, { "m2m:nod": { rn: "mine", ni: "urn:dev:2" } }), 403, 4103);
    expectRsc(await c.retrieve("/Mobius/dev1"), 403, 4103);
  });
});
