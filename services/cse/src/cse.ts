// The CSE's operations: create, retrieve, update and delete resources in the tree (contentInstances
// also from the decoder's own transaction), with the access rule (access.ts), the container limits
// (retention.ts), listings and discovery (listing.ts), and the notification events (subscriptions.ts).
import { AccessRules } from "./access.ts";
import {
  CHILD_TYPES,
  createAttributes,
  isImplemented,
  rootOf,
  specOf,
  specsForType,
  TYPES,
  unwrap,
  updateAttributes,
} from "./attributes.ts";
import { badRequest, conflict, CseConfigError, CseError, notAllowed, notFound, RSC } from "./errors.ts";
import { IdGenerator } from "./ids.ts";
import { InstanceWriter, type NewInstance } from "./instances.ts";
import { Listing } from "./listing.ts";
import type { Notifier } from "./notify.ts";
import type { Profile } from "./profile.ts";
import { modifiedOnly, Representation, type Attrs } from "./representation.ts";
import type { CseRequest } from "./request.ts";
import { TY, type Filter, type ResourceRow, type Store } from "./resourceTree.ts";
import { nest, RCN, references, type CseResponse } from "./results.ts";
import { Retention, type Limits } from "./retention.ts";
import { NET, Subscriptions, type PendingEvent, type SubAttrs } from "./subscriptions.ts";
import { resolveTarget, type Target } from "./target.ts";
import { defaultExpiry } from "./time.ts";

export type { CseResponse } from "./results.ts";

export interface CseConfig {
  base: string;
  cseId: string;
  superuser: string;
  /** may this originator register an AE? (403/4126 otherwise) */
  aeOriginatorAllowed: (originator: string) => boolean;
  /** ACME-style verification request to each new notification URI (Mobius: off) */
  verifySubscriptions: boolean;
  /** the CSE's own address, shown as the CSEBase's poa */
  pointOfAccess: () => string;
  profile: Profile;
  now?: () => number;
  /** how long a DELETE waits for the deletion notices it caused (default 2.5 s) */
  deliveryWaitMs?: number;
}

/** Mobius' container defaults */
export const CONTAINER_DEFAULTS = { mni: 3153600000, mbs: 3153600000, mia: 31536000 } as const;

/** The result contents each operation answers with (TS-0004 rcn; absent: 1, the resource). */
const RCN_OF = {
  create: [RCN.NOTHING, RCN.ATTRIBUTES, RCN.ADDRESS, RCN.ADDRESS_AND_ATTRIBUTES, RCN.MODIFIED_ATTRIBUTES],
  update: [RCN.NOTHING, RCN.ATTRIBUTES, RCN.MODIFIED_ATTRIBUTES],
  delete: [RCN.NOTHING, RCN.ATTRIBUTES, RCN.CHILD_REFERENCES],
  retrieve: [
    RCN.ATTRIBUTES,
    RCN.ATTRIBUTES_AND_CHILDREN,
    RCN.ATTRIBUTES_AND_CHILD_REFERENCES,
    RCN.CHILD_REFERENCES,
    RCN.CHILDREN,
    RCN.DISCOVERY_REFERENCES,
  ],
} as const;

/** What the decoder knows of a contentInstance it creates in its own transaction. */
export interface InstanceFields {
  /** the container's structured path below the CSE base: "ae/container" */
  path: string;
  /** who creates it (the instance's cr) */
  originator: string;
  /** the resource name; the ri when undefined */
  rn?: string;
  /** the instance's content as JSON text, as it would appear in the POST's body: `{"a":1}` is an object, `"x"` a string */
  con: string;
  cnf?: string;
  lbl?: string[];
}

export class Cse {
  private readonly ids = new IdGenerator();
  private readonly now: () => number;
  private cseBase!: ResourceRow;
  private readonly subs: Subscriptions;
  private readonly access: AccessRules;
  private readonly retention: Retention;
  private readonly view: Representation;
  private readonly listing: Listing;
  private readonly instances: InstanceWriter;

  constructor(
    private readonly store: Store,
    notifier: Notifier,
    private readonly config: CseConfig,
  ) {
    this.now = config.now ?? Date.now;
    this.subs = new Subscriptions(store, notifier, {
      cseId: config.cseId,
      profile: config.profile,
      deliveryWaitMs: config.deliveryWaitMs ?? 2500,
    });
    this.access = new AccessRules(store, config);
    this.retention = new Retention(store);
    this.view = new Representation(config);
    this.listing = new Listing(store, config.profile, this.access, this.view);
    this.instances = new InstanceWriter(store, config.profile, this.retention, (path) => this.checkFree(path));
  }

  /** Creates the CSEBase on first start; refuses a data dir that belongs to another base name. */
  init(): void {
    const existing = this.store.allOfType(TY.CSE_BASE)[0];
    if (existing) {
      if (existing.path !== this.config.base)
        throw new CseConfigError(
          `this data directory holds the CSE base "${existing.path}", not "${this.config.base}"`,
        );
      this.cseBase = existing;
      this.store.ownAesByAeId();
      this.access.reloadRetrievalDisabled();
      return;
    }
    const ms = this.now();
    const ri = this.ids.next(TY.CSE_BASE, ms);
    const attrs = { rn: this.config.base, ty: TY.CSE_BASE, ri, pi: "", ct: this.view.time(ms), lt: this.view.time(ms) };
    const row = {
      ri,
      parent: null,
      ty: TY.CSE_BASE,
      path: this.config.base,
      cr: null,
      size: 0,
      cni: 0,
      cbs: 0,
      st: 0,
      aei: null,
      created_ms: ms,
      attrs: JSON.stringify(attrs),
    };
    this.cseBase = { id: this.store.insert(row), ...row };
  }

  async handle(req: CseRequest): Promise<CseResponse> {
    const rcn = req.query.rcn;
    if (rcn !== undefined && !(RCN_OF[req.op] as readonly number[]).includes(rcn))
      throw badRequest(`rcn=${rcn} does not apply to the ${req.op} operation (it takes ${RCN_OF[req.op].join(", ")})`);
    switch (req.op) {
      case "create":
        return this.create(req);
      case "retrieve":
        return this.retrieve(req);
      case "update":
        return this.update(req);
      case "delete":
        return this.delete(req);
    }
  }

  /** Deletes a subscription the notifier gave up on; no-op when it is already gone. */
  removeSubscription(ri: string): void {
    const row = this.store.subscriptionByRi(ri);
    if (!row) return;
    this.store.deleteById(row.id);
    this.subs.flushDeleted(row);
    void this.subs.announceDeletion(row);
  }

  /** Drops what waits in memory (gathered batches); the notifier and the store are closed by their owner. */
  close(): void {
    this.subs.close();
  }

  // ---------------------------------------------------------------------------------------------

  // ---------------------------------------------------------------------------------------------

  /** The resource at `path`, if a resource of type `ty` may be created below it. */
  private createParent(path: string, ty: number): ResourceRow {
    const target = resolveTarget(this.store, this.config.base, path);
    if (target.virtual)
      throw notAllowed(
        `a resource cannot be created under /${path}: it is a virtual resource`,
        this.config.profile.createUnderVirtualStatus,
      );
    const parent = target.row;
    if (ty === TY.CSE_BASE) throw notAllowed("a CSEBase cannot be created");
    if (!isImplemented(ty))
      throw new CseError(
        501,
        RSC.NOT_IMPLEMENTED,
        `resource type ${ty} is not implemented by this CSE (AE 2, container 3, contentInstance 4, mgmtObj 13, node 14, subscription 23)`,
      );
    if (!CHILD_TYPES[parent.ty]!.includes(ty))
      throw new CseError(
        403,
        RSC.INVALID_CHILD_RESOURCE_TYPE,
        `a resource of type ${ty} cannot be a child of /${parent.path} (type ${parent.ty})`,
      );
    return parent;
  }

  /** The row and representation of a new resource, before its type adds its own attributes. */
  private newResource(
    parent: ResourceRow,
    ty: number,
    ri: string,
    rn: string,
    originator: string,
    aei: string | null,
    attrs: Attrs,
    ms: number,
    creator: boolean,
  ) {
    const maxName = this.config.profile.maxNameLength;
    // Mobius' database refuses the row (ER_DATA_TOO_LONG) and it answers as for any failed insert
    if (maxName !== undefined && rn.length > maxName)
      throw new CseError(500, RSC.INTERNAL_SERVER_ERROR, "[create_action] create resource error");
    const time = this.view.time(ms);
    const rep: Attrs = { rn, ty, pi: parent.ri, ri, ct: time, lt: time, et: attrs.et ?? defaultExpiry(ms) };
    // an AE has no creator attribute (TS-0001, ACME, Mobius): it owns itself, so its AE-ID is the
    // owner, never the bare "C"/"S" that asked for one (which any client may send). The standard
    // shows cr only when the create asked for it; the owner is kept either way.
    if (ty !== TY.AE && (creator || !this.config.profile.creatorOnRequest)) rep.cr = originator;
    if (attrs.lbl !== undefined) rep.lbl = attrs.lbl;
    const row = {
      ri,
      parent: parent.id,
      ty,
      path: `${parent.path}/${rn}`,
      cr: aei ?? originator,
      size: 0,
      cni: 0,
      cbs: 0,
      st: 0,
      aei,
      created_ms: ms,
      attrs: "",
    };
    return { rep, row };
  }

  /**
   * Creates a contentInstance inside a write transaction the caller holds on the store's connection
   * (the decoder's in-process commit: its record and this instance commit together), with the checks
   * and writes of a POST of `{"m2m:cin":{rn, cnf, lbl, con}}` to the container at `path`: the same
   * CseError when that POST is refused, the same resource and container counters when it is not.
   * Returns the notifications, to be raised only once the caller's transaction has committed.
   */
  createInstanceInOpenTransaction(cin: InstanceFields): { raise: () => void } {
    if (!cin.originator) throw badRequest("the originator is mandatory");
    let con: unknown;
    try {
      con = JSON.parse(cin.con);
    } catch (e) {
      throw badRequest(`the body is not valid JSON: ${(e as Error).message}`);
    }
    const given: Attrs = {};
    if (cin.rn !== undefined) given.rn = cin.rn;
    if (cin.cnf !== undefined) given.cnf = cin.cnf;
    if (cin.lbl !== undefined) given.lbl = cin.lbl;
    given.con = con;
    const parent = this.createParent(`${this.config.base}/${cin.path}`, TY.CIN);
    this.access.mayReach(parent, cin.originator, "create");
    const { rn, attrs } = createAttributes(TYPES[TY.CIN]!, given, this.config.profile);
    const instance = this.newInstance(parent, rn, cin.originator, attrs, false);
    // the container was read in this same transaction: its counters are current
    const result = this.instances.write(parent, instance);
    const events = this.subs.eventsFor(
      parent.id,
      NET.CREATE_CHILD,
      { resource: result, whole: () => this.view.wrap(result, instance.rep) },
      false,
    );
    // bound, not an arrow: tsx's keepNames would name each new closure, at a cost per instance
    return { raise: this.subs.raise.bind(this.subs, events) };
  }

  /** An AE registration's originator: the AE-ID it will have, or a refusal. */
  private registrant(req: CseRequest, api: string): string {
    const profile = this.config.profile;
    let originator = req.originator;
    if (originator === "") {
      if (!profile.anonymousAeRegistration) throw badRequest("the X-M2M-Origin header (originator) is mandatory");
      // TS-0001: an AE registering without an originator gets a C… AE-ID, as with "C"
      originator = "C";
    }
    // an AE claiming the CSE's own identity could speak for the CSE (notifications come from it)
    if (originator === this.config.cseId || originator === this.config.cseId.slice(1))
      throw new CseError(
        403,
        RSC.SECURITY_ASSOCIATION_REQUIRED,
        `originator ${originator} is this CSE's own CSE-ID: an AE cannot register with it`,
      );
    if (!this.config.aeOriginatorAllowed(originator))
      throw new CseError(
        403,
        RSC.AE_ORIGINATOR_NOT_ALLOWED,
        `originator ${originator} is not allowed to register an AE`,
      );
    if (profile.apiPrefix) {
      // TS-0001: R… registered, N… non-registered App-IDs; releases before 4 also wrote a lower-case r
      const lowerR = ["1", "2", "2a", "3"].includes(req.rvi);
      if (!/^[NR]/.test(api) && !(lowerR && api.startsWith("r")))
        throw badRequest(
          `m2m:ae.api "${api}" must start with N (non-registered) or R (registered App-ID)${lowerR ? ", or r before release 4" : ""}`,
        );
    }
    // a bare "C" or "S" asks the CSE to assign the AE-ID
    return originator === "C" || originator === "S"
      ? `${originator}${this.ids.next(TY.AE, this.now()).slice(2)}`
      : originator;
  }

  private async create(req: CseRequest): Promise<CseResponse> {
    const ty = req.ty!;
    const parent = this.createParent(req.path, ty);
    // an AE registers itself: who may is the registration's rule (registrant())
    if (ty !== TY.AE) this.access.mayReach(parent, req.originator, "create");
    const { spec, attrs: given } = unwrap(req.body, specsForType(ty));
    const { rn: givenRn, attrs, creator } = createAttributes(spec, given, this.config.profile);
    const rcn = req.query.rcn;
    if (ty === TY.CIN)
      return this.answerCreate(await this.createInstance(parent, givenRn, req.originator, attrs, creator), given, rcn);
    const profile = this.config.profile;
    if (givenRn !== undefined) this.checkFree(`${parent.path}/${givenRn}`);

    let aei: string | null = null;
    let originator = req.originator;
    if (ty === TY.AE) {
      aei = this.registrant(req, attrs.api as string);
      originator = aei;
      const other = this.store.byAei(aei);
      if (other)
        throw new CseError(
          profile.originatorRegistered.status,
          profile.originatorRegistered.rsc,
          `originator ${aei} has already registered the AE /${other.path}`,
        );
    }
    if (ty === TY.SUB) {
      attrs.enc = { ...((attrs.enc as Attrs | undefined) ?? {}) };
      (attrs.enc as Attrs).net ??= [...profile.defaultNet];
      attrs.nct ??= 1;
      this.subs.checkTargets(attrs.nu as string[]);
      this.subs.checkCriteria(attrs as unknown as SubAttrs, CHILD_TYPES[parent.ty]!);
    }

    const ms = this.now();
    // an AE is identified by its AE-ID (Mobius and ACME alike)
    const ri = aei ?? this.ids.next(ty, ms);
    const rn = givenRn ?? ri;
    const path = `${parent.path}/${rn}`;
    if (ty === TY.SUB && this.config.verifySubscriptions) {
      await this.subs.verify(attrs.nu as string[], { ri, path }, req.originator);
      this.checkFree(path);
    }

    const { rep, row } = this.newResource(parent, ty, ri, rn, originator, aei, attrs, ms, creator);
    switch (ty) {
      case TY.AE:
        Object.assign(rep, { api: attrs.api, aei, rr: attrs.rr });
        break;
      case TY.CNT:
        Object.assign(rep, {
          mni: attrs.mni ?? CONTAINER_DEFAULTS.mni,
          mbs: attrs.mbs ?? CONTAINER_DEFAULTS.mbs,
          mia: attrs.mia ?? CONTAINER_DEFAULTS.mia,
        });
        break;
      case TY.SUB:
        Object.assign(rep, { enc: attrs.enc, nu: attrs.nu, nct: attrs.nct });
        break;
    }
    // the type's other attributes as given, in the order sent
    for (const [k, v] of Object.entries(attrs)) if (v !== undefined && !(k in rep) && k !== "et") rep[k] = v;
    const result = this.insert(row, rep, attrs.lbl);
    if (ty === TY.CNT && attrs.disr === true) this.access.setRetrievalDisabled(result.id, true);
    const body = this.view.wrap(result);
    this.subs.raise(this.subs.eventsFor(parent.id, NET.CREATE_CHILD, { resource: result, whole: () => body }, false));
    // no leading "/": Mobius and ACME both write CSE-relative structured paths
    return this.answerCreate({ status: 201, rsc: RSC.CREATED, body, location: path }, given, rcn);
  }

  /** A create's answer in the result content asked for (TS-0004 rcn 0, 1, 2, 3, 9). */
  private answerCreate(out: CseResponse, given: Attrs, rcn: number | undefined): CseResponse {
    switch (rcn) {
      case RCN.NOTHING:
        return { ...out, body: undefined };
      case RCN.ADDRESS:
        return { ...out, body: { "m2m:uri": out.location } };
      case RCN.ADDRESS_AND_ATTRIBUTES:
        return { ...out, body: { "m2m:rce": { uri: out.location, ...(out.body as Attrs) } } };
      case RCN.MODIFIED_ATTRIBUTES:
        return { ...out, body: modifiedOnly(out.body as Attrs, given) };
      default:
        return out;
    }
  }

  private checkFree(path: string): void {
    if (this.store.exists(path)) throw conflict(`a resource /${path} already exists`);
  }

  private insert(row: Omit<ResourceRow, "id">, rep: Attrs, labels: unknown): ResourceRow {
    const full = { ...row, attrs: JSON.stringify(rep) };
    return this.store.transaction(() => {
      // the parent may have gone while a verification request was awaited
      if (row.parent !== null && !this.store.byId(row.parent))
        throw notFound(`the parent of /${row.path} no longer exists`);
      this.checkFree(row.path);
      const id = this.store.insert(full);
      if (Array.isArray(labels)) this.store.replaceLabels(id, labels as string[]);
      return { id, ...full };
    });
  }

  /** A POSTed instance: added and its container trimmed in one group-committed transaction. */
  private async createInstance(
    parent: ResourceRow,
    givenRn: string | undefined,
    originator: string,
    attrs: Attrs,
    creator: boolean,
  ): Promise<CseResponse> {
    const instance = this.newInstance(parent, givenRn, originator, attrs, creator);
    const result = await this.store.batched(() => {
      // the counters may have moved since the container was read outside this transaction
      const cnt = this.store.byPath(parent.path);
      if (!cnt) throw notFound(`no resource at /${parent.path}`);
      return this.instances.write(cnt, instance);
    });
    const body = this.view.wrap(result, instance.rep);
    this.subs.raise(this.subs.eventsFor(parent.id, NET.CREATE_CHILD, { resource: result, whole: () => body }, false));
    return { status: 201, rsc: RSC.CREATED, body, location: instance.row.path };
  }

  /** The row and representation of a new instance of checked `attrs` below `container` (st set on writing). */
  private newInstance(
    container: ResourceRow,
    givenRn: string | undefined,
    originator: string,
    attrs: Attrs,
    creator: boolean,
  ): NewInstance {
    const ms = this.now();
    const ri = this.ids.next(TY.CIN, ms);
    return this.instances.build(
      this.newResource(container, TY.CIN, ri, givenRn ?? ri, originator, null, attrs, ms, creator),
      attrs,
    );
  }

  // ---------------------------------------------------------------------------------------------

  private retrieve(req: CseRequest): CseResponse {
    const target = resolveTarget(this.store, this.config.base, req.path);
    const { fu, rcn, filter, conditions } = req.query;
    if (fu === 1) return this.listing.discover(req, target);
    if (rcn === RCN.DISCOVERY_REFERENCES) throw badRequest("rcn=11 (discovery result references) needs fu=1");
    this.access.mayReach(target.row, req.originator, "retrieve");
    const row = this.instanceOrSelf(target, req.path);
    if (rcn === undefined || rcn === RCN.ATTRIBUTES) {
      const shaping = (["lim", "ofst", "lvl", "arp"] as const).filter((k) => filter[k] !== undefined);
      if (conditions.length > 0 || shaping.length > 0)
        throw badRequest(
          `filter criteria (${[...conditions, ...shaping].join(", ")}) select child resources: use fu=1 (discovery) or rcn=4/5/6/8 (retrieve with children)`,
        );
      this.access.checkRetrievable(row, `/${req.path} cannot be retrieved`);
      const body = this.view.wrap(row);
      this.countRetrieval(row);
      return { status: 200, rsc: RSC.OK, body };
    }
    const listed = this.listing.below(row, filter, req.originator).map((r) => this.view.listed(r));
    let body: Attrs;
    switch (rcn) {
      case RCN.ATTRIBUTES_AND_CHILDREN:
        body = this.view.wrap(row, nest(row.path, this.view.represent(row), listed));
        break;
      case RCN.CHILDREN:
        body = { [rootOf(row.ty, this.view.represent(row))]: nest(row.path, {}, listed) };
        break;
      case RCN.ATTRIBUTES_AND_CHILD_REFERENCES:
        body = this.view.wrap(row, { ...this.view.represent(row), ch: references(listed) });
        break;
      default:
        body = { "m2m:rrl": { rrf: references(listed) } };
    }
    return { status: 200, rsc: RSC.OK, body };
  }

  private instanceOrSelf(target: Target, path: string): ResourceRow {
    if (!target.virtual) return target.row;
    if (this.access.isRetrievalDisabled(target.row.id))
      throw notAllowed(`/${path}: the container has disableRetrieval (disr) set`);
    const row = this.config.profile.latestByName
      ? this.store.latestByName(target.row, this.now(), target.virtual)
      : target.virtual === "la"
        ? this.store.lastChild(target.row.id, TY.CIN)
        : this.store.firstChild(target.row.id, TY.CIN);
    if (!row) throw notFound(`/${path}: the container has no instances`);
    return row;
  }

  /** deletionCnt (TS-0001): an instance is gone after that many retrievals; the last one still sees it. */
  private countRetrieval(row: ResourceRow): void {
    if (row.ty !== TY.CIN) return;
    const attrs = JSON.parse(row.attrs) as Attrs;
    if (typeof attrs.dcnt !== "number") return;
    if (attrs.dcnt > 1) this.store.setAttrs(row.id, JSON.stringify({ ...attrs, dcnt: attrs.dcnt - 1 }));
    else this.removeInstance(row);
  }

  /** Deletes an instance as a DELETE would: the container's counters follow, its subscribers hear of it. */
  private removeInstance(row: ResourceRow): void {
    const body = this.view.wrap(row);
    const events = this.store.transaction(() => {
      const current = this.store.byId(row.id);
      if (!current) return [];
      const events = this.subs.eventsFor(
        row.parent!,
        NET.DELETE_CHILD,
        { resource: current, whole: () => body },
        false,
      );
      const cnt = this.store.byId(row.parent!);
      if (cnt) this.store.setCounters(cnt.id, Math.max(cnt.cni - 1, 0), Math.max(cnt.cbs - current.size, 0), cnt.st);
      this.store.deleteById(current.id);
      return events;
    });
    this.subs.raise(events);
  }

  // ---------------------------------------------------------------------------------------------

  private async update(req: CseRequest): Promise<CseResponse> {
    const target = resolveTarget(this.store, this.config.base, req.path);
    if (target.virtual) throw notAllowed(`/${req.path} is a virtual resource and cannot be updated`);
    const row = target.row;
    const stored = JSON.parse(row.attrs) as Attrs;
    const spec = specOf(row.ty, stored);
    if (!spec.update) throw notAllowed(`resources of type ${row.ty} (${spec.root}) cannot be updated`);
    this.access.mayModify(row, req.originator);
    const given = unwrap(req.body, [spec]).attrs;
    const changes = updateAttributes(spec, given, this.config.profile);
    if (row.ty === TY.SUB) {
      await this.checkSubscriptionUpdate(row, stored, changes, req.originator);
      // what was gathered under the old settings goes out under them
      if (changes.bn !== undefined || changes.nu !== undefined || changes.ln !== undefined)
        this.subs.flush(row.ri, false);
    }
    const ms = this.now();
    const updated = this.store.transaction(() => {
      const current = this.store.byPath(row.path);
      if (!current) throw notFound(`no resource at /${row.path}`);
      const before = JSON.parse(current.attrs) as Attrs;
      const attrs: Attrs = { ...before, ...changes, lt: this.view.time(ms) };
      for (const [k, v] of Object.entries(changes)) if (v === null) delete attrs[k];
      // enc removed: the default criteria again (TS-0004)
      if (current.ty === TY.SUB && attrs.enc === undefined) attrs.enc = { net: [...this.config.profile.defaultNet] };
      const json = JSON.stringify(attrs);
      this.store.setAttrs(current.id, json);
      if (changes.lbl !== undefined) this.store.replaceLabels(current.id, (changes.lbl as string[] | null) ?? []);
      let { cni, cbs, st } = current;
      if (current.ty === TY.CNT) {
        // disableRetrieval turned off: the instances kept unreadable are deleted (TS-0001)
        if (before.disr === true && attrs.disr !== true) {
          for (const i of this.store.childrenOfType(current.id, TY.CIN)) this.store.deleteById(i.id);
          cni = 0;
          cbs = 0;
        }
        // lowered limits take effect at once, as if an instance of nothing were added
        ({ cni, cbs } = this.retention.trim({ ...current, cni, cbs }, attrs as unknown as Limits, ms, 0, 0));
        st += 1;
        this.store.setCounters(current.id, cni, cbs, st);
      }
      return { ...current, attrs: json, cni, cbs, st };
    });
    if (updated.ty === TY.CNT)
      this.access.setRetrievalDisabled(updated.id, (JSON.parse(updated.attrs) as Attrs).disr === true);
    const body = this.view.wrap(updated);
    const modified = { ...changes, lt: this.view.time(ms) };
    this.subs.raise(
      this.subs.eventsFor(
        updated.id,
        NET.UPDATE,
        {
          resource: updated,
          whole: () => body,
          modified: { [spec.root]: modified },
          changed: Object.keys(changes),
        },
        false,
      ),
    );
    const rcn = req.query.rcn;
    const out: CseResponse = { status: 200, rsc: RSC.UPDATED, body };
    if (rcn === RCN.NOTHING) return { ...out, body: undefined };
    if (rcn === RCN.MODIFIED_ATTRIBUTES) return { ...out, body: modifiedOnly(body, given) };
    return out;
  }

  /** A subscription's new nu, enc and nct: targets registered, criteria possible, new targets verified. */
  private async checkSubscriptionUpdate(row: ResourceRow, stored: Attrs, changes: Attrs, originator: string) {
    // a new enc replaces the old one whole; without net (or removed) it has the default net
    if (changes.enc !== undefined && changes.enc !== null)
      (changes.enc as Attrs).net ??= [...this.config.profile.defaultNet];
    const merged = { ...stored, ...changes } as Attrs;
    if (changes.enc === null) merged.enc = { net: [...this.config.profile.defaultNet] };
    if (changes.nu !== undefined) this.subs.checkTargets(changes.nu as string[]);
    const parent = this.store.byId(row.parent!);
    this.subs.checkCriteria(merged as unknown as SubAttrs, parent ? CHILD_TYPES[parent.ty]! : []);
    if (changes.nu !== undefined && this.config.verifySubscriptions) {
      const old = new Set((stored as unknown as SubAttrs).nu);
      await this.subs.verify(
        (changes.nu as string[]).filter((u) => !old.has(u)),
        row,
        originator,
      );
    }
  }

  // ---------------------------------------------------------------------------------------------

  private async delete(req: CseRequest): Promise<CseResponse> {
    const target = resolveTarget(this.store, this.config.base, req.path);
    const row = this.instanceOrSelf(target, req.path);
    if (row.ty === TY.CSE_BASE) throw notAllowed("the CSEBase cannot be deleted");
    this.access.checkRetrievable(row, `/${req.path} cannot be deleted`);
    this.access.mayModify(row, req.originator);
    const body = this.view.wrap(row);
    const rcn = req.query.rcn;
    const children =
      rcn === RCN.CHILD_REFERENCES
        ? references(
            this.store
              .search(row.path, emptyFilter(), false, this.access.scope(req.originator))
              .map((r) => this.view.listed(r)),
          )
        : [];
    const events: PendingEvent[] = [];
    const gone = this.store.transaction(() => {
      const current = this.store.byPath(row.path);
      if (!current) throw notFound(`no resource at /${row.path}`);
      const subject = { resource: current, whole: () => body };
      events.push(...this.subs.eventsFor(current.id, NET.DELETE, subject, true));
      if (current.parent !== null)
        events.push(...this.subs.eventsFor(current.parent, NET.DELETE_CHILD, subject, false));
      const subs = current.ty === TY.SUB ? [current] : this.store.typeInSubtree(TY.SUB, current.path);
      if (current.ty === TY.CIN && current.parent !== null) {
        const cnt = this.store.byId(current.parent);
        if (cnt) this.store.setCounters(cnt.id, Math.max(cnt.cni - 1, 0), Math.max(cnt.cbs - current.size, 0), cnt.st);
      }
      this.store.deleteById(current.id);
      return subs;
    });
    if (row.ty === TY.CNT && this.access.anyRetrievalDisabled) this.access.reloadRetrievalDisabled();
    const notified = new Set(events.filter((e) => e.last).map((e) => e.sub.ri));
    this.subs.raise(events);
    const notices: Promise<void>[] = [];
    for (const s of gone) {
      // a batch still gathering goes out first (as the last word when no deletion notice follows)
      const flushed = this.subs.flushDeleted(s);
      if ((JSON.parse(s.attrs) as SubAttrs).su !== undefined) notices.push(this.subs.announceDeletion(s));
      else if (!flushed && !notified.has(s.ri)) this.subs.forget(s.ri);
    }
    // the subscribers hear of it before the client does (ACME answers after sending them, too)
    await Promise.all(notices);
    const out: CseResponse = { status: 200, rsc: RSC.DELETED, body };
    if (rcn === RCN.NOTHING) return { ...out, body: undefined };
    if (rcn === RCN.CHILD_REFERENCES) return { ...out, body: { "m2m:rrl": { rrf: children } } };
    return out;
  }
}

/** A filter that selects everything below a resource. */
function emptyFilter(): Filter {
  return { ty: [], lbl: [], or: false, cty: [], attributes: [] };
}
