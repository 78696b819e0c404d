// Projects and their layout version history; every write is one transaction so autosave never
// leaves a project pointing at a version that is not there.
import { randomUUID } from "node:crypto";
import type Database from "better-sqlite3";
import type { Layout } from "#codecs";
import { prepareReads, summary, type ProjectRow } from "#services/shared/projectReader.ts";
import type { Project, ProjectSummary } from "../api/contract.ts";
import { HostError } from "../errors.ts";

export const DEFAULT_KEEP_VERSIONS = 200;
/** how long a deleted project stays in "Recently deleted" before it is removed for good */
export const DELETED_KEPT_MS = 7 * 24 * 3600_000;

/**
 * Autosave writes a version per pause in the editing, not per keystroke: a save replaces the newest
 * version when that one was saved less than `pauseMs` ago and its burst began less than `burstMs` ago
 * (so a long session still leaves a version every `burstMs`). Decided here, so every client gets it.
 */
export interface Coalescing {
  pauseMs: number;
  burstMs: number;
}
export const DEFAULT_COALESCING: Coalescing = { pauseMs: 60_000, burstMs: 10 * 60_000 };

export interface HistoryEntry {
  version: number;
  savedAt: string;
  fieldCount: number;
  name: string;
  /** the user's name for this version; a named version is never pruned nor replaced */
  label: string | null;
  /** the version the user marked as running on their devices (at most one per project) */
  deployed: boolean;
}

export interface DeletedProject {
  id: string;
  name: string;
  deletedAt: string;
  /** when it is removed for good */
  purgeAt: string;
}

export interface StoreOptions {
  /** unnamed versions kept per project besides the named and deployed ones; older ones are pruned on save */
  keepVersions?: number;
  /** injectable clock (ms since epoch) */
  now?: () => number;
  /** false: every save is a version of its own */
  coalesce?: Coalescing | false;
}

export interface SaveOptions {
  /** false: this save is a version of its own, and later saves never replace it */
  coalesce?: boolean | undefined;
}

interface VersionRow {
  savedAt: string;
  label: string | null;
  burstStartedAt: string | null;
  sent: number;
}

const LIVE = "deleted_at IS NULL";
const COLUMNS = "id, name, updated_at, version, file_path";

function prepare(db: Database.Database) {
  return {
    // the shared reads see every project; the host's own reads skip the ones in "Recently deleted"
    ...prepareReads(db),
    project: db.prepare(`SELECT ${COLUMNS}, deployed_version FROM projects WHERE id = ? AND ${LIVE}`),
    list: db.prepare(`SELECT ${COLUMNS} FROM projects WHERE ${LIVE} ORDER BY updated_at DESC, id LIMIT ?`),
    byFile: db.prepare(
      `SELECT ${COLUMNS} FROM projects WHERE file_path = ? AND ${LIVE} ORDER BY updated_at DESC LIMIT 1`,
    ),
    insertProject: db.prepare(
      "INSERT INTO projects (id, name, created_at, updated_at, version, file_path) VALUES (?, ?, ?, ?, 1, ?)",
    ),
    insertVersion: db.prepare(
      "INSERT INTO layout_versions (project_id, version, saved_at, name, field_count, layout, burst_started_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
    ),
    versionMeta: db.prepare(
      `SELECT saved_at AS savedAt, label, burst_started_at AS burstStartedAt,
         EXISTS (SELECT 1 FROM devkit_transmissions t WHERE t.project_id = v.project_id AND t.layout_version = v.version) AS sent
       FROM layout_versions v WHERE project_id = ? AND version = ?`,
    ),
    dropVersion: db.prepare("DELETE FROM layout_versions WHERE project_id = ? AND version = ?"),
    bump: db.prepare("UPDATE projects SET version = ?, updated_at = ? WHERE id = ?"),
    // the newest `keep` versions stay, and every named or deployed one whatever its age
    prune: db.prepare(
      `DELETE FROM layout_versions WHERE project_id = @id AND label IS NULL
         AND version IS NOT (SELECT deployed_version FROM projects WHERE id = @id)
         AND version NOT IN (SELECT version FROM layout_versions WHERE project_id = @id ORDER BY version DESC LIMIT @keep)`,
    ),
    rename: db.prepare("UPDATE projects SET name = ?, updated_at = ? WHERE id = ?"),
    setFile: db.prepare("UPDATE projects SET file_path = ?, updated_at = ? WHERE id = ?"),
    softDelete: db.prepare(`UPDATE projects SET deleted_at = ? WHERE id = ? AND ${LIVE}`),
    restore: db.prepare("UPDATE projects SET deleted_at = NULL WHERE id = ? AND deleted_at IS NOT NULL"),
    deleted: db.prepare(
      "SELECT id, name, deleted_at AS deletedAt FROM projects WHERE deleted_at IS NOT NULL ORDER BY deleted_at DESC, id",
    ),
    deletedOne: db.prepare("SELECT name FROM projects WHERE id = ? AND deleted_at IS NOT NULL"),
    purge: db.prepare("DELETE FROM projects WHERE deleted_at IS NOT NULL AND deleted_at < ?"),
    purgeOne: db.prepare("DELETE FROM projects WHERE id = ? AND deleted_at IS NOT NULL"),
    history: db.prepare(
      `SELECT version, saved_at AS savedAt, field_count AS fieldCount, name, label FROM layout_versions
       WHERE project_id = @id AND (version IN (SELECT version FROM layout_versions WHERE project_id = @id ORDER BY version DESC LIMIT @limit)
         OR label IS NOT NULL OR version IS @deployed)
       ORDER BY version DESC`,
    ),
    entry: db.prepare(
      "SELECT version, saved_at AS savedAt, field_count AS fieldCount, name, label FROM layout_versions WHERE project_id = ? AND version = ?",
    ),
    setLabel: db.prepare("UPDATE layout_versions SET label = ? WHERE project_id = ? AND version = ?"),
    setDeployed: db.prepare("UPDATE projects SET deployed_version = ? WHERE id = ?"),
  };
}

type LiveRow = ProjectRow & { deployed_version: number | null };

export class ProjectStore {
  private readonly keep: number;
  private readonly clock: () => number;
  private readonly coalescing: Coalescing | false;
  private lastStamp = 0;
  private readonly q: ReturnType<typeof prepare>;

  constructor(
    private readonly db: Database.Database,
    opts: StoreOptions = {},
  ) {
    this.keep = opts.keepVersions ?? DEFAULT_KEEP_VERSIONS;
    if (!(this.keep >= 1)) throw new Error("keepVersions must be at least 1");
    this.clock = opts.now ?? Date.now;
    this.coalescing = opts.coalesce ?? DEFAULT_COALESCING;
    const latest = db.prepare("SELECT max(updated_at) AS t FROM projects").get() as { t: string | null };
    if (latest.t) this.lastStamp = Date.parse(latest.t);
    this.q = prepare(db);
    this.purgeDeleted();
  }

  /** ISO timestamps that strictly increase, so "recent" ordering is stable within a millisecond */
  private stamp(): string {
    this.lastStamp = Math.max(this.clock(), this.lastStamp + 1);
    return new Date(this.lastStamp).toISOString();
  }

  private row(id: string): LiveRow {
    const r = this.q.project.get(id) as LiveRow | undefined;
    if (r) return r;
    // another window may have deleted the project open here: say so, and where it can be brought back from
    const gone = this.q.deletedOne.get(id) as { name: string } | undefined;
    if (gone)
      throw new HostError(
        "not_found",
        `project "${gone.name}" was deleted: restore it from Recently deleted on the start screen to change it`,
      );
    throw new HostError("not_found", `no project with id "${id}"`);
  }

  create(name: string, layout: Layout, filePath: string | null = null): Project {
    const id = randomUUID();
    const text = JSON.stringify(layout);
    this.db.transaction(() => {
      const at = this.stamp();
      this.q.insertProject.run(id, name, at, at, filePath);
      this.q.insertVersion.run(id, 1, at, layout.name, layout.fields.length, text, null);
    })();
    return this.open(id);
  }

  open(id: string): Project {
    const r = this.row(id);
    const v = this.q.layoutAt.get(id, r.version) as { layout: string } | undefined;
    if (!v) throw new Error(`project ${id} has no stored layout for its version ${r.version}`);
    return { ...summary(r), layout: JSON.parse(v.layout) };
  }

  summary(id: string): ProjectSummary {
    return summary(this.row(id));
  }

  list(limit: number): ProjectSummary[] {
    return (this.q.list.all(limit) as ProjectRow[]).map(summary);
  }

  /**
   * A save based on an older version than the stored one is refused: another window saved first.
   * The version number always grows, also when the save replaces the newest version (coalescing), so
   * another window still sees that something was saved after what it holds.
   */
  save(
    id: string,
    layout: Layout,
    baseVersion: number,
    opts: SaveOptions = {},
  ): { version: number; updatedAt: string } {
    const text = JSON.stringify(layout);
    return this.db
      .transaction(() => {
        const r = this.row(id);
        if (r.version !== baseVersion)
          throw new HostError(
            "conflict",
            `project "${r.name}" is at version ${r.version}, this save was based on version ${baseVersion}`,
          );
        const coalesce = opts.coalesce !== false && this.coalescing !== false;
        const burst = coalesce ? this.burstOf(r) : null;
        const version = r.version + 1;
        const at = this.stamp();
        if (burst) this.q.dropVersion.run(id, r.version);
        this.q.insertVersion.run(
          id,
          version,
          at,
          layout.name,
          layout.fields.length,
          text,
          coalesce ? (burst ?? at) : null,
        );
        this.q.bump.run(version, at, id);
        this.q.prune.run({ id, keep: this.keep });
        return { version, updatedAt: at };
      })
      .immediate();
  }

  /** When the newest version is an autosave this save may replace, the start of its burst; else null. */
  private burstOf(r: LiveRow): string | null {
    const c = this.coalescing;
    if (c === false || r.deployed_version === r.version) return null;
    const v = this.q.versionMeta.get(r.id, r.version) as VersionRow | undefined;
    // a created, imported or deliberately saved version, a named one and one a payload was sent from stay
    if (!v || v.burstStartedAt === null || v.label !== null || v.sent) return null;
    const now = this.clock();
    if (now - Date.parse(v.savedAt) >= c.pauseMs || now - Date.parse(v.burstStartedAt) >= c.burstMs) return null;
    return v.burstStartedAt;
  }

  rename(id: string, name: string): ProjectSummary {
    return this.db.transaction(() => {
      this.row(id);
      this.q.rename.run(name, this.stamp(), id);
      return this.summary(id);
    })();
  }

  setFilePath(id: string, filePath: string): ProjectSummary {
    return this.db.transaction(() => {
      this.row(id);
      this.q.setFile.run(filePath, this.stamp(), id);
      return this.summary(id);
    })();
  }

  findByFilePath(filePath: string): ProjectSummary | undefined {
    const r = this.q.byFile.get(filePath) as ProjectRow | undefined;
    return r && summary(r);
  }

  /** Moves the project to "Recently deleted": gone from the list, restorable for DELETED_KEPT_MS. */
  delete(id: string): boolean {
    // a strictly increasing stamp, so two deletions within a millisecond still list in their order
    return this.q.softDelete.run(this.stamp(), id).changes > 0;
  }

  restore(id: string): ProjectSummary {
    this.purgeDeleted();
    if (this.q.restore.run(id).changes === 0)
      throw new HostError(
        "not_found",
        `no deleted project with id "${id}": it was restored already or removed for good a week after its deletion`,
      );
    return this.summary(id);
  }

  /** Removes a deleted project for good now, with its versions and cost scenario. */
  purge(id: string): boolean {
    return this.q.purgeOne.run(id).changes > 0;
  }

  /** The projects in "Recently deleted", newest deletion first (those older than a week are removed first). */
  deleted(): DeletedProject[] {
    this.purgeDeleted();
    return (this.q.deleted.all() as Omit<DeletedProject, "purgeAt">[]).map((d) => ({
      ...d,
      purgeAt: new Date(Date.parse(d.deletedAt) + DELETED_KEPT_MS).toISOString(),
    }));
  }

  /** Removes for good the projects deleted more than DELETED_KEPT_MS ago; returns how many. */
  purgeDeleted(): number {
    return this.q.purge.run(new Date(this.clock() - DELETED_KEPT_MS).toISOString()).changes;
  }

  /** The newest `limit` versions, plus every named and the deployed one, newest first. */
  history(id: string, limit: number): HistoryEntry[] {
    const r = this.row(id);
    return (this.q.history.all({ id, limit, deployed: r.deployed_version }) as Omit<HistoryEntry, "deployed">[]).map(
      (h) => ({
        ...h,
        deployed: h.version === r.deployed_version,
      }),
    );
  }

  version(id: string, version: number): { version: number; layout: unknown } {
    this.row(id);
    const v = this.q.layoutAt.get(id, version) as { layout: string } | undefined;
    if (!v)
      throw new HostError(
        "not_found",
        `project ${id} has no version ${version} (a burst of autosaves keeps its last version, and only the last ${this.keep} unnamed versions are kept)`,
      );
    return { version, layout: JSON.parse(v.layout) };
  }

  /** Names a version (null or blank clears the name); a named version is kept whatever its age. */
  labelVersion(id: string, version: number, label: string | null): HistoryEntry {
    return this.db.transaction(() => {
      this.row(id);
      const text = label?.trim() ? label.trim() : null;
      if (this.q.setLabel.run(text, id, version).changes === 0) this.version(id, version);
      return this.entry(id, version);
    })();
  }

  /** Marks the version the devices run (null: none); the evolution check compares with it and pruning keeps it. */
  setDeployed(id: string, version: number | null): HistoryEntry | null {
    return this.db.transaction(() => {
      this.row(id);
      if (version !== null) this.version(id, version);
      this.q.setDeployed.run(version, id);
      return version === null ? null : this.entry(id, version);
    })();
  }

  private entry(id: string, version: number): HistoryEntry {
    const r = this.row(id);
    const h = this.q.entry.get(id, version) as Omit<HistoryEntry, "deployed">;
    return { ...h, deployed: version === r.deployed_version };
  }
}
