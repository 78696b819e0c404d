// The resource tree in SQLite. Each resource is one row: its structured path (unique, so lookup by
// path and subtree range scans use one index), its parent's row id (cascading deletes, children by
// type in creation order for `la`/`ol`, trimming and subscriptions) and its attributes as JSON.
// Container counters (cni, cbs, st) are columns so adding an instance never rewrites the JSON.
import { mkdirSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { CseConfigError } from "./errors.ts";
import { comparableTime } from "./time.ts";

export const TY = { AE: 2, CNT: 3, CIN: 4, CSE_BASE: 5, MGMT_OBJ: 13, NODE: 14, SUB: 23 } as const;

export interface ResourceRow {
  /** creation order: oldest-first trimming, `ol` and `la` follow it */
  id: number;
  ri: string;
  parent: number | null;
  ty: number;
  /** structured path without a leading slash: "Mobius/ae/cnt/cin" */
  path: string;
  cr: string | null;
  /** a contentInstance's `cs` */
  size: number;
  cni: number;
  cbs: number;
  st: number;
  aei: string | null;
  created_ms: number;
  attrs: string;
}

export type NewRow = Omit<ResourceRow, "id">;

export interface InstanceMeta {
  id: number;
  size: number;
  created_ms: number;
}

const SCHEMA = `
CREATE TABLE resource (
  id INTEGER PRIMARY KEY,
  ri TEXT NOT NULL,
  parent INTEGER REFERENCES resource(id) ON DELETE CASCADE,
  ty INTEGER NOT NULL,
  path TEXT NOT NULL UNIQUE,
  cr TEXT,
  size INTEGER NOT NULL DEFAULT 0,
  cni INTEGER NOT NULL DEFAULT 0,
  cbs INTEGER NOT NULL DEFAULT 0,
  st INTEGER NOT NULL DEFAULT 0,
  aei TEXT,
  created_ms INTEGER NOT NULL,
  attrs TEXT NOT NULL
);
CREATE INDEX resource_children ON resource(parent, ty, id);
CREATE UNIQUE INDEX resource_aei ON resource(aei) WHERE aei IS NOT NULL;
-- ids are unique by construction (ids.ts); only subscriptions are ever looked up by ri, and an
-- index over every instance's ri would cost each create and trim one more page write
CREATE INDEX resource_subscription ON resource(ri) WHERE ty = 23;
CREATE TABLE label (
  label TEXT NOT NULL,
  id INTEGER NOT NULL REFERENCES resource(id) ON DELETE CASCADE,
  PRIMARY KEY (label, id)
) WITHOUT ROWID;
CREATE INDEX label_of ON label(id);
`;
const SCHEMA_VERSION = 1;
const COLUMNS = "id, ri, parent, ty, path, cr, size, cni, cbs, st, aei, created_ms, attrs";
// bound by position: better-sqlite3 binds an array faster than an object's named values
const INSERT_COLUMNS =
  "(ri, parent, ty, path, cr, size, cni, cbs, st, aei, created_ms, attrs) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
type InsertArgs = [
  string,
  number | null,
  number,
  string,
  string | null,
  number,
  number,
  number,
  number,
  string | null,
  number,
  string,
];
const insertArgs = (r: NewRow): InsertArgs => [
  r.ri,
  r.parent,
  r.ty,
  r.path,
  r.cr,
  r.size,
  r.cni,
  r.cbs,
  r.st,
  r.aei,
  r.created_ms,
  r.attrs,
];

/** Bounds the number of values of ty and of lbl in one filter. */
export const MAX_FILTER_VALUES = 32;
const MAX_PREPARED_SEARCHES = 256;

/** Filter criteria of TS-0004 (times as "YYYYMMDDTHHMMSS"); lists empty and values undefined = not given. */
export interface Filter {
  ty: readonly number[];
  lbl: readonly string[];
  /** the request gave exactly one lbl value, without a comma (Mobius chooses its label query by this) */
  lblOneValue?: boolean;
  /** created before / after */
  crb?: string;
  cra?: string;
  /** modified since / not modified since */
  ms?: string;
  us?: string;
  /** state tag smaller / bigger than */
  sts?: number;
  stb?: number;
  /** levels below the target, 1 = children */
  lvl?: number;
  lim?: number;
  ofst?: number;
  /** fo=2: any condition suffices */
  or: boolean;
  /** content types (an instance's cnf, whole or its media type); several are alternatives */
  cty: readonly string[];
  /** instance content size at least / smaller than */
  sza?: number;
  szb?: number;
  /** expires after / before */
  exa?: string;
  exb?: string;
  /** applyRelativePath: each result is replaced by the resource at this path below it (applied by the caller) */
  arp?: string;
  /** attribute conditions: equal, or matching `*`/`?` wildcards */
  attributes: readonly { name: string; value: string }[];
}

/** Where an attribute named in a filter lives: a column (counters, sizes) or the attributes' JSON. */
const COLUMN_ATTRIBUTES: Record<string, string> = {
  ri: "ri",
  cni: `(CASE WHEN ty = ${TY.CNT} THEN cni END)`,
  cbs: `(CASE WHEN ty = ${TY.CNT} THEN cbs END)`,
  st: `(CASE WHEN ty IN (${TY.CNT}, ${TY.CIN}) THEN st END)`,
  cs: `(CASE WHEN ty = ${TY.CIN} THEN size END)`,
};

/** An attribute's value as text to compare with the filter's (JSON true/false as "true"/"false"). */
function attributeText(name: string): string {
  const column = COLUMN_ATTRIBUTES[name];
  if (column) return `CAST(${column} AS TEXT)`;
  const at = `'$.${name}'`;
  return `(CASE json_type(attrs, ${at}) WHEN 'true' THEN 'true' WHEN 'false' THEN 'false' ELSE CAST(json_extract(attrs, ${at}) AS TEXT) END)`;
}

/** A filter value with * or ? as a GLOB pattern (its own [ and ] matched literally). */
const globPattern = (v: string): string => v.replace(/[[\]]/g, (c) => `[${c}]`);

/** Which resources a search may see besides what the filter selects. */
export interface SearchScope {
  /** containers whose instances are left out (disableRetrieval) */
  hiddenInstancesOf?: readonly number[];
  /** only the resources this originator owns (an instance: its container's owner) */
  ownedBy?: string;
  /** a label condition never selects a contentInstance (Mobius with one lbl value: see Profile) */
  labelMissesInstances?: boolean;
}

const slashes = (p: string): number => p.split("/").length - 1;

/** The range of paths strictly below `p`: every path starting with "p/" sorts in ["p/", "p0"). */
function subtreeRange(p: string): [string, string] {
  return [`${p}/`, `${p}0`];
}

export class Store {
  private readonly db: Database.Database;
  private readonly searches = new Map<string, Database.Statement>();
  private readonly q;
  private readonly batch: { fn: () => unknown; resolve: (v: unknown) => void; reject: (e: unknown) => void }[] = [];
  /**
   * Row ids that have (or once had) a subscription child: every created instance asks for its
   * container's subscriptions, and most containers have none. A superset is safe (the query then
   * answers exactly), so ids are added on insert, even if that insert rolls back, and never removed.
   */
  private subscriptionParents: Set<number> | undefined;
  /**
   * No contentInstance in the tree was created before this time (ms), so trimming by `mia` need not
   * look for the oldest one while the cutoff is earlier. Read at start (one scan of the table, kept
   * out of the first write transaction), lowered by every instance added (even one rolled back),
   * never raised: a bound that is too low only costs a query.
   */
  private instancesSinceMs: number;

  /** whether the connection belongs to someone else (the decoder running this CSE in its process) */
  private readonly shared: boolean;

  /**
   * `file` undefined keeps the tree in memory only. A connection (`{ connection }`) is another
   * component's database that this tree shares, so that both commit in one transaction: its owner
   * chose the journal and durability, keeps `user_version` for its own schema and closes it.
   */
  constructor(location: string | undefined | { connection: Database.Database }) {
    this.shared = typeof location === "object";
    if (typeof location === "string") mkdirSync(path.dirname(location), { recursive: true });
    this.db = typeof location === "object" ? location.connection : new Database(location ?? ":memory:");
    try {
      if (!this.shared) {
        // WAL + NORMAL: a crash of the process loses nothing committed; a power cut may lose the last
        // transactions but never corrupts the tree. That keeps one fsync off every instance created.
        this.db.pragma("journal_mode = WAL");
        this.db.pragma("synchronous = NORMAL");
        this.db.pragma("busy_timeout = 5000");
      }
      this.db.pragma("foreign_keys = ON");
      this.migrate();
    } catch (e) {
      if (!this.shared) this.db.close();
      throw e;
    }
    const db = this.db;
    this.q = {
      begin: db.prepare("BEGIN IMMEDIATE"),
      commit: db.prepare("COMMIT"),
      rollback: db.prepare("ROLLBACK"),
      savepoint: db.prepare("SAVEPOINT item"),
      release: db.prepare("RELEASE item"),
      rollbackTo: db.prepare("ROLLBACK TO item"),
      byPath: db.prepare<[string], ResourceRow>(`SELECT ${COLUMNS} FROM resource WHERE path = ?`),
      byId: db.prepare<[number], ResourceRow>(`SELECT ${COLUMNS} FROM resource WHERE id = ?`),
      subscriptionByRi: db.prepare<[string], ResourceRow>(
        `SELECT ${COLUMNS} FROM resource WHERE ri = ? AND ty = ${TY.SUB}`,
      ),
      exists: db.prepare<[string], { one: number }>("SELECT 1 AS one FROM resource WHERE path = ?").pluck(),
      byAei: db.prepare<[string], ResourceRow>(`SELECT ${COLUMNS} FROM resource WHERE aei = ?`),
      insert: db.prepare<InsertArgs>(`INSERT INTO resource ${INSERT_COLUMNS}`),
      insertIfFree: db.prepare<InsertArgs>(`INSERT INTO resource ${INSERT_COLUMNS} ON CONFLICT (path) DO NOTHING`),
      oldestInstanceMs: db
        .prepare<[], number | null>(`SELECT min(created_ms) FROM resource WHERE ty = ${TY.CIN}`)
        .pluck(),
      setAttrs: db.prepare<[string, number]>("UPDATE resource SET attrs = ? WHERE id = ?"),
      setCounters: db.prepare<[number, number, number, number]>(
        "UPDATE resource SET cni = ?, cbs = ?, st = ? WHERE id = ?",
      ),
      firstChild: db.prepare<[number, number], ResourceRow>(
        `SELECT ${COLUMNS} FROM resource WHERE parent = ? AND ty = ? ORDER BY id ASC LIMIT 1`,
      ),
      lastChild: db.prepare<[number, number], ResourceRow>(
        `SELECT ${COLUMNS} FROM resource WHERE parent = ? AND ty = ? ORDER BY id DESC LIMIT 1`,
      ),
      newestInstancesFirst: db.prepare<[number], { id: number; path: string; created_ms: number }>(
        `SELECT id, path, created_ms FROM resource WHERE parent = ? AND ty = ${TY.CIN} ORDER BY id DESC`,
      ),
      oldestInstance: db.prepare<[number], InstanceMeta>(
        `SELECT id, size, created_ms FROM resource WHERE parent = ? AND ty = ${TY.CIN} ORDER BY id ASC LIMIT 1`,
      ),
      deleteById: db.prepare<[number]>("DELETE FROM resource WHERE id = ?"),
      aesOwnedByAeId: db.prepare(
        `UPDATE resource SET cr = aei WHERE ty = ${TY.AE} AND aei IS NOT NULL AND (cr IS NULL OR cr != aei)`,
      ),
      subscriptionParents: db
        .prepare<[], number>(`SELECT DISTINCT parent FROM resource WHERE ty = ${TY.SUB} AND parent IS NOT NULL`)
        .pluck(),
      childrenOfType: db.prepare<[number, number], ResourceRow>(
        `SELECT ${COLUMNS} FROM resource WHERE parent = ? AND ty = ? ORDER BY id`,
      ),
      typeInSubtree: db.prepare<[number, string, string], ResourceRow>(
        `SELECT ${COLUMNS} FROM resource WHERE ty = ? AND path > ? AND path < ? ORDER BY id`,
      ),
      allOfType: db.prepare<[number], ResourceRow>(`SELECT ${COLUMNS} FROM resource WHERE ty = ? ORDER BY id`),
      retrievalDisabled: db
        .prepare<[], number>(`SELECT id FROM resource WHERE ty = ${TY.CNT} AND json_extract(attrs, '$.disr') = 1`)
        .pluck(),
      clearLabels: db.prepare<[number]>("DELETE FROM label WHERE id = ?"),
      addLabel: db.prepare<[string, number]>("INSERT OR IGNORE INTO label (label, id) VALUES (?, ?)"),
    };
    this.instancesSinceMs = this.q.oldestInstanceMs.get() ?? Infinity;
  }

  private migrate(): void {
    const version = this.schemaVersion();
    if (version === SCHEMA_VERSION) return;
    if (version !== 0)
      throw new CseConfigError(`the CSE database has schema ${version}; this build knows ${SCHEMA_VERSION}`);
    this.db
      .transaction(() => {
        this.db.exec(SCHEMA);
        if (this.shared) this.db.prepare("INSERT INTO cse_schema (version) VALUES (?)").run(SCHEMA_VERSION);
        else this.db.pragma(`user_version = ${SCHEMA_VERSION}`);
      })
      .immediate();
  }

  /** a database of its own keeps the version in user_version; a shared one in a table of the CSE's */
  private schemaVersion(): number {
    if (!this.shared) return this.db.pragma("user_version", { simple: true }) as number;
    this.db.exec("CREATE TABLE IF NOT EXISTS cse_schema (version INTEGER NOT NULL)");
    return (this.db.prepare("SELECT max(version) FROM cse_schema").pluck().get() as number | null) ?? 0;
  }

  /** Runs `fn` in its own write transaction, committed before it returns. */
  transaction<T>(fn: () => T): T {
    this.q.begin.run();
    try {
      const result = fn();
      this.q.commit.run();
      return result;
    } catch (e) {
      if (this.db.inTransaction) this.q.rollback.run();
      throw e;
    }
  }

  /**
   * Group commit: `fn` runs, with the other writes queued in the same turn of the event loop, inside
   * one transaction, each under its own savepoint (one failing undoes only itself). Resolves once the
   * shared commit is done. Concurrent clients then pay for one commit per batch, not per request.
   */
  batched<T>(fn: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.batch.push({ fn, resolve: resolve as (v: unknown) => void, reject });
      if (this.batch.length === 1) setImmediate(() => this.flush());
    });
  }

  /** Commits the queued batch now (also before closing). */
  flush(): void {
    const items = this.batch.splice(0);
    if (items.length === 0) return;
    const outcomes: { ok: boolean; value: unknown }[] = [];
    try {
      this.q.begin.run();
      for (const item of items) {
        this.q.savepoint.run();
        try {
          outcomes.push({ ok: true, value: item.fn() });
          this.q.release.run();
        } catch (e) {
          this.q.rollbackTo.run();
          this.q.release.run();
          outcomes.push({ ok: false, value: e });
        }
      }
      this.q.commit.run();
    } catch (e) {
      if (this.db.open && this.db.inTransaction) this.q.rollback.run();
      for (const item of items) item.reject(e);
      return;
    }
    items.forEach((item, i) => (outcomes[i]!.ok ? item.resolve(outcomes[i]!.value) : item.reject(outcomes[i]!.value)));
  }

  byPath(p: string): ResourceRow | undefined {
    return this.q.byPath.get(p);
  }

  byId(id: number): ResourceRow | undefined {
    return this.q.byId.get(id);
  }

  subscriptionByRi(ri: string): ResourceRow | undefined {
    return this.q.subscriptionByRi.get(ri);
  }

  exists(p: string): boolean {
    return this.q.exists.get(p) !== undefined;
  }

  byAei(aei: string): ResourceRow | undefined {
    return this.q.byAei.get(aei);
  }

  insert(row: NewRow): number {
    this.inserting(row);
    return Number(this.q.insert.run(...insertArgs(row)).lastInsertRowid);
  }

  /** insert() unless a resource has the row's path already: then nothing is written and it answers undefined */
  insertIfFree(row: NewRow): number | undefined {
    this.inserting(row);
    const info = this.q.insertIfFree.run(...insertArgs(row));
    return info.changes === 0 ? undefined : Number(info.lastInsertRowid);
  }

  private inserting(row: NewRow): void {
    if (row.ty === TY.SUB && row.parent !== null) this.subscriptionParents?.add(row.parent);
    if (row.ty === TY.CIN && row.created_ms < this.instancesSinceMs) this.instancesSinceMs = row.created_ms;
  }

  /** Whether some contentInstance may have been created before `ms` (false: certainly none). */
  mayHaveInstanceBefore(ms: number): boolean {
    return this.instancesSinceMs < ms;
  }

  /** The subscriptions directly below `parent`, in creation order. */
  subscriptionsOf(parent: number): ResourceRow[] {
    this.subscriptionParents ??= new Set(this.q.subscriptionParents.all());
    return this.subscriptionParents.has(parent) ? this.q.childrenOfType.all(parent, TY.SUB) : [];
  }

  setAttrs(id: number, attrs: string): void {
    this.q.setAttrs.run(attrs, id);
  }

  setCounters(id: number, cni: number, cbs: number, st: number): void {
    this.q.setCounters.run(cni, cbs, st, id);
  }

  firstChild(parent: number, ty: number): ResourceRow | undefined {
    return this.q.firstChild.get(parent, ty);
  }

  lastChild(parent: number, ty: number): ResourceRow | undefined {
    return this.q.lastChild.get(parent, ty);
  }

  oldestInstance(parent: number): InstanceMeta | undefined {
    return this.q.oldestInstance.get(parent);
  }

  /**
   * Makes every AE belong to its AE-ID. Trees written before this rule gave a self-registered AE the
   * bare "C"/"S" that asked for it as owner, which any client may send. Returns the AEs changed.
   */
  ownAesByAeId(): number {
    return this.q.aesOwnedByAeId.run().changes;
  }

  /** Deletes the row and, by cascade, its subtree and labels. */
  deleteById(id: number): void {
    this.q.deleteById.run(id);
  }

  childrenOfType(parent: number, ty: number): ResourceRow[] {
    return this.q.childrenOfType.all(parent, ty);
  }

  /** Resources of one type strictly below `p`. */
  typeInSubtree(ty: number, p: string): ResourceRow[] {
    const [lo, hi] = subtreeRange(p);
    return this.q.typeInSubtree.all(ty, lo, hi);
  }

  allOfType(ty: number): ResourceRow[] {
    return this.q.allOfType.all(ty);
  }

  replaceLabels(id: number, labels: readonly string[]): void {
    this.q.clearLabels.run(id);
    for (const l of labels) this.q.addLabel.run(l, id);
  }

  /**
   * Resources strictly below `p` that pass the filter: within `lvl` levels, and meeting all (or,
   * with `or`, any) of the conditions given; several values of ty or lbl are alternatives. Ordered
   * by creation, or by path when `byPath` (Mobius' discovery), then `ofst` skipped and `lim` kept.
   */
  search(p: string, f: Filter, byPath: boolean, scope: SearchScope = {}): ResourceRow[] {
    return this.select(COLUMNS, p, f, byPath, scope) as ResourceRow[];
  }

  /** search() returning only the paths (discovery reads nothing else). */
  searchPaths(p: string, f: Filter, byPath: boolean, scope: SearchScope = {}): string[] {
    return this.select("path", p, f, byPath, scope).map((r) => (r as { path: string }).path);
  }

  /** The containers whose instances cannot be retrieved (disr true). One scan: read at start. */
  retrievalDisabledContainers(): number[] {
    return this.q.retrievalDisabled.all();
  }

  private select(columns: string, p: string, f: Filter, byPath: boolean, scope: SearchScope): unknown[] {
    const hiddenInstancesOf = scope.hiddenInstancesOf ?? [];
    if (
      f.ty.length > MAX_FILTER_VALUES ||
      f.lbl.length > MAX_FILTER_VALUES ||
      f.cty.length > MAX_FILTER_VALUES ||
      f.attributes.length > MAX_FILTER_VALUES
    )
      throw new RangeError("too many filter values");
    const conditions: string[] = [];
    const args: unknown[] = [];
    const marks = (n: number) => Array.from({ length: n }, () => "?").join(", ");
    const add = (sql: string, ...values: unknown[]) => {
      conditions.push(sql);
      args.push(...values);
    };
    if (f.ty.length) add(`ty IN (${marks(f.ty.length)})`, ...f.ty);
    if (f.lbl.length)
      add(
        `${scope.labelMissesInstances ? `ty <> ${TY.CIN} AND ` : ""}id IN (SELECT id FROM label WHERE label IN (${marks(f.lbl.length)}))`,
        ...f.lbl,
      );
    // times are "YYYYMMDDTHHMMSS" strings with an optional ",ffffff": with the fraction written out
    // to six digits on both sides (comparableTime), text order is time order
    const at = (a: string) => {
      const v = `json_extract(attrs, '$.${a}')`;
      return `(CASE WHEN instr(${v}, ',') = 0 THEN ${v} || ',000000' ELSE substr(${v} || '000000', 1, 22) END)`;
    };
    if (f.crb !== undefined) add(`${at("ct")} < ?`, comparableTime(f.crb));
    if (f.cra !== undefined) add(`${at("ct")} > ?`, comparableTime(f.cra));
    if (f.ms !== undefined) add(`${at("lt")} > ?`, comparableTime(f.ms));
    if (f.us !== undefined) add(`${at("lt")} < ?`, comparableTime(f.us));
    // only containers and their instances have a state tag
    if (f.sts !== undefined) add(`(ty IN (${TY.CNT}, ${TY.CIN}) AND st < ?)`, f.sts);
    if (f.stb !== undefined) add(`(ty IN (${TY.CNT}, ${TY.CIN}) AND st > ?)`, f.stb);
    if (f.exb !== undefined) add(`${at("et")} < ?`, comparableTime(f.exb));
    if (f.exa !== undefined) add(`${at("et")} > ?`, comparableTime(f.exa));
    // only instances have a content size
    if (f.sza !== undefined) add(`(ty = ${TY.CIN} AND size >= ?)`, f.sza);
    if (f.szb !== undefined) add(`(ty = ${TY.CIN} AND size < ?)`, f.szb);
    if (f.cty.length) {
      const cnf = "json_extract(attrs, '$.cnf')";
      // a media type matches the content infos that only add an encoding ("text/plain" finds "text/plain:0")
      const one = `(${cnf} = ? OR substr(${cnf}, 1, length(?) + 1) = ? || ':')`;
      add(`(ty = ${TY.CIN} AND (${f.cty.map(() => one).join(" OR ")}))`, ...f.cty.flatMap((c) => [c, c, c]));
    }
    for (const { name, value } of f.attributes)
      if (/[*?]/.test(value)) add(`${attributeText(name)} GLOB ?`, globPattern(value));
      else add(`${attributeText(name)} = ?`, value);
    const [lo, hi] = subtreeRange(p);
    let sql = `SELECT ${columns} FROM resource WHERE path > ? AND path < ?`;
    const head: unknown[] = [lo, hi];
    if (f.lvl !== undefined) {
      sql += " AND length(path) - length(replace(path, '/', '')) <= ?";
      head.push(slashes(p) + f.lvl);
    }
    if (conditions.length) sql += ` AND (${conditions.join(f.or ? " OR " : " AND ")})`;
    if (hiddenInstancesOf.length) {
      sql += ` AND NOT (ty = ${TY.CIN} AND parent IN (${marks(hiddenInstancesOf.length)}))`;
      args.push(...hiddenInstancesOf);
    }
    if (scope.ownedBy !== undefined) {
      // an instance belongs to its container's owner, every other resource to its own
      sql += ` AND (CASE WHEN ty = ${TY.CIN} THEN (SELECT o.cr FROM resource o WHERE o.id = resource.parent) ELSE cr END) = ?`;
      args.push(scope.ownedBy);
    }
    sql += byPath ? " ORDER BY path" : " ORDER BY id";
    sql += " LIMIT ? OFFSET ?";
    let stmt = this.searches.get(sql);
    if (!stmt) {
      // bounded: the statement text depends only on which criteria are given and how many values
      if (this.searches.size >= MAX_PREPARED_SEARCHES) this.searches.clear();
      stmt = this.db.prepare(sql);
      this.searches.set(sql, stmt);
    }
    return stmt.all(...head, ...args, f.lim ?? -1, f.ofst ?? 0);
  }

  /**
   * Mobius' `la`/`ol`: among the instances created in the most recent window of 1, 5, 25 … minutes
   * that holds any, the one with the largest (`la`) or smallest (`ol`) name.
   */
  latestByName(parent: ResourceRow, nowMs: number, which: "la" | "ol"): ResourceRow | undefined {
    // instances are rows in creation order, so the window is the newest rows: read back from the
    // newest until one is older than the window (cost: the window's size, not the container's)
    let cutoff: number | undefined;
    let best: { id: number; path: string } | undefined;
    for (const row of this.q.newestInstancesFirst.iterate(parent.id)) {
      if (cutoff === undefined) {
        let windowMs = 60_000;
        while (row.created_ms < nowMs - windowMs) windowMs *= 5;
        cutoff = nowMs - windowMs;
      }
      if (row.created_ms < cutoff) break;
      // names share the container's path prefix, so path order is name order
      if (!best || (which === "la" ? row.path > best.path : row.path < best.path)) best = row;
    }
    return best && this.byId(best.id);
  }

  close(): void {
    if (!this.db.open) return;
    this.flush();
    if (!this.shared) this.db.close();
  }
}
