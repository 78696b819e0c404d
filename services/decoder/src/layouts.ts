// The layouts a decoder knows, by id or name: layout files, built-in presets and (live) the studio's
// projects database, each with the field that names the device sending it.
import path from "node:path";
import Database from "better-sqlite3";
import { type Field, type Layout, parseLayout, presetById } from "#codecs";
import type { DecoderConfig } from "./config.ts";
import { IngestError } from "./errors.ts";
import { UsageError } from "../../shared/cliErrors.ts";
import { loadLayout } from "../../shared/loadLayout.ts";
import { ProjectReader } from "../../shared/projectReader.ts";

export interface KnownLayout {
  id: string;
  name: string;
  source: "file" | "preset" | "project";
  layout: Layout;
  /** field ids from the top level to the field whose value names the device; undefined: none */
  deviceKey: string[] | undefined;
}

/** Field ids that usually name a device, best first; the paper's container record uses iso6346. */
const DEVICE_FIELD_CANDIDATES = [
  "device",
  "deviceid",
  "device_id",
  "device-id",
  "deveui",
  "dev_eui",
  "imei",
  "iso6346",
  "serial",
  "serial_number",
  "esn",
  "msisdn",
];

const SCALAR_KEYS = new Set(["string", "int", "enum"]);

function fieldAt(fields: Field[], pathIds: string[]): Field | undefined {
  let list = fields;
  let found: Field | undefined;
  for (const id of pathIds) {
    found = list.find((f) => f.id === id);
    if (!found) return undefined;
    list = found.type.kind === "group" ? found.type.fields : [];
  }
  return found;
}

export function defaultDeviceKey(layout: Layout): string[] | undefined {
  for (const c of DEVICE_FIELD_CANDIDATES) {
    const f = layout.fields.find((x) => x.id.toLowerCase() === c && SCALAR_KEYS.has(x.type.kind));
    if (f) return [f.id];
  }
  return undefined;
}

const PROJECT_LIMIT = 10_000;
const PROJECT_CHECK_MS = 500;

export class LayoutRegistry {
  private fixed: KnownLayout[] = [];
  private projects: KnownLayout[] = [];
  private projectDb: Database.Database | undefined;
  private projectReader: ProjectReader | undefined;
  private dataVersion = -1;
  private checkedAt = 0;

  constructor(
    private readonly cfg: Pick<
      DecoderConfig,
      "layoutFiles" | "presets" | "projectsDb" | "deviceKeys" | "defaultLayout"
    >,
    private readonly log: (msg: string) => void = () => {},
  ) {
    for (const file of cfg.layoutFiles) {
      const { layout } = loadLayout({ layout: file });
      this.addFixed({
        id: path.basename(file).replace(/\.satlayout\.json$|\.json$/i, ""),
        name: layout.name,
        source: "file",
        layout,
      });
    }
    for (const id of cfg.presets) {
      const p = presetById(id);
      if (!p) throw new UsageError(`unknown preset "${id}"`);
      this.addFixed({ id: p.id, name: p.name, source: "preset", layout: parseLayout(p.layout) });
    }
    if (cfg.projectsDb) {
      try {
        this.projectDb = new Database(cfg.projectsDb, { fileMustExist: true });
        this.projectDb.pragma("busy_timeout = 2000");
        this.projectReader = new ProjectReader(this.projectDb);
      } catch (e) {
        throw new UsageError(`--projects-db ${cfg.projectsDb}: ${(e as Error).message}`);
      }
      this.refreshProjects(true);
    }
    const known = (ref: string): KnownLayout | undefined => {
      try {
        return this.lookup(ref);
      } catch (e) {
        if (e instanceof IngestError) throw new UsageError(e.message);
        throw e;
      }
    };
    for (const [ref, field] of cfg.deviceKeys) {
      if (ref === "*") continue;
      const l = known(ref);
      if (!l) throw new UsageError(`--device-key names layout "${ref}", which is not loaded`);
      if (!l.deviceKey || l.deviceKey.join("/") !== field)
        throw new UsageError(`--device-key: layout "${ref}" has no scalar field "${field}"`);
    }
    if (cfg.defaultLayout !== undefined && !known(cfg.defaultLayout))
      throw new UsageError(`--default-layout "${cfg.defaultLayout}" is not loaded`);
  }

  private deviceKeyFor(l: Omit<KnownLayout, "deviceKey">): string[] | undefined {
    const configured = this.cfg.deviceKeys.get(l.id) ?? this.cfg.deviceKeys.get(l.name) ?? this.cfg.deviceKeys.get("*");
    if (configured !== undefined) {
      const ids = configured.split("/");
      const f = fieldAt(l.layout.fields, ids);
      if (f && SCALAR_KEYS.has(f.type.kind)) return ids;
    }
    return defaultDeviceKey(l.layout);
  }

  private addFixed(l: Omit<KnownLayout, "deviceKey">): void {
    if (this.fixed.some((x) => x.id === l.id)) throw new UsageError(`two layouts have the id "${l.id}"`);
    this.fixed.push({ ...l, deviceKey: this.deviceKeyFor(l) });
  }

  /** Picks up saves in the studio while the stack runs; data_version changes only when another connection wrote. */
  private refreshProjects(force = false): void {
    if (!this.projectDb || !this.projectReader) return;
    const now = Date.now();
    if (!force && now - this.checkedAt < PROJECT_CHECK_MS) return;
    this.checkedAt = now;
    try {
      const v = this.projectDb.pragma("data_version", { simple: true }) as number;
      if (v === this.dataVersion) return;
      this.dataVersion = v;
      const next: KnownLayout[] = [];
      for (const s of this.projectReader.list(PROJECT_LIMIT)) {
        try {
          const base = {
            id: s.id,
            name: s.name,
            source: "project" as const,
            layout: parseLayout(this.projectReader.currentLayout(s.id)),
          };
          next.push({ ...base, deviceKey: this.deviceKeyFor(base) });
        } catch (e) {
          this.log(`project ${s.id} ("${s.name}") skipped: ${(e as Error).message}`);
        }
      }
      this.projects = next;
    } catch (e) {
      // a locked or briefly unavailable projects file keeps the layouts already known
      this.log(`projects database not re-read: ${(e as Error).message}`);
    }
  }

  list(): KnownLayout[] {
    this.refreshProjects();
    return [...this.fixed, ...this.projects];
  }

  /** The layout a request names (header or envelope); ids win over names, an ambiguous name is refused. */
  resolve(ref: string | undefined): KnownLayout {
    this.refreshProjects();
    const found = this.lookup(ref);
    if (found) return found;
    if (this.projectDb) {
      // a project created a moment ago: read the database now rather than after the next check
      this.refreshProjects(true);
      const fresh = this.lookup(ref);
      if (fresh) return fresh;
    }
    throw new IngestError(
      "unknown_layout",
      `no layout "${ref}" (known: ${describe([...this.fixed, ...this.projects])})`,
    );
  }

  private lookup(ref: string | undefined): KnownLayout | undefined {
    const all = [...this.fixed, ...this.projects];
    if (ref === undefined || ref === "") {
      if (this.cfg.defaultLayout !== undefined && ref !== this.cfg.defaultLayout)
        return this.lookup(this.cfg.defaultLayout);
      if (all.length === 1) return all[0]!;
      throw new IngestError(
        "bad_request",
        `name the layout in the X-Satpayload-Layout header (known: ${describe(all)})`,
      );
    }
    const byId = all.find((l) => l.id === ref);
    if (byId) return byId;
    const byName = all.filter((l) => named_(l, ref));
    if (byName.length > 1)
      throw new IngestError(
        "unknown_layout",
        `layout name "${ref}" is ambiguous (ids ${byName.map((l) => l.id).join(", ")}): send the id`,
      );
    return byName[0];
  }

  close(): void {
    this.projectDb?.close();
  }
}

/** a project answers to its own name and to its layout's */
function named_(l: KnownLayout, ref: string): boolean {
  return l.name === ref || l.layout.name === ref;
}

function describe(all: KnownLayout[]): string {
  const ids = all.slice(0, 12).map((l) => l.id);
  return ids.length ? ids.join(", ") + (all.length > 12 ? `, … ${all.length - 12} more` : "") : "none";
}
