// Delivers m2m:sgn notifications without ever holding up the request that caused them: each
// subscription has its own in-memory queue, drained in order in the background. Like Mobius, a
// subscription whose notifications get no answer `maxFailures` times in a row is given up (the
// caller deletes it); an answer of any HTTP status counts as an answer.
import { Encoder } from "cbor-x";
import { CseError, RSC } from "./errors.ts";

/** plain CBOR maps and arrays: cbor-x's record extension is cbor-x's own, no other decoder reads it */
const cbor = new Encoder({ useRecords: false });

/** Where a notification goes, and in which serialization: JSON, or CBOR when the target asked for it. */
export interface Destination {
  url: string;
  /** the CBOR media type to send ("application/cbor" or "application/vnd.onem2m-res+cbor"); absent: JSON */
  cbor?: string;
}

export interface NotifierOptions {
  /** X-M2M-Origin of every notification */
  cseId: string;
  timeoutMs: number;
  maxFailures: number;
  /** pending notifications kept per subscription; beyond it the oldest are dropped and logged */
  maxQueue: number;
  onExhausted: (subRi: string) => void;
  log: (event: Record<string, unknown>) => void;
}

export interface NotifyTarget {
  ri: string;
  nu: readonly Destination[];
}

interface Queue {
  /** `done`: called once the item was sent (answered or not) or dropped; `latest`: sent with event category "latest" */
  items: { nu: readonly Destination[]; body: string; done?: () => void; latest?: boolean }[];
  running: boolean;
  failures: number;
  /** delete the queue once drained: its subscription is gone and this was its last word */
  closing: boolean;
  dropped: number;
}

export class Notifier {
  private readonly queues = new Map<string, Queue>();
  private readonly drains = new Set<Promise<void>>();
  private readonly abort = new AbortController();
  private seq = 0;

  constructor(private readonly opts: NotifierOptions) {}

  /**
   * Queues `sgn` for the subscription; returns at once. `last` marks the final notification of a
   * deleted subscription; `done` is called once this notification was sent (answered or not) or dropped.
   * `latestOnly` (a subscription's latestNotify): the notifications still waiting are dropped for this
   * one, which goes out with X-M2M-EC 4 ("latest").
   */
  notify(target: NotifyTarget, sgn: unknown, last = false, done?: () => void, latestOnly = false): void {
    if (this.abort.signal.aborted) {
      done?.();
      return;
    }
    let q = this.queues.get(target.ri);
    if (!q) {
      q = { items: [], running: false, failures: 0, closing: false, dropped: 0 };
      this.queues.set(target.ri, q);
    }
    if (latestOnly && !last) for (const waiting of q.items.splice(0)) waiting.done?.();
    q.items.push({ nu: target.nu, body: JSON.stringify(sgn), done, latest: latestOnly });
    if (q.items.length > this.opts.maxQueue) {
      q.items.shift()!.done?.();
      if (q.dropped++ % 1000 === 0)
        this.opts.log({
          event: "notification-dropped",
          sub: target.ri,
          dropped: q.dropped,
          reason: `more than ${this.opts.maxQueue} pending`,
        });
    }
    if (last) q.closing = true;
    if (!q.running) {
      q.running = true;
      const d = this.drain(target.ri, q).finally(() => this.drains.delete(d));
      this.drains.add(d);
    }
  }

  /** Drops whatever is pending for a subscription that no longer exists. */
  forget(ri: string): void {
    const q = this.queues.get(ri);
    this.queues.delete(ri);
    for (const item of q?.items.splice(0) ?? []) item.done?.();
  }

  /**
   * ACME's verification request: every URI must answer 2xx (and RSC 2000 when it sends one), or the
   * subscription is refused with 500/5204. Mobius skips this; the CSE does it only when configured.
   */
  async verify(nu: readonly Destination[], sur: string, cr: string): Promise<void> {
    const body = JSON.stringify({ "m2m:sgn": { vrq: true, sur, cr } });
    for (const url of nu) {
      const res = await this.post(url, body);
      const rsc = res?.headers.get("x-m2m-rsc");
      if (!res || res.status < 200 || res.status > 299 || (rsc !== null && rsc !== undefined && rsc !== "2000"))
        throw new CseError(
          500,
          RSC.SUBSCRIPTION_VERIFICATION_FAILED,
          `verification request to ${url.url} failed: ${res ? `HTTP ${res.status}${rsc ? `, RSC ${rsc}` : ""}` : "no answer"}`,
        );
    }
  }

  /** Stops delivering: in-flight requests are aborted and pending notifications dropped. */
  async close(): Promise<void> {
    this.abort.abort();
    for (const q of this.queues.values()) for (const item of q.items.splice(0)) item.done?.();
    this.queues.clear();
    await Promise.allSettled([...this.drains]);
  }

  private async drain(ri: string, q: Queue): Promise<void> {
    while (q.items.length > 0 && this.queues.get(ri) === q) {
      const item = q.items.shift()!;
      const answers = await Promise.all(item.nu.map((u) => this.post(u, item.body, item.latest)));
      item.done?.();
      if (this.queues.get(ri) !== q) return;
      if (answers.some((a) => a !== undefined)) {
        q.failures = 0;
        continue;
      }
      // bounded: a subscription logs at most maxFailures in a row before it is removed
      this.opts.log({
        event: "notification-failed",
        sub: ri,
        nu: item.nu.map((d) => d.url),
        failures: ++q.failures,
        of: this.opts.maxFailures,
      });
      if (q.failures >= this.opts.maxFailures) {
        this.queues.delete(ri);
        for (const rest of q.items.splice(0)) rest.done?.();
        this.opts.log({
          event: "subscription-removed",
          sub: ri,
          reason: `${q.failures} notifications in a row got no answer`,
        });
        this.opts.onExhausted(ri);
        return;
      }
    }
    q.running = false;
    if (q.closing && this.queues.get(ri) === q && q.items.length === 0) this.queues.delete(ri);
  }

  /** undefined when nothing answered in time */
  private async post(to: Destination, json: string, latest = false): Promise<Response | undefined> {
    try {
      const res = await fetch(to.url, {
        method: "POST",
        headers: {
          "Content-Type": to.cbor ?? "application/json",
          "X-M2M-Origin": this.opts.cseId,
          "X-M2M-RI": `ntf-${++this.seq}`,
          "X-M2M-RVI": "2a",
          // TS-0004 event category 4: "latest", the one notification kept of those waiting
          ...(latest ? { "X-M2M-EC": "4" } : {}),
        },
        body: to.cbor ? new Uint8Array(cbor.encode(JSON.parse(json) as unknown)) : json,
        signal: AbortSignal.any([this.abort.signal, AbortSignal.timeout(this.opts.timeoutMs)]),
        redirect: "manual",
      });
      // the body is not needed, but undici keeps the connection busy until it is consumed
      await res.arrayBuffer();
      return res;
    } catch {
      return undefined;
    }
  }
}
