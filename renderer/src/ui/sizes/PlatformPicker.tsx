// Multi-select of the platforms whose limits the sizes are judged against (from the one platform catalog).
import { useEffect, useRef, useState } from "react";
import { PLATFORMS, type Platform } from "#planning";
import { useSettings } from "../../state/settings.ts";

const NETWORKS: { id: Platform["network"]; label: string }[] = [
  { id: "satellite", label: "Satellite" },
  { id: "lpwan", label: "LPWAN" },
  { id: "cellular", label: "Cellular" },
];

export function PlatformPicker() {
  const chosen = useSettings((s) => s.platforms);
  const set = useSettings((s) => s.set);
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent) => {
      if (!box.current?.contains(e.target as Node)) setOpen(false);
    };
    const esc = (e: KeyboardEvent) => e.key === "Escape" && setOpen(false);
    document.addEventListener("mousedown", close);
    document.addEventListener("keydown", esc);
    return () => {
      document.removeEventListener("mousedown", close);
      document.removeEventListener("keydown", esc);
    };
  }, [open]);

  const toggle = (id: string) =>
    set({ platforms: chosen.includes(id) ? chosen.filter((p) => p !== id) : [...chosen, id] });
  const names = chosen.map((id) => PLATFORMS.find((p) => p.id === id)?.name ?? id);
  const summary = names.length === 0 ? "No platform" : names.length === 1 ? names[0]! : `${names.length} platforms`;

  return (
    <div className="platform-picker" ref={box}>
      <button
        type="button"
        className="btn small"
        aria-haspopup="true"
        aria-expanded={open}
        data-testid="platform-picker"
        title={names.join(", ")}
        onClick={() => setOpen(!open)}
      >
        Limits: {summary} ▾
      </button>
      {open && (
        <div className="popover" role="dialog" aria-label="Platforms" data-testid="platform-popover">
          {NETWORKS.map((n) => (
            <div key={n.id}>
              <div className="group-label">{n.label}</div>
              {PLATFORMS.filter((p) => p.network === n.id).map((p) => (
                <label key={p.id} className="check" title={p.source}>
                  <input
                    type="checkbox"
                    checked={chosen.includes(p.id)}
                    data-testid={`platform-${p.id}`}
                    onChange={() => toggle(p.id)}
                  />
                  <span>
                    {p.name}
                    {p.status === "discontinued" ? <span className="faint"> (discontinued)</span> : null}
                  </span>
                  <span className="limit">{p.uplinkBytes !== undefined ? `${p.uplinkBytes} B` : "no fixed limit"}</span>
                </label>
              ))}
            </div>
          ))}
        </div>
      )}
    </div>
  );
}

export interface Limit {
  id: string;
  name: string;
  bytes: number;
}

/** The chosen platforms that have a per-message limit, strictest first; the others are listed apart. */
export function chosenLimits(ids: readonly string[]): { limits: Limit[]; unlimited: Platform[] } {
  const limits: Limit[] = [];
  const unlimited: Platform[] = [];
  for (const id of ids) {
    const p = PLATFORMS.find((x) => x.id === id);
    if (!p) continue;
    if (p.uplinkBytes === undefined) unlimited.push(p);
    else limits.push({ id: p.id, name: p.name, bytes: p.uplinkBytes });
  }
  limits.sort((a, b) => a.bytes - b.bytes);
  return { limits, unlimited };
}
