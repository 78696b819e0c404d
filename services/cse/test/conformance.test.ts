// The conformance table of docs/cse.md, measured: every request class runs against a real ACME
// (PyPI acmecse) and the embedded CSE under both profiles, and each answer must equal the table's
// cell. A change of behaviour on either side fails here until the table says so. The "Mobius
// (documented)" column is not measured (no Mobius runs here): it is what the mobius profile copies.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { M2mClient, type M2mResponse } from "./client.ts";
import { startTestCse, type TestCse } from "./fixture.ts";
import { startAcme, type RunningAcme } from "../../test-support/acme.ts";
import { startNotifyReceiver, type NotifyReceiver } from "../../test-support/notifyReceiver.ts";

const DOC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../docs/cse.md");
const PEERS = ["acme", "mobius", "standard"] as const;
type PeerName = (typeof PEERS)[number];

interface Peer {
  name: PeerName;
  url: string;
  base: string;
  /** "/id-in", "/Mobius2" */
  cseId: string;
  /** a client for originator `C<name>` */
  as(name: string): M2mClient;
  /** a client for the CSE's admin (ACME's CAdmin, our superuser) */
  admin: M2mClient;
}

const code = (r: M2mResponse) => `${r.status}/${r.rsc}`;
const last = (p: string) => p.split("/").pop();

async function ok(r: Promise<M2mResponse>): Promise<M2mResponse> {
  const res = await r;
  if (res.status >= 300) throw new Error(`setup request failed: ${code(res)} ${JSON.stringify(res.body)}`);
  return res;
}

/** An AE `rn` registered by originator `C<rn>` with a container `up`; returns the client and the container path. */
async function aeWithContainer(p: Peer, rn: string): Promise<{ c: M2mClient; ae: string; up: string }> {
  const c = p.as(rn);
  await ok(c.create(`/${p.base}`, 2, { "m2m:ae": { rn, api: "Nconf", rr: false, srv: ["3"] } }));
  await ok(c.create(`/${p.base}/${rn}`, 3, { "m2m:cnt": { rn: "up" } }));
  return { c, ae: `/${p.base}/${rn}`, up: `/${p.base}/${rn}/up` };
}

/** Instances named b, c, a created in that order (so name order and creation order differ). */
async function bca(c: M2mClient, up: string): Promise<void> {
  for (const rn of ["b", "c", "a"]) await ok(c.create(up, 4, { "m2m:cin": { rn, con: rn } }));
}

const uril = async (c: M2mClient, q: string) => {
  const r = await c.retrieve(q);
  return r.status === 200 ? (r.body["m2m:uril"] as string[]).map(last).join(",") || "none" : code(r);
};

/** Each request class: what it sends, and the short answer the table holds. */
const CLASSES: Record<string, (p: Peer) => Promise<string>> = {
  "ae-without-rr": async (p) =>
    code(await p.as("norr").create(`/${p.base}`, 2, { "m2m:ae": { rn: "norr", api: "Nx", srv: ["3"] } })),
  "ae-rr-string": async (p) =>
    code(
      await p.as("rrstr").create(`/${p.base}`, 2, { "m2m:ae": { rn: "rrstr", api: "Nx", rr: "false", srv: ["3"] } }),
    ),
  "ae-without-srv": async (p) =>
    code(await p.as("nosrv").create(`/${p.base}`, 2, { "m2m:ae": { rn: "nosrv", api: "Nx", rr: false } })),
  "ae-second-name": async (p) => {
    const c = p.as("twice");
    await ok(c.create(`/${p.base}`, 2, { "m2m:ae": { rn: "twice", api: "Nx", rr: false, srv: ["3"] } }));
    return code(await c.create(`/${p.base}`, 2, { "m2m:ae": { rn: "twice2", api: "Nx", rr: false, srv: ["3"] } }));
  },
  "ae-identity": async (p) => {
    const ae = (
      await ok(p.as("ident").create(`/${p.base}`, 2, { "m2m:ae": { rn: "ident", api: "Nx", rr: false, srv: ["3"] } }))
    ).body["m2m:ae"];
    return `${ae.ri === ae.aei ? "ri=AE-ID" : "ri generated"}, ${"cr" in ae ? `cr=${ae.cr === ae.aei ? "AE-ID" : ae.cr}` : "no cr"}`;
  },
  "self-registered-delete-by-C": async (p) => {
    const anyone = new M2mClient(p.url, "C");
    await ok(anyone.create(`/${p.base}`, 2, { "m2m:ae": { rn: "selfdel", api: "Nx", rr: false, srv: ["3"] } }));
    return code(await anyone.delete(`/${p.base}/selfdel`));
  },
  "self-registered-update-own-lbl": async (p) => {
    const r = await ok(
      new M2mClient(p.url, "C").create(`/${p.base}`, 2, {
        "m2m:ae": { rn: "selfupd", api: "Nx", rr: false, srv: ["3"] },
      }),
    );
    return code(
      await new M2mClient(p.url, r.body["m2m:ae"].aei).update(`/${p.base}/selfupd`, { "m2m:ae": { lbl: ["mine"] } }),
    );
  },
  "content-location": async (p) => {
    const c = p.as("loc");
    await ok(c.create(`/${p.base}`, 2, { "m2m:ae": { rn: "loc", api: "Nx", rr: false, srv: ["3"] } }));
    const loc = (await ok(c.create(`/${p.base}/loc`, 3, { "m2m:cnt": { rn: "up" } }))).headers.get("content-location");
    return loc === null
      ? "none"
      : loc === `${p.base}/loc/up`
        ? "base/ae/cnt"
        : loc === `/${p.base}/loc/up`
          ? "/base/ae/cnt"
          : loc;
  },
  "discovery-path-form": async (p) => {
    const { c, ae } = await aeWithContainer(p, "form");
    const paths = (await c.retrieve(`${ae}?fu=1&ty=3`)).body["m2m:uril"] as string[];
    return paths[0] === `${p.base}/form/up`
      ? "base/ae/cnt"
      : paths[0] === `/${p.base}/form/up`
        ? "/base/ae/cnt"
        : String(paths[0]);
  },
  "con-string-holding-json": async (p) => {
    const { c, up } = await aeWithContainer(p, "conjson");
    await ok(c.create(up, 4, { "m2m:cin": { rn: "j", con: '{"x":1}' } }));
    return typeof (await c.retrieve(`${up}/j`)).body["m2m:cin"].con;
  },
  "la-ol-of-b-c-a": async (p) => {
    const { c, up } = await aeWithContainer(p, "laol");
    await bca(c, up);
    return `la=${(await c.retrieve(`${up}/la`)).body["m2m:cin"].rn} ol=${(await c.retrieve(`${up}/ol`)).body["m2m:cin"].rn}`;
  },
  "post-to-la": async (p) => {
    const { c, up } = await aeWithContainer(p, "postla");
    await bca(c, up);
    return code(await c.create(`${up}/la`, 4, { "m2m:cin": { con: "x" } }));
  },
  "discovery-order-of-b-c-a": async (p) => {
    const { c, up } = await aeWithContainer(p, "order");
    await bca(c, up);
    return uril(c, `${up}?fu=1&ty=4`);
  },
  "discovery-lim-2": async (p) => {
    const { c, up } = await aeWithContainer(p, "lim");
    await bca(c, up);
    return uril(c, `${up}?fu=1&ty=4&lim=2`);
  },
  "discovery-ofst-1": async (p) => {
    const { c, up } = await aeWithContainer(p, "ofst");
    await bca(c, up);
    return uril(c, `${up}?fu=1&ty=4&ofst=1`);
  },
  "discovery-crb-2000": async (p) => {
    const { c, up } = await aeWithContainer(p, "crb");
    await bca(c, up);
    return uril(c, `${up}?fu=1&ty=4&crb=20000101T000000`);
  },
  "discovery-fo-2": async (p) => {
    const { c, up } = await aeWithContainer(p, "fo");
    await bca(c, up);
    return uril(c, `${up}?fu=1&ty=4&lbl=nothing&fo=2`);
  },
  "discovery-lbl-and-ty": async (p) => {
    const { c, up } = await aeWithContainer(p, "lblty");
    await bca(c, up);
    return uril(c, `${up}?fu=1&ty=4&lbl=nothing`);
  },
  "discovery-sts-2": async (p) => {
    const { c, up } = await aeWithContainer(p, "sts");
    await bca(c, up);
    return uril(c, `${up}?fu=1&ty=4&sts=2`);
  },
  "discovery-lvl-1": async (p) => {
    const { c, ae, up } = await aeWithContainer(p, "lvl");
    await bca(c, up);
    return uril(c, `${ae}?fu=1&lvl=1`);
  },
  "discovery-unknown-argument": async (p) => {
    const { c, up } = await aeWithContainer(p, "unknown");
    return code(await c.retrieve(`${up}?fu=1&ty=4&foo=1`));
  },
  "discovery-rcn-11": async (p) => {
    const { c, up } = await aeWithContainer(p, "rcn11");
    return code(await c.retrieve(`${up}?fu=1&rcn=11`));
  },
  "retrieve-rcn-4": async (p) => {
    const { c, up } = await aeWithContainer(p, "rcn4");
    await bca(c, up);
    const cnt = (await c.retrieve(`${up}?rcn=4`)).body["m2m:cnt"];
    return `rn=${cnt.rn}, m2m:cin=${(cnt["m2m:cin"] ?? []).map((i: { rn: string }) => i.rn).join(",")}`;
  },
  "retrieve-rcn-4-lim-1": async (p) => {
    const { c, up } = await aeWithContainer(p, "rcn4lim");
    await bca(c, up);
    const cnt = (await c.retrieve(`${up}?rcn=4&lim=1`)).body["m2m:cnt"];
    return `m2m:cin=${(cnt["m2m:cin"] ?? []).map((i: { rn: string }) => i.rn).join(",") || "none"}`;
  },
  "retrieve-rcn-8": async (p) => {
    const { c, up } = await aeWithContainer(p, "rcn8");
    await bca(c, up);
    const cnt = (await c.retrieve(`${up}?rcn=8`)).body["m2m:cnt"];
    return `keys=${Object.keys(cnt).join(",")}`;
  },
  "subscription-su-exc": async (p) => {
    const { c, up } = await aeWithContainer(p, "suexc");
    return code(
      await c.create(up, 23, {
        "m2m:sub": { rn: "s", nu: ["http://127.0.0.1:9/n"], su: "http://127.0.0.1:9/su", exc: 2, enc: { net: [3] } },
      }),
    );
  },
  "subscription-nu-ae-id": async (p) => {
    const { c, up } = await aeWithContainer(p, "nuae");
    return code(await c.create(up, 23, { "m2m:sub": { rn: "s", nu: ["Cnuae"], enc: { net: [3] } } }));
  },
  "subscription-default-net": async (p) => {
    const { c, up } = await aeWithContainer(p, "defnet");
    return JSON.stringify(
      (await ok(c.create(up, 23, { "m2m:sub": { rn: "s", nu: ["Cdefnet"] } }))).body["m2m:sub"].enc.net,
    );
  },
  "delete-instance-cni": async (p) => {
    const { c, up } = await aeWithContainer(p, "cni");
    await bca(c, up);
    await ok(c.delete(`${up}/b`));
    return `cni=${(await c.retrieve(up)).body["m2m:cnt"].cni}`;
  },
  "instance-under-ae": async (p) => {
    const { c, ae } = await aeWithContainer(p, "cinae");
    return code(await c.create(ae, 4, { "m2m:cin": { con: "x" } }));
  },
  "cnf-text": async (p) => {
    const { c, up } = await aeWithContainer(p, "cnftext");
    return code(await c.create(up, 4, { "m2m:cin": { cnf: "text", con: "x" } }));
  },
  "cnf-text-plain-9": async (p) => {
    const { c, up } = await aeWithContainer(p, "cnf9");
    return code(await c.create(up, 4, { "m2m:cin": { cnf: "text/plain:9", con: "x" } }));
  },
  "cnf-text-plain-0-1": async (p) => {
    const { c, up } = await aeWithContainer(p, "cnf01");
    return code(await c.create(up, 4, { "m2m:cin": { cnf: "text/plain:0:1", con: "x" } }));
  },
  "ae-cse-id-originator": async (p) =>
    code(
      await new M2mClient(p.url, p.cseId.slice(1)).create(`/${p.base}`, 2, {
        "m2m:ae": { api: "Nx", rr: false, srv: ["3"] },
      }),
    ),
  "ae-cr-null": async (p) =>
    code(
      await p
        .as("crnull")
        .create(`/${p.base}`, 2, { "m2m:ae": { rn: "crnull", api: "Nx", rr: false, srv: ["3"], cr: null } }),
    ),
  "ae-no-originator": async (p) =>
    code(
      await new M2mClient(p.url, "").raw({
        method: "POST",
        path: `/${p.base}`,
        headers: { "X-M2M-RI": "noorig", "X-M2M-RVI": "3", "Content-Type": "application/json;ty=2" },
        body: JSON.stringify({ "m2m:ae": { rn: "noorig", api: "Nx", rr: false, srv: ["3"] } }),
      }),
    ),
  "ae-api-prefix": async (p) =>
    code(
      await p.as("xapi").create(`/${p.base}`, 2, { "m2m:ae": { rn: "xapi", api: "Xwrong", rr: false, srv: ["3"] } }),
    ),
  "cnt-empty-update": async (p) => {
    const { c, up } = await aeWithContainer(p, "emptyupd");
    return code(await c.update(up, { "m2m:cnt": {} }));
  },
  "cnt-cr-on-request": async (p) => {
    const { c, ae, up } = await aeWithContainer(p, "crreq");
    const asked = (await ok(c.create(ae, 3, { "m2m:cnt": { rn: "asked", cr: null } }))).body["m2m:cnt"];
    const plain = (await c.retrieve(up)).body["m2m:cnt"];
    const cr = (x: { cr?: string }) => ("cr" in x ? (x.cr === `C${"crreq"}` ? "originator" : String(x.cr)) : "none");
    return `without=${cr(plain)} with=${cr(asked)}`;
  },
  "times-with-fraction": async (p) => {
    const { c, up } = await aeWithContainer(p, "fraction");
    const ct = String((await c.retrieve(up)).body["m2m:cnt"].ct);
    return /^\d{8}T\d{6},\d+$/.test(ct) ? "fraction" : /^\d{8}T\d{6}$/.test(ct) ? "seconds" : ct;
  },
  "retrieve-by-other": async (p) => {
    const { up } = await aeWithContainer(p, "owned");
    await ok(
      p.as("stranger").create(`/${p.base}`, 2, { "m2m:ae": { rn: "stranger", api: "Nx", rr: false, srv: ["3"] } }),
    );
    return code(await p.as("stranger").retrieve(up));
  },
  "discovery-by-other": async (p) => {
    const { c, ae, up } = await aeWithContainer(p, "ownedd");
    await bca(c, up);
    await ok(
      p.as("strangerd").create(`/${p.base}`, 2, { "m2m:ae": { rn: "strangerd", api: "Nx", rr: false, srv: ["3"] } }),
    );
    return uril(p.as("strangerd"), `${ae}?fu=1&ty=4`);
  },
  "cnt-disr": async (p) => {
    const { c, ae } = await aeWithContainer(p, "disr");
    const made = code(await c.create(ae, 3, { "m2m:cnt": { rn: "locked", disr: true } }));
    await ok(c.create(`${ae}/locked`, 4, { "m2m:cin": { rn: "i", con: "x" } }));
    const one = code(await c.retrieve(`${ae}/locked/i`));
    const la = code(await c.retrieve(`${ae}/locked/la`));
    const del = code(await c.delete(`${ae}/locked/i`));
    return `create=${made} cin=${one} la=${la} delete=${del}`;
  },
  "cnt-disr-off": async (p) => {
    const { c, ae } = await aeWithContainer(p, "disroff");
    await ok(c.create(ae, 3, { "m2m:cnt": { rn: "locked", disr: true } }));
    await bca(c, `${ae}/locked`);
    const u = await c.update(`${ae}/locked`, { "m2m:cnt": { disr: false } });
    return `${code(u)} cni=${u.body?.["m2m:cnt"]?.cni}`;
  },
  "cin-dgt": async (p) => {
    const { c, up } = await aeWithContainer(p, "dgt");
    const r = await c.create(up, 4, { "m2m:cin": { rn: "d", con: "x", dgt: "20260101T120000" } });
    return r.status === 201 ? `${code(r)} dgt=${(await c.retrieve(`${up}/d`)).body["m2m:cin"].dgt}` : code(r);
  },
  "cin-dcnt-2": async (p) => {
    const { c, up } = await aeWithContainer(p, "dcnt");
    const r = await c.create(up, 4, { "m2m:cin": { rn: "d", con: "x", dcnt: 2 } });
    if (r.status !== 201) return code(r);
    const reads = [];
    for (let i = 0; i < 3; i++) reads.push((await c.retrieve(`${up}/d`)).status);
    return reads.join(",");
  },
  "discovery-rcn-6": async (p) => {
    const { c, up } = await aeWithContainer(p, "rcn6");
    await bca(c, up);
    const r = await c.retrieve(`${up}?fu=1&ty=4&rcn=6`);
    return r.status === 200 ? rrf(r.body) : code(r);
  },
  "retrieve-rcn-6": async (p) => {
    const { c, up } = await aeWithContainer(p, "rrcn6");
    await bca(c, up);
    const r = await c.retrieve(`${up}?rcn=6`);
    return r.status === 200 ? rrf(r.body) : code(r);
  },
  "retrieve-rcn-4-of-ae": async (p) => {
    const { c, ae, up } = await aeWithContainer(p, "aercn4");
    await bca(c, up);
    const cnts = (await c.retrieve(`${ae}?rcn=4`)).body["m2m:ae"]["m2m:cnt"] as {
      rn: string;
      "m2m:cin"?: { rn: string }[];
    }[];
    return cnts.map((x) => `${x.rn}(${(x["m2m:cin"] ?? []).map((i) => i.rn).join(",") || "none"})`).join(",");
  },
  "discovery-cty": async (p) => {
    const { c, up } = await aeWithContainer(p, "cty");
    await ok(c.create(up, 4, { "m2m:cin": { rn: "t", cnf: "text/plain:0", con: "x" } }));
    await ok(c.create(up, 4, { "m2m:cin": { rn: "j", cnf: "application/json:0", con: "{}" } }));
    return uril(c, `${up}?fu=1&cty=text/plain:0`);
  },
  "create-rcn-2": async (p) => {
    const c = p.as("rcn2");
    await ok(c.create(`/${p.base}`, 2, { "m2m:ae": { rn: "rcn2", api: "Nx", rr: false, srv: ["3"] } }));
    const r = await c.create(`/${p.base}/rcn2?rcn=2`, 3, { "m2m:cnt": { rn: "up" } });
    const uri = String(r.body?.["m2m:uri"]);
    return `${code(r)} m2m:uri=${uri.replace(p.cseId, "/CSE-ID").replace(p.base, "base")}`;
  },
  "node-and-battery": async (p) => {
    const made = code(await p.admin.create(`/${p.base}`, 14, { "m2m:nod": { rn: "nod1", ni: "urn:dev:1" } }));
    const bat = code(
      await p.admin.create(`/${p.base}/nod1`, 13, { "m2m:bat": { rn: "bat", mgd: 1006, btl: 80, bts: 1 } }),
    );
    await p.admin.delete(`/${p.base}/nod1`);
    return `node=${made} bat=${bat}`;
  },
  "sub-nct-2-net-3": async (p) => {
    const { c, up } = await aeWithContainer(p, "nct2");
    return code(await c.create(up, 23, { "m2m:sub": { rn: "s", nu: [rx.url + "/x"], enc: { net: [3] }, nct: 2 } }));
  },
  "sub-structured-nu": async (p) => {
    const { c, up } = await aeWithContainer(p, "snu");
    return code(await c.create(up, 23, { "m2m:sub": { rn: "s", nu: [`${p.base}/snu`], enc: { net: [3] } } }));
  },
  "notification-sur": async (p) => {
    const { c, up } = await aeWithContainer(p, "sur");
    const nu = `${rx.url}/${p.name}/sur`;
    const sub = (await ok(c.create(up, 23, { "m2m:sub": { rn: "s", nu: [nu], enc: { net: [3] } } }))).body["m2m:sub"];
    await ok(c.create(up, 4, { "m2m:cin": { con: "x" } }));
    const sur = (await rx.waitFor((n) => n.path === `/${p.name}/sur` && n.body?.["m2m:sgn"]?.nev !== undefined)).body[
      "m2m:sgn"
    ].sur;
    return sur === `${p.cseId}/${sub.ri}`
      ? "/CSE-ID/ri"
      : sur === `${p.base}/sur/up/s`
        ? "base/ae/cnt/sub"
        : String(sur);
  },
  "sub-batch-num-2": async (p) => {
    const { c, up } = await aeWithContainer(p, "batch");
    const nu = `${rx.url}/${p.name}/batch`;
    const r = await c.create(up, 23, { "m2m:sub": { rn: "s", nu: [nu], enc: { net: [3] }, bn: { num: 2 } } });
    if (r.status !== 201) return code(r);
    await ok(c.create(up, 4, { "m2m:cin": { rn: "one", con: "1" } }));
    await ok(c.create(up, 4, { "m2m:cin": { rn: "two", con: "2" } }));
    const agn = (await rx.waitFor((n) => n.path === `/${p.name}/batch` && n.body?.["m2m:agn"] !== undefined)).body[
      "m2m:agn"
    ]["m2m:sgn"] as { nev: { rep: { "m2m:cin": { rn: string } } } }[];
    return `agn=${agn.map((x) => x.nev.rep["m2m:cin"].rn).join(",")}`;
  },
  "sub-cbor-nu": async (p) => {
    const { c, up } = await aeWithContainer(p, "cbornu");
    const nu = `${rx.url}/${p.name}/cbor?ct=cbor`;
    await ok(c.create(up, 23, { "m2m:sub": { rn: "s", nu: [nu], enc: { net: [3] } } }));
    await ok(c.create(up, 4, { "m2m:cin": { con: "x" } }));
    return String(
      (await rx.waitFor((n) => n.path.startsWith(`/${p.name}/cbor`) && n.headers["content-type"] !== undefined))
        .headers["content-type"],
    );
  },
};

/** The names in an m2m:rrl, in the order listed. */
function rrf(body: any): string {
  const refs = (body?.["m2m:rrl"]?.rrf ?? []) as { nm: string }[];
  return `rrl=${refs.map((r) => r.nm).join(",") || "none"}`;
}

interface Row {
  acme: string;
  mobiusDocumented: string;
  mobius: string;
  standard: string;
}

/** The table between the conformance markers: | `class` | request | ACME | Mobius (documented) | mobius profile | standard profile | */
function documented(): Map<string, Row> {
  const text = readFileSync(DOC, "utf8");
  const start = text.indexOf("<!-- conformance:start -->");
  const end = text.indexOf("<!-- conformance:end -->");
  if (start < 0 || end < start) throw new Error("docs/cse.md has no conformance table markers");
  const rows = new Map<string, Row>();
  for (const line of text.slice(start, end).split("\n")) {
    const raw = line
      .split("|")
      .slice(1, -1)
      .map((s) => s.trim());
    // a row of the table names its class in backticks (the header and the rule do not)
    if (raw.length !== 6 || !/^`[A-Za-z0-9-]+`$/.test(raw[0]!)) continue;
    const cells = raw.map((s) => s.replace(/^`|`$/g, ""));
    rows.set(cells[0]!, { acme: cells[2]!, mobiusDocumented: cells[3]!, mobius: cells[4]!, standard: cells[5]! });
  }
  return rows;
}

let acme: RunningAcme;
let mobius: TestCse;
let standard: TestCse;
let rx: NotifyReceiver;
const peers = new Map<PeerName, Peer>();

beforeAll(async () => {
  [acme, mobius, standard, rx] = await Promise.all([
    startAcme({ verifySubscriptions: false }),
    startTestCse({ profile: "mobius" }),
    startTestCse({ profile: "standard" }),
    startNotifyReceiver(),
  ]);
  peers.set("acme", {
    name: "acme",
    url: acme.url,
    base: acme.base,
    cseId: acme.cseId,
    as: (n) => new M2mClient(acme.url, `C${n}`),
    admin: new M2mClient(acme.url, acme.admin),
  });
  // measured: the first AE create a fresh ACME gets is sometimes taken without the mandatory rr
  // (201; 3 of 5 starts), every later one is refused (400). The table holds the steady answer.
  await new M2mClient(acme.url, "Cwarmup").create(`/${acme.base}`, 2, {
    "m2m:ae": { rn: "warmup", api: "Nx", srv: ["3"] },
  });
  for (const [name, cse] of [
    ["mobius", mobius],
    ["standard", standard],
  ] as const)
    peers.set(name, {
      name,
      url: cse.url,
      base: cse.base,
      cseId: cse.cseId,
      as: (n) => new M2mClient(cse.url, `C${n}`),
      admin: new M2mClient(cse.url, "Sponde"),
    });
}, 120_000);

afterAll(async () => {
  await Promise.all([acme?.stop(), mobius?.close(), standard?.close(), rx?.close()]);
});

describe("conformance table of docs/cse.md", () => {
  it("lists exactly the request classes this test runs", () => {
    expect([...documented().keys()].sort()).toEqual(Object.keys(CLASSES).sort());
  });

  it("matches what ACME and both profiles answer", async () => {
    const table = documented();
    const measured: Record<string, Record<PeerName, string>> = {};
    for (const [name, run] of Object.entries(CLASSES)) {
      measured[name] = { acme: "", mobius: "", standard: "" };
      for (const peer of PEERS) measured[name][peer] = await run(peers.get(peer)!);
    }
    const wanted = Object.fromEntries(
      [...table].map(([name, row]) => [name, { acme: row.acme, mobius: row.mobius, standard: row.standard }]),
    );
    // on a mismatch the diff shows the measured cell next to the documented one
    expect(measured).toEqual(wanted);
  }, 120_000);
});
