// The one typed HostApi: every request and event the renderer may use, validated with zod on the host side.
// Both transports (Electron IPC and local HTTP/WebSocket) carry exactly these messages.
import { z } from "zod";
import { hasVisibleCharacter } from "#codecs";
import { devkitEvents, devkitMethods } from "./devkit.ts";
import { exportsMethods } from "./exports.ts";
import { loadtestEvents, loadtestMethods } from "./loadtest.ts";
import { reportMethods } from "./report.ts";
import { stackEvents, stackMethods } from "./stack.ts";

/** Layout documents cross the boundary as JSON; the host validates them with parseLayout. */
const layoutJson = z.unknown();

export const projectSummary = z.object({
  id: z.string(),
  name: z.string(),
  updatedAt: z.string(),
  version: z.number().int(),
  filePath: z.string().nullable(),
});
export type ProjectSummary = z.infer<typeof projectSummary>;

export const project = projectSummary.extend({ layout: layoutJson });
export type Project = z.infer<typeof project>;

const id = z.string().min(1).max(64);

export const versionEntry = z.object({
  version: z.number().int(),
  savedAt: z.string(),
  fieldCount: z.number().int(),
  name: z.string(),
  /** the user's name for the version */
  label: z.string().nullable(),
  /** the version the user marked as running on their devices */
  deployed: z.boolean(),
});
export type VersionEntry = z.infer<typeof versionEntry>;
const versionLabel = z.string().max(80);

export const deletedProject = z.object({
  id: z.string(),
  name: z.string(),
  deletedAt: z.string(),
  /** when it is removed for good */
  purgeAt: z.string(),
});
export type DeletedProject = z.infer<typeof deletedProject>;
/** a project's name is its layout's: it labels the recent list and the header, so something must show */
const projectName = z.string().min(1).max(128).refine(hasVisibleCharacter, {
  message: "needs at least one visible character (spaces and zero-width characters show nothing)",
});

/** request schema + response schema per method */
export const methods = {
  "app.info": {
    req: z.object({}),
    res: z.object({ version: z.string(), shell: z.enum(["electron", "browser"]), dataDir: z.string() }),
  },
  "presets.list": {
    req: z.object({}),
    res: z.array(z.object({ id: z.string(), name: z.string(), description: z.string(), layout: layoutJson })),
  },
  "projects.list": {
    req: z.object({ limit: z.number().int().min(1).max(200).default(20) }),
    res: z.array(projectSummary),
  },
  "projects.create": { req: z.object({ name: projectName, layout: layoutJson }), res: project },
  "projects.open": { req: z.object({ id }), res: project },
  /**
   * autosave: every accepted save gets a new version number; a stale baseVersion is refused (another window
   * saved). Saves in one burst of editing share one version (the newest unnamed autosave is replaced when it
   * is under a minute old and its burst under ten minutes); `coalesce: false` keeps this save as a version of its own.
   */
  "projects.save": {
    req: z.object({ id, layout: layoutJson, baseVersion: z.number().int().min(0), coalesce: z.boolean().optional() }),
    res: z.object({ version: z.number().int(), updatedAt: z.string() }),
  },
  "projects.rename": { req: z.object({ id, name: projectName }), res: projectSummary },
  /** moves the project to "Recently deleted": restorable with projects.restore for a week, then removed for good */
  "projects.delete": { req: z.object({ id }), res: z.object({ deleted: z.boolean() }) },
  "projects.deleted": { req: z.object({}), res: z.array(deletedProject) },
  "projects.restore": { req: z.object({ id }), res: projectSummary },
  /** removes a project of "Recently deleted" for good now */
  "projects.purge": { req: z.object({ id }), res: z.object({ purged: z.boolean() }) },
  /** the newest `limit` versions, plus every named version and the deployed one */
  "projects.history": {
    req: z.object({ id, limit: z.number().int().min(1).max(500).default(50) }),
    res: z.array(versionEntry),
  },
  /** names a version (null clears it); named versions are never pruned or replaced by autosave */
  "projects.labelVersion": {
    req: z.object({ id, version: z.number().int().min(1), label: versionLabel.nullable() }),
    res: versionEntry,
  },
  /** marks the version the devices run (null: none); the evolution check compares with it, pruning keeps it */
  "projects.setDeployed": {
    req: z.object({ id, version: z.number().int().min(1).nullable() }),
    res: versionEntry.nullable(),
  },
  "projects.version": {
    req: z.object({ id, version: z.number().int().min(1) }),
    res: z.object({ version: z.number().int(), layout: layoutJson }),
  },
  /** parse + validate a *.satlayout.json text (browser upload, drag-drop, paste) into a new project */
  "files.importLayout": {
    req: z.object({ fileName: z.string().max(255), content: z.string().max(5_000_000) }),
    res: project,
  },
  /** Electron: native dialog when path is omitted; browser mode: an absolute path on the host machine */
  "files.openLayout": { req: z.object({ path: z.string().max(4096).optional() }), res: project.nullable() },
  /** write the project's layout to a file (temp + rename); Electron asks for the path when omitted */
  "files.saveLayout": {
    req: z.object({ id, path: z.string().max(4096).optional() }),
    res: z.object({ path: z.string() }).nullable(),
  },
  /** the JSON text of the layout as a user would commit it (for browser downloads) */
  "files.layoutText": { req: z.object({ id }), res: z.object({ fileName: z.string(), content: z.string() }) },
  ...devkitMethods,
  ...exportsMethods,
  ...loadtestMethods,
  ...reportMethods,
  ...stackMethods,
} as const;

export type MethodName = keyof typeof methods;
export type Req<M extends MethodName> = z.input<(typeof methods)[M]["req"]>;
export type Res<M extends MethodName> = z.infer<(typeof methods)[M]["res"]>;

export const events = {
  "project.saved": z.object({ id: z.string(), version: z.number().int(), updatedAt: z.string() }),
  "project.changed": z.object({ id: z.string() }),
  /**
   * Electron only: a menu item was chosen. Accelerators of these items are not registered with the
   * OS (so both shells see the same keydown); the renderer binds the shortcuts itself.
   */
  "app.menu": z.object({ command: z.enum(["new", "open", "save", "saveAs", "undo", "redo", "toggleTheme"]) }),
  ...devkitEvents,
  ...loadtestEvents,
  ...stackEvents,
} as const;
export type EventName = keyof typeof events;
export type EventPayload<E extends EventName> = z.infer<(typeof events)[E]>;

/**
 * Error shape both transports return; `issues` carries path-precise validation problems, and a layout's
 * also `where` (the field's name: "field \"GPS › Latitude\"", "" for the layout's own settings).
 */
export const hostError = z.object({
  code: z.enum(["bad_request", "not_found", "conflict", "invalid_layout", "forbidden", "internal"]),
  message: z.string(),
  issues: z.array(z.object({ path: z.string(), message: z.string(), where: z.string().optional() })).optional(),
});
export type HostErrorBody = z.infer<typeof hostError>;

/** What the renderer holds: the same calls whatever the transport. */
export interface HostApi {
  call<M extends MethodName>(method: M, req: Req<M>): Promise<Res<M>>;
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
}

/*
 * Wire protocol of transport B (browser mode), fixed here so host and renderer agree:
 * - POST /api/call/<method> with the JSON request body and header `x-satpayload-token: <token>`;
 *   200 + JSON response, or 4xx/5xx + HostErrorBody (400 bad_request/invalid_layout, 403 forbidden,
 *   404 not_found, 409 conflict, 500 internal).
 * - WebSocket /api/events?token=<token>: server → client text frames `{"event": name, "payload": …}`.
 * - The launcher prints/opens http://127.0.0.1:<port>/#token=<token>; the renderer reads the token
 *   from location.hash and keeps it in sessionStorage (so a reload keeps working).
 * - Every API request is checked: token (constant-time), Host header must be 127.0.0.1:<port> or
 *   localhost:<port>, Origin (when present) must be the same origin — DNS-rebinding defence.
 * Transport A (Electron): preload exposes `window.satpayload = { call(method, req), on(event, cb) }`
 * through contextBridge; main validates with the same schemas and calls the same handlers.
 * `call` resolves with the response or rejects with a plain HostErrorBody object (contextBridge
 * drops custom properties of Error instances, so the body travels as a plain object); `on`
 * returns the unsubscribe function.
 */
export { IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL, TOKEN_HEADER } from "./channels.ts";

/** One CSP for both shells (HTTP header in browser mode, session header + meta in Electron). */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  // recharts and dnd-kit set style attributes; no inline <script> is ever allowed
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "worker-src 'self' blob:",
  "connect-src 'self' ws://127.0.0.1:* ws://localhost:*",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");
