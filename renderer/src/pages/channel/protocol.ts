// Messages between the Channel page and its worker.
import type { FormatId, Layout } from "#codecs";
import type { SizeStats } from "#codecs/analysis";
import type { StackOverhead } from "#planning";
import type { ChannelConfig, FleetResult, FleetStack, Seed003Row } from "#planning/channel";

export type ChannelRequest =
  | { kind: "seed003"; horizon: number; seed: number }
  | {
      kind: "fleet";
      layout: Layout;
      layoutId: string;
      format: FormatId;
      samples: number;
      sampleSeed: number;
      devices: number;
      messagesPerDay: number;
      stacks: FleetStack[];
      loads: number[];
      channel: ChannelConfig;
      horizon: number;
      seed: number;
    };

export interface FleetAnswer {
  kind: "fleet";
  format: FormatId;
  sizes: SizeStats;
  stacks: FleetResult[];
  /** bytes on air per stack for the median message */
  overhead: StackOverhead[];
  overheadCsv: string;
}

export interface Seed003Answer {
  kind: "seed003";
  horizon: number;
  rows: Seed003Row[];
}

export type ChannelAnswer =
  | { type: "progress"; fraction: number; label: string }
  | { type: "result"; result: FleetAnswer | Seed003Answer; ms: number }
  | { type: "error"; message: string };
