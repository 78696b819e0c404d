// Subscriptions and what they are sent: where a notification goes (URLs, or a registered AE's poa),
// the verification of new targets, which events each subscription wants (enc: net, atr, chty), what
// each notification carries (nct 1, 2, 3) and the deletion notice to `su`.
import { isUrlLike } from "./checks.ts";
import { badRequest, CseError, RSC } from "./errors.ts";
import type { Notifier } from "./notify.ts";
import type { Profile } from "./profile.ts";
import { TY, type ResourceRow, type Store } from "./store.ts";

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
   * The URLs behind one `nu` entry: a URL as given; an AE as the http(s) URLs of its poa, none when it
   * is not request reachable (rr false: it polls, nobody can call it).
   */
  private urlsOf(u: string): string[] {
    if (isUrlLike(u)) return [u];
    const ae = this.aeOf(u);
    if (!ae) return [];
    const a = JSON.parse(ae.attrs) as Attrs;
    if (a.rr === false) return [];
    return ((a.poa as string[] | undefined) ?? []).filter((p) => /^https?:\/\//i.test(p));
  }

  urls(nu: readonly string[]): string[] {
    return nu.flatMap((u) => this.urlsOf(u));
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
      const urls = this.urlsOf(u);
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
      this.notifier.notify({ ri: row.ri, nu: this.urls(s.nu) }, { "m2m:sgn": sgn }, last, undefined, s.ln === true);
      if (last && !e.last) void this.announceDeletion(row);
    }
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
      this.notifier.notify({ ri: row.ri, nu: [s.su!] }, { "m2m:sgn": sgn }, true, () => {
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
