// The decoder's in-process path (core.createInstanceInOpenTransaction inside a transaction it holds)
// against a POST of the same m2m:cin over HTTP. Two CSEs on one clock take the same steps, one over
// HTTP only, the other with its instances created in open transactions on its SQLite connection;
// everything either then serves over HTTP must be the same but for the generated ids.
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { M2mClient, M2mResponse } from "./client.ts";
import { startTestCse, type TestCse } from "./fixture.ts";
import { startNotifyReceiver, type NotifyReceiver } from "../../test-support/notifyReceiver.ts";
import type { InstanceFields } from "../src/cse.ts";
import { CseError } from "../src/errors.ts";

const ORIGINATOR = "Capp";

interface Outcome {
  status: number;
  rsc: number;
}

describe.each(["mobius", "standard"] as const)("contentInstances created in an open transaction (%s)", (profile) => {
  let clock = Date.UTC(2026, 0, 2, 3, 4, 5);
  let viaHttp: TestCse;
  let inTx: TestCse;
  let db: Database.Database;
  let rx: NotifyReceiver;
  const clients: Record<"viaHttp" | "inTx", M2mClient> = {} as never;
  let rawSeq = 0;

  beforeAll(async () => {
    rx = await startNotifyReceiver();
    db = new Database(":memory:");
    viaHttp = await startTestCse({ profile, now: () => clock, notificationTimeoutMs: 5000 });
    inTx = await startTestCse({ profile, now: () => clock, notificationTimeoutMs: 5000, connection: db });
    clients.viaHttp = viaHttp.client(ORIGINATOR);
    clients.inTx = inTx.client(ORIGINATOR);
    for (const c of Object.values(clients))
      expectOutcome(
        await c.create("/Mobius", 2, { "m2m:ae": { rn: "app", api: "Napp", rr: false, srv: ["3"] } }),
        201,
        2001,
      );
  });
  afterAll(async () => {
    await viaHttp?.close();
    await inTx?.close();
    db?.close();
    await rx?.close();
  });

  function expectOutcome(r: M2mResponse, status: number, rsc: number): void {
    expect({ status: r.status, rsc: r.rsc }).toEqual({ status, rsc });
  }

  /** the body the decoder's forwarder would POST: `con` inserted as the JSON text it is */
  function postBody(f: Omit<InstanceFields, "path" | "originator">): string {
    const head = JSON.stringify({ rn: f.rn, cnf: f.cnf, lbl: f.lbl });
    return `{"m2m:cin":${head.slice(0, -1)}${head === "{}" ? "" : ","}"con":${f.con}}}`;
  }

  async function post(path: string, f: Omit<InstanceFields, "path" | "originator">): Promise<Outcome> {
    const r = await clients.viaHttp.raw({
      method: "POST",
      path: `/Mobius/${path}`,
      headers: {
        "X-M2M-RI": `raw-${++rawSeq}`,
        "X-M2M-Origin": ORIGINATOR,
        "X-M2M-RVI": "3",
        "Content-Type": "application/json;ty=4",
      },
      body: postBody(f),
    });
    return { status: r.status, rsc: r.rsc };
  }

  /** One instance in its own open transaction; its notifications are raised only when `raise` is true. */
  function inOpenTransaction(
    path: string,
    f: Omit<InstanceFields, "path" | "originator">,
    raise = true,
  ): Outcome & { raise?: () => void } {
    try {
      const created = db.transaction(() =>
        inTx.core.createInstanceInOpenTransaction({ ...f, path, originator: ORIGINATOR }),
      )();
      if (raise) created.raise();
      return { status: 201, rsc: 2001, raise: created.raise };
    } catch (e) {
      if (!(e instanceof CseError)) throw e;
      return { status: e.status, rsc: e.rsc };
    }
  }

  /** the same instance both ways: both outcomes, which must be equal */
  async function both(path: string, f: Omit<InstanceFields, "path" | "originator">): Promise<Outcome> {
    const a = await post(path, f);
    const { status, rsc } = inOpenTransaction(path, f);
    expect({ status, rsc }, `${path} ${JSON.stringify(f)}`).toEqual(a);
    return a;
  }

  async function container(rn: string, attrs: Record<string, unknown> = {}): Promise<string> {
    for (const c of Object.values(clients))
      expectOutcome(await c.create("/Mobius/app", 3, { "m2m:cnt": { rn, ...attrs } }), 201, 2001);
    return `app/${rn}`;
  }

  /** a container and its instances as served over HTTP, with the generated ids replaced by what they link */
  async function tree(c: M2mClient, path: string): Promise<Record<string, unknown>> {
    const r = await c.retrieve(`/Mobius/${path}?rcn=4`);
    expectOutcome(r, 200, 2000);
    const { "m2m:cin": instances = [], "m2m:cnt": containers = [], ri: cntRi, ...cnt } = r.body["m2m:cnt"];
    const children = (list: Record<string, unknown>[]) =>
      list.map((child) => {
        const { ri, pi, rn, ...rest } = child;
        return {
          ...rest,
          // the order too: an instance's stored JSON is assembled by hand
          keys: Object.keys(child).join(),
          rn: rn === ri ? "(its ri)" : rn,
          pi: pi === cntRi ? "(the container)" : pi,
        };
      });
    return { cnt: { ...cnt, containers: children(containers) }, cin: children(instances) };
  }

  async function expectSameTree(path: string): Promise<Record<string, unknown>> {
    const a = await tree(clients.viaHttp, path);
    expect(await tree(clients.inTx, path)).toEqual(a);
    return a;
  }

  it("stores the same instances and container counters as the POST", async () => {
    const path = await container("same");
    const record = '{"t":21.5,"id":"dev-1","ok":true,"n":[1,2,3]}';
    const instances: Omit<InstanceFields, "path" | "originator">[] = [
      { rn: "obj", cnf: "application/json:0", con: record },
      { rn: "text-json", con: JSON.stringify('{"a":1}') },
      { rn: "number", con: "42" },
      { rn: "bool", con: "false" },
      { rn: "unicode", con: JSON.stringify("žluťoučký kůň 🐎") },
      { rn: "array", con: '[{"x":1},"y"]' },
      { rn: "keys", con: '{"b":1,"10":2,"a":{"2":3,"1":4}}' },
      { rn: "spaced", con: '{ "a" : [ 1 , 2 ] }' },
      { rn: "labelled", lbl: ["a", "b"], con: '"x"' },
      { con: '{"no":"name"}' },
    ];
    for (const f of instances) expect(await both(path, f)).toEqual({ status: 201, rsc: 2001 });
    const { cnt, cin } = await expectSameTree(path);
    expect(cnt).toMatchObject({ cni: instances.length, st: instances.length });
    expect(cin).toHaveLength(instances.length);
    // the reference is the HTTP path, itself checked against ACME in conformance.test.ts; spot-check it
    expect((cin as Record<string, unknown>[])[0]).toMatchObject({
      rn: "obj",
      ty: 4,
      // the standard profile writes cr only when the create asks for it (cr: null), as ACME does
      ...(profile === "mobius" ? { cr: ORIGINATOR } : {}),
      cnf: "application/json:0",
      con: { t: 21.5, id: "dev-1", ok: true, n: [1, 2, 3] },
      cs: Buffer.byteLength(record),
      st: 1,
      // both paths write the stored JSON with one function: its attribute order is pinned here (the
      // order this CSE wrote before that JSON was assembled by hand)
      keys: `rn,ty,pi,ri,ct,lt,et,${profile === "mobius" ? "cr," : ""}cnf,con,cs,st`,
    });
  });

  it("trims to mni and to mbs as the POST does", async () => {
    const byCount = await container("mni", { mni: 3 });
    for (let i = 0; i < 5; i++) await both(byCount, { rn: `i${i}`, con: `{"i":${i}}` });
    const counted = await expectSameTree(byCount);
    expect((counted.cin as { rn: string }[]).map((c) => c.rn)).toEqual(["i2", "i3", "i4"]);
    expect(counted.cnt).toMatchObject({ cni: 3, cbs: 21, st: 5 });

    // 20 bytes each: the fourth pushes the total past 70, the fifth too
    const byBytes = await container("mbs", { mbs: 70 });
    for (let i = 0; i < 5; i++) await both(byBytes, { rn: `b${i}`, con: JSON.stringify(`${i}`.repeat(20)) });
    const sized = await expectSameTree(byBytes);
    expect((sized.cin as { rn: string }[]).map((c) => c.rn)).toEqual(["b2", "b3", "b4"]);
    expect(sized.cnt).toMatchObject({ cni: 3, cbs: 60, st: 5 });
  });

  it("refuses what the POST refuses, with the same status and nothing written", async () => {
    const small = await container("small", { mbs: 10 });
    await both(small, { rn: "fits", con: '"0123456789"' });
    expect(await both(small, { rn: "too-big", con: '"01234567890"' })).toEqual({ status: 406, rsc: 5207 });
    const none = await container("none", { mni: 0 });
    expect(await both(none, { rn: "any", con: "1" })).toEqual({ status: 406, rsc: 5207 });
    expect(await both("app/missing", { rn: "x", con: "1" })).toEqual({ status: 404, rsc: 4004 });
    expect(await both("app", { rn: "x", con: "1" })).toEqual({ status: 403, rsc: 4108 });
    expect(await both(`${small}/la`, { rn: "x", con: "1" })).toEqual({
      status: profile === "mobius" ? 409 : 405,
      rsc: 4005,
    });
    expect(await both(small, { rn: "ol", con: "1" })).toEqual({ status: 409, rsc: 4005 });
    expect(await both(small, { rn: "a/b", con: "1" })).toEqual({ status: 400, rsc: 4000 });
    expect(await both(small, { rn: "nothing", con: "null" })).toEqual({ status: 400, rsc: 4000 });
    expect(await both(small, { rn: "broken", con: "{not json" })).toEqual({ status: 400, rsc: 4000 });
    // no originator: the POST is refused for its missing X-M2M-Origin, the typed create likewise
    const anonymous = await clients.viaHttp.raw({
      method: "POST",
      path: `/Mobius/${small}`,
      headers: { "X-M2M-RI": "anon", "Content-Type": "application/json;ty=4" },
      body: postBody({ rn: "anonymous", con: "1" }),
    });
    expectOutcome(anonymous, 400, 4000);
    expect(() =>
      db.transaction(() =>
        inTx.core.createInstanceInOpenTransaction({ path: small, originator: "", rn: "anonymous", con: "1" }),
      )(),
    ).toThrow(expect.objectContaining({ status: 400, rsc: 4000 }));
    await expectSameTree(small);
    await expectSameTree(none);
  });

  it("refuses a taken name with 409 and trims nothing for it", async () => {
    const path = await container("taken", { mni: 1, mbs: 10 });
    await both(path, { rn: "first", con: "1" });
    expect(await both(path, { rn: "first", con: "2" })).toEqual({ status: 409, rsc: 4105 });
    // a name taken by a child container comes before the size limit, as in the POST
    for (const c of Object.values(clients))
      expectOutcome(await c.create(`/Mobius/${path}`, 3, { "m2m:cnt": { rn: "child" } }), 201, 2001);
    expect(await both(path, { rn: "child", con: '"far more than ten bytes"' })).toEqual({ status: 409, rsc: 4105 });
    const { cnt, cin } = await expectSameTree(path);
    expect(cnt).toMatchObject({ cni: 1, cbs: 1, st: 1 });
    expect((cin as { rn: string; con: unknown }[]).map((c) => [c.rn, c.con])).toEqual([
      ["first", profile === "mobius" ? "1" : 1],
    ]);
  });

  it("drops instances older than mia as the POST does", async () => {
    const path = await container("aging", { mia: 60 });
    await both(path, { rn: "old", con: "1" });
    clock += 30_000;
    await both(path, { rn: "middle", con: "2" });
    clock += 31_000;
    await both(path, { rn: "new", con: "3" });
    const { cnt, cin } = await expectSameTree(path);
    expect((cin as { rn: string }[]).map((c) => c.rn)).toEqual(["middle", "new"]);
    expect(cnt).toMatchObject({ cni: 2, st: 3 });
  });

  it("answers 404 once the container is deleted over HTTP, and follows its new limits after an update", async () => {
    const path = await container("gone", { mni: 5 });
    for (let i = 0; i < 3; i++) await both(path, { rn: `g${i}`, con: `${i}` });
    for (const c of Object.values(clients))
      expectOutcome(await c.update(`/Mobius/${path}`, { "m2m:cnt": { mni: 2 } }), 200, 2004);
    await both(path, { rn: "after-update", con: "9" });
    const updated = await expectSameTree(path);
    expect((updated.cin as { rn: string }[]).map((c) => c.rn)).toEqual(["g2", "after-update"]);

    for (const c of Object.values(clients)) expectOutcome(await c.delete(`/Mobius/${path}`), 200, 2002);
    expect(await both(path, { rn: "late", con: "1" })).toEqual({ status: 404, rsc: 4004 });

    await container("gone", { mni: 1 });
    await both(path, { rn: "again", con: "1" });
    await both(path, { rn: "again2", con: "22" });
    const { cnt, cin } = await expectSameTree(path);
    expect(cnt).toMatchObject({ cni: 1, cbs: 2, st: 2, mni: 1 });
    expect((cin as { rn: string }[]).map((c) => c.rn)).toEqual(["again2"]);
  });

  it("notifies only once raised, what the POST would notify, and a subscription made between two instances", async () => {
    const path = await container("watched");
    const watch = `/n/${profile}`;
    expectOutcome(
      await clients.inTx.create(`/Mobius/${path}`, 23, {
        "m2m:sub": { rn: "sub", nu: [rx.url + watch], enc: { net: [3] } },
      }),
      201,
      2001,
    );
    const rns = () => rx.received.filter((n) => n.path === watch).map((n) => n.body["m2m:sgn"].nev.rep["m2m:cin"].rn);

    const held = inOpenTransaction(path, { rn: "held", con: '{"v":1}' }, false);
    expect(held.status).toBe(201);
    // a POST after it, notified at once: once its notification is in, "held" would be too had it been raised
    expectOutcome(
      await clients.inTx.raw({
        method: "POST",
        path: `/Mobius/${path}`,
        headers: { "X-M2M-RI": "m", "X-M2M-Origin": ORIGINATOR, "Content-Type": "application/json;ty=4" },
        body: '{"m2m:cin":{"rn":"marker","con":1}}',
      }),
      201,
      2001,
    );
    await rx.waitFor((n) => n.path === watch && n.body["m2m:sgn"].nev.rep["m2m:cin"].rn === "marker");
    expect(rns()).toEqual(["marker"]);
    held.raise!();
    const got = await rx.waitFor((n) => n.path === watch && n.body["m2m:sgn"].nev.rep["m2m:cin"].rn === "held");
    const stored = await clients.inTx.retrieve(`/Mobius/${path}/held`);
    // sur: mobius the subscription's structured path, standard its id as ACME writes it (/<CSE-ID>/<ri>)
    const sur =
      profile === "mobius"
        ? `Mobius/${path}/sub`
        : `/Mobius2/${(await clients.inTx.retrieve(`/Mobius/${path}/sub`)).body["m2m:sub"].ri}`;
    expect(got.body).toEqual({ "m2m:sgn": { nev: { rep: stored.body, net: 3 }, sur } });

    // a container seen without subscriptions, then subscribed to
    const later = await container("subscribed-later");
    expect(inOpenTransaction(later, { rn: "before", con: "1" }).status).toBe(201);
    const laterWatch = `/n/${profile}-later`;
    expectOutcome(
      await clients.inTx.create(`/Mobius/${later}`, 23, {
        "m2m:sub": { rn: "sub", nu: [rx.url + laterWatch], enc: { net: [3] } },
      }),
      201,
      2001,
    );
    expect(inOpenTransaction(later, { rn: "after", con: "2" }).status).toBe(201);
    const [one] = await rx.waitForCount(1, (n) => n.path === laterWatch);
    const after = await clients.inTx.retrieve(`/Mobius/${later}/after`);
    expect(one!.body["m2m:sgn"].nev.rep).toEqual(after.body);
    // "before" was raised (with nobody to tell) before "after": had it been notified it would be here
    expect(rx.received.filter((n) => n.path === laterWatch)).toHaveLength(1);
  });
});

describe("trimming by mia after a restart", () => {
  it("drops an instance stored by the CSE before, once it is older than mia", async () => {
    const db = new Database(":memory:");
    let clock = Date.UTC(2026, 0, 2, 3, 4, 5);
    const create = (cse: TestCse, rn: string) =>
      db
        .transaction(() =>
          cse.core.createInstanceInOpenTransaction({ path: "app/aging", originator: ORIGINATOR, rn, con: "1" }),
        )()
        .raise();
    const first = await startTestCse({ now: () => clock, connection: db });
    try {
      const c = first.client(ORIGINATOR);
      expect((await c.create("/Mobius", 2, { "m2m:ae": { rn: "app", api: "Napp", rr: false } })).status).toBe(201);
      expect((await c.create("/Mobius/app", 3, { "m2m:cnt": { rn: "aging", mia: 60 } })).status).toBe(201);
      create(first, "before-restart");
    } finally {
      await first.close();
    }
    clock += 61_000;
    const second = await startTestCse({ now: () => clock, connection: db });
    try {
      create(second, "after-restart");
      const r = await second.client(ORIGINATOR).retrieve("/Mobius/app/aging?rcn=4");
      expect(r.body["m2m:cnt"]["m2m:cin"].map((i: { rn: string }) => i.rn)).toEqual(["after-restart"]);
      expect(r.body["m2m:cnt"]).toMatchObject({ cni: 1, cbs: 1, st: 2 });
    } finally {
      await second.close();
      db.close();
    }
  });
});
