// Projects and their layout version history; every write is one transaction so autosave never
// leaves a project pointing at a version that is not there.
import { randomUUID } from "node:crypto";
import type Database from "better-sqlite3";
import type { Layout } from "#codecs";
import { prepareReads, summary, type ProjectRow } from "#services/shared/projectReader.ts";
import type { Project, ProjectSummary } from "../api/contract.ts";
import { HostError } from "../errors.ts";

export const DEFAULT_KEEP_VERSIONS = 200;

export interface HistoryEntry {
  version: number;
  savedAt: string;
  fieldCount: number;
  name: string;
}

export interface StoreOptions {
  /** versions kept per project; older ones are pruned on save */
  keepVersions?: number;
  /** injectable clock (ms since epoch) */
  now?: () => number;
}

function prepare(db: Database.Database) {
  return {
    ...prepareReads(db),
    insertProject: db.prepare(
      "INSERT INTO projects (id, name, created_at, updated_at, version, file_path) VALUES (?, ?, ?, ?, 1, ?)",
    ),
    insertVersion: db.prepare(
      "INSERT INTO layout_versions (project_id, version, saved_at, name, field_count, layout) VALUES (?, ?, ?, ?, ?, ?)",
    ),
    bump: db.prepare("UPDATE projects SET version = ?, updated_at = ? WHERE id = ?"),
    prune: db.prepare("DELETE FROM layout_versions WHERE project_id = ? AND version <= ?"),
    rename: db.prepare("UPDATE projects SET name = ?, updated_at = ? WHERE id = ?"),
    setFile: db.prepare("UPDATE projects SET file_path = ?, updated_at = ? WHERE id = ?"),
    delete: db.prepare("DELETE FROM projects WHERE id = ?"),
    history: db.prepare(
      "SELECT version, saved_at AS savedAt, field_count AS fieldCount, name FROM layout_versions WHERE project_id = ? ORDER BY version DESC LIMIT ?",
    ),
  };
}

export class ProjectStore {
  private readonly keep: number;
  private readonly clock: () => number;
  private lastStamp = 0;
  private readonly q: ReturnType<typeof prepare>;

  constructor(
    private readonly db: Database.Database,
    opts: StoreOptions = {},
  ) {
    this.keep = opts.keepVersions ?? DEFAULT_KEEP_VERSIONS;
    if (!(this.keep >= 1)) throw new Error("keepVersions must be at least 1");
    this.clock = opts.now ?? Date.now;
    const latest = db.prepare("SELECT max(updated_at) AS t FROM projects").get() as { t: string | null };
    if (latest.t) this.lastStamp = Date.parse(latest.t);
    this.q = prepare(db);
  }

  /** ISO timestamps that strictly increase, so "recent" ordering is stable within a millisecond */
  private stamp(): string {
    this.lastStamp = Math.max(this.clock(), this.lastStamp + 1);
    return new Date(this.lastStamp).toISOString();
  }

  private row(id: string): ProjectRow {
    const r = this.q.project.get(id) as ProjectRow | undefined;
    if (!r) throw new HostError("not_found", `no project with id "${id}"`);
    return r;
  }

  create(name: string, layout: Layout, filePath: string | null = null): Project {
    const id = randomUUID();
    const text = JSON.stringify(layout);
    this.db.transaction(() => {
      const at = this.stamp();
      this.q.insertProject.run(id, name, at, at, filePath);
      this.q.insertVersion.run(id, 1, at, layout.name, layout.fields.length, text);
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

  /** A save based on an older version than the stored one is refused: another window saved first. */
  save(id: string, layout: Layout, baseVersion: number): { version: number; updatedAt: string } {
    const text = JSON.stringify(layout);
    return this.db
      .transaction(() => {
        const r = this.row(id);
        if (r.version !== baseVersion)
          throw new HostError(
            "conflict",
            `project "${r.name}" is at version ${r.version}, this save was based on version ${baseVersion}`,
          );
        const version = r.version + 1;
        const at = this.stamp();
        this.q.insertVersion.run(id, version, at, layout.name, layout.fields.length, text);
        this.q.bump.run(version, at, id);
        this.q.prune.run(id, version - this.keep);
        return { version, updatedAt: at };
      })
      .immediate();
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

  delete(id: string): boolean {
    return this.q.delete.run(id).changes > 0;
  }

  history(id: string, limit: number): HistoryEntry[] {
    this.row(id);
    return this.q.history.all(id, limit) as HistoryEntry[];
  }

  version(id: string, version: number): { version: number; layout: unknown } {
    this.row(id);
    const v = this.q.layoutAt.get(id, version) as { layout: string } | undefined;
    if (!v)
      throw new HostError("not_found", `project ${id} has no version ${version} (only the last ${this.keep} are kept)`);
    return { version, layout: JSON.parse(v.layout) };
  }
}
