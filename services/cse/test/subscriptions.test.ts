// What a subscription asks for beyond net and nct 1/2 (TS-0004): the event criteria atr and chty,
// nct 3, the creator in notifications, batches (bn), latestNotify (ln), CBOR for targets that ask
// for it, request reachability, whom verification skips, and deletion notices sent before the
// DELETE is answered. The standard profile unless a case says otherwise.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { decode } from "cbor-x";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { M2mClient, M2mResponse } from "./client.ts";
import { eventually, startTestCse, type TestCse } from "./fixture.ts";
import {
  startNotifyReceiver,
  type NotifyReceiver,
  type ReceivedNotification,
} from "../../test-support/notifyReceiver.ts";

let cse: TestCse;
let owner: M2mClient;
let rx: NotifyReceiver;

beforeAll(async () => {
  rx = await startNotifyReceiver();
  cse = await startTestCse({ profile: "standard", notificationTimeoutMs: 5000 });
  owner = cse.client("Cowner");
  expectRsc(
    await owner.create("/Mobius", 2, { "m2m:ae": { rn: "app", api: "Napp", rr: true, srv: ["3"] } }),
    201,
    2001,
  );
});
afterAll(async () => {
  await cse.close();
  await rx.close();
});

function expectRsc(r: M2mResponse, status: number, rsc: number): void {
  expect({ status: r.status, rsc: r.rsc, dbg: r.status >= 300 ? r.body["m2m:dbg"] : undefined }).toEqual({
    status,
    rsc,
    dbg: status >= 300 ? expect.any(String) : undefined,
  });
}

let n = 0;
/** a fresh container with a subscription whose notifications arrive at a path of their own */
async function watched(sub: Record<string, unknown>) {
  const rn = `c${++n}`;
  const cnt = `/Mobius/app/${rn}`;
  const path = `/s/${rn}`;
  expectRsc(await owner.create("/Mobius/app", 3, { "m2m:cnt": { rn } }), 201, 2001);
  const made = await owner.create(cnt, 23, { "m2m:sub": { rn: "sub", nu: [rx.url + path], ...sub } });
  expectRsc(made, 201, 2001);
  return {
    cnt,
    sub: `${cnt}/sub`,
    ri: made.body["m2m:sub"].ri as string,
    path,
    at: () => rx.received.filter((x) => x.path === path),
  };
}

const sgn = (x: ReceivedNotification) => x.body["m2m:sgn"];

describe("event criteria and content", () => {
  it("enc.chty: only children of the listed types; a type the parent cannot have is refused", async () => {
    const w = await watched({ enc: { net: [3], chty: [3] } });
    expectRsc(await owner.create(w.cnt, 4, { "m2m:cin": { rn: "ignored", con: "x" } }), 201, 2001);
    expectRsc(await owner.create(w.cnt, 3, { "m2m:cnt": { rn: "wanted" } }), 201, 2001);
    const got = await rx.waitFor((x) => x.path === w.path);
    expect(sgn(got).nev.rep["m2m:cnt"].rn).toBe("wanted");
    expect(w.at()).toHaveLength(1);
    expectRsc(
      await owner.create(w.cnt, 23, { "m2m:sub": { nu: [`${rx.url}/x`], enc: { net: [3], chty: [2] } } }),
      400,
      4000,
    );
  });

  it("enc.atr: an update notifies only when one of the listed attributes changed", async () => {
    const w = await watched({ enc: { net: [1], atr: ["lbl"] } });
    expectRsc(await owner.update(w.cnt, { "m2m:cnt": { mni: 99 } }), 200, 2004);
    expectRsc(await owner.update(w.cnt, { "m2m:cnt": { lbl: ["hello"] } }), 200, 2004);
    const got = await rx.waitFor((x) => x.path === w.path);
    expect(sgn(got).nev.rep["m2m:cnt"].lbl).toEqual(["hello"]);
    expect(w.at()).toHaveLength(1);
  });

  it("nct 3: the notification names the resource by its id, as ACME writes it (/<CSE-ID>/<ri>)", async () => {
    const w = await watched({ enc: { net: [1, 3] }, nct: 3 });
    const cin = await owner.create(w.cnt, 4, { "m2m:cin": { con: "x" } });
    const got = await rx.waitFor((x) => x.path === w.path);
    expect(sgn(got)).toEqual({
      nev: { rep: { "m2m:uri": `/Mobius2/${cin.body["m2m:cin"].ri}` }, net: 3 },
      sur: `/Mobius2/${w.ri}`,
    });
  });

  it("nct 2 only with net [1], as TS-0004 and ACME want", async () => {
    expectRsc(await owner.create("/Mobius/app", 3, { "m2m:cnt": { rn: "nct2" } }), 201, 2001);
    const sub = (enc: number[]) =>
      owner.create("/Mobius/app/nct2", 23, { "m2m:sub": { nu: [`${rx.url}/x`], enc: { net: enc }, nct: 2 } });
    expectRsc(await sub([3]), 400, 4000);
    expectRsc(await sub([1]), 201, 2001);
  });

  it("names the subscriber (cr) in every notification when the subscription was created with cr: null", async () => {
    const asked = await watched({ enc: { net: [3] }, cr: null });
    expect((await owner.retrieve(asked.sub)).body["m2m:sub"].cr).toBe("Cowner");
    expectRsc(await owner.create(asked.cnt, 4, { "m2m:cin": { con: "x" } }), 201, 2001);
    expect(sgn(await rx.waitFor((x) => x.path === asked.path)).cr).toBe("Cowner");
    const plain = await watched({ enc: { net: [3] } });
    expectRsc(await owner.create(plain.cnt, 4, { "m2m:cin": { con: "x" } }), 201, 2001);
    expect(sgn(await rx.waitFor((x) => x.path === plain.path))).not.toHaveProperty("cr");
  });

  it("enc: null restores the default criteria; nu cannot be removed", async () => {
    const w = await watched({ enc: { net: [3] } });
    const u = await owner.update(w.sub, { "m2m:sub": { enc: null } });
    expectRsc(u, 200, 2004);
    expect(u.body["m2m:sub"].enc).toEqual({ net: [1] });
    expectRsc(await owner.update(w.sub, { "m2m:sub": { nu: null } }), 400, 4000);
  });
});

describe("batches (bn) and latestNotify (ln)", () => {
  it("bn.num: one m2m:agn per num notifications, in order; what is gathered goes out when the subscription is deleted", async () => {
    const w = await watched({ enc: { net: [3] }, bn: { num: 2 } });
    expect((await owner.retrieve(w.sub)).body["m2m:sub"].bn).toEqual({ num: 2, dur: 60 });
    for (const rn of ["a", "b", "c"])
      expectRsc(await owner.create(w.cnt, 4, { "m2m:cin": { rn, con: rn } }), 201, 2001);
    const first = await rx.waitFor((x) => x.path === w.path);
    const names = (x: ReceivedNotification) =>
      (x.body["m2m:agn"]["m2m:sgn"] as { nev: { rep: { "m2m:cin": { rn: string } } } }[]).map(
        (s) => s.nev.rep["m2m:cin"].rn,
      );
    expect(names(first)).toEqual(["a", "b"]);
    expectRsc(await owner.delete(w.sub), 200, 2002);
    const [, rest] = await rx.waitForCount(2, (x) => x.path === w.path);
    expect(names(rest!)).toEqual(["c"]);
  });

  it("bn.dur: the batch goes out once dur has passed since its first notification", async () => {
    const w = await watched({ enc: { net: [3] }, bn: { dur: "PT0.3S" } });
    expectRsc(await owner.create(w.cnt, 4, { "m2m:cin": { rn: "x", con: "1" } }), 201, 2001);
    expectRsc(await owner.create(w.cnt, 4, { "m2m:cin": { rn: "y", con: "2" } }), 201, 2001);
    const got = await rx.waitFor((x) => x.path === w.path);
    expect(got.body["m2m:agn"]["m2m:sgn"]).toHaveLength(2);
  });

  it("refuses a batch without num and dur, or with a dur that is no duration", async () => {
    expectRsc(await owner.create("/Mobius/app", 3, { "m2m:cnt": { rn: "badbn" } }), 201, 2001);
    for (const bn of [{}, { dur: "soon" }, { dur: 0 }, { num: 0 }, { num: 2, every: 1 }])
      expectRsc(await owner.create("/Mobius/app/badbn", 23, { "m2m:sub": { nu: [`${rx.url}/x`], bn } }), 400, 4000);
  });

  it("ln with bn: only the newest of a batch goes out, with X-M2M-EC 4 (latest)", async () => {
    const w = await watched({ enc: { net: [1] }, bn: { num: 3 }, ln: true });
    for (const l of ["1", "2", "3"]) expectRsc(await owner.update(w.cnt, { "m2m:cnt": { lbl: [l] } }), 200, 2004);
    const got = await rx.waitFor((x) => x.path === w.path);
    expect(got.headers["x-m2m-ec"]).toBe("4");
    expect(got.body["m2m:agn"]["m2m:sgn"].map((s: any) => s.nev.rep["m2m:cnt"].lbl)).toEqual([["3"]]);
  });
});

/** An endpoint that records raw bodies and holds the first request until released. */
async function holdingReceiver(): Promise<{
  url: string;
  bodies: { headers: IncomingMessage["headers"]; body: Buffer }[];
  release: () => void;
  close: () => Promise<void>;
}> {
  const bodies: { headers: IncomingMessage["headers"]; body: Buffer }[] = [];
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let first = true;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      bodies.push({ headers: req.headers, body: Buffer.concat(chunks) });
      const answer = () => {
        res.writeHead(200, { "X-M2M-RSC": "2000", "Content-Length": "0" });
        res.end();
      };
      if (first) {
        first = false;
        void released.then(answer);
      } else answer();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bodies,
    release,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

describe("delivery", () => {
  it("ln: of the notifications waiting for a busy target only the newest is sent, with X-M2M-EC 4", async () => {
    const target = await holdingReceiver();
    try {
      expectRsc(await owner.create("/Mobius/app", 3, { "m2m:cnt": { rn: "newest" } }), 201, 2001);
      expectRsc(
        await owner.create("/Mobius/app/newest", 23, {
          "m2m:sub": { rn: "sub", nu: [target.url], enc: { net: [3] }, ln: true },
        }),
        201,
        2001,
      );
      for (const rn of ["i1", "i2", "i3", "i4"])
        expectRsc(await owner.create("/Mobius/app/newest", 4, { "m2m:cin": { rn, con: rn } }), 201, 2001);
      // i1 is held by the target: i2 and i3 waited behind it and were replaced by i4
      await eventually(async () => target.bodies.length === 1, "the first notification");
      target.release();
      await eventually(async () => target.bodies.length === 2, "the newest notification");
      const names = target.bodies.map((b) => JSON.parse(b.body.toString("utf8"))["m2m:sgn"].nev.rep["m2m:cin"].rn);
      expect(names).toEqual(["i1", "i4"]);
      expect(target.bodies[1]!.headers["x-m2m-ec"]).toBe("4");
    } finally {
      await target.close();
    }
  });

  it("sends CBOR to an AE whose csz prefers it, and to a nu asking with ct=cbor", async () => {
    const target = await holdingReceiver();
    target.release();
    try {
      const ae = cse.client("Ccbor");
      expectRsc(
        await ae.create("/Mobius", 2, {
          "m2m:ae": {
            rn: "cbor",
            api: "Nc",
            rr: true,
            srv: ["3"],
            poa: [`${target.url}/poa`],
            csz: ["application/cbor"],
          },
        }),
        201,
        2001,
      );
      expectRsc(await ae.create("/Mobius/cbor", 3, { "m2m:cnt": { rn: "c" } }), 201, 2001);
      expectRsc(await ae.create("/Mobius/cbor/c", 23, { "m2m:sub": { nu: ["Ccbor"], enc: { net: [3] } } }), 201, 2001);
      expectRsc(
        await ae.create("/Mobius/cbor/c", 23, { "m2m:sub": { nu: [`${target.url}/q?ct=cbor`], enc: { net: [3] } } }),
        201,
        2001,
      );
      const made = await ae.create("/Mobius/cbor/c", 4, { "m2m:cin": { rn: "v", con: { t: 21.5 } } });
      // the second subscription's creation is itself a child created under the first one's container
      const aboutCin = () => target.bodies.filter((b) => decode(b.body)["m2m:sgn"].nev.rep["m2m:cin"] !== undefined);
      await eventually(async () => aboutCin().length === 2, "both notifications of the instance");
      for (const b of target.bodies) expect(b.headers["content-type"]).toBe("application/cbor");
      for (const b of aboutCin())
        expect(decode(b.body)).toEqual({ "m2m:sgn": { nev: { rep: made.body, net: 3 }, sur: expect.any(String) } });
    } finally {
      await target.close();
    }
  });

  it("does not notify an AE that is not request reachable (rr false)", async () => {
    const poller = cse.client("Cpoller");
    expectRsc(
      await poller.create("/Mobius", 2, {
        "m2m:ae": { rn: "poller", api: "Np", rr: false, srv: ["3"], poa: [`${rx.url}/poller`] },
      }),
      201,
      2001,
    );
    expectRsc(await poller.create("/Mobius/poller", 3, { "m2m:cnt": { rn: "c" } }), 201, 2001);
    expectRsc(
      await poller.create("/Mobius/poller/c", 23, { "m2m:sub": { nu: ["Cpoller"], enc: { net: [3] } } }),
      201,
      2001,
    );
    expectRsc(
      await poller.create("/Mobius/poller/c", 23, { "m2m:sub": { nu: [`${rx.url}/beside`], enc: { net: [3] } } }),
      201,
      2001,
    );
    expectRsc(await poller.create("/Mobius/poller/c", 4, { "m2m:cin": { con: "x" } }), 201, 2001);
    // a notification that does go out, created at the same time, has arrived: the AE's would have too
    await rx.waitFor((x) => x.path === "/beside");
    expect(rx.received.filter((x) => x.path === "/poller")).toEqual([]);
  });

  it("answers the DELETE of a subscription after its deletion notice was sent", async () => {
    const w = await watched({ enc: { net: [3] }, su: `${rx.url}/sud/now` });
    expectRsc(await owner.delete(w.sub), 200, 2002);
    expect(rx.received.filter((x) => x.path === "/sud/now").map((x) => x.body)).toEqual([
      { "m2m:sgn": { sud: true, sur: `/Mobius2/${w.ri}` } },
    ]);
  });
});

describe("verification (ACME's behaviour, with --verify-subscriptions)", () => {
  let strict: TestCse;
  let me: M2mClient;
  beforeAll(async () => {
    strict = await startTestCse({ profile: "standard", verifySubscriptions: true, notificationTimeoutMs: 2000 });
    me = strict.client("Cme");
    expectRsc(
      await me.create("/Mobius", 2, {
        "m2m:ae": { rn: "me", api: "Nme", rr: true, srv: ["3"], poa: [`${rx.url}/me`] },
      }),
      201,
      2001,
    );
    expectRsc(
      await strict.client("Cmute").create("/Mobius", 2, { "m2m:ae": { rn: "mute", api: "Nm", rr: true, srv: ["3"] } }),
      201,
      2001,
    );
  });
  afterAll(() => strict.close());

  it("asks nobody when the target is the subscriber itself (its AE-ID or its structured path)", async () => {
    expectRsc(
      await me.create("/Mobius/me", 23, { "m2m:sub": { rn: "byId", nu: ["Cme"], enc: { net: [3] } } }),
      201,
      2001,
    );
    expectRsc(
      await me.create("/Mobius/me", 23, { "m2m:sub": { rn: "byPath", nu: ["Mobius/me"], enc: { net: [3] } } }),
      201,
      2001,
    );
    expect(rx.received.filter((x) => x.path === "/me")).toEqual([]);
  });

  it("fails with 500/5204 for an AE target without a poa to ask", async () => {
    const r = await me.create("/Mobius/me", 23, { "m2m:sub": { nu: ["Cmute"], enc: { net: [3] } } });
    expectRsc(r, 500, 5204);
    expect(r.body["m2m:dbg"]).toMatch(/no http\(s\) poa/);
  });
});
