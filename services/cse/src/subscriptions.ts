// Subscriptions and what they are sent: where a notification goes (URLs, or a registered AE's poa),
// the verification of new targets, which events each subscription wants (enc: net, atr, chty), what
// each notification carries (nct 1, 2, 3) and the deletion notice to `su`.
import { batchDurationMs } from "./attributes.ts";
import { isUrlLike } from "./checks.ts";
import { badRequest, CseError, RSC } from "./errors.ts";
import type { Destination, Notifier } from "./notify.ts";
import type { Profile } from "./profile.ts";
import { TY, type ResourceRow, type Store } from "./resourceTree.ts";

type Attrs = Record<string, unknown>;

/** net values of `enc`: 1 update of the resource, 2 its deletion, 3 child created, 4 child deleted */
export const NET = { UPDATE: 1, DELETE: 2, CREATE_CHILD: 3, DELETE_CHILD: 4 } as const;

export interface SubAttrs {
  nu: string[];
  nct: 1 | 2 | 3;
  enc: { net: number[]; atr?: string[]; chty?: number[] };
  /** where the subscription's deletion is announced */
  su?: string;
  /** notifications left before the subscription deletes itself */
  exc?: number;
  /** set when the create asked for it: then every notification names the subscriber */
  cr?: string;
  /** latestNotify: of the notifications waiting for a slow or unreachable target, only the newest is sent */
  ln?: boolean;
  /** batchNotify: sent together as one m2m:agn once num have gathered or dur has passed */
  bn?: { num?: number; dur: string | number };
}

/** Notifications gathered for a batch (TS-0004 m2m:agn), with the targets resolved when the first came. */
interface Batch {
  sgns: Attrs[];
  nu: Destination[];
  timer: NodeJS.Timeout;
}

export interface PendingEvent {
  sub: ResourceRow;
  net: number;
  rep: Attrs;
  last: boolean;
}

/** What an event is about: the resource (its row and how to represent it) and, for an update, what changed. */
export interface EventSubject {
  resource: ResourceRow;
  /** the whole resource as notified: built only when a subscription wants it */
  whole: () => Attrs;
  /** an update's changed attributes (plus lt), under the resource's root */
  modified?: Attrs;
  /** the names of the attributes an update set */
  changed?: readonly string[];
}

export interface SubscriptionOptions {
  cseId: string;
  profile: Profile;
  /** how long a DELETE waits for the deletion notices it caused */
  deliveryWaitMs: number;
}

const sub = (row: ResourceRow): SubAttrs => JSON.parse(row.attrs) as SubAttrs;

export class Subscriptions {
  /** batches being gathered, by subscription ri (in memory: a restart drops them, as pending notifications) */
  private readonly batches = new Map<string, Batch>();

  constructor(
    private readonly store: Store,
    private readonly notifier: Notifier,
    private readonly o: SubscriptionOptions,
  ) {}

  /** How a notification names a resource: its structured path (Mobius) or `/<CSE-ID>/<ri>` (ACME). */
  reference(row: Pick<ResourceRow, "ri" | "path">): string {
    return this.o.profile.subscriptionReference === "ri" ? `${this.o.cseId}/${row.ri}` : row.path;
  }

  /** The registered AE a non-URL `nu` names: by AE-ID, `/<CSE-ID>/<AE-ID>`, or its structured path. */
  private aeOf(target: string): ResourceRow | undefined {
    const prefix = `${this.o.cseId}/`;
    const id = target.startsWith(prefix) ? target.slice(prefix.length) : target;
    if (!id.includes("/")) return this.store.byAei(id);
    const row = this.store.byPath(id.replace(/^\/+/, ""));
    return row?.ty === TY.AE ? row : undefined;
  }

  /** Every non-URL entry of `nu` must name a registered AE: its notifications go to the AE's poa. */
  checkTargets(nu: readonly string[]): void {
    for (const u of nu)
      if (!isUrlLike(u) && !this.aeOf(u))
        throw badRequest(`nu: "${u}" is neither a URL nor the AE-ID or structured path of a registered AE`);
  }

  /**
   * Where one `nu` entry is sent: a URL as given (CBOR when its query asks with ct=cbor, TS-0004's
   * HTTP binding); an AE at the http(s) URLs of its poa, in CBOR when its csz prefers CBOR, and
   * nowhere when it is not request reachable (rr false: it polls, nobody can call it).
   */
  private destinationsOf(u: string): Destination[] {
    if (isUrlLike(u)) {
      const ct = /[?&]ct=([^&#]*)/.exec(u)?.[1];
      return [ct === "cbor" ? { url: u, cbor: "application/cbor" } : { url: u }];
    }
    const ae = this.aeOf(u);
    if (!ae) return [];
    const a = JSON.parse(ae.attrs) as Attrs;
    if (a.rr === false) return [];
    const preferred = (a.csz as string[] | undefined)?.[0];
    const cbor = preferred?.endsWith("cbor") ? preferred : undefined;
    return ((a.poa as string[] | undefined) ?? [])
      .filter((p) => /^https?:\/\//i.test(p))
      .map((url) => (cbor ? { url, cbor } : { url }));
  }

  destinations(nu: readonly string[]): Destination[] {
    return nu.flatMap((u) => this.destinationsOf(u));
  }

  /**
   * TS-0001's verification request to each new target, except the subscriber itself (its own AE-ID,
   * path or poa: it asked for them). A target without a URL to ask (an AE without poa) fails it.
   */
  async verify(
    nu: readonly string[],
    subscription: Pick<ResourceRow, "ri" | "path">,
    originator: string,
  ): Promise<void> {
    const own = this.aeOf(originator);
    for (const u of nu) {
      const ae = isUrlLike(u) ? undefined : this.aeOf(u);
      if (ae && own && ae.id === own.id) continue;
      const urls = this.destinationsOf(u);
      if (urls.length === 0)
        throw new CseError(
          500,
          RSC.SUBSCRIPTION_VERIFICATION_FAILED,
          `verification request to ${u} failed: that AE has no http(s) poa the CSE can reach`,
        );
      await this.notifier.verify(urls, this.reference(subscription), originator);
    }
  }

  /** Refuses event criteria this subscription's parent cannot produce or this profile does not allow. */
  checkCriteria(attrs: Pick<SubAttrs, "enc" | "nct">, childTypes: readonly number[]): void {
    for (const t of attrs.enc.chty ?? [])
      if (!childTypes.includes(t)) throw badRequest(`m2m:sub.enc.chty: resource type ${t} cannot be a child here`);
    // TS-0004: modified attributes exist only for an update
    if (attrs.nct === 2 && this.o.profile.modifiedAttributesOnUpdateOnly && attrs.enc.net.some((n) => n !== NET.UPDATE))
      throw badRequest("m2m:sub.nct 2 (modified attributes) is only for enc.net [1] (update of the resource)");
  }

  /** The subscriptions under `parentId` interested in `net` about `subject`, with what each is sent. */
  eventsFor(parentId: number, net: number, subject: EventSubject, last: boolean): PendingEvent[] {
    const out: PendingEvent[] = [];
    let whole: Attrs | undefined;
    for (const row of this.store.subscriptionsOf(parentId)) {
      if (row.id === subject.resource.id) continue;
      const s = sub(row);
      const enc = s.enc ?? { net: [NET.CREATE_CHILD] };
      if (!enc.net.includes(net)) continue;
      if (enc.chty && (net === NET.CREATE_CHILD || net === NET.DELETE_CHILD) && !enc.chty.includes(subject.resource.ty))
        continue;
      if (enc.atr && net === NET.UPDATE && !subject.changed?.some((a) => enc.atr!.includes(a))) continue;
      const rep =
        s.nct === 3
          ? { "m2m:uri": this.reference(subject.resource) }
          : s.nct === 2 && subject.modified
            ? subject.modified
            : (whole ??= subject.whole());
      out.push({ sub: row, net, rep, last });
    }
    return out;
  }

  /** Sends the events; a subscription whose `exc` runs out is deleted and announced. */
  raise(events: PendingEvent[]): void {
    for (const e of events) {
      let row = e.sub;
      let last = e.last;
      if (!last && sub(row).exc !== undefined) {
        // the counter lives in the stored resource: re-read it, an earlier event may have used it up
        const current = this.store.subscriptionByRi(row.ri);
        if (!current) continue;
        row = current;
        const attrs = JSON.parse(row.attrs) as Attrs & SubAttrs;
        const left = attrs.exc! - 1;
        if (left <= 0) {
          this.store.deleteById(row.id);
          last = true;
        } else this.store.setAttrs(row.id, JSON.stringify({ ...attrs, exc: left }));
      }
      const s = sub(row);
      const sgn: Attrs = { nev: { rep: e.rep, net: e.net }, sur: this.reference(row) };
      this.nameSubscriber(sgn, s);
      if (s.bn && !last) this.gather(row, s, sgn);
      else {
        // what a batch gathered goes first: the subscription's last word comes after it
        this.flush(row.ri, false);
        this.notifier.notify(
          { ri: row.ri, nu: this.destinations(s.nu) },
          { "m2m:sgn": sgn },
          last,
          undefined,
          s.ln === true,
        );
      }
      if (last && !e.last) void this.announceDeletion(row);
    }
  }

  /** Adds a notification to the subscription's batch; the batch goes out when full or when dur has passed. */
  private gather(row: ResourceRow, s: SubAttrs, sgn: Attrs): void {
    let batch = this.batches.get(row.ri);
    if (!batch) {
      const timer = setTimeout(() => this.flush(row.ri, false), batchDurationMs(s.bn!.dur) ?? 60_000);
      // a pending batch must not keep the process alive: closing drops it, as it drops pending notifications
      timer.unref();
      batch = { sgns: [], nu: this.destinations(s.nu), timer };
      this.batches.set(row.ri, batch);
    }
    batch.sgns.push(sgn);
    if (s.bn!.num !== undefined && batch.sgns.length >= s.bn!.num) this.flush(row.ri, false);
  }

  /**
   * Sends what the subscription's batch gathered as one m2m:agn (only the newest with latestNotify);
   * `last` when the subscription is gone. Whether anything was sent.
   */
  flush(ri: string, last: boolean, ln?: boolean): boolean {
    const batch = this.batches.get(ri);
    if (!batch) return false;
    this.batches.delete(ri);
    clearTimeout(batch.timer);
    const latest = ln ?? (this.store.subscriptionByRi(ri) ? sub(this.store.subscriptionByRi(ri)!).ln === true : false);
    const sgns = latest ? batch.sgns.slice(-1) : batch.sgns;
    this.notifier.notify({ ri, nu: batch.nu }, { "m2m:agn": { "m2m:sgn": sgns } }, last, undefined, latest);
    return true;
  }

  /**
   * A deleted subscription's gathered batch goes out as its last notification (TS-0004: nothing
   * gathered is lost with the subscription). Whether anything was sent.
   */
  flushDeleted(row: ResourceRow): boolean {
    return this.flush(row.ri, sub(row).su === undefined, sub(row).ln === true);
  }

  /** Drops every gathered batch (the CSE is closing). */
  close(): void {
    for (const b of this.batches.values()) clearTimeout(b.timer);
    this.batches.clear();
  }

  /**
   * TS-0004's subscription deletion notice to the subscription's `su`, after anything still queued.
   * Resolves once it was sent, or after `deliveryWaitMs`: a DELETE answers after its notices went out.
   */
  announceDeletion(row: ResourceRow): Promise<void> {
    const s = sub(row);
    if (s.su === undefined) return Promise.resolve();
    const sgn: Attrs = { sud: true, sur: this.reference(row) };
    this.nameSubscriber(sgn, s);
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, this.o.deliveryWaitMs);
      this.notifier.notify({ ri: row.ri, nu: this.destinationsOf(s.su!) }, { "m2m:sgn": sgn }, true, () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /**
   * TS-0004: a notification names the subscriber (cr) when the subscription was created asking for
   * its creator attribute; a profile that always writes cr (Mobius) never asked.
   */
  private nameSubscriber(sgn: Attrs, s: SubAttrs): void {
    if (s.cr !== undefined && this.o.profile.creatorOnRequest) sgn.cr = s.cr;
  }

  /** Drops what is pending for a deleted subscription that has nothing left to say. */
  forget(ri: string): void {
    this.notifier.forget(ri);
  }
}
