// Schema history of the projects database; PRAGMA user_version is the index of the next migration.
// Append only: a shipped migration is never edited, since users' files have already run it.

export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE projects (
     id TEXT PRIMARY KEY,
     name TEXT NOT NULL,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     version INTEGER NOT NULL,
     file_path TEXT
   );
   CREATE INDEX projects_updated ON projects (updated_at DESC);
   CREATE INDEX projects_file ON projects (file_path);
   CREATE TABLE layout_versions (
     project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
     version INTEGER NOT NULL,
     saved_at TEXT NOT NULL,
     name TEXT NOT NULL,
     field_count INTEGER NOT NULL,
     layout TEXT NOT NULL,
     PRIMARY KEY (project_id, version)
   ) WITHOUT ROWID;`,
  // DevKit bench: every payload enqueued on a module, with what it was made from and when the satellite acked it
  `CREATE TABLE devkit_transmissions (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     project_id TEXT REFERENCES projects (id) ON DELETE SET NULL,
     layout_version INTEGER,
     format TEXT,
     sample INTEGER,
     seed INTEGER,
     payload_hex TEXT NOT NULL,
     bytes INTEGER NOT NULL,
     queue_id INTEGER NOT NULL,
     port TEXT NOT NULL,
     status TEXT NOT NULL,
     enqueued_at TEXT NOT NULL,
     acked_at TEXT
   );
   CREATE INDEX devkit_transmissions_project ON devkit_transmissions (project_id, id DESC);
   CREATE INDEX devkit_transmissions_open ON devkit_transmissions (port, status);`,
  // Load tests: every run with its settings and, once finished, its whole result (JSON)
  `CREATE TABLE loadtest_runs (
     id TEXT PRIMARY KEY,
     started_at TEXT NOT NULL,
     finished_at TEXT,
     status TEXT NOT NULL,
     layout_name TEXT NOT NULL,
     settings TEXT NOT NULL,
     summary TEXT,
     result TEXT,
     error TEXT
   );
   CREATE INDEX loadtest_runs_started ON loadtest_runs (started_at DESC);`,
  // Fleet-cost scenarios, one document per project (prices and fleets are not part of the layout file users commit)
  `CREATE TABLE cost_scenarios (
     project_id TEXT PRIMARY KEY REFERENCES projects (id) ON DELETE CASCADE,
     updated_at TEXT NOT NULL,
     doc TEXT NOT NULL
   ) WITHOUT ROWID;`,
  // Issue #26: projects are deleted softly (restorable for a week); a version can carry the user's name
  // and one per project is the deployed one, both kept by pruning; autosaves in one burst share one version,
  // which remembers when its burst began. New columns only: every existing row stays as it was (NULL = none).
  `ALTER TABLE projects ADD COLUMN deleted_at TEXT;
   ALTER TABLE projects ADD COLUMN deployed_version INTEGER;
   CREATE INDEX projects_deleted ON projects (deleted_at);
   ALTER TABLE layout_versions ADD COLUMN label TEXT;
   ALTER TABLE layout_versions ADD COLUMN burst_started_at TEXT;`,
];
