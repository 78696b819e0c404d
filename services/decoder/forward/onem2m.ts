// The few oneM2M HTTP requests the forwarder makes (portable across Mobius, ACME and the embedded
// CSE: see docs/stack.md), and how their answers are classified.
import http from "node:http";
import type { CseTarget } from "../config.ts";

export interface M2mResponse {
  status: number;
  /** X-M2M-RSC, or 0 when the peer sent none */
  rsc: number;
  body: string;
}

export const TY = { ae: 2, container: 3, contentInstance: 4 } as const;

/** Created, or already there (409/4105): the resource exists either way. */
export function createdOrExists(r: M2mResponse): boolean {
  return r.status === 201 || r.rsc === 2001 || r.rsc === 4105 || (r.status === 409 && r.rsc === 0);
}

/** ACME answers 403/4117 and Mobius 409/4106 when the AE's originator registered it before. */
export function aeAlreadyRegistered(r: M2mResponse): boolean {
  return r.rsc === 4117 || r.rsc === 4106;
}

export function isNotFound(r: M2mResponse): boolean {
  return r.status === 404 || r.rsc === 4004;
}

/** The m2m:dbg text (or the start of the body) for logs and stats. */
export function reason(r: M2mResponse): string {
  let text = r.body.slice(0, 300);
  try {
    const j = JSON.parse(r.body) as { "m2m:dbg"?: unknown };
    if (typeof j["m2m:dbg"] === "string") text = j["m2m:dbg"];
  } catch {
    // not JSON: keep the raw text
  }
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

/** `con` is already strict JSON text: spliced in, not parsed and re-serialised */
/** a record's content: JSON text (oneM2M content format "media type:encoding", 0 = none) */
export const INSTANCE_CNF = "application/json:0";

export function instanceRequestBody(rn: string, con: string): string {
  return `{"m2m:cin":{"rn":${JSON.stringify(rn)},"cnf":"${INSTANCE_CNF}","con":${con}}}`;
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

  createContentInstance(container: string, rn: string, con: string): Promise<M2mResponse> {
    return this.request("POST", `${this.target.ae}/${container}`, instanceRequestBody(rn, con), TY.contentInstance);
  }

  close(): void {
    this.agent.destroy();
  }
}
