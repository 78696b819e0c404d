// Every HostApi method, implemented once over the project store and the layout files.
import path from "node:path";
import type Database from "better-sqlite3";
import { type Layout, parseLayout, PRESETS } from "#codecs";
import type { Res } from "../api/contract.ts";
import type { ProjectStore } from "../db/projects.ts";
import { HostError } from "../errors.ts";
import { createDevkitHandlers } from "./devkit.ts";
import type { HandlerMap } from "./dispatch.ts";
import type { HostEvents } from "./events.ts";
import { createExportsHandlers } from "./exports.ts";
import { createLoadTestHandlers } from "./loadtest.ts";
import { createReportHandlers, type HtmlPrinter, type ReportPdfDialogs } from "./report.ts";
import { createStackHandlers } from "./stack.ts";
import { layoutFileName, layoutToText, parseLayoutText, readLayoutFile, writeLayoutFile } from "../files/layoutFile.ts";

/** Native dialogs; only Electron has them. Both resolve null when the user cancels. */
export interface Dialogs extends ReportPdfDialogs {
  openLayoutPath(): Promise<string | null>;
  saveLayoutPath(suggested: string): Promise<string | null>;
}

export interface HandlerDeps {
  store: ProjectStore;
  /** the projects database the store uses; handlers that keep their own tables share it */
  db: Database.Database;
  events: HostEvents;
  info: Res<"app.info">;
  dialogs?: Dialogs | undefined;
  /** browser mode's report printer; the desktop shell prints through its dialogs instead */
  printHtml?: HtmlPrinter | undefined;
}

export function createHandlers({ store, db, events, info, dialogs, printHtml }: HandlerDeps): HandlerMap {
  let presets: Res<"presets.list"> | undefined;
  const changed = (id: string) => events.emit("project.changed", { id });
  const needPath = (what: string): never => {
    throw new HostError("bad_request", `${what} needs a path in browser mode (there is no native file dialog)`);
  };

  return {
    ...createDevkitHandlers({ store, db, events, info }),
    ...createExportsHandlers({ store }),
    ...createLoadTestHandlers({ store, db, events }),
    ...createReportHandlers({ info, db, dialogs, printHtml }),
    ...createStackHandlers({ events, info }),
    "app.info": () => info,
    "presets.list": () =>
      (presets ??= PRESETS.map((p) => ({
        id: p.id,
        name: p.name,
        description: p.description,
        layout: parseLayout(p.layout),
      }))),
    "projects.list": ({ limit }) => store.list(limit),
    "projects.create": ({ name, layout }) => {
      const p = store.create(name, parseLayout(layout));
      changed(p.id);
      return p;
    },
    "projects.open": ({ id }) => store.open(id),
    "projects.save": ({ id, layout, baseVersion, coalesce }) => {
      const saved = store.save(id, parseLayout(layout), baseVersion, { coalesce });
      events.emit("project.saved", { id, ...saved });
      return saved;
    },
    "projects.rename": ({ id, name }) => {
      const s = store.rename(id, name);
      changed(id);
      return s;
    },
    "projects.delete": ({ id }) => {
      const deleted = store.delete(id);
      if (deleted) changed(id);
      return { deleted };
    },
    "projects.deleted": () => store.deleted(),
    "projects.restore": ({ id }) => {
      const s = store.restore(id);
      changed(id);
      return s;
    },
    "projects.purge": ({ id }) => ({ purged: store.purge(id) }),
    "projects.history": ({ id, limit }) => store.history(id, limit),
    "projects.labelVersion": ({ id, version, label }) => {
      const entry = store.labelVersion(id, version, label);
      changed(id);
      return entry;
    },
    "projects.setDeployed": ({ id, version }) => {
      const entry = store.setDeployed(id, version);
      changed(id);
      return entry;
    },
    "projects.version": ({ id, version }) => store.version(id, version),
    "files.importLayout": ({ fileName, content }) => {
      const layout = parseLayoutText(content, fileName || "the uploaded file");
      const p = store.create(layout.name, layout);
      changed(p.id);
      return p;
    },
    "files.openLayout": async (req) => {
      const chosen = req.path ?? (dialogs ? await dialogs.openLayoutPath() : needPath("opening a file"));
      if (chosen === null) return null;
      const file = path.resolve(chosen);
      const layout = await readLayoutFile(file);
      const again = reopen(store, file, layout);
      const id = again?.id ?? store.create(layout.name, layout, file).id;
      if (again?.saved) events.emit("project.saved", { id, ...again.saved });
      changed(id);
      return store.open(id);
    },
    "files.saveLayout": async (req) => {
      const project = store.open(req.id);
      const chosen =
        req.path ??
        (dialogs
          ? await dialogs.saveLayoutPath(project.filePath ?? layoutFileName(project.name))
          : needPath("saving a file"));
      if (chosen === null) return null;
      const file = path.resolve(chosen);
      await writeLayoutFile(file, layoutToText(project.layout));
      store.setFilePath(project.id, file);
      changed(project.id);
      return { path: file };
    },
    "files.layoutText": ({ id }) => {
      const p = store.open(id);
      const name = (p.layout as Partial<Layout>).name ?? p.name;
      return { fileName: layoutFileName(name), content: layoutToText(p.layout) };
    },
  };
}

/** Opening a file that already backs a project continues that project, adding a version if the file changed. */
function reopen(
  store: ProjectStore,
  file: string,
  layout: Layout,
): { id: string; saved?: Res<"projects.save"> } | undefined {
  const existing = store.findByFilePath(file);
  if (!existing) return undefined;
  const current = store.open(existing.id);
  if (JSON.stringify(current.layout) === JSON.stringify(layout)) return { id: existing.id };
  return { id: existing.id, saved: store.save(existing.id, layout, current.version, { coalesce: false }) };
}
