// Read-only access to the studio's projects database: the read queries the host's ProjectStore is
// built on, so services (the decoder) can list projects and their current layouts without the host.
import type Database from "better-sqlite3";

const COLUMNS = "id, name, updated_at, version, file_path";

export interface ProjectRow {
  id: string;
  name: string;
  updated_at: string;
  version: number;
  file_path: string | null;
}

export interface ProjectRowSummary {
  id: string;
  name: string;
  updatedAt: string;
  version: number;
  filePath: string | null;
}

export function summary(r: ProjectRow): ProjectRowSummary {
  return { id: r.id, name: r.name, updatedAt: r.updated_at, version: r.version, filePath: r.file_path };
}

export function prepareReads(db: Database.Database) {
  return {
    project: db.prepare(`SELECT ${COLUMNS} FROM projects WHERE id = ?`),
    layoutAt: db.prepare("SELECT layout FROM layout_versions WHERE project_id = ? AND version = ?"),
    list: db.prepare(`SELECT ${COLUMNS} FROM projects ORDER BY updated_at DESC, id LIMIT ?`),
    byFile: db.prepare(`SELECT ${COLUMNS} FROM projects WHERE file_path = ? ORDER BY updated_at DESC LIMIT 1`),
  };
}

export class ProjectReader {
  private readonly q: ReturnType<typeof prepareReads>;

  constructor(db: Database.Database) {
    this.q = prepareReads(db);
  }

  /** most recently saved first */
  list(limit: number): ProjectRowSummary[] {
    return (this.q.list.all(limit) as ProjectRow[]).map(summary);
  }

  /** the layout JSON of the project's current version */
  currentLayout(id: string): unknown {
    const r = this.q.project.get(id) as ProjectRow | undefined;
    if (!r) throw new Error(`no project with id "${id}"`);
    const v = this.q.layoutAt.get(id, r.version) as { layout: string } | undefined;
    if (!v) throw new Error(`project ${id} has no stored layout for its version ${r.version}`);
    return JSON.parse(v.layout);
  }
}
