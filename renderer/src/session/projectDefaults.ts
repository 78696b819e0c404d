// What the open project tells the other pages to start from (issue #26, point 7): the format the user
// chose for it and the fleet of its cost scenario. The Load test, DevKit Send and Channel pages take
// these as their defaults instead of a fixed Protobuf and a fixed fleet, so a user who planned
// "Struct+Zlib, 5 000 devices × 24/day" does not have to say it again on every page.
import { FORMAT_IDS, type FormatId } from "#codecs";
import type { HostApi } from "#host/api/contract.ts";
import { messagesPerDay, parseCostDoc } from "#planning";
import { useSettings } from "../state/settings.ts";

const FORMAT_KEY = "satpayload.projectFormat";

function readFormats(): Record<string, FormatId> {
  try {
    const raw = JSON.parse(localStorage.getItem(FORMAT_KEY) ?? "{}") as unknown;
    if (!raw || typeof raw !== "object") return {};
    return Object.fromEntries(
      Object.entries(raw).filter(
        (e): e is [string, FormatId] => typeof e[1] === "string" && (FORMAT_IDS as readonly string[]).includes(e[1]),
      ),
    );
  } catch {
    // unreadable: no project has a remembered format
    return {};
  }
}

/**
 * The format the user last chose for this project on any page that sends or simulates it (Load test,
 * DevKit Send, Channel); before any such choice, the designer's byte-map format — the one the user
 * looks at while designing.
 */
export function projectFormat(projectId: string | null): FormatId {
  const remembered = projectId === null ? undefined : readFormats()[projectId];
  return remembered ?? useSettings.getState().byteMapFormat;
}

/** Remembers `format` as this project's choice (read back by projectFormat on every page). */
export function rememberProjectFormat(projectId: string | null, format: FormatId): void {
  if (projectId === null) return;
  try {
    localStorage.setItem(FORMAT_KEY, JSON.stringify({ ...readFormats(), [projectId]: format }));
  } catch {
    // private mode or quota: the choice stays on the page that made it
  }
}

export interface ProjectFleet {
  /** the scenario the fleet comes from, for the note next to the inputs */
  scenario: string;
  devices: number;
  messagesPerDay: number;
}

/**
 * The fleet of the project's open cost scenario (Decide → Fleet cost), or null when the project has
 * no readable scenario (the page keeps its own default then). A project never opened on the cost page
 * gets the cost page's default scenario from the host, which is a fleet the user would see there too.
 */
export async function projectFleet(api: HostApi, projectId: string): Promise<ProjectFleet | null> {
  try {
    const doc = parseCostDoc((await api.call("costs.get", { projectId })).doc);
    const s = doc.scenarios[doc.active];
    return s ? { scenario: s.name, devices: s.devices, messagesPerDay: messagesPerDay(s.cadence) } : null;
  } catch {
    // an unreadable scenario is the cost page's problem to show; here the page's own default stands
    return null;
  }
}
