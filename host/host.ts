// Assembles the host both shells run: database, store, events and the method dispatcher.
import path from "node:path";
import type { Res } from "./api/contract.ts";
import { DB_FILE_NAME, openDatabase } from "./db/open.ts";
import { ProjectStore, type StoreOptions } from "./db/projects.ts";
import { createDispatch, type Dispatch } from "./handlers/dispatch.ts";
import { HostEvents } from "./handlers/events.ts";
import { createHandlers, type Dialogs } from "./handlers/handlers.ts";
import type { HtmlPrinter } from "./handlers/report.ts";

export interface HostOptions extends StoreOptions {
  dataDir: string;
  shell: Res<"app.info">["shell"];
  version: string;
  dialogs?: Dialogs | undefined;
  /** browser mode prints the report on the host (host/report/htmlToPdf.ts); kept out of the desktop bundle */
  printHtml?: HtmlPrinter | undefined;
  nativeBinding?: string | undefined;
}

export interface Host {
  dispatch: Dispatch;
  events: HostEvents;
  info: Res<"app.info">;
  /** stops what handlers started, then closes the database */
  close(): Promise<void>;
}

export function createHost(opts: HostOptions): Host {
  const dataDir = path.resolve(opts.dataDir);
  const db = openDatabase(path.join(dataDir, DB_FILE_NAME), { nativeBinding: opts.nativeBinding });
  const store = new ProjectStore(db, opts);
  const events = new HostEvents();
  const info = { version: opts.version, shell: opts.shell, dataDir };
  const dispatch = createDispatch(
    createHandlers({ store, db, events, info, dialogs: opts.dialogs, printHtml: opts.printHtml }),
  );
  const close = async () => {
    await events.close();
    db.close();
  };
  return { dispatch, events, info, close };
}
