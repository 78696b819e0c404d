// Number, time and layout-name formats of the Stack page.

export const fmt = {
  int: (x: number | null | undefined) => (x === null || x === undefined ? "–" : Math.round(x).toLocaleString("en-US")),
  rate: (x: number | null | undefined) =>
    x === null || x === undefined ? "–" : x >= 100 ? Math.round(x).toLocaleString("en-US") : x.toFixed(1),
  ratio: (x: number | null | undefined) => (x === null || x === undefined ? "–" : `${x.toFixed(2)}×`),
  pct: (x: number | null | undefined) =>
    x === null || x === undefined ? "–" : `${(x * 100).toFixed(x === 1 ? 0 : 2)} %`,
  time: (ms: number) =>
    new Date(ms).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit" }),
  since: (iso: string | null) => {
    if (!iso) return "–";
    const s = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000));
    return s < 60
      ? `${s} s`
      : s < 3600
        ? `${Math.floor(s / 60)} min`
        : `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
  },
};

/** A few values of a decoded record for the table; the whole record opens on click. */
export function preview(record: unknown, max = 4): string {
  if (!record || typeof record !== "object" || Array.isArray(record)) return JSON.stringify(record) ?? "";
  return Object.entries(record as Record<string, unknown>)
    .slice(0, max)
    .map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`)
    .join("  ");
}

export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // no clipboard permission (an unfocused window, an old WebView): the selection route still works
    const t = document.createElement("textarea");
    t.value = text;
    t.style.position = "fixed";
    t.style.opacity = "0";
    document.body.append(t);
    t.select();
    const ok = document.execCommand("copy");
    t.remove();
    return ok;
  }
}

/**
 * A record's or route's layout as the user knows it: the decoder names it by what the device sent (a
 * preset id, a project's id or name). Ids found in `names` show by name, with the id in the tooltip;
 * anything else (a project's name already, an id of a deleted project) shows as sent.
 */
export function layoutLabel(layout: string, names: Readonly<Record<string, string>>): string {
  return Object.hasOwn(names, layout) ? names[layout]! : layout;
}
