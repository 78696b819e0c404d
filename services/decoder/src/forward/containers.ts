// Which container a record goes to: one per device key, or one shared by every record.
import { createHash } from "node:crypto";
import type { CseTarget } from "../config.ts";
import { MAX_RESOURCE_NAME } from "../names.ts";

/** characters of a long device key kept in front of its hash */
const KEPT = MAX_RESOURCE_NAME - 9;

/**
 * Device keys become resource names: unsafe characters are replaced, la/ol and empty names
 * prefixed, and a key longer than a name may be (45 characters, Mobius' lookup.rn) is cut to its
 * first 36 characters plus `~` and 8 hex digits of a hash of the whole key, so two long keys with
 * the same start still get containers of their own.
 */
export function containerFor(target: Pick<CseTarget, "containerMode" | "container">, device: string): string {
  if (target.containerMode === "shared") return target.container;
  const safe = device.replace(/[^A-Za-z0-9._~-]/g, "_");
  if (safe.length > MAX_RESOURCE_NAME)
    return `${safe.slice(0, KEPT)}~${createHash("sha256").update(device).digest("hex").slice(0, 8)}`;
  return safe === "" || safe === "la" || safe === "ol" || safe === "." || safe === ".." ? `d_${safe}` : safe;
}
