// Mobius keeps every resource's name in `lookup.rn varchar(45)`: a real Mobius (2.5.x on MariaDB
// 10.11, issue 22) answered each contentInstance POST with a 55-character name 500/5000
// "[create_action] create resource error" (ER_DATA_TOO_LONG in its log). The `mobius` profile
// answers the same for every type it stores (AE, container, contentInstance, subscription), on
// HTTP and in the decoder's open transaction, so a name scheme that would fail on Mobius fails here.
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { M2mResponse } from "./client.ts";
import { startTestCse, type TestCse } from "./fixture.ts";
import { CseError } from "../src/errors.ts";

/** the name of issue 22's report: `<ULID>-<device's message id>` of 55 characters */
const OLD_NAME = "01M8EKFQPJZN52Z0PJSYWYZPJK-ltc777b472.0.0.1795786530481";
const AT_LIMIT = "a".repeat(45);
const OVER_LIMIT = "a".repeat(46);

let mobius: TestCse;
let standard: TestCse;
let db: Database.Database;
let inTx: TestCse;

beforeAll(async () => {
  db = new Database(":memory:");
  [mobius, standard, inTx] = await Promise.all([
    startTestCse({ profile: "mobius" }),
    startTestCse({ profile: "standard" }),
    startTestCse({ profile: "mobius", connection: db }),
  ]);
});
afterAll(async () => {
  await Promise.all([mobius.close(), standard.close(), inTx.close()]);
  db.close();
});

const outcome = (r: M2mResponse) => ({ status: r.status, rsc: r.rsc, dbg: r.body?.["m2m:dbg"] as unknown });
const REFUSED = { status: 500, rsc: 5000, dbg: "[create_action] create resource error" };

/** creates one resource of each type Mobius keeps in lookup, each with `rn`, under a fresh AE */
async function eachType(cse: TestCse, rn: string, tag: string) {
  const ae = await cse
    .client(`C${tag}`)
    .create("/Mobius", 2, { "m2m:ae": { rn, api: `N${tag}`, rr: false, srv: ["3"] } });
  // the other three go under parents with short names (another AE), so each answer is about its own name
  const c = cse.client(`C${tag}p`);
  expect((await c.create("/Mobius", 2, { "m2m:ae": { rn: tag, api: `N${tag}`, rr: false, srv: ["3"] } })).status).toBe(
    201,
  );
  for (const cnt of ["up", "watched"])
    expect((await c.create(`/Mobius/${tag}`, 3, { "m2m:cnt": { rn: cnt } })).status).toBe(201);
  return {
    ae: outcome(ae),
    container: outcome(await c.create(`/Mobius/${tag}`, 3, { "m2m:cnt": { rn } })),
    instance: outcome(await c.create(`/Mobius/${tag}/up`, 4, { "m2m:cin": { rn, cnf: "text/plain:0", con: "x" } })),
    subscription: outcome(
      await c.create(`/Mobius/${tag}/watched`, 23, {
        "m2m:sub": { rn, nu: ["http://127.0.0.1:9/n"], enc: { net: [3] } },
      }),
    ),
  };
}

describe("resource names longer than Mobius stores", () => {
  it("mobius: 46 characters and more are refused 500/5000 for every type, 45 are created", async () => {
    expect(await eachType(mobius, OLD_NAME, "old")).toEqual({
      ae: REFUSED,
      container: REFUSED,
      instance: REFUSED,
      subscription: REFUSED,
    });
    expect(await eachType(mobius, OVER_LIMIT, "over")).toEqual({
      ae: REFUSED,
      container: REFUSED,
      instance: REFUSED,
      subscription: REFUSED,
    });
    const ok = await eachType(mobius, AT_LIMIT, "limit");
    for (const r of Object.values(ok)) expect(r).toMatchObject({ status: 201, rsc: 2001 });
  });

  it("mobius: a refused name leaves nothing behind; the same record under a short name goes in", async () => {
    const c = mobius.client("Cretry");
    expect((await c.create("/Mobius", 2, { "m2m:ae": { rn: "retry", api: "Nretry", rr: false } })).status).toBe(201);
    expect((await c.create("/Mobius/retry", 3, { "m2m:cnt": { rn: "up" } })).status).toBe(201);
    const again = async (rn: string) =>
      outcome(await c.create("/Mobius/retry/up", 4, { "m2m:cin": { rn, cnf: "application/json:0", con: { a: 1 } } }));
    // the resend carries the same name and gets the same answer: this is why it never got through
    expect(await again(OLD_NAME)).toEqual(REFUSED);
    expect(await again(OLD_NAME)).toEqual(REFUSED);
    expect((await c.retrieve("/Mobius/retry/up")).body["m2m:cnt"]).toMatchObject({ cni: 0, cbs: 0 });
    expect(await again(OLD_NAME.slice(0, 26))).toMatchObject({ status: 201, rsc: 2001 });
  });

  it("mobius: the decoder's in-transaction create refuses the same names with the same error", async () => {
    const c = inTx.client("Cintx");
    expect((await c.create("/Mobius", 2, { "m2m:ae": { rn: "intx", api: "Nintx", rr: false } })).status).toBe(201);
    expect((await c.create("/Mobius/intx", 3, { "m2m:cnt": { rn: "up" } })).status).toBe(201);
    const create = (rn: string) =>
      db.transaction(() =>
        inTx.core.createInstanceInOpenTransaction({ path: "intx/up", originator: "Cintx", rn, con: "1" }),
      )();
    let thrown: unknown;
    try {
      create(OLD_NAME);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(CseError);
    expect({
      status: (thrown as CseError).status,
      rsc: (thrown as CseError).rsc,
      dbg: (thrown as Error).message,
    }).toEqual(REFUSED);
    expect(() => create(AT_LIMIT)).not.toThrow();
  });

  it("standard: no such limit (ACME and TS-0001 take the 55-character name)", async () => {
    const ok = await eachType(standard, OLD_NAME, "old");
    for (const r of Object.values(ok)) expect(r).toMatchObject({ status: 201, rsc: 2001 });
  });
});
