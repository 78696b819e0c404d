// Cost scenarios per project, in the projects database (table cost_scenarios), over the host's connection.
import type Database from "better-sqlite3";
import { defaultCostDoc, parseCostDoc, ScenarioError, type CostDoc } from "#planning";
import { HostError } from "../errors.ts";

export class CostStore {
  constructor(private readonly db: Database.Database) {}

  private with<T>(fn: (db: Database.Database) => T): T {
    return fn(this.db);
  }

  private requireProject(db: Database.Database, projectId: string): void {
    // a project in Recently deleted keeps its scenarios for a restore, but they cannot be read or changed meanwhile
    if (!db.prepare("SELECT 1 FROM projects WHERE id = ? AND deleted_at IS NULL").get(projectId))
      throw new HostError("not_found", `no project with id "${projectId}"`);
  }

  get(projectId: string): { doc: CostDoc; updatedAt: string | null } {
    return this.with((db) => {
      this.requireProject(db, projectId);
      const row = db.prepare("SELECT doc, updated_at FROM cost_scenarios WHERE project_id = ?").get(projectId) as
        { doc: string; updated_at: string } | undefined;
      if (!row) return { doc: defaultCostDoc(), updatedAt: null };
      try {
        return { doc: parseCostDoc(JSON.parse(row.doc)), updatedAt: row.updated_at };
      } catch {
        // a document this build cannot read (a platform that no longer exists): start again rather than lock the page
        return { doc: defaultCostDoc(), updatedAt: null };
      }
    });
  }

  save(projectId: string, input: unknown, now = new Date()): { updatedAt: string } {
    let doc: CostDoc;
    try {
      doc = parseCostDoc(input);
    } catch (e) {
      if (e instanceof ScenarioError)
        throw new HostError("bad_request", `invalid cost scenarios: ${e.message}`, e.issues);
      throw e;
    }
    const updatedAt = now.toISOString();
    this.with((db) => {
      this.requireProject(db, projectId);
      db.prepare(
        "INSERT INTO cost_scenarios (project_id, updated_at, doc) VALUES (?, ?, ?) ON CONFLICT (project_id) DO UPDATE SET updated_at = excluded.updated_at, doc = excluded.doc",
      ).run(projectId, updatedAt, JSON.stringify(doc));
    });
    return { updatedAt };
  }
}
