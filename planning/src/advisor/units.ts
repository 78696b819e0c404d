// Errors said the way the people reading them think: metres for positions, the field's unit otherwise.
import type { Field } from "#codecs";

/** Metres per degree of latitude, and of longitude at the equator (WGS 84 equatorial circumference / 360). */
export const METRES_PER_DEGREE = 111_320;

const DEGREES = new Set(["°", "deg", "degree", "degrees"]);

/** A position in degrees: given in degrees or unitless within ±180, and named lat/lon or spanning exactly ±90/±180. */
export function isLatLon(f: Field): "lat" | "lon" | null {
  const t = f.type.kind === "array" ? f.type.of : f.type;
  const unitless =
    !f.unit && "min" in t && "max" in t && t.min !== undefined && t.max !== undefined && t.min >= -180 && t.max <= 180;
  if (!DEGREES.has(f.unit ?? "") && !unitless) return null;
  const s = `${f.key} ${f.name}`.toLowerCase();
  if (/\blat(itude)?\b/.test(s)) return "lat";
  if (/\b(lon|lng|long|longitude)\b/.test(s)) return "lon";
  // a scaled integer over exactly ±90° or ±180° is a position whatever its name
  if (t.kind === "fixed" && t.min === -90 && t.max === 90) return "lat";
  if (t.kind === "fixed" && t.min === -180 && t.max === 180) return "lon";
  return null;
}

/** Three significant digits, no exponent for everyday magnitudes. */
export function short(x: number): string {
  if (x === 0) return "0";
  if (!Number.isFinite(x)) return String(x);
  const a = Math.abs(x);
  if (a >= 1000) return x.toLocaleString("en-US", { maximumFractionDigits: 0 });
  const digits = Math.max(0, 2 - Math.floor(Math.log10(a)));
  return x
    .toFixed(Math.min(digits, 12))
    .replace(/(\.\d*?)0+$/, "$1")
    .replace(/\.$/, "");
}

/** "±0.05 °C", "±5.57 m (0.00005°)", "±0.5 s", "exact". */
export function lossText(f: Field, bound: number): string {
  if (bound === 0) return "exact";
  const unit = f.unit ?? "";
  const ll = isLatLon(f);
  if (ll) return `±${short(bound * METRES_PER_DEGREE)} m${ll === "lon" ? " at the equator" : ""} (${short(bound)}°)`;
  const sep = unit === "" || unit === "°" || unit === "%" ? "" : " ";
  return `±${short(bound)}${sep}${unit}`;
}
