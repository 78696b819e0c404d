// The CSE's behaviour: create, retrieve, update, delete and discover resources in the tree, apply
// the container limits, the creator/superuser access rule, and raise notification events.
import { CHILD_TYPES, createAttributes, isUrlLike, rootName, TYPES, unwrap, updateAttributes } from "./attributes.ts";
import {
  badRequest,
  conflict,
  CseConfigError,
  CseError,
  noPrivilege,
  notAcceptable,
  notAllowed,
  notFound,
  RSC,
  type Rsc,
} from "./errors.ts";
import { IdGenerator } from "./ids.ts";
import type { Notifier } from "./notify.ts";
import type { Profile } from "./profile.ts";
import type { CseRequest } from "./request.ts";
import { TY, type NewRow, type ResourceRow, type Store } from "./store.ts";
import { defaultExpiry, m2mTime } from "./time.ts";

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
}

export interface CseResponse {
  status: number;
  rsc: Rsc;
  body?: unknown;
  /** Content-Location of a created resource */
  location?: string;
}

/** Mobius' container defaults */
export const CONTAINER_DEFAULTS = { mni: 3153600000, mbs: 3153600000, mia: 31536000 } as const;

const VIRTUAL: Record<string, "la" | "ol"> = { la: "la", latest: "la", ol: "ol", oldest: "ol" };

/** net values of `enc`: 1 update of the resource, 2 its deletion, 3 child created, 4 child deleted */
const NET = { UPDATE: 1, DELETE: 2, CREATE_CHILD: 3, DELETE_CHILD: 4 } as const;

interface Target {
  row: ResourceRow;
  /** set when the path ended in la/ol: row is then the container */
  virtual?: "la" | "ol";
}

interface SubAttrs {
  nu: string[];
  nct: 1 | 2;
  enc?: { net: number[] };
  /** where the subscription's deletion is announced */
  su?: string;
  /** notifications left before the subscription deletes itself */
  exc?: number;
}

interface PendingEvent {
  sub: ResourceRow;
  net: number;
  rep: Record<string, unknown>;
  last: boolean;
}

type Attrs = Record<string, unknown>;

interface Limits {
  mni: number;
  mbs: number;
  mia: number;
}

/** bounds the parsed limits kept: one entry per container written to */
const MAX_CACHED_LIMITS = 10_000;

/** A contentInstance before it is written: `row.size` is its cs; `rep.st` is set by writeInstance */
interface NewInstance {
  row: NewRow;
  rep: Attrs;
  labels: unknown;
  /** JSON.stringify(rep) before `con`, without its closing brace */
  head: string;
  /** JSON.stringify(rep.con) */
  conJson: string;
}

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
  private readonly limits = new Map<number, { attrs: string; limits: Limits }>();

  constructor(
    private readonly store: Store,
    private readonly notifier: Notifier,
    private readonly config: CseConfig,
  ) {
    this.now = config.now ?? Date.now;
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
      return;
    }
    const ms = this.now();
    const ri = this.ids.next(TY.CSE_BASE, ms);
    const attrs = { rn: this.config.base, ty: TY.CSE_BASE, ri, pi: "", ct: m2mTime(ms), lt: m2mTime(ms) };
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
    this.announceDeletion(row);
  }

  // ---------------------------------------------------------------------------------------------

  private resolve(path: string): Target {
    const segments = path.split("/");
    if (segments[0] !== this.config.base)
      throw notFound(`no resource at /${path} (the CSE base is /${this.config.base})`);
    const last = segments[segments.length - 1]!;
    const virtual = segments.length > 1 ? VIRTUAL[last] : undefined;
    if (virtual) {
      const parentPath = segments.slice(0, -1).join("/");
      const row = this.store.byPath(parentPath);
      if (!row) throw notFound(`no resource at /${parentPath}`);
      if (row.ty !== TY.CNT) throw notFound(`/${parentPath} is not a container, so it has no /${last}`);
      return { row, virtual };
    }
    const row = this.store.byPath(path);
    if (!row) throw notFound(`no resource at /${path}`);
    return { row };
  }

  private represent(row: ResourceRow): Attrs {
    const a = JSON.parse(row.attrs) as Attrs;
    if (row.ty === TY.CNT) {
      a.cni = row.cni;
      a.cbs = row.cbs;
      a.st = row.st;
    } else if (row.ty === TY.CSE_BASE) {
      a.csi = this.config.cseId;
      a.cst = 1;
      a.srt = [TY.AE, TY.CNT, TY.CIN, TY.CSE_BASE, TY.SUB];
      a.srv = ["2a", "3"];
      a.poa = [this.config.pointOfAccess()];
    }
    return a;
  }

  private wrap(row: ResourceRow, attrs: Attrs = this.represent(row)): Attrs {
    return { [rootName(row.ty)!]: attrs };
  }

  private mayModify(row: ResourceRow, originator: string): void {
    if (originator !== row.cr && originator !== this.config.superuser)
      throw noPrivilege(`originator ${originator} may not change /${row.path}: only its creator or the superuser may`);
  }

  // ---------------------------------------------------------------------------------------------

  /** What every create checks first: the parent, the type, the attributes. */
  private createTarget(req: CseRequest): {
    parent: ResourceRow;
    ty: number;
    givenRn: string | undefined;
    attrs: Attrs;
  } {
    const ty = req.ty!;
    const parent = this.createParent(req.path, ty);
    const { rn: givenRn, attrs } = createAttributes(ty, unwrap(req.body, ty), this.config.profile);
    return { parent, ty, givenRn, attrs };
  }

  /** The resource at `path`, if a resource of type `ty` may be created below it. */
  private createParent(path: string, ty: number): ResourceRow {
    const target = this.resolve(path);
    if (target.virtual)
      throw notAllowed(
        `a resource cannot be created under /${path}: it is a virtual resource`,
        this.config.profile.createUnderVirtualStatus,
      );
    const parent = target.row;
    if (ty === TY.CSE_BASE) throw notAllowed("a CSEBase cannot be created");
    if (!TYPES[ty])
      throw new CseError(
        501,
        RSC.NOT_IMPLEMENTED,
        `resource type ${ty} is not implemented by this CSE (AE 2, container 3, contentInstance 4, subscription 23)`,
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
  ) {
    const maxName = this.config.profile.maxNameLength;
    // Mobius' database refuses the row (ER_DATA_TOO_LONG) and it answers as for any failed insert
    if (maxName !== undefined && rn.length > maxName)
      throw new CseError(500, RSC.INTERNAL_SERVER_ERROR, "[create_action] create resource error");
    const time = m2mTime(ms);
    const rep: Attrs = { rn, ty, pi: parent.ri, ri, ct: time, lt: time, et: attrs.et ?? defaultExpiry(ms) };
    // an AE has no creator attribute (TS-0001, ACME, Mobius): it owns itself, so its AE-ID is the
    // owner, never the bare "C"/"S" that asked for one (which any client may send)
    if (ty !== TY.AE) rep.cr = originator;
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
    const { rn, attrs } = createAttributes(TY.CIN, given, this.config.profile);
    const instance = this.newInstance(parent, rn, cin.originator, attrs);
    // the container was read in this same transaction: its counters are current
    const result = this.writeInstance(parent, instance);
    const events = this.eventsFor(
      parent.id,
      NET.CREATE_CHILD,
      result,
      () => this.wrap(result, instance.rep),
      undefined,
      false,
    );
    // bound, not an arrow: tsx's keepNames would name each new closure, at a cost per instance
    return { raise: this.raise.bind(this, events) };
  }

  private async create(req: CseRequest): Promise<CseResponse> {
    const { parent, ty, givenRn, attrs } = this.createTarget(req);
    if (ty === TY.CIN) return this.createInstance(parent, givenRn, req.originator, attrs);
    const profile = this.config.profile;
    if (givenRn !== undefined) this.checkFree(`${parent.path}/${givenRn}`);

    let aei: string | null = null;
    if (ty === TY.AE) {
      if (!this.config.aeOriginatorAllowed(req.originator))
        throw new CseError(
          403,
          RSC.AE_ORIGINATOR_NOT_ALLOWED,
          `originator ${req.originator} is not allowed to register an AE`,
        );
      // a bare "C" or "S" asks the CSE to assign the AE-ID
      aei =
        req.originator === "C" || req.originator === "S"
          ? `${req.originator}${this.ids.next(TY.AE, this.now()).slice(2)}`
          : req.originator;
      const other = this.store.byAei(aei);
      if (other)
        throw new CseError(
          profile.originatorRegistered.status,
          profile.originatorRegistered.rsc,
          `originator ${aei} has already registered the AE /${other.path}`,
        );
    }
    if (ty === TY.SUB) this.checkAeTargets(attrs.nu as string[]);

    const ms = this.now();
    // an AE is identified by its AE-ID (Mobius and ACME alike)
    const ri = aei ?? this.ids.next(ty, ms);
    const rn = givenRn ?? ri;
    const path = `${parent.path}/${rn}`;
    if (ty === TY.SUB && this.config.verifySubscriptions) {
      await this.notifier.verify(this.urls(attrs.nu as string[]), path, req.originator);
      this.checkFree(path);
    }

    const { rep, row } = this.newResource(parent, ty, ri, rn, req.originator, aei, attrs, ms);
    let result: ResourceRow;

    switch (ty) {
      case TY.AE:
        Object.assign(rep, { api: attrs.api, aei, rr: attrs.rr });
        for (const k of ["srv", "poa", "apn"]) if (attrs[k] !== undefined) rep[k] = attrs[k];
        result = this.insert(row, rep, attrs.lbl);
        break;
      case TY.CNT:
        Object.assign(rep, {
          mni: attrs.mni ?? CONTAINER_DEFAULTS.mni,
          mbs: attrs.mbs ?? CONTAINER_DEFAULTS.mbs,
          mia: attrs.mia ?? CONTAINER_DEFAULTS.mia,
        });
        result = this.insert(row, rep, attrs.lbl);
        break;
      case TY.SUB:
        Object.assign(rep, { enc: attrs.enc ?? { net: [...profile.defaultNet] }, nu: attrs.nu, nct: attrs.nct ?? 1 });
        for (const k of ["su", "exc"]) if (attrs[k] !== undefined) rep[k] = attrs[k];
        result = this.insert(row, rep, attrs.lbl);
        break;
      default:
        throw new CseError(501, RSC.NOT_IMPLEMENTED, `resource type ${ty} is not implemented`);
    }
    const body = this.wrap(result);
    this.raise(this.eventsFor(parent.id, NET.CREATE_CHILD, result, () => body, undefined, false));
    // no leading "/": Mobius and ACME both write CSE-relative structured paths
    return { status: 201, rsc: RSC.CREATED, body, location: path };
  }

  /** AE-IDs in `nu` must name registered AEs: their notifications go to the AE's poa. */
  private checkAeTargets(nu: readonly string[]): void {
    for (const u of nu)
      if (!isUrlLike(u) && !this.store.byAei(u))
        throw badRequest(`nu: "${u}" is neither a URL nor the AE-ID of a registered AE`);
  }

  /** The URLs behind `nu`: URLs as given, an AE-ID as the http(s) URLs of that AE's poa. */
  private urls(nu: readonly string[]): string[] {
    return nu.flatMap((u) => {
      if (isUrlLike(u)) return [u];
      const ae = this.store.byAei(u);
      const poa = ae ? ((JSON.parse(ae.attrs) as Attrs).poa as string[] | undefined) : undefined;
      return (poa ?? []).filter((p) => /^https?:\/\//i.test(p));
    });
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
  ): Promise<CseResponse> {
    const instance = this.newInstance(parent, givenRn, originator, attrs);
    const result = await this.store.batched(() => {
      // the counters may have moved since the container was read outside this transaction
      const cnt = this.store.byPath(parent.path);
      if (!cnt) throw notFound(`no resource at /${parent.path}`);
      return this.writeInstance(cnt, instance);
    });
    const body = this.wrap(result, instance.rep);
    this.raise(this.eventsFor(parent.id, NET.CREATE_CHILD, result, () => body, undefined, false));
    return { status: 201, rsc: RSC.CREATED, body, location: instance.row.path };
  }

  /** The row and representation of a new instance of checked `attrs` below `container` (st set on writing). */
  private newInstance(
    container: ResourceRow,
    givenRn: string | undefined,
    originator: string,
    attrs: Attrs,
  ): NewInstance {
    const ms = this.now();
    const ri = this.ids.next(TY.CIN, ms);
    const { rep, row } = this.newResource(container, TY.CIN, ri, givenRn ?? ri, originator, null, attrs, ms);
    const con = attrs.con;
    if (attrs.cnf !== undefined) rep.cnf = attrs.cnf;
    const stored = this.config.profile.mobiusContent ? mobiusContent(con) : con;
    const storedJson = JSON.stringify(stored);
    const cs = Buffer.byteLength(typeof con === "string" ? con : stored === con ? storedJson : JSON.stringify(con));
    const head = JSON.stringify(rep).slice(0, -1);
    rep.con = stored;
    rep.cs = cs;
    return {
      row: { ...row, size: cs },
      rep,
      labels: attrs.lbl,
      head,
      conJson: storedJson,
    };
  }

  /**
   * Adds the instance below `cnt` (read in the running transaction) and trims the container to its
   * limits. Runs inside the caller's transaction.
   */
  private writeInstance(cnt: ResourceRow, { row, rep, labels, head, conJson }: NewInstance): ResourceRow {
    const cs = row.size;
    const limits = this.limitsOf(cnt);
    if (limits.mni === 0 || cs > limits.mbs) {
      // a taken name is refused before the limits, as it always was
      this.checkFree(row.path);
      if (limits.mni === 0) throw notAcceptable(`/${cnt.path} takes no instances (mni=0)`);
      throw notAcceptable(`the instance is ${cs} bytes, more than /${cnt.path} holds (mbs=${limits.mbs})`);
    }
    const st = cnt.st + 1;
    rep.st = st;
    // JSON.stringify(rep), without writing the content's JSON twice
    const full = { ...row, st, attrs: `${head},"con":${conJson},"cs":${cs},"st":${st}}` };
    // the unique path is the name check: a taken name writes nothing (trimming comes after)
    const id = this.store.insertIfFree(full);
    if (id === undefined) throw conflict(`a resource /${row.path} already exists`);
    if (Array.isArray(labels)) this.store.replaceLabels(id, labels as string[]);
    const { cni, cbs } = this.trim(cnt, limits, row.created_ms, 1, cs, id);
    this.store.setCounters(cnt.id, cni + 1, cbs + cs, st);
    return { id, ...full };
  }

  /** The container's limits, parsed once per version of its attributes. */
  private limitsOf(cnt: ResourceRow): Limits {
    const known = this.limits.get(cnt.id);
    if (known?.attrs === cnt.attrs) return known.limits;
    const limits = JSON.parse(cnt.attrs) as Limits;
    if (this.limits.size >= MAX_CACHED_LIMITS) this.limits.clear();
    this.limits.set(cnt.id, { attrs: cnt.attrs, limits });
    return limits;
  }

  /**
   * Deletes the oldest instances until `adding` more instances of `addBytes` fit within mni/mbs and
   * none is older than mia seconds. Runs inside the caller's transaction; `added`, an instance this
   * transaction has just written, is never deleted.
   */
  private trim(
    cnt: ResourceRow,
    limits: Limits,
    nowMs: number,
    adding: number,
    addBytes: number,
    added?: number,
  ): { cni: number; cbs: number } {
    let cni = cnt.cni;
    let cbs = cnt.cbs;
    const cutoff = nowMs - limits.mia * 1000;
    // the oldest instance is looked up only when some limit can be exceeded
    const full = cni + adding > limits.mni || cbs + addBytes > limits.mbs;
    if (full || this.store.mayHaveInstanceBefore(cutoff))
      while (cni > 0) {
        const oldest = this.store.oldestInstance(cnt.id);
        if (!oldest || oldest.id === added) break;
        if (cni + adding <= limits.mni && cbs + addBytes <= limits.mbs && oldest.created_ms >= cutoff) break;
        this.store.deleteById(oldest.id);
        cni -= 1;
        cbs -= oldest.size;
      }
    return { cni, cbs: Math.max(cbs, 0) };
  }

  // ---------------------------------------------------------------------------------------------

  private retrieve(req: CseRequest): CseResponse {
    const target = this.resolve(req.path);
    const { fu, rcn, filter, conditions } = req.query;
    const discovery = this.config.profile.discovery;
    if (fu === 1) {
      if (target.virtual) throw badRequest(`discovery needs a real resource, not /${req.path}`);
      // Mobius refuses rcn=11, ACME takes only 11 (and 6); 11 is what this answer is
      if (rcn !== undefined && !(rcn === 11 && discovery.rcn11))
        throw badRequest(
          `rcn=${rcn} is not supported with discovery (leave rcn out${discovery.rcn11 ? " or use 11" : ""})`,
        );
      const lim = discovery.cap === undefined ? filter.lim : Math.min(filter.lim ?? discovery.cap, discovery.cap);
      const paths = this.store.searchPaths(target.row.path, { ...filter, lim }, discovery.byName);
      // Mobius picks the smallest names, then lists them from the largest down
      if (discovery.byName) paths.reverse();
      return { status: 200, rsc: RSC.OK, body: { "m2m:uril": paths } };
    }
    const row = this.instanceOrSelf(target, req.path);
    if (rcn === undefined || rcn === 1) {
      const shaping = (["lim", "ofst", "lvl"] as const).filter((k) => filter[k] !== undefined);
      if (conditions.length > 0 || shaping.length > 0)
        throw badRequest(
          `filter criteria (${[...conditions, ...shaping].join(", ")}) select child resources: use fu=1 (discovery) or rcn=4/rcn=8 (retrieve with children)`,
        );
      return { status: 200, rsc: RSC.OK, body: this.wrap(row) };
    }
    if (rcn !== 4 && rcn !== 8)
      throw badRequest(
        `rcn=${rcn} is not supported (1 attributes, 4 attributes and child resources, 8 child resources)`,
      );
    if (filter.lvl !== undefined && filter.lvl !== 1)
      throw badRequest(`lvl=${filter.lvl}: rcn=${rcn} includes the direct children only (lvl=1)`);
    const children = this.store.search(row.path, { ...filter, lvl: 1 }, false);
    const grouped: Attrs = rcn === 4 ? this.represent(row) : {};
    for (const child of children) {
      const root = rootName(child.ty)!;
      ((grouped[root] ??= []) as Attrs[]).push(this.represent(child));
    }
    return { status: 200, rsc: RSC.OK, body: { [rootName(row.ty)!]: grouped } };
  }

  private instanceOrSelf(target: Target, path: string): ResourceRow {
    if (!target.virtual) return target.row;
    const row = this.config.profile.latestByName
      ? this.store.latestByName(target.row, this.now(), target.virtual)
      : target.virtual === "la"
        ? this.store.lastChild(target.row.id, TY.CIN)
        : this.store.firstChild(target.row.id, TY.CIN);
    if (!row) throw notFound(`/${path}: the container has no instances`);
    return row;
  }

  // ---------------------------------------------------------------------------------------------

  private async update(req: CseRequest): Promise<CseResponse> {
    const target = this.resolve(req.path);
    if (target.virtual) throw notAllowed(`/${req.path} is a virtual resource and cannot be updated`);
    const row = target.row;
    if (!TYPES[row.ty]?.update) throw notAllowed(`resources of type ${row.ty} (${rootName(row.ty)}) cannot be updated`);
    this.mayModify(row, req.originator);
    const changes = updateAttributes(row.ty, unwrap(req.body, row.ty), this.config.profile);
    if (row.ty === TY.SUB && changes.nu !== undefined) this.checkAeTargets(changes.nu as string[]);
    if (row.ty === TY.SUB && changes.nu !== undefined && this.config.verifySubscriptions) {
      const old = new Set((JSON.parse(row.attrs) as SubAttrs).nu);
      await this.notifier.verify(
        this.urls((changes.nu as string[]).filter((u) => !old.has(u))),
        row.path,
        req.originator,
      );
    }
    const ms = this.now();
    const updated = this.store.transaction(() => {
      const current = this.store.byPath(row.path);
      if (!current) throw notFound(`no resource at /${row.path}`);
      const attrs = { ...(JSON.parse(current.attrs) as Attrs), ...changes, lt: m2mTime(ms) };
      const json = JSON.stringify(attrs);
      this.store.setAttrs(current.id, json);
      if (changes.lbl !== undefined) this.store.replaceLabels(current.id, changes.lbl as string[]);
      let { cni, cbs, st } = current;
      if (current.ty === TY.CNT) {
        // lowered limits take effect at once, as if an instance of nothing were added
        ({ cni, cbs } = this.trim(current, attrs as unknown as Limits, ms, 0, 0));
        st += 1;
        this.store.setCounters(current.id, cni, cbs, st);
      }
      return { ...current, attrs: json, cni, cbs, st };
    });
    const body = this.wrap(updated);
    const modified = { ...changes, lt: m2mTime(ms) };
    this.raise(
      this.eventsFor(updated.id, NET.UPDATE, updated, () => body, { [rootName(updated.ty)!]: modified }, false),
    );
    return { status: 200, rsc: RSC.UPDATED, body };
  }

  // ---------------------------------------------------------------------------------------------

  private delete(req: CseRequest): CseResponse {
    const target = this.resolve(req.path);
    const row = this.instanceOrSelf(target, req.path);
    if (row.ty === TY.CSE_BASE) throw notAllowed("the CSEBase cannot be deleted");
    this.mayModify(row, req.originator);
    const body = this.wrap(row);
    const events: PendingEvent[] = [];
    const gone = this.store.transaction(() => {
      const current = this.store.byPath(row.path);
      if (!current) throw notFound(`no resource at /${row.path}`);
      events.push(...this.eventsFor(current.id, NET.DELETE, current, () => body, undefined, true));
      if (current.parent !== null)
        events.push(...this.eventsFor(current.parent, NET.DELETE_CHILD, current, () => body, undefined, false));
      const subs = current.ty === TY.SUB ? [current] : this.store.typeInSubtree(TY.SUB, current.path);
      if (current.ty === TY.CIN && current.parent !== null) {
        const cnt = this.store.byId(current.parent);
        if (cnt) this.store.setCounters(cnt.id, Math.max(cnt.cni - 1, 0), Math.max(cnt.cbs - current.size, 0), cnt.st);
      }
      this.store.deleteById(current.id);
      return subs;
    });
    const notified = new Set(events.filter((e) => e.last).map((e) => e.sub.ri));
    this.raise(events);
    for (const s of gone) {
      if ((JSON.parse(s.attrs) as SubAttrs).su !== undefined) this.announceDeletion(s);
      else if (!notified.has(s.ri)) this.notifier.forget(s.ri);
    }
    return { status: 200, rsc: RSC.DELETED, body };
  }

  // ---------------------------------------------------------------------------------------------

  /** The subscriptions under `parentId` interested in `net`, with what each should be sent. */
  private eventsFor(
    parentId: number,
    net: number,
    resource: ResourceRow,
    /** the whole resource as notified: built only when a subscription wants it */
    whole: () => Attrs,
    modified: Attrs | undefined,
    last: boolean,
  ): PendingEvent[] {
    const out: PendingEvent[] = [];
    let rep: Attrs | undefined;
    for (const sub of this.store.subscriptionsOf(parentId)) {
      if (sub.id === resource.id) continue;
      const s = JSON.parse(sub.attrs) as SubAttrs;
      const nets = s.enc?.net ?? [NET.CREATE_CHILD];
      if (!nets.includes(net)) continue;
      // nct=2 (modified attributes) differs from the whole resource only for an update
      out.push({ sub, net, rep: s.nct === 2 && modified ? modified : (rep ??= whole()), last });
    }
    return out;
  }

  private raise(events: PendingEvent[]): void {
    for (const e of events) {
      let sub = e.sub;
      let last = e.last;
      if (!last && (JSON.parse(sub.attrs) as SubAttrs).exc !== undefined) {
        // the counter lives in the stored resource: re-read it, an earlier event may have used it up
        const current = this.store.subscriptionByRi(sub.ri);
        if (!current) continue;
        sub = current;
        const attrs = JSON.parse(sub.attrs) as Attrs & SubAttrs;
        const left = attrs.exc! - 1;
        if (left <= 0) {
          this.store.deleteById(sub.id);
          last = true;
        } else this.store.setAttrs(sub.id, JSON.stringify({ ...attrs, exc: left }));
      }
      const s = JSON.parse(sub.attrs) as SubAttrs;
      this.notifier.notify(
        { ri: sub.ri, nu: this.urls(s.nu) },
        { "m2m:sgn": { nev: { rep: e.rep, net: e.net }, sur: sub.path } },
        last,
      );
      if (last && !e.last) this.announceDeletion(sub);
    }
  }

  /** TS-0004's subscription deletion notice to the subscription's `su`, after anything still queued. */
  private announceDeletion(sub: ResourceRow): void {
    const su = (JSON.parse(sub.attrs) as SubAttrs).su;
    if (su !== undefined)
      this.notifier.notify({ ri: sub.ri, nu: [su] }, { "m2m:sgn": { sud: true, sur: sub.path } }, true);
  }
}

/** Mobius parses a `con` string holding a JSON object or array, and turns numbers and booleans into text. */
function mobiusContent(con: unknown): unknown {
  if (typeof con === "number" || typeof con === "boolean") return String(con);
  if (typeof con !== "string" || !/^\s*[[{]/.test(con)) return con;
  try {
    return JSON.parse(con) as unknown;
  } catch {
    return con;
  }
}
