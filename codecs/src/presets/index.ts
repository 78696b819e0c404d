// The layouts a new project can start from; the CLI, the designer and the tests list them from here.
import { kineisTrackerPreset } from "./kineisTracker.ts";
import { lorawanEnvPreset } from "./lorawanEnv.ts";
import { paperPreset } from "./paper.ts";
import { paperTrackerPreset } from "./paperTracker.ts";
import type { LayoutInput } from "../layout/schema.ts";

export interface Preset {
  id: string;
  name: string;
  description: string;
  /** unparsed: run it through parseLayout, which fills defaults and protobuf numbers */
  layout: LayoutInput;
}

export const PRESETS: readonly Preset[] = [
  {
    id: "paper",
    name: "Maritime container (Kumar et al. 2026)",
    description:
      "The paper's 20-field container record, all-string JSON as the device emits it; reproduces Table 2 (JSON 418 B … Struct+Zlib 127 B).",
    layout: paperPreset,
  },
  {
    id: "kineis-tracker",
    name: "Asset tracker (Kinéis 30 B)",
    description: "A quantised GNSS fix (fixed-point lat/lon, enums, small ints) that fits one 30-byte Kinéis message.",
    layout: kineisTrackerPreset,
  },
  {
    id: "lorawan-env",
    name: "Environmental sensor (LoRaWAN EU868 DR0, 51 B)",
    description:
      "Air quality and weather with a variable soil-probe array and optional rain, sized for the 51-byte EU868 DR0–2 payload.",
    layout: lorawanEnvPreset,
  },
  {
    id: "paper-tracker",
    name: "Container tracker (15 min, Astrocast per pass)",
    description:
      "The paper's record as a tracker: time, position, speed and climate every 15 minutes, as many readings as fit one 160-byte Astrocast message.",
    layout: paperTrackerPreset,
  },
];

export function presetById(id: string): Preset | undefined {
  return PRESETS.find((p) => p.id === id);
}
