// Subscriptions: m2m:sgn notifications delivered to a local receiver for net 1-4 and nct 1/2,
// never holding up the request that caused them, and removal after 16 unanswered notifications.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { M2mClient, M2mResponse } from "./client.ts";
import { eventually, startTestCse, type TestCse } from "./fixture.ts";
import { freePort } from "../../test-support/acme.ts";
import {
  startNotifyReceiver,
  type Answer,
  type NotifyReceiver,
  type ReceivedNotification,
} from "../../test-support/notifyReceiver.ts";

let cse: TestCse;
let owner: M2mClient;
let rx: NotifyReceiver;
/** what the receiver answers, per notification path; default 200/2000 */
const answers = new Map<string, (n: ReceivedNotification) => Answer>();

beforeAll(async () => {
  rx = await startNotifyReceiver({ answer: (n) => answers.get(n.path)?.(n) ?? { status: 200, rsc: 2000 } });
  // generous: a loaded CI machine must not turn a slow answer into a lost notification
  cse = await startTestCse({ notificationTimeoutMs: 5000 });
  owner = cse.client("Cowner");
  expect(
    (await owner.create("/Mobius", 2, { "m2m:ae": { rn: "app", api: "Napp", rr: false, srv: ["3"] } })).status,
  ).toBe(201);
});
afterAll(async () => {
  await cse.close();
  await rx.close();
});

function expectRsc(r: M2mResponse, status: number, rsc: number): void {
  expect({ status: r.status, rsc: r.rsc }).toEqual({ status, rsc });
}

let n = 0;
/** a fresh container with a subscription whose notifications arrive at a path of their own */
async function watched(sub: Record<string, unknown>): Promise<{
  cnt: string;
  sub: string;
  path: string;
  at: (p?: (x: ReceivedNotification) => boolean) => ReceivedNotification[];
}> {
  const rn = `c${++n}`;
  expectRsc(await owner.create("/Mobius/app", 3, { "m2m:cnt": { rn } }), 201, 2001);
  const path = `/n/${rn}`;
  const cnt = `/Mobius/app/${rn}`;
  expectRsc(await owner.create(cnt, 23, { "m2m:sub": { rn: "sub", nu: [rx.url + path], ...sub } }), 201, 2001);
  return { cnt, sub: `${cnt}/sub`, path, at: (p = () => true) => rx.received.filter((x) => x.path === path && p(x)) };
}

const net = (x: ReceivedNotification) => x.body["m2m:sgn"].nev.net as number;
const rep = (x: ReceivedNotification) => x.body["m2m:sgn"].nev.rep;

describe("notifications", () => {
  it("delivers net 3 with the whole new instance (nct 1), from the CSE-ID, without a verification request", async () => {
    const w = await watched({ enc: { net: [3] }, nct: 1 });
    const created = await owner.create(w.cnt, 4, {
      "m2m:cin": { rn: "m1", cnf: "application/json:0", con: { t: 21.5 } },
    });
    expectRsc(created, 201, 2001);
    const got = await rx.waitFor((x) => x.path === w.path);
    expect(got.headers["x-m2m-origin"]).toBe("/Mobius2");
    expect(got.headers["content-type"]).toMatch(/^application\/json/);
    expect(got.headers["x-m2m-ri"]).toBeTruthy();
    expect(got.body).toEqual({ "m2m:sgn": { nev: { rep: created.body, net: 3 }, sur: "Mobius/app/c1/sub" } });
    expect(w.at((x) => x.body["m2m:sgn"].vrq !== undefined)).toEqual([]);
  });

  it("notifies for a container that already held instances when its subscription was created", async () => {
    const rn = `late${++n}`;
    const cnt = `/Mobius/app/${rn}`;
    expectRsc(await owner.create("/Mobius/app", 3, { "m2m:cnt": { rn } }), 201, 2001);
    // instances before any subscription exists: the CSE has looked for this container's subscriptions
    for (let i = 0; i < 3; i++)
      expectRsc(await owner.create(cnt, 4, { "m2m:cin": { rn: `early${i}`, con: i } }), 201, 2001);
    expectRsc(
      await owner.create(cnt, 23, { "m2m:sub": { rn: "sub", nu: [`${rx.url}/n/${rn}`], enc: { net: [3] } } }),
      201,
      2001,
    );
    expectRsc(await owner.create(cnt, 4, { "m2m:cin": { rn: "after", con: 9 } }), 201, 2001);
    const got = await rx.waitFor((x) => x.path === `/n/${rn}`);
    expect(rep(got)["m2m:cin"].rn).toBe("after");
  });

  it("delivers in creation order", async () => {
    const w = await watched({ enc: { net: [3] } });
    for (let i = 0; i < 20; i++) await owner.create(w.cnt, 4, { "m2m:cin": { rn: `m${i}`, con: i } });
    const got = await rx.waitForCount(20, (x) => x.path === w.path);
    // the Mobius profile gives a number con back as text
    expect(got.map((x) => Number(rep(x)["m2m:cin"].con))).toEqual([...Array(20).keys()]);
  });

  it("sends only the modified attributes for an update with nct 2, the whole resource with nct 1", async () => {
    const whole = await watched({ enc: { net: [1] }, nct: 1 });
    const modified = await watched({ enc: { net: [1, 3] }, nct: 2 });
    await owner.update(whole.cnt, { "m2m:cnt": { lbl: ["x"] } });
    const updated = await owner.update(modified.cnt, { "m2m:cnt": { lbl: ["y"], mni: 5 } });
    const a = await rx.waitFor((x) => x.path === whole.path);
    expect(net(a)).toBe(1);
    expect(rep(a)["m2m:cnt"]).toMatchObject({ rn: whole.cnt.split("/").pop(), lbl: ["x"], mni: 3153600000, cni: 0 });
    const b = await rx.waitFor((x) => x.path === modified.path);
    expect(net(b)).toBe(1);
    expect(rep(b)).toEqual({ "m2m:cnt": { lbl: ["y"], mni: 5, lt: updated.body["m2m:cnt"].lt } });
    // a create has no "modified attributes" apart from the whole new resource
    const cin = await owner.create(modified.cnt, 4, { "m2m:cin": { con: "z" } });
    const c = await rx.waitFor((x) => x.path === modified.path && net(x) === 3);
    expect(rep(c)).toEqual(cin.body);
  });

  it("delivers net 4 when a child is deleted and net 2 when the subscribed resource is deleted", async () => {
    const w = await watched({ enc: { net: [2, 3, 4] } });
    await owner.create(w.cnt, 4, { "m2m:cin": { rn: "gone", con: "x" } });
    const deleted = await owner.delete(`${w.cnt}/gone`);
    const four = await rx.waitFor((x) => x.path === w.path && net(x) === 4);
    expect(rep(four)).toEqual(deleted.body);
    const cntGone = await owner.delete(w.cnt);
    const two = await rx.waitFor((x) => x.path === w.path && net(x) === 2);
    expect(rep(two)).toEqual(cntGone.body);
    expectRsc(await owner.retrieve(w.sub), 404, 4004);
    expect(w.at().map(net)).toEqual([3, 4, 2]);
  });

  it("sends nothing for events outside enc.net", async () => {
    const w = await watched({ enc: { net: [4] } });
    await owner.create(w.cnt, 4, { "m2m:cin": { rn: "quiet", con: "x" } });
    await owner.update(w.cnt, { "m2m:cnt": { lbl: ["q"] } });
    await owner.delete(`${w.cnt}/quiet`);
    await rx.waitFor((x) => x.path === w.path);
    expect(w.at().map(net)).toEqual([4]);
  });

  it("notifies subscriptions on an AE and on the CSEBase of new children", async () => {
    const path = "/n/base";
    expectRsc(
      await owner.create("/Mobius", 23, { "m2m:sub": { rn: "base-sub", nu: [rx.url + path], enc: { net: [3] } } }),
      201,
      2001,
    );
    const ae = await cse
      .client("Cnotified")
      .create("/Mobius", 2, { "m2m:ae": { rn: "notified", api: "Nn", rr: false, srv: ["3"] } });
    const got = await rx.waitFor((x) => x.path === path);
    expect(rep(got)).toEqual(ae.body);
    expectRsc(await owner.delete("/Mobius/base-sub"), 200, 2002);
  });

  it("answers the request while the receiver has not answered the notification yet", async () => {
    const slow = await startTestCse({ notificationTimeoutMs: 30_000 });
    try {
      const c = slow.client("Cslow");
      await c.create("/Mobius", 2, { "m2m:ae": { rn: "slow", api: "Ns", rr: false, srv: ["3"] } });
      await c.create("/Mobius/slow", 3, { "m2m:cnt": { rn: "c" } });
      answers.set("/n/hang", () => "hang");
      await c.create("/Mobius/slow/c", 23, { "m2m:sub": { rn: "s", nu: [`${rx.url}/n/hang`], enc: { net: [3] } } });
      const first = await c.create("/Mobius/slow/c", 4, { "m2m:cin": { con: 1 } });
      expectRsc(first, 201, 2001);
      const hung = await rx.waitFor((x) => x.path === "/n/hang");
      const second = await c.create("/Mobius/slow/c", 4, { "m2m:cin": { con: 2 } });
      expectRsc(second, 201, 2001);
      // both answers came while the first notification still waits for its answer
      expect(hung.pending).toBe(true);
    } finally {
      await slow.close();
    }
  });

  it("deletes a subscription after 16 notifications in a row get no answer; an answer resets the count", async () => {
    const w = await watched({ enc: { net: [3] } });
    const ri = (await owner.retrieve(w.sub)).body["m2m:sub"].ri;
    let drop = true;
    answers.set(w.path, () => (drop ? "drop" : { status: 200, rsc: 2000 }));
    // the CSE's own account of each failure: what the receiver saw of a dropped request does not matter
    const failures = () =>
      cse.logged.filter((e) => e.event === "notification-failed" && e.sub === ri).map((e) => e.failures);
    const add = async (count: number, con: unknown = "x") => {
      for (let i = 0; i < count; i++) expectRsc(await owner.create(w.cnt, 4, { "m2m:cin": { con } }), 201, 2001);
    };
    const range = (to: number) => Array.from({ length: to }, (_, i) => i + 1);
    await add(15);
    await eventually(async () => failures().length === 15, "15 failed notifications");
    drop = false;
    await add(1, "answered");
    await rx.waitFor((x) => x.path === w.path && !x.pending && rep(x)["m2m:cin"].con === "answered");
    drop = true;
    await add(15);
    await eventually(async () => failures().length === 30, "30 failed notifications");
    expectRsc(await owner.retrieve(w.sub), 200, 2000);
    await add(1);
    await eventually(async () => (await owner.retrieve(w.sub)).status === 404, "the subscription to be removed");
    expect(failures()).toEqual([...range(15), ...range(16)]);
    expect(cse.logged).toContainEqual(expect.objectContaining({ event: "subscription-removed", sub: ri }));
    const seen = w.at().length;
    await add(3);
    await new Promise((r) => setTimeout(r, 300));
    expect(w.at()).toHaveLength(seen);
  });

  it("gives up on a notification after the timeout", async () => {
    const quick = await startTestCse({ notificationTimeoutMs: 100, maxNotificationFailures: 2 });
    try {
      const c = quick.client("Cquick");
      await c.create("/Mobius", 2, { "m2m:ae": { rn: "q", api: "Nq", rr: false, srv: ["3"] } });
      await c.create("/Mobius/q", 3, { "m2m:cnt": { rn: "c" } });
      answers.set("/n/timeout", () => "hang");
      expectRsc(await c.create("/Mobius/q/c", 23, { "m2m:sub": { rn: "s", nu: [`${rx.url}/n/timeout`] } }), 201, 2001);
      await c.create("/Mobius/q/c", 4, { "m2m:cin": { con: 1 } });
      await c.create("/Mobius/q/c", 4, { "m2m:cin": { con: 2 } });
      await eventually(
        async () => (await c.retrieve("/Mobius/q/c/s")).status === 404,
        "the subscription to be removed",
      );
      expect(quick.logged.filter((e) => e.event === "notification-failed").map((e) => e.failures)).toEqual([1, 2]);
    } finally {
      await quick.close();
    }
  });

  it("counts a refused connection as no answer", async () => {
    const closed = await freePort();
    const w = await watched({ enc: { net: [3] }, nu: [`http://127.0.0.1:${closed}/n`] });
    for (let i = 0; i < 16; i++) await owner.create(w.cnt, 4, { "m2m:cin": { con: i } });
    await eventually(async () => (await owner.retrieve(w.sub)).status === 404, "the subscription to be removed");
  });
});

describe("subscription attributes", () => {
  it("defaults to net [3] and nct 1 and refuses what it cannot deliver", async () => {
    expectRsc(await owner.create("/Mobius/app", 3, { "m2m:cnt": { rn: "attrs" } }), 201, 2001);
    const ok = await owner.create("/Mobius/app/attrs", 23, { "m2m:sub": { rn: "s", nu: [`${rx.url}/n/attrs`] } });
    expect(ok.body["m2m:sub"]).toMatchObject({ enc: { net: [3] }, nct: 1, nu: [`${rx.url}/n/attrs`], cr: "Cowner" });
    const bad = async (sub: Record<string, unknown>, reason: RegExp) => {
      const r = await owner.create("/Mobius/app/attrs", 23, { "m2m:sub": { nu: [`${rx.url}/n/x`], ...sub } });
      expectRsc(r, 400, 4000);
      expect(r.body["m2m:dbg"]).toMatch(reason);
    };
    await bad({ nu: [] }, /nu must be a non-empty array/);
    await bad({ nu: ["mqtt://broker/topic"] }, /HTTP only/);
    await bad({ nu: ["not a url"] }, /neither a URL nor an AE-ID/);
    await bad({ nu: ["Cnobody"] }, /neither a URL nor the AE-ID or structured path of a registered AE/);
    await bad({ enc: { net: [5] } }, /net: 5 is not supported/);
    await bad({ enc: { net: [] } }, /non-empty/);
    await bad({ enc: { net: [3], chty: [2] } }, /enc\.chty: resource type 2 cannot be a child here/);
    await bad({ enc: { net: [3], om: [] } }, /enc\.om is not supported/);
    await bad({ nct: 4 }, /nct must be 1/);
  });

  it("updates nu and enc, by the creator only", async () => {
    const w = await watched({ enc: { net: [4] } });
    expectRsc(await cse.client("Cother").update(w.sub, { "m2m:sub": { enc: { net: [3] } } }), 403, 4103);
    const r = await owner.update(w.sub, { "m2m:sub": { enc: { net: [3] }, nu: [`${rx.url}/n/moved`] } });
    expectRsc(r, 200, 2004);
    await owner.create(w.cnt, 4, { "m2m:cin": { con: "after" } });
    const got = await rx.waitFor((x) => x.path === "/n/moved");
    expect(rep(got)["m2m:cin"].con).toBe("after");
    expect(w.at()).toEqual([]);
  });
});

describe("verification requests (ACME's behaviour, off by default as in Mobius)", () => {
  let strict: TestCse;
  let c: M2mClient;
  beforeAll(async () => {
    strict = await startTestCse({ verifySubscriptions: true, notificationTimeoutMs: 500 });
    c = strict.client("Cstrict");
    await c.create("/Mobius", 2, { "m2m:ae": { rn: "s", api: "Ns", rr: false, srv: ["3"] } });
    await c.create("/Mobius/s", 3, { "m2m:cnt": { rn: "c" } });
  });
  afterAll(() => strict.close());

  it("sends vrq to each new URI and creates the subscription when it answers 2000", async () => {
    expectRsc(await c.create("/Mobius/s/c", 23, { "m2m:sub": { rn: "ok", nu: [`${rx.url}/v/ok`] } }), 201, 2001);
    const v = await rx.waitFor((x) => x.path === "/v/ok");
    expect(v.body).toEqual({ "m2m:sgn": { vrq: true, sur: "Mobius/s/c/ok", cr: "Cstrict" } });
    expect(v.headers["x-m2m-origin"]).toBe("/Mobius2");
  });

  it("refuses the subscription with 500/5204 when the URI answers otherwise or not at all", async () => {
    answers.set("/v/refuse", () => ({ status: 403, rsc: 4103 }));
    const refused = await c.create("/Mobius/s/c", 23, { "m2m:sub": { rn: "refused", nu: [`${rx.url}/v/refuse`] } });
    expectRsc(refused, 500, 5204);
    expect(refused.body["m2m:dbg"]).toMatch(/HTTP 403/);
    expectRsc(await c.retrieve("/Mobius/s/c/refused"), 404, 4004);
    answers.set("/v/silent", () => "hang");
    expectRsc(
      await c.create("/Mobius/s/c", 23, { "m2m:sub": { rn: "silent", nu: [`${rx.url}/v/silent`] } }),
      500,
      5204,
    );
  });
});

describe("subscriber, expiration counter and AE-ID targets", () => {
  it("exc: deletes the subscription after exc notifications and announces it to su", async () => {
    const w = await watched({ enc: { net: [3] }, exc: 2, su: `${rx.url}/su/exc` });
    expect((await owner.retrieve(w.sub)).body["m2m:sub"]).toMatchObject({ exc: 2, su: `${rx.url}/su/exc` });
    expectRsc(await owner.create(w.cnt, 4, { "m2m:cin": { rn: "e1", con: "1" } }), 201, 2001);
    expect((await owner.retrieve(w.sub)).body["m2m:sub"].exc).toBe(1);
    expectRsc(await owner.create(w.cnt, 4, { "m2m:cin": { rn: "e2", con: "2" } }), 201, 2001);
    expectRsc(await owner.retrieve(w.sub), 404, 4004);
    expectRsc(await owner.create(w.cnt, 4, { "m2m:cin": { rn: "e3", con: "3" } }), 201, 2001);
    const gone = await rx.waitFor((x) => x.path === "/su/exc");
    expect(gone.body).toEqual({ "m2m:sgn": { sud: true, sur: w.sub.slice(1) } });
    // the deletion notice is queued behind the subscription's last notification
    expect(w.at().map((x) => rep(x)["m2m:cin"].rn)).toEqual(["e1", "e2"]);
  });

  it("su: a DELETE of the subscription is announced there", async () => {
    const w = await watched({ su: `${rx.url}/su/deleted` });
    expectRsc(await owner.delete(w.sub), 200, 2002);
    const gone = await rx.waitFor((x) => x.path === "/su/deleted");
    expect(gone.body["m2m:sgn"]).toEqual({ sud: true, sur: w.sub.slice(1) });
  });

  it("an AE-ID in nu sends the notifications to that AE's poa", async () => {
    const listener = cse.client("Clistener");
    expectRsc(
      await listener.create("/Mobius", 2, {
        "m2m:ae": { rn: "listener", api: "Nl", rr: true, srv: ["3"], poa: [`${rx.url}/poa/listener`] },
      }),
      201,
      2001,
    );
    expectRsc(await owner.create("/Mobius/app", 3, { "m2m:cnt": { rn: "to-ae" } }), 201, 2001);
    const sub = await owner.create("/Mobius/app/to-ae", 23, {
      "m2m:sub": { rn: "sub", nu: ["Clistener"], enc: { net: [3] } },
    });
    expectRsc(sub, 201, 2001);
    expect(sub.body["m2m:sub"].nu).toEqual(["Clistener"]);
    expectRsc(await owner.create("/Mobius/app/to-ae", 4, { "m2m:cin": { rn: "for-ae", con: "x" } }), 201, 2001);
    const got = await rx.waitFor((x) => x.path === "/poa/listener");
    expect(rep(got)["m2m:cin"].rn).toBe("for-ae");
    // the poa is read when notifying: an AE that moves keeps getting them
    expectRsc(await listener.update("/Mobius/listener", { "m2m:ae": { poa: [`${rx.url}/poa/moved`] } }), 200, 2004);
    expectRsc(await owner.create("/Mobius/app/to-ae", 4, { "m2m:cin": { rn: "after-move", con: "x" } }), 201, 2001);
    expect(rep(await rx.waitFor((x) => x.path === "/poa/moved"))["m2m:cin"].rn).toBe("after-move");
  });

  it("refuses a bad su or exc", async () => {
    expectRsc(await owner.create("/Mobius/app", 3, { "m2m:cnt": { rn: "bad-sub" } }), 201, 2001);
    for (const attrs of [{ su: "nowhere" }, { su: ["http://x"] }, { exc: 0 }, { exc: "2" }])
      expectRsc(
        await owner.create("/Mobius/app/bad-sub", 23, { "m2m:sub": { nu: [`${rx.url}/n/x`], ...attrs } }),
        400,
        4000,
      );
  });
});
