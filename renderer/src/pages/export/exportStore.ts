// The Export page's state: which exports and options are chosen, the files the host generated for the
// open project, the previewed file, saving/downloading, and the version comparison of the evolution tab.
import { create } from "zustand";
import { checkLayout, describeIssue, diffLayouts, type Layout, type LayoutDiff } from "#codecs";
import type { HostApi, Res } from "#host/api/contract.ts";
import { base64ToBytes, downloadBlob, downloadText } from "../../download.ts";
import { asHostError } from "../../host/errors.ts";
import { flushSave } from "../../session/autosave.ts";
import { useSession } from "../../session/sessionStore.ts";
import { useDesigner } from "../../state/layoutStore.ts";

export type ExportInfo = Res<"exports.list">[number];
/** One option of an export, as the exporter's schema declares it (derived on the host). */
export type OptionField = ExportInfo["options"][number];
export type OptionValue = string | number | boolean | string[];
export type Generated = Res<"exports.generate">;
export type ExportFileView = Generated["files"][number];
export type VersionInfo = Res<"projects.history">[number];

/** The options the user set, by key; one left out takes its export's default. */
export type ExportOptions = Record<string, OptionValue>;

/** What a field shows: the value set, else the schema's default, else (a list with no default) every choice. */
export function optionShown(field: OptionField, value: OptionValue | undefined): OptionValue | undefined {
  if (value !== undefined) return value;
  if (field.default !== undefined) return field.default;
  return field.kind === "choices" ? field.choices!.map((c) => c.value) : undefined;
}

export interface ExportState {
  exporters: ExportInfo[];
  selected: string[];
  options: ExportOptions;
  /** the host's reason an option was refused, by key, shown under its field */
  optionErrors: Record<string, string>;
  generated: Generated | null;
  /** the request the shown files answer, so stale answers are dropped */
  generatedFor: string;
  generating: boolean;
  previewPath: string | null;
  folder: string;
  busy: Record<"save" | "zip" | "copy", boolean>;
  error: string | null;
  flash: string | null;
  versions: VersionInfo[];
  baseVersion: number | null;
  /** 0 = the layout in the designer right now */
  targetVersion: number;
  probe: boolean;
  diff: LayoutDiff | null;
  diffError: string | null;
  comparing: boolean;
}

export const useExport = create<ExportState>()(() => ({
  exporters: [],
  selected: [],
  options: {},
  optionErrors: {},
  generated: null,
  generatedFor: "",
  generating: false,
  previewPath: null,
  folder: "",
  busy: { save: false, zip: false, copy: false },
  error: null,
  flash: null,
  versions: [],
  baseVersion: null,
  targetVersion: 0,
  probe: true,
  diff: null,
  diffError: null,
  comparing: false,
}));

function api(): HostApi {
  const a = useSession.getState().api;
  if (!a) throw new Error("host not connected");
  return a;
}

const set = useExport.setState;

function request() {
  const s = useExport.getState();
  const projectId = useDesigner.getState().projectId;
  return { projectId: projectId ?? "", exporterIds: s.selected, options: { ...s.options } };
}

/** The page opened: last visit's messages go, the exports and versions load and the files generate. */
export function enterExportPage(): void {
  set({ error: null, flash: null });
  void loadExportPage();
}

async function loadExportPage(): Promise<void> {
  try {
    if (!useExport.getState().exporters.length) {
      const exporters = await api().call("exports.list", {});
      set({ exporters, selected: exporters.map((e) => e.id) });
    }
    await regenerate();
    await loadVersions();
  } catch (e) {
    set({ error: asHostError(e).describe() });
  }
}

let pending: ReturnType<typeof setTimeout> | null = null;

/** Generation follows every change of exports or options, a moment after the last one. */
export function scheduleGenerate(): void {
  if (pending) clearTimeout(pending);
  pending = setTimeout(() => {
    pending = null;
    void regenerate();
  }, 250);
}

/** the draft the files on screen were generated from: coming back to the page with the same one generates nothing */
let generatedFrom: Layout | null = null;

export async function regenerate(): Promise<void> {
  const req = request();
  if (!req.projectId) return;
  const key = JSON.stringify(req);
  const draft = useDesigner.getState().history.present;
  const s = useExport.getState();
  if (s.generatedFor === key && generatedFrom === draft && s.generated && !s.error) return;
  if (!req.exporterIds.length) {
    set({ generated: { files: [], problems: [] }, generatedFor: key, previewPath: null, generating: false });
    return;
  }
  set({ generating: true, error: null });
  try {
    // files are generated from the saved layout: land the pending autosave first
    await flushSave();
    const generated = await api().call("exports.generate", req);
    if (JSON.stringify(request()) !== key) return;
    generatedFrom = draft;
    const keep = useExport.getState().previewPath;
    set({
      generated,
      generatedFor: key,
      generating: false,
      optionErrors: {},
      previewPath: generated.files.some((f) => f.path === keep) ? keep : (generated.files[0]?.path ?? null),
    });
  } catch (e) {
    const err = asHostError(e);
    const optionErrors = optionErrorsOf(err.issues);
    // the reason itself stands under the option; the banner says why the files did not change
    const error = Object.keys(optionErrors).length
      ? "The files were not generated again: an option below was refused."
      : err.describe();
    set({ generating: false, error, optionErrors });
  }
}

/** Issues at `options.<key>` (a refused option) by key, for the form. */
function optionErrorsOf(issues: readonly { path?: string; message: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const i of issues) if (i.path?.startsWith("options.")) out[i.path.slice("options.".length)] = i.message;
  return out;
}

export function toggleExporter(id: string): void {
  set((s) => ({
    selected: s.selected.includes(id)
      ? s.selected.filter((x) => x !== id)
      : s.exporters.map((e) => e.id).filter((x) => x === id || s.selected.includes(x)),
  }));
  scheduleGenerate();
}

export function selectAll(all: boolean): void {
  set((s) => ({ selected: all ? s.exporters.map((e) => e.id) : [] }));
  scheduleGenerate();
}

/** Sets an option (undefined: back to its default) and regenerates. */
export function setOption(key: string, value: OptionValue | undefined): void {
  set((s) => {
    const { [key]: _, ...rest } = s.options;
    return { options: value === undefined ? rest : { ...rest, [key]: value } };
  });
  scheduleGenerate();
}

/** Checks or unchecks one choice of a list, keeping the choices' order. */
export function toggleChoice(field: OptionField, value: string): void {
  const cur = optionShown(field, useExport.getState().options[field.key]) as string[];
  const order = field.choices!.map((c) => c.value);
  const next = cur.includes(value)
    ? cur.filter((x) => x !== value)
    : order.filter((x) => x === value || cur.includes(x));
  setOption(field.key, next);
}

function flash(text: string): void {
  set({ flash: text });
  setTimeout(() => {
    if (useExport.getState().flash === text) set({ flash: null });
  }, 4000);
}

export async function downloadZip(): Promise<void> {
  set((s) => ({ busy: { ...s.busy, zip: true }, error: null }));
  try {
    await flushSave();
    const { fileName, base64 } = await api().call("exports.zip", request());
    downloadBlob(new Blob([base64ToBytes(base64)], { type: "application/zip" }), fileName);
    flash(`Downloaded ${fileName}`);
  } catch (e) {
    set({ error: `Download failed: ${asHostError(e).describe()}` });
  } finally {
    set((s) => ({ busy: { ...s.busy, zip: false } }));
  }
}

export async function saveToFolder(): Promise<void> {
  const folder = useExport.getState().folder.trim();
  if (!folder) return;
  set((s) => ({ busy: { ...s.busy, save: true }, error: null }));
  try {
    await flushSave();
    const res = await api().call("exports.saveToFolder", { ...request(), path: folder });
    flash(`Saved ${res.written} file${res.written === 1 ? "" : "s"} to ${res.dir}`);
  } catch (e) {
    set({ error: `Saving failed: ${asHostError(e).describe()}` });
  } finally {
    set((s) => ({ busy: { ...s.busy, save: false } }));
  }
}

export async function copyPreview(): Promise<void> {
  const s = useExport.getState();
  const file = s.generated?.files.find((f) => f.path === s.previewPath);
  if (!file) return;
  try {
    await navigator.clipboard.writeText(file.content);
    flash(`Copied ${file.path}`);
  } catch {
    set({ error: "The browser refused the clipboard: select the text and copy it by hand." });
  }
}

/**
 * The previewed file on its own, named as in the export (its folder dropped): a firmware engineer who
 * needs the one header should not have to take the whole zip apart for it.
 */
export function downloadPreview(): void {
  const s = useExport.getState();
  const file = s.generated?.files.find((f) => f.path === s.previewPath);
  if (!file) return;
  const name = file.path.split("/").pop()!;
  downloadText(file.content, name, "text/plain;charset=utf-8");
  flash(`Downloaded ${name}`);
}

// ---- schema evolution -----------------------------------------------------------------------

/** The version the check compares with by default: the one marked deployed, else the one before the newest. */
export function defaultBase(versions: VersionInfo[]): number | null {
  return versions.find((v) => v.deployed)?.version ?? versions[1]?.version ?? versions[0]?.version ?? null;
}

export async function loadVersions(): Promise<void> {
  const id = useDesigner.getState().projectId;
  if (!id) return;
  try {
    const versions = await api().call("projects.history", { id, limit: 200 });
    const base = useExport.getState().baseVersion;
    set({
      versions,
      baseVersion: base !== null && versions.some((v) => v.version === base) ? base : defaultBase(versions),
    });
  } catch (e) {
    set({ diffError: asHostError(e).describe() });
  }
}

async function layoutAt(version: number): Promise<Layout> {
  if (version === 0) {
    const valid = useDesigner.getState().valid;
    if (!valid) throw new Error("the layout in the designer has problems: fix them to compare it");
    return valid;
  }
  const id = useDesigner.getState().projectId!;
  const res = await api().call("projects.version", { id, version });
  const parsed = checkLayout(res.layout);
  if (!parsed.ok) throw new Error(`version ${version} is not a valid layout: ${describeIssue(parsed.issues[0]!)}`);
  return parsed.layout;
}

export async function compareVersions(): Promise<void> {
  const { baseVersion, targetVersion, probe } = useExport.getState();
  if (baseVersion === null) return;
  set({ comparing: true, diffError: null });
  try {
    const [a, b] = await Promise.all([layoutAt(baseVersion), layoutAt(targetVersion)]);
    // let the "Comparing…" state paint before the probe's encode/decode work
    await new Promise((r) => setTimeout(r, 30));
    set({ diff: diffLayouts(a, b, { probe: probe ? 24 : 0 }), comparing: false });
  } catch (e) {
    set({
      diff: null,
      comparing: false,
      diffError: e instanceof Error && !("code" in e) ? e.message : asHostError(e).describe(),
    });
  }
}
