// What the analysis shows: sample count, seed, platforms, byte-map format; remembered across sessions in localStorage.
import { create } from "zustand";
import { FORMAT_IDS, type FormatId } from "#codecs";

export type AnalysisTab = "sizes" | "attribution" | "bytemap" | "readings";
export type Theme = "light" | "dark";

export const SAMPLE_COUNTS = [100, 1000, 5000, 10000] as const;

export interface Settings {
  samples: number;
  seed: number;
  platforms: string[];
  tab: AnalysisTab;
  byteMapFormat: FormatId;
  byteMapSample: number;
  theme: Theme;
  set(patch: Partial<Omit<Settings, "set">>): void;
}

const KEY = "satpayload.settings";
const DEFAULTS = {
  samples: 1000,
  seed: 1,
  platforms: ["astrocast"],
  tab: "sizes" as AnalysisTab,
  byteMapFormat: "protobuf" as FormatId,
  byteMapSample: 0,
};

function systemTheme(): Theme {
  return typeof matchMedia === "function" && matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

function restore(): typeof DEFAULTS & { theme: Theme } {
  const base = { ...DEFAULTS, theme: systemTheme() };
  try {
    const raw = JSON.parse(localStorage.getItem(KEY) ?? "{}") as Record<string, unknown>;
    if (typeof raw.samples === "number" && raw.samples >= 1 && raw.samples <= 100_000)
      base.samples = Math.round(raw.samples);
    if (typeof raw.seed === "number" && Number.isInteger(raw.seed)) base.seed = raw.seed;
    if (Array.isArray(raw.platforms) && raw.platforms.every((p) => typeof p === "string"))
      base.platforms = raw.platforms as string[];
    if (raw.tab === "sizes" || raw.tab === "attribution" || raw.tab === "bytemap" || raw.tab === "readings")
      base.tab = raw.tab;
    if (typeof raw.byteMapFormat === "string" && (FORMAT_IDS as readonly string[]).includes(raw.byteMapFormat))
      base.byteMapFormat = raw.byteMapFormat as FormatId;
    if (raw.theme === "light" || raw.theme === "dark") base.theme = raw.theme;
  } catch {
    // unreadable settings: defaults
  }
  return base;
}

export const useSettings = create<Settings>()((set, get) => ({
  ...restore(),
  set(patch) {
    set(patch);
    const { samples, seed, platforms, tab, byteMapFormat, theme } = get();
    try {
      localStorage.setItem(KEY, JSON.stringify({ samples, seed, platforms, tab, byteMapFormat, theme }));
    } catch {
      // private mode or quota: settings stay for this session only
    }
  },
}));
