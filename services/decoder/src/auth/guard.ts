// Who may write and who may read: device/fleet keys for ingest, reader keys for /api/*, HMAC-signed
// webhooks for portal callbacks. Refusals are answered 401 (no credentials) or 403 (wrong ones),
// counted in memory — never stored, so a flood of them costs no disk — and a source that keeps
// being refused is answered 429 until its minute is over.
import { createHmac, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { KeysWatcher, type Principal } from "../../../shared/credentials.ts";
import { IngestError } from "../errors.ts";

/**
 * on: every write needs a device/fleet key, every read a reader key, every webhook its signature.
 * auto (the default on loopback): writes need a key once the credentials file holds a device or
 * fleet key, a webhook route its signature once it has a secret; reads stay open to this machine.
 * off: nothing is checked.
 */
export type AuthMode = "on" | "auto" | "off";

export interface AuthConfig {
  mode: AuthMode;
  keysFile: string;
  /** take the client address from the last X-Forwarded-For hop (behind nginx or an ingress) */
  trustProxy: boolean;
  /** refusals a source may cause per minute before it is answered 429 */
  refusalsPerMinute: number;
}

export const SIGNATURE_HEADER = "x-satpayload-signature";
export const KEY_HEADER = "x-satpayload-key";
const WINDOW_MS = 60_000;

export interface AuthCounters {
  unauthenticated: number;
  forbidden: number;
  rateLimited: number;
}

/** a writer: a key's principal, or "open" when authentication is off */
export type Writer = Principal | "open";

/** who presents a key, whatever the transport: the key (if any) and the address refusals count against */
export interface Caller {
  token: string | undefined;
  source: string;
}

export class AuthGuard {
  readonly counters: AuthCounters = { unauthenticated: 0, forbidden: 0, rateLimited: 0 };
  private readonly keys: KeysWatcher | undefined;
  private readonly refusals = new Map<string, { windowStart: number; count: number }>();

  constructor(
    private readonly cfg: AuthConfig,
    private readonly now: () => number = Date.now,
  ) {
    this.keys = cfg.mode === "off" ? undefined : new KeysWatcher(cfg.keysFile, now);
  }

  get mode(): AuthMode {
    return this.cfg.mode;
  }

  /** The writer behind an ingest request; throws the refusal to answer. */
  device(req: IncomingMessage): Writer {
    return this.writer(this.caller(req), "Authorization: Bearer <key> or X-Satpayload-Key");
  }

  /** The writer behind a key presented over any transport (`how` tells the sender where the key goes). */
  writer(caller: Caller, how: string): Writer {
    if (!this.keys || (this.cfg.mode === "auto" && !this.keys.current().hasWriters())) return "open";
    this.checkRate(caller.source);
    if (caller.token === undefined)
      throw this.refuse(caller.source, "unauthenticated", `this endpoint needs a device key: ${how}`);
    const p = this.keys.current().principal(caller.token);
    if (!p) throw this.refuse(caller.source, "forbidden", "the key is not valid (unknown, revoked or malformed)");
    if (p.role === "reader") throw this.refuse(caller.source, "forbidden", "a reader key cannot write records");
    return p;
  }

  /** the key and source address of an HTTP request */
  caller(req: IncomingMessage): Caller {
    return { token: presentedToken(req), source: this.source(req) };
  }

  /** Throws unless the request carries a reader key (or authentication is off). */
  reader(req: IncomingMessage): void {
    this.requireRole(
      req,
      "reader",
      "the read API needs a reader key",
      (role) => `a ${role} key cannot read; use a reader key`,
    );
  }

  /**
   * Throws unless the request may operate the forwarder (put refused records back to pending): a
   * fleet key under `on`; under `auto` anyone on this machine, as for reads (the stack binds loopback).
   */
  operator(req: IncomingMessage): void {
    this.requireRole(
      req,
      "fleet",
      "this endpoint needs a fleet key",
      (role) => `a ${role} key cannot retry records; use a fleet key`,
    );
  }

  private requireRole(
    req: IncomingMessage,
    role: "reader" | "fleet",
    missing: string,
    wrong: (r: string) => string,
  ): void {
    if (!this.keys || this.cfg.mode === "auto") return;
    const src = this.source(req);
    this.checkRate(src);
    const token = presentedToken(req);
    if (token === undefined) throw this.refuse(src, "unauthenticated", `${missing}: Authorization: Bearer <key>`);
    const p = this.keys.current().principal(token);
    if (!p) throw this.refuse(src, "forbidden", "the key is not valid (unknown, revoked or malformed)");
    if (p.role !== role) throw this.refuse(src, "forbidden", wrong(p.role));
  }

  /** the route has webhook secrets (and authentication is not off): its callbacks may be signed */
  signs(route: string): boolean {
    return this.keys !== undefined && this.keys.current().webhookSecrets(route).length > 0;
  }

  /**
   * Throws unless the body is signed with one of the route's webhook secrets: the hex HMAC-SHA256
   * of the raw body in X-Satpayload-Signature ("sha256=<hex>"). A missing or wrong signature is a
   * 401: the portal has no other credentials to present.
   */
  webhook(req: IncomingMessage, route: string, body: Uint8Array): void {
    if (!this.keys || (this.cfg.mode === "auto" && this.keys.current().webhookSecrets(route).length === 0)) return;
    const src = this.source(req);
    this.checkRate(src);
    const header = req.headers[SIGNATURE_HEADER];
    const presented = typeof header === "string" ? /^sha256=([a-f0-9]{64})$/i.exec(header.trim())?.[1] : undefined;
    if (presented === undefined)
      throw this.refuse(
        src,
        "unauthenticated",
        `webhook ${route} needs ${SIGNATURE_HEADER}: sha256=<hex HMAC-SHA256 of the body>`,
      );
    const given = Buffer.from(presented, "hex");
    const ok = this.keys
      .current()
      .webhookSecrets(route)
      .some((w) => timingSafeEqual(createHmac("sha256", w.secret).update(body).digest(), given));
    if (!ok) throw this.refuse(src, "unauthenticated", `the signature does not match any webhook secret of ${route}`);
  }

  /** A device key writes only its own device's records; the device a record names must be it. */
  bindDevice(source: string, writer: Writer, recordDevice: string | undefined): string | undefined {
    if (writer === "open" || writer.role !== "device") return recordDevice;
    if (recordDevice !== undefined && recordDevice !== writer.device)
      throw this.refuse(source, "forbidden", `this key writes for device "${writer.device}", not "${recordDevice}"`);
    return writer.device;
  }

  source(req: IncomingMessage): string {
    if (this.cfg.trustProxy) {
      const xff = req.headers["x-forwarded-for"];
      const hops = (Array.isArray(xff) ? xff.join(",") : (xff ?? ""))
        .split(",")
        .map((h) => h.trim())
        .filter(Boolean);
      if (hops.length) return hops[hops.length - 1]!;
    }
    return req.socket.remoteAddress ?? "unknown";
  }

  private checkRate(source: string): void {
    const entry = this.refusals.get(source);
    if (!entry || this.now() - entry.windowStart >= WINDOW_MS || entry.count < this.cfg.refusalsPerMinute) return;
    this.counters.rateLimited++;
    const wait = Math.max(1, Math.ceil((entry.windowStart + WINDOW_MS - this.now()) / 1000));
    throw new IngestError("rate_limited", `too many refused requests from this address; retry in ${wait} s`);
  }

  private refuse(src: string, code: "unauthenticated" | "forbidden", reason: string): IngestError {
    this.counters[code === "unauthenticated" ? "unauthenticated" : "forbidden"]++;
    const now = this.now();
    const entry = this.refusals.get(src);
    if (!entry || now - entry.windowStart >= WINDOW_MS) {
      // keep the table small under a spray of addresses: forget finished windows first
      if (this.refusals.size >= 10_000)
        for (const [k, v] of this.refusals) if (now - v.windowStart >= WINDOW_MS) this.refusals.delete(k);
      this.refusals.set(src, { windowStart: now, count: 1 });
    } else entry.count++;
    return new IngestError(code, reason);
  }
}

function presentedToken(req: IncomingMessage): string | undefined {
  const auth = req.headers.authorization;
  if (typeof auth === "string") {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    if (m) return m[1];
  }
  const key = req.headers[KEY_HEADER];
  return typeof key === "string" && key.length > 0 ? key.trim() : undefined;
}
