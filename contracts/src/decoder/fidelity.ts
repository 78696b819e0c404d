// What the decoder does with a value beyond what its layout declares: more decimals than the field's
// text form writes (the paper's senders write latitude with 4 where the layout says 2), or a value
// outside its declared min/max. Either way the stored record is what the device sent, or nothing.

export type ExcessChoice = "flag" | "refuse";

export interface FidelityPolicy {
  /** more decimals than declared: stored exactly as sent and counted per field (flag), or refused (400) */
  precision: ExcessChoice;
  /** outside the declared min/max: refused (400, as every codec does), or stored as sent and counted (flag) */
  range: ExcessChoice;
}

/**
 * Extra decimals lose nothing and are what the paper's own CBOR and MessagePack senders write, so
 * they are kept and flagged; a value outside the declared range usually means a wrong layout or a
 * corrupted message, so it is refused (kept as a dead letter) unless a route asks to keep it.
 */
export const DEFAULT_FIDELITY: FidelityPolicy = { precision: "flag", range: "refuse" };

export const FIDELITY_KEYS = ["precision", "range"] as const;
const CHOICES: readonly string[] = ["flag", "refuse"];

export const isExcessChoice = (v: string): v is ExcessChoice => CHOICES.includes(v);

/** "precision=refuse" → ["precision", "refuse"]; undefined when the text is no such setting, a reason when its value is wrong */
export function fidelitySetting(text: string): [keyof FidelityPolicy, ExcessChoice] | string | undefined {
  const m = /^(precision|range)=(.*)$/.exec(text.trim());
  if (!m) return undefined;
  const v = m[2]!.trim();
  if (!isExcessChoice(v)) return `${m[1]} must be flag or refuse, not "${v}"`;
  return [m[1] as keyof FidelityPolicy, v];
}
