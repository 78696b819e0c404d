// bench:paper's transport rows: the paper's workload (closed loop, U(1, 3) s) sent over HTTP, MQTT
// (QoS 1, a connection per device) and CoAP (confirmable) to one decoder replica with its broker and
// CoAP server on, each transport on a fresh local stack; one Markdown table with a transport column.
import type { FormatId } from "#codecs";
import type { LoadTestResult } from "#contracts/loadtest/result.ts";
import { runSettingsSchema, type RunSettingsInput, type Transport } from "#contracts/loadtest/spec.ts";
import { tableRow } from "#contracts/loadtest/table.ts";
import type { RunLayout } from "#services/loadgen/src/layoutSource.ts";
import { runLoadTest } from "#services/loadgen/src/run.ts";
import { startLocalStack } from "#services/loadgen/src/stack.ts";

export interface TransportSpec {
  layout: RunLayout;
  format: FormatId;
  devices: number[];
  transports: Transport[];
  base: Omit<RunSettingsInput, "format" | "devices" | "target" | "transport">;
}

export async function runTransports(
  spec: TransportSpec,
  onCell: (r: LoadTestResult) => void,
): Promise<LoadTestResult[]> {
  const results: LoadTestResult[] = [];
  for (const transport of spec.transports) {
    const stack = await startLocalStack({ replicas: 1, layoutArgs: spec.layout.decoderArgs, transports: true });
    try {
      for (const devices of spec.devices) {
        const settings = runSettingsSchema.parse({
          ...spec.base,
          format: spec.format,
          devices,
          transport,
          target: { kind: "local", replicas: 1 },
        });
        const r = await runLoadTest({ settings, layout: spec.layout, stack });
        results.push(r);
        onCell(r);
      }
    } finally {
      await stack.stop();
    }
  }
  return results;
}

const LABEL: Record<Transport, string> = { http: "HTTP POST", mqtt: "MQTT QoS 1", coap: "CoAP CON" };

export function transportTable(results: readonly LoadTestResult[]): string {
  const head = [
    "transport",
    "format",
    "devices",
    "RPS",
    "of offered",
    "avg ms",
    "p95 ms",
    "failures",
    "FoM",
    "e2e p95 ms",
    "client",
  ];
  const lines = [`| ${head.join(" | ")} |`, `|${head.map((_, i) => (i < 2 ? "---" : "---:")).join("|")}|`];
  for (const r of results) {
    const t = tableRow({ ...r, paper: null });
    lines.push(
      `| ${[LABEL[r.settings.transport], t.format, t.devices, t.rps, t.offered, t.avgMs, t.p95Ms, t.failures, t.fom, t.e2eP95Ms, t.client].join(" | ")} |`,
    );
  }
  return `${lines.join("\n")}\n`;
}
