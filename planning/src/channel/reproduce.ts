// Seed 003 Tables II/III and Fig. 4 from the simulator, beside the paper's values.
import { coapTransport, mqttTransport, seed003Scenario, SEED003_TABLE2, SEED003_TABLE3 } from "./presets.ts";
import { simulateScenario, type LoadStats, type ScenarioResult } from "./scenario.ts";

/** The paper's KB: 1024 B (Table II is stated in KB/s without a definition; see docs/channel.md). */
export const KB = 1024;

export interface Seed003Row {
  /** "CoAP/UDP (NSTART = n)" or "MQTT/TCP" */
  label: string;
  nstart: number | null;
  goodputKBps: number;
  paperGoodputKBps: number;
  load: LoadStats;
  paperLoad: LoadStats | null;
  collisionProbability: number;
  completion: ScenarioResult["completion"];
  fig4: Fig4Bin[];
}

export interface Fig4Bin {
  /** exchanges needing packets in [from, to) */
  from: number;
  to: number;
  count: number;
  /** median completion time, s */
  p50: number;
}

/** Packets-per-exchange bins on a log scale, like Fig. 4's x axis. */
export const FIG4_EDGES = [1, 10, 30, 100, 300, 1000, 3000];

export function binCompletion(done: ScenarioResult["exchangesDone"], edges: readonly number[] = FIG4_EDGES): Fig4Bin[] {
  const bins: Fig4Bin[] = [];
  for (let i = 0; i + 1 < edges.length; i++) {
    const from = edges[i]!;
    const to = edges[i + 1]!;
    const t = done
      .filter((d) => d.packets >= from && d.packets < to)
      .map((d) => d.seconds)
      .sort((a, b) => a - b);
    bins.push({ from, to, count: t.length, p50: t.length === 0 ? Number.NaN : t[Math.ceil(t.length / 2) - 1]! });
  }
  return bins;
}

export function seed003Row(
  nstart: number | null,
  horizon: number,
  seed: number,
  onProgress?: (f: number) => void,
): Seed003Row {
  const r = simulateScenario(
    seed003Scenario(nstart === null ? mqttTransport() : coapTransport(nstart), horizon, seed),
    onProgress,
  );
  const paper = SEED003_TABLE2.find((t) => (nstart === null ? t.stack === "mqtt" : t.nstart === nstart));
  const load = nstart === null ? undefined : SEED003_TABLE3.find((t) => t.nstart === nstart);
  return {
    label: nstart === null ? "MQTT/TCP" : `CoAP/UDP (NSTART = ${nstart})`,
    nstart,
    goodputKBps: r.goodputBytesPerSecond / KB,
    paperGoodputKBps: paper?.goodputKBps ?? Number.NaN,
    load: r.offeredLoad,
    paperLoad: load ? { mean: load.mean, p25: load.p25, p75: load.p75 } : null,
    collisionProbability: r.collisionProbability,
    completion: r.completion,
    fig4: binCompletion(r.exchangesDone),
  };
}

/** Table II's rows in the paper's order: NSTART 1, 2, 3, 4, 5, 10, 100, then MQTT. */
export const SEED003_STACKS: ReadonlyArray<number | null> = [1, 2, 3, 4, 5, 10, 100, null];
