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
];
