// The "portable request set" of docs/onem2m-http.md against the embedded CSE and a real ACME
// (PyPI acmecse) with the same assertions; where Mobius and ACME differ on purpose, each CSE's
// documented answer is asserted (DIFFERENCES below, explained in docs/cse.md).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { M2mClient, type M2mResponse } from "./client.ts";
import { startTestCse, type TestCse } from "./fixture.ts";
import { startAcme, type RunningAcme } from "../../test-support/acme.ts";
import { startNotifyReceiver, type NotifyReceiver } from "../../test-support/notifyReceiver.ts";

type PeerName = "mobius" | "standard" | "acme";

interface Peer {
  base: string;
  cseId: string;
  client: M2mClient;
  other: M2mClient;
}

const DIFFERENCES: Record<
  PeerName,
  {
    /** rn "la": Mobius refuses the keyword (409/4005), ACME sees a name clash with <latest> (409/4105) */
    rnLa: number;
    /** a second AE create by the same originator with the same rn */
    aeAgain: [number, number];
    /** reading a container created by someone else: Mobius has no ACP by default, ACME does */
    otherRetrieve: number;
    /** creating an instance in a container with mni=0 */
    mniZero: number;
    /** AE api without an N/R prefix */
    plainApi: number;
    /** request without X-M2M-RVI: Mobius assumes 2a, ACME refuses */
    noRvi: [number, number];
    /** nct=2 on a net [3] subscription: ACME allows nct=2 with net [1] only */
    nct2Create: number;
    /** a create under …/la: Mobius 409/4005, ACME 405/4005 */
    postLa: number;
    /** discovery order: Mobius lists by path descending, ACME in creation order */
    byNameDescending: boolean;
    /** the containers "ty=3&lim=2" finds: Mobius the alphabetically smallest names, ACME the first created */
    limTwo: string[];
  }
> = {
  mobius: {
    rnLa: 4005,
    aeAgain: [409, 4105],
    otherRetrieve: 200,
    mniZero: 406,
    plainApi: 201,
    noRvi: [200, 2000],
    nct2Create: 201,
    postLa: 409,
    byNameDescending: true,
    limTwo: ["l2", "l1"],
  },
  standard: {
    rnLa: 4005,
    aeAgain: [409, 4105],
    otherRetrieve: 403,
    mniZero: 406,
    plainApi: 400,
    noRvi: [200, 2000],
    nct2Create: 400,
    postLa: 405,
    byNameDescending: false,
    limTwo: ["up", "l1"],
  },
  acme: {
    rnLa: 4105,
    aeAgain: [403, 4117],
    otherRetrieve: 403,
    mniZero: 201,
    plainApi: 400,
    noRvi: [501, 4001],
    nct2Create: 400,
    postLa: 405,
    byNameDescending: false,
    limTwo: ["up", "l1"],
  },
};

let mobius: TestCse;
let standard: TestCse;
let acme: RunningAcme;
let rx: NotifyReceiver;
const peers = new Map<PeerName, Peer>();

beforeAll(async () => {
  rx = await startNotifyReceiver();
  [mobius, standard, acme] = await Promise.all([
    startTestCse({ profile: "mobius" }),
    startTestCse({ profile: "standard" }),
    startAcme(),
  ]);
  for (const [name, cse] of [
    ["mobius", mobius],
    ["standard", standard],
  ] as const)
    peers.set(name, {
      base: "Mobius",
      cseId: "/Mobius2",
      client: new M2mClient(cse.url, "Cdecoder"),
      other: new M2mClient(cse.url, "Cother"),
    });
  peers.set("acme", {
    base: acme.base,
    cseId: acme.cseId,
    client: new M2mClient(acme.url, "Cdecoder"),
    other: new M2mClient(acme.url, "Cother"),
  });
}, 120_000);

afterAll(async () => {
  await Promise.all([mobius?.close(), standard?.close(), acme?.stop(), rx?.close()]);
});

function expectRsc(r: M2mResponse, status: number, rsc: number): void {
  expect({ status: r.status, rsc: r.rsc }).toEqual({ status, rsc });
  if (status >= 400) expect(typeof r.body["m2m:dbg"]).toBe("string");
}

describe.each(["mobius", "standard", "acme"] as const)("portable request set on %s", (name) => {
  const d = DIFFERENCES[name];
  const p = () => peers.get(name)!;
  const at = (rest = "") => `/${p().base}${rest}`;

  it("registers the AE (ty=2) and echoes RI and RVI", async () => {
    const r = await p().client.create(at(), 2, { "m2m:ae": { rn: "decoder", api: "Ndecoder", rr: false, srv: ["3"] } });
    expectRsc(r, 201, 2001);
    expect(r.body["m2m:ae"]).toMatchObject({
      rn: "decoder",
      api: "Ndecoder",
      rr: false,
      srv: ["3"],
      aei: "Cdecoder",
      ty: 2,
    });
    expect(r.headers.get("x-m2m-rvi")).toBe("3");
    expect(r.headers.get("x-m2m-ri")).toMatch(/^req-\d+$/);
    const again = await p().client.create(at(), 2, {
      "m2m:ae": { rn: "decoder", api: "Ndecoder", rr: false, srv: ["3"] },
    });
    expectRsc(again, ...d.aeAgain);
    expectRsc(
      await p().other.create(at(), 2, { "m2m:ae": { rn: "decoder", api: "Nother", rr: false, srv: ["3"] } }),
      409,
      4105,
    );
  });

  it("creates the container (ty=3) with its limits and empty counters", async () => {
    const r = await p().client.create(at("/decoder"), 3, { "m2m:cnt": { rn: "up", mni: 1000, mbs: 1000000 } });
    expectRsc(r, 201, 2001);
    expect(r.body["m2m:cnt"]).toMatchObject({ rn: "up", mni: 1000, mbs: 1000000, cni: 0, cbs: 0, st: 0, ty: 3 });
  });

  it("answers 404/4004 for la and ol of an empty container", async () => {
    expectRsc(await p().client.retrieve(at("/decoder/up/la")), 404, 4004);
    expectRsc(await p().client.retrieve(at("/decoder/up/ol")), 404, 4004);
  });

  it("creates instances (ty=4) named by message id; a resend answers 409/4105", async () => {
    const con = { iso6346: "MSCU1234565", temp: "21.5", door: "closed" };
    const r = await p().client.create(at("/decoder/up"), 4, {
      "m2m:cin": { rn: "msg-1", cnf: "application/json:0", con },
    });
    expectRsc(r, 201, 2001);
    expect(r.body["m2m:cin"]).toMatchObject({ rn: "msg-1", cnf: "application/json:0", con, ty: 4, st: 1 });
    expectRsc(
      await p().client.create(at("/decoder/up"), 4, { "m2m:cin": { rn: "msg-1", cnf: "application/json:0", con } }),
      409,
      4105,
    );
    expectRsc(
      await p().client.create(at("/decoder/up"), 4, { "m2m:cin": { rn: "msg-2", cnf: "text/plain:0", con: "hello" } }),
      201,
      2001,
    );
    const cnt = (await p().client.retrieve(at("/decoder/up"))).body["m2m:cnt"];
    expect(cnt).toMatchObject({ cni: 2, st: 2 });
  });

  it("reads the latest and oldest instance through la and ol", async () => {
    const la = await p().client.retrieve(at("/decoder/up/la"));
    expectRsc(la, 200, 2000);
    expect(la.body["m2m:cin"]).toMatchObject({ rn: "msg-2", con: "hello" });
    const ol = await p().client.retrieve(at("/decoder/up/ol"));
    expect(ol.body["m2m:cin"]).toMatchObject({ rn: "msg-1", con: { iso6346: "MSCU1234565" } });
    expect((await p().client.retrieve(at("/decoder/up/msg-1"))).body).toEqual(ol.body);
  });

  it("discovers instances with fu=1&ty=4 as m2m:uril", async () => {
    const r = await p().client.retrieve(at("/decoder/up?fu=1&ty=4"));
    expectRsc(r, 200, 2000);
    const created = [`${p().base}/decoder/up/msg-1`, `${p().base}/decoder/up/msg-2`];
    expect(r.body).toEqual({ "m2m:uril": d.byNameDescending ? created.reverse() : created });
  });

  it("discovers by lbl and caps with lim", async () => {
    expectRsc(
      await p().client.create(at("/decoder"), 3, { "m2m:cnt": { rn: "l1", lbl: ["key:a", "fleet"] } }),
      201,
      2001,
    );
    expectRsc(
      await p().client.create(at("/decoder"), 3, { "m2m:cnt": { rn: "l2", lbl: ["key:b", "fleet"] } }),
      201,
      2001,
    );
    const uril = async (q: string) =>
      (await p().client.retrieve(at(`/decoder?fu=1&${q}`))).body["m2m:uril"] as string[];
    const under = (...rns: string[]) => rns.map((rn) => `${p().base}/decoder/${rn}`);
    expect(await uril("lbl=key:a")).toEqual(under("l1"));
    expect(await uril("lbl=fleet")).toEqual(under(...(d.byNameDescending ? ["l2", "l1"] : ["l1", "l2"])));
    expect(await uril("ty=3&lim=2")).toEqual(under(...d.limTwo));
  });

  it("refuses creating under la (405 or 409/4005) and the name la (409)", async () => {
    expectRsc(await p().client.create(at("/decoder/up/la"), 4, { "m2m:cin": { con: "x" } }), d.postLa, 4005);
    expectRsc(await p().client.create(at("/decoder/up"), 4, { "m2m:cin": { rn: "la", con: "x" } }), 409, d.rnLa);
  });

  it("refuses updating an instance (405/4005)", async () => {
    expectRsc(await p().client.update(at("/decoder/up/msg-1"), { "m2m:cin": { con: "changed" } }), 405, 4005);
  });

  it("refuses missing RI, missing originator, bad JSON and unknown attributes (400/4000)", async () => {
    const c = p().client;
    expectRsc(
      await c.raw({ method: "GET", path: at("/decoder"), headers: { "X-M2M-Origin": "Cdecoder", "X-M2M-RVI": "3" } }),
      400,
      4000,
    );
    expectRsc(
      await c.raw({ method: "GET", path: at("/decoder"), headers: { "X-M2M-RI": "r", "X-M2M-RVI": "3" } }),
      400,
      4000,
    );
    expectRsc(
      await c.raw({
        method: "POST",
        path: at("/decoder/up"),
        headers: {
          "X-M2M-RI": "r",
          "X-M2M-Origin": "Cdecoder",
          "X-M2M-RVI": "3",
          "Content-Type": "application/json;ty=4",
        },
        body: '{"m2m:cin":{"con":',
      }),
      400,
      4000,
    );
    expectRsc(await c.create(at("/decoder"), 3, { "m2m:cnt": { rn: "q", foo: 1 } }), 400, 4000);
    expectRsc(await c.create(at("/decoder"), 3, { "m2m:cnt": { rn: "q", mni: "lots" } }), 400, 4000);
    expectRsc(await c.create(at("/decoder"), 3, { "m2m:cin": { rn: "q" } }), 400, 4000);
  });

  it("answers 404/4004, 403/4108 and 405/4005 alike", async () => {
    expectRsc(await p().client.retrieve(at("/nothing")), 404, 4004);
    expectRsc(await p().client.create(at("/decoder/up/msg-1"), 3, { "m2m:cnt": { rn: "q" } }), 403, 4108);
    expectRsc(await p().client.create(at(), 5, { "m2m:cb": { rn: "q" } }), 405, 4005);
  });

  it("trims oldest-first to mni and mbs, and refuses an instance over mbs (406/5207)", async () => {
    const c = p().client;
    expectRsc(await c.create(at("/decoder"), 3, { "m2m:cnt": { rn: "small", mni: 2, mbs: 10 } }), 201, 2001);
    expectRsc(await c.create(at("/decoder/small"), 4, { "m2m:cin": { con: "01234567890" } }), 406, 5207);
    for (const rn of ["a", "b", "c"])
      expectRsc(await c.create(at("/decoder/small"), 4, { "m2m:cin": { rn, con: "0123" } }), 201, 2001);
    expect((await c.retrieve(at("/decoder/small"))).body["m2m:cnt"]).toMatchObject({ cni: 2, cbs: 8 });
    expectRsc(await c.create(at("/decoder/small"), 4, { "m2m:cin": { rn: "d", con: "01234567" } }), 201, 2001);
    expect((await c.retrieve(at("/decoder/small"))).body["m2m:cnt"]).toMatchObject({ cni: 1, cbs: 8 });
    expect((await c.retrieve(at("/decoder/small/ol"))).body["m2m:cin"].rn).toBe("d");
    expectRsc(await c.create(at("/decoder"), 3, { "m2m:cnt": { rn: "zero", mni: 0 } }), 201, 2001);
    expect((await c.create(at("/decoder/zero"), 4, { "m2m:cin": { con: "x" } })).status).toBe(d.mniZero);
  });

  it("notifies a subscription (ty=23, net [3]) of each new instance with the whole m2m:cin", async () => {
    const nu = `${rx.url}/${name}/n`;
    const sub = await p().client.create(at("/decoder/up"), 23, {
      "m2m:sub": { rn: "s1", enc: { net: [3] }, nu: [nu], nct: 1 },
    });
    expectRsc(sub, 201, 2001);
    const cin = await p().client.create(at("/decoder/up"), 4, {
      "m2m:cin": { rn: "msg-3", cnf: "application/json:0", con: { n: 3 } },
    });
    expectRsc(cin, 201, 2001);
    const got = await rx.waitFor((x) => x.path === `/${name}/n` && x.body?.["m2m:sgn"]?.nev !== undefined);
    expect(got.headers["x-m2m-origin"]).toBe(p().cseId);
    const sgn = got.body["m2m:sgn"];
    expect(sgn.nev.net).toBe(3);
    expect(sgn.nev.rep["m2m:cin"]).toMatchObject({ rn: "msg-3", con: { n: 3 }, ri: cin.body["m2m:cin"].ri });
    expect(typeof sgn.sur).toBe("string");
    expectRsc(
      await p().client.create(at("/decoder/up"), 23, { "m2m:sub": { rn: "s2", enc: { net: [3] }, nu: [nu], nct: 2 } }),
      d.nct2Create,
      d.nct2Create === 201 ? 2001 : 4000,
    );
  });

  it("lets only the creator (or admin) change and delete resources; reading differs by ACP", async () => {
    expectRsc(await p().other.update(at("/decoder/up"), { "m2m:cnt": { lbl: ["x"] } }), 403, 4103);
    expectRsc(await p().other.delete(at("/decoder/up/msg-1")), 403, 4103);
    expect((await p().other.retrieve(at("/decoder/up"))).status).toBe(d.otherRetrieve);
    const u = await p().client.update(at("/decoder/up"), { "m2m:cnt": { lbl: ["decoded"] } });
    expectRsc(u, 200, 2004);
    expect(u.body["m2m:cnt"].lbl).toEqual(["decoded"]);
    expectRsc(await p().client.delete(at("/decoder/up/msg-1")), 200, 2002);
    expectRsc(await p().client.retrieve(at("/decoder/up/msg-1")), 404, 4004);
  });

  it("differs as documented on api prefixes and a missing X-M2M-RVI", async () => {
    expect(
      (
        await new M2mClient(p().client.url, "Cplain").create(at(), 2, {
          "m2m:ae": { rn: "plain", api: "plain", rr: false, srv: ["3"] },
        })
      ).status,
    ).toBe(d.plainApi);
    const r = await p().client.raw({
      method: "GET",
      path: at("/decoder"),
      headers: { "X-M2M-RI": "r", "X-M2M-Origin": "Cdecoder" },
    });
    expectRsc(r, ...d.noRvi);
  });
});
