// The paper's container record as a 15-minute tracker (issue #27): position, speed and climate are taken at
// every wake-up and sent together, as many as fit one Astrocast message, once per satellite pass; the
// identities, battery and the rest travel once per message. Sample models are series that move at the
// rates the batch declares.
import { paperPreset } from "./paper.ts";
import type { Field, LayoutInput, SampleModel } from "../layout/schema.ts";

/** A container ship makes at most ~12 m/s: 0.0002 °/s of latitude is ~22 m/s, kept above for margin. */
const SERIES: Record<string, SampleModel> = {
  latitude: { kind: "randomWalk", start: 31.86, maxRate: 0.0001, min: 31.61, max: 32.11, decimals: 2 },
  longitude: { kind: "randomWalk", start: 28.74, maxRate: 0.00015, min: 28.49, max: 28.99, decimals: 2 },
  speed: { kind: "randomWalk", start: 8, maxRate: 0.005, min: 0, max: 20, decimals: 1 },
  temperature: { kind: "drift", start: 22, amplitude: 5, periodSeconds: 86_400, noise: 0.2, decimals: 2 },
  humidity: { kind: "drift", start: 71, amplitude: 8, periodSeconds: 86_400, noise: 0.5, decimals: 2 },
};

const RATES: Record<string, number | undefined> = {
  time: undefined,
  latitude: 0.0002,
  longitude: 0.0003,
  speed: 0.02,
  temperature: 0.005,
  humidity: 0.02,
};

const fields = (paperPreset.fields as Field[]).map((f) => {
  const sample = SERIES[f.id];
  return sample ? { ...f, sample } : f;
});

export const paperTrackerPreset: LayoutInput = {
  ...paperPreset,
  name: "Container tracker, 15 min, one Astrocast message per pass",
  description:
    "The paper's 20-field container record (Kumar et al., Telecom 2026) as a tracker: time, position, speed, temperature and humidity are read every 15 minutes and sent together in one Astrocast message (160 B) per satellite pass; ids, battery and the other fields once per message.",
  fields,
  batch: {
    perReading: Object.entries(RATES).map(([field, maxRate]) =>
      maxRate === undefined ? { field } : { field, maxRate },
    ),
    intervalSeconds: 900,
    readings: { kind: "fit", platform: "astrocast" },
    time: "time",
  },
};
