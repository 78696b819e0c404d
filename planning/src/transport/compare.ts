// The header choices of one IP link side by side: the payload as Non-IP Data Delivery, SCHC-compressed
// CoAP, and CoAP over UDP/IPv4 and IPv6 as sent. Each row is the fleet grid of the Cost page with that
// stack chosen, so the bytes and the money are the ones the Cost page shows for it, not a second model.
import type { SizeStats } from "#codecs/analysis";
import { overheadFn, stackName } from "./platformStack.ts";
import { schcFragments, type SchcFragmentation } from "./schc.ts";
import type { StackId } from "./stacks.ts";
import { platformById } from "../platforms/catalog.ts";
import { evaluateFleet, type FleetContext, type FormatSizesInput } from "../report/fleet.ts";
import { defaultScenario, type FleetScenario } from "../report/scenario.ts";

/** NIDD, SCHC, then the uncompressed stacks they replace. */
export const COMPARED_STACKS = ["raw", "coap-schc", "coap-con", "coap-ipv6"] as const satisfies readonly StackId[];

/** Short names for a chart legend; `stackName` has the long ones. */
export const COMPARED_SHORT: Record<(typeof COMPARED_STACKS)[number], string> = {
  raw: "NIDD (payload only)",
  "coap-schc": "SCHC CoAP/UDP/IPv6",
  "coap-con": "CoAP/UDP/IPv4",
  "coap-ipv6": "CoAP/UDP/IPv6",
};

export interface ComparedCell {
  format: string;
  onAir: Pick<SizeStats, "mean" | "p50" | "max">;
  /** per 30-day month for the scenario's fleet, undefined without a price */
  monthly: number | undefined;
  currency: string | undefined;
  /** SCHC fragmentation of the largest message when it exceeds the platform's limit (SCHC row only) */
  fragments: SchcFragmentation | null;
}

export interface ComparedStack {
  stack: (typeof COMPARED_STACKS)[number];
  name: string;
  short: string;
  cells: ComparedCell[];
}

/**
 * Every compared stack on an IP platform, for each measured format. `scenario` sets the fleet (devices,
 * cadence, currency); the Cost page's default fleet when none is given.
 */
export function compareStacks(
  platformId: string,
  measured: readonly FormatSizesInput[],
  context: FleetContext,
  scenario: FleetScenario = defaultScenario(),
): ComparedStack[] {
  const platform = platformById(platformId);
  if (!platform || platform.link !== "ip") return [];
  const formats = measured.filter((m) => m.stats.count > 0);
  return COMPARED_STACKS.map((stack) => {
    const fleet = evaluateFleet(
      {
        ...scenario,
        platforms: [platformId],
        formats: formats.map((f) => f.format),
        transport: { [platformId]: stack },
      },
      formats,
      context,
    );

    return {
      stack,
      name: stackName(platform, stack),
      short: COMPARED_SHORT[stack],
      cells: fleet.cells.map((c) => {
        const p50 = formats.find((f) => f.format === c.format)!.stats.p50;
        return {
          format: c.format,
          onAir: {
            mean: c.onAir.mean,
            p50: p50 + overheadFn(stack, { layout: context.layout, format: c.format })(p50),
            max: c.onAir.max,
          },
          monthly: c.monthly.exact ?? c.monthly.mean,
          currency: fleet.currency,
          fragments:
            stack === "coap-schc" && c.limit !== null && c.onAir.max > c.limit
              ? schcFragments(c.onAir.max, c.limit)
              : null,
        };
      }),
    };
  });
}
