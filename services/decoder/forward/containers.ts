// Which container a record goes to: one per device key, or one shared by every record.
import type { CseTarget } from "../config.ts";

/** Device keys become resource names: unsafe characters are replaced, la/ol and empty names prefixed. */
export function containerFor(target: Pick<CseTarget, "containerMode" | "container">, device: string): string {
  if (target.containerMode === "shared") return target.container;
  const safe = device.replace(/[^A-Za-z0-9._~-]/g, "_").slice(0, 64);
  return safe === "" || safe === "la" || safe === "ol" || safe === "." || safe === ".." ? `d_${safe}` : safe;
}
