// The few oneM2M HTTP requests the forwarder makes (portable across Mobius, ACME and the embedded
// CSE: see docs/stack.md), and how their answers are classified.
import http from "node:http";
import { isDeepStrictEqual } from "node:util";
import type { Refusal } from "../buffer/buffer.ts";
import type { CseTarget } from "../config.ts";

export interface M2mResponse {
  status: number;
  /** X-M2M-RSC, or 0 when the peer sent none */
  rsc: number;
  body: string;
}

export const TY = { ae: 2, container: 3, contentInstance: 4 } as const;

export const isCreated = (r: M2mResponse) => r.status === 201 || r.rsc === 2001;

/** 409/4105 (or a bare 409 from a peer without RSCs): the NAME is taken — not that the content is ours */
export const isConflict = (r: M2mResponse) => r.rsc === 4105 || (r.status === 409 && r.rsc === 0);

/**
 * For the AE and containers only: created, or already there — a container has no content to
 * compare, so one of that name is ours to use. An instance's conflict is verified (classifyInstance).
 */
export function createdOrExists(r: M2mResponse): boolean {
  return isCreated(r) || isConflict(r);
}

/**
 * What an answer to a contentInstance create means for its record:
 * - created: delivered;
 * - conflict: the name is taken — delivered only if the instance reads back with our content;
 * - missing: the container (or the AE) is gone — create it again, then resend;
 * - refused: refused for good (400 bad request, 403 no privilege, 406 larger than mbs, any other
 *   4xx or a 4xxx RSC): the same request can only get the same answer until someone changes the
 *   CSE, so the record waits in the refused state rather than block its container;
 * - retry: the CSE failed (5xx, 408, 429, no answer): the same request may succeed later.
 */
export type InstanceAnswer = "created" | "conflict" | "missing" | "refused" | "retry";

export function classifyInstance(r: M2mResponse): InstanceAnswer {
  if (isCreated(r)) return "created";
  if (isConflict(r)) return "conflict";
  if (isNotFound(r)) return "missing";
  if (r.status === 408 || r.status === 429 || r.status >= 500) return "retry";
  if ((r.status >= 400 && r.status < 500) || (r.rsc >= 4000 && r.rsc < 5000)) return "refused";
  return "retry";
}

/** The m2m:dbg text of an answer, as kept with a refused record. */
export function refusalOf(r: M2mResponse, container: string, rn: string, at = Date.now()): Refusal {
  return { status: r.status, rsc: r.rsc, reason: dbgText(r), container, rn, at };
}

/**
 * Is the content a CSE gives back the content we sent? Compared as JSON values (key order aside),
 * after undoing what a CSE may do to it: Mobius gives a string holding JSON back as the object and
 * a number or boolean as its text (docs/onem2m-http.md).
 */
export function sameContent(sentJson: string, got: unknown): boolean {
  const sent = JSON.parse(sentJson) as unknown;
  if (equalJson(sent, got)) return true;
  if (typeof got === "string" && typeof sent !== "string") {
    if ((typeof sent === "number" || typeof sent === "boolean") && String(sent) === got) return true;
    try {
      return equalJson(sent, JSON.parse(got));
    } catch {
      return false;
    }
  }
  if (typeof sent === "string" && typeof got !== "string" && /^\s*[[{]/.test(sent)) {
    try {
      return equalJson(JSON.parse(sent), got);
    } catch {
      return false;
    }
  }
  return false;
}

/** JSON values equal whatever the order of object keys (isDeepStrictEqual ignores it for plain objects) */
const equalJson = (a: unknown, b: unknown) => isDeepStrictEqual(a, b);

/** What reading an instance back after a conflict says: ours, another content, no instance, or a failed read. */
export type ReadBack =
  { kind: "ours" } | { kind: "differs"; got: unknown } | { kind: "missing" } | { kind: "failed"; answer: M2mResponse };

export function readBack(r: M2mResponse, sentJson: string): ReadBack {
  if (isNotFound(r)) return { kind: "missing" };
  if (r.status !== 200) return { kind: "failed", answer: r };
  let cin: { con?: unknown } | undefined;
  try {
    cin = (JSON.parse(r.body) as { "m2m:cin"?: { con?: unknown } })["m2m:cin"];
  } catch {
    return { kind: "failed", answer: r };
  }
  // a name row without its instance (a crashed Mobius) may answer with no content at all
  if (!cin || !("con" in cin)) return { kind: "differs", got: cin };
  return sameContent(sentJson, cin.con) ? { kind: "ours" } : { kind: "differs", got: cin.con };
}

/** ACME answers 403/4117 and Mobius 409/4106 when the AE's originator registered it before. */
export function aeAlreadyRegistered(r: M2mResponse): boolean {
  return r.rsc === 4117 || r.rsc === 4106;
}

export function isNotFound(r: M2mResponse): boolean {
  return r.status === 404 || r.rsc === 4004;
}

function dbgText(r: M2mResponse): string {
  try {
    const j = JSON.parse(r.body) as { "m2m:dbg"?: unknown };
    if (typeof j["m2m:dbg"] === "string") return j["m2m:dbg"];
  } catch {
    // not JSON: keep the raw text
  }
  return r.body.slice(0, 300);
}

/** The status, RSC and m2m:dbg text (or the start of the body) for logs and stats. */
export function reason(r: M2mResponse): string {
  const text = dbgText(r);
  return `HTTP ${r.status}${r.rsc ? `/RSC ${r.rsc}` : ""}${text ? `: ${text}` : ""}`;
}

/** The request bodies the forwarder sends; the in-process path (--embedded-cse) hands the same text to the CSE. */
export function aeRequestBody(target: Pick<CseTarget, "ae">): string {
  return JSON.stringify({ "m2m:ae": { rn: target.ae, api: `N${target.ae}`, rr: false, srv: ["3"] } });
}

export function containerRequestBody(target: Pick<CseTarget, "mni" | "mbs">, name: string): string {
  const cnt: Record<string, unknown> = { rn: name };
  if (target.mni !== undefined) cnt.mni = target.mni;
  if (target.mbs !== undefined) cnt.mbs = target.mbs;
  return JSON.stringify({ "m2m:cnt": cnt });
}

/** a record's content: JSON text (oneM2M content format "media type:encoding", 0 = none) */
export const INSTANCE_CNF = "application/json:0";

/** `con` is already strict JSON text: spliced in, not parsed and re-serialised */
export function instanceRequestBody(rn: string, con: string, lbl?: readonly string[]): string {
  return `{"m2m:cin":{"rn":${JSON.stringify(rn)},${lbl ? `"lbl":${JSON.stringify(lbl)},` : ""}"cnf":"${INSTANCE_CNF}","con":${con}}}`;
}

export class M2mClient {
  private readonly agent: http.Agent;
  private readonly base: URL;
  private ri = 0;

  constructor(
    private readonly target: CseTarget,
    private readonly riPrefix: string,
    maxSockets: number,
    private readonly timeoutMs: number,
  ) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets, keepAliveMsecs: 1000 });
    this.base = new URL(target.url);
  }

  /** path below the CSE base, e.g. "decoder/up" ("" for the CSE itself) */
  request(method: "GET" | "POST", path: string, body?: unknown, ty?: number): Promise<M2mResponse> {
    const payload = body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body);
    const headers: Record<string, string | number> = {
      "X-M2M-RI": `${this.riPrefix}-${++this.ri}`,
      "X-M2M-Origin": this.target.origin,
      "X-M2M-RVI": this.target.rvi,
      Accept: "application/json",
    };
    if (payload !== undefined) {
      headers["Content-Type"] = ty !== undefined ? `application/json;ty=${ty}` : "application/json";
      headers["Content-Length"] = Buffer.byteLength(payload);
    }
    const fullPath = `${this.base.pathname}${path ? `/${path}` : ""}`;
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: this.base.hostname,
          port: this.base.port || 80,
          method,
          path: fullPath,
          headers,
          agent: this.agent,
          timeout: this.timeoutMs,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => {
            const rsc = Number(res.headers["x-m2m-rsc"] ?? 0);
            resolve({
              status: res.statusCode ?? 0,
              rsc: Number.isFinite(rsc) ? rsc : 0,
              body: Buffer.concat(chunks).toString("utf8"),
            });
          });
          res.on("error", reject);
        },
      );
      req.on("timeout", () => req.destroy(new Error(`no answer from the CSE within ${this.timeoutMs} ms`)));
      req.on("error", reject);
      req.end(payload);
    });
  }

  createAe(): Promise<M2mResponse> {
    return this.request("POST", "", aeRequestBody(this.target), TY.ae);
  }

  createContainer(name: string): Promise<M2mResponse> {
    return this.request("POST", this.target.ae, containerRequestBody(this.target, name), TY.container);
  }

  createContentInstance(container: string, rn: string, con: string, lbl?: readonly string[]): Promise<M2mResponse> {
    return this.request(
      "POST",
      `${this.target.ae}/${container}`,
      instanceRequestBody(rn, con, lbl),
      TY.contentInstance,
    );
  }

  retrieveInstance(container: string, rn: string): Promise<M2mResponse> {
    return this.request("GET", `${this.target.ae}/${container}/${rn}`);
  }

  close(): void {
    this.agent.destroy();
  }
}
