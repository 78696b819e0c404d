// Opens (creating if needed) the projects database and brings its schema up to date.
import { mkdirSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { MIGRATIONS } from "./migrations.ts";

export const DB_FILE_NAME = "projects.sqlite";

export interface OpenOptions {
  /** Electron in development loads an Electron-ABI build of better-sqlite3 from here */
  nativeBinding?: string | undefined;
}

/**
 * WAL with synchronous=NORMAL: a crash or power loss can drop the last few committed autosaves but
 * never corrupts the file or leaves half a save; that trade keeps autosave cheap.
 */
export function openDatabase(file: string, opts: OpenOptions = {}): Database.Database {
  mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file, opts.nativeBinding ? { nativeBinding: opts.nativeBinding } : {});
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    db.pragma("foreign_keys = ON");
    // a second shell (Electron and browser mode at once) may hold the write lock briefly
    db.pragma("busy_timeout = 5000");
    migrate(db);
    return db;
  } catch (e) {
    db.close();
    throw e;
  }
}

function migrate(db: Database.Database): void {
  const current = db.pragma("user_version", { simple: true }) as number;
  if (current > MIGRATIONS.length)
    throw new Error(
      `the projects database was written by a newer SatPayload Studio (schema ${current}, this build knows ${MIGRATIONS.length})`,
    );
  if (current === MIGRATIONS.length) return;
  db.transaction(() => {
    for (let v = current; v < MIGRATIONS.length; v++) db.exec(MIGRATIONS[v]!);
    db.pragma(`user_version = ${MIGRATIONS.length}`);
  }).immediate();
}
