// The bytes "send current design" puts on the module: one sample of the layout in one format, through the
// same codec and sample generator the designer shows, and refused when the Astronode cannot carry it.
import { codecFor, type FormatId, generateSamples, type Layout } from "#codecs";
import { platformById } from "#planning";
import { HostError } from "../errors.ts";

/** the Astronode's user-data limit, from the platform catalog (the one table of limits) */
export function astronodeLimit(): number {
  const limit = platformById("astrocast")?.uplinkBytes;
  if (!limit) throw new Error("the platform catalog has no Astrocast uplink limit");
  return limit;
}

export function designPayload(layout: Layout, format: FormatId, sample: number, seed: number): Uint8Array {
  // sample i does not depend on how many are drawn, so this is the designer's sample i for the same seed
  const record = generateSamples(layout, sample + 1, seed)[sample]!;
  return codecFor(layout, format).encode(record);
}

export function checkFits(bytes: number, what: string): void {
  const limit = astronodeLimit();
  if (bytes > limit)
    throw new HostError(
      "bad_request",
      `${what} is ${bytes} bytes: ${bytes - limit} over the Astronode's ${limit}-byte limit; pick a more compact format or trim the layout`,
    );
}
