// @vitest-environment happy-dom
// Channel "My fleet" starts from the open project (issue #26, point 7): the devices and messages/day of
// its cost scenario and its chosen format; a scenario edited since shows on the next visit, and inputs
// the user changed on this page stay theirs.
import { beforeEach, describe, expect, it } from "vitest";
import type { HostApi } from "#host/api/contract.ts";
import { defaultScenario, type FleetScenario } from "#planning";
import { enterChannelProject, setField, useChannel } from "./channelStore.ts";
import { rememberProjectFormat } from "../../session/projectDefaults.ts";
import { useSession } from "../../session/sessionStore.ts";
import { useDesigner } from "../../state/layoutStore.ts";

const initial = useChannel.getState();
const tracker = (): FleetScenario => ({
  ...defaultScenario("Tracker fleet"),
  devices: 5000,
  cadence: { kind: "per-day", messagesPerDay: 24 },
});
let scenario = tracker();

const api = {
  call: (async (method: string, req: { projectId: string }) => {
    if (method === "costs.get" && req.projectId === "p1")
      return { doc: { version: 1, active: 0, scenarios: [scenario] } };
    throw new Error(`${method} is not part of this test`);
  }) as HostApi["call"],
  on: () => () => {},
} as HostApi;

beforeEach(() => {
  localStorage.clear();
  useChannel.setState(initial, true);
  useSession.setState({ api });
  useDesigner.setState({ projectId: "p1" });
  scenario = tracker();
});

describe("Channel My fleet defaults", () => {
  it("takes devices × messages/day from the project's cost scenario, not 10 000 × 96", async () => {
    await enterChannelProject();
    const s = useChannel.getState();
    expect(s.form).toMatchObject({ devices: "5000", perDay: "24" });
    expect(s.fleetFrom?.scenario).toBe("Tracker fleet");
  });

  it("reads an interval cadence as messages per day", async () => {
    scenario = { ...scenario, cadence: { kind: "interval", minutes: 15 } };
    await enterChannelProject();
    expect(useChannel.getState().form.perDay).toBe("96");
  });

  it("takes the project's chosen format", async () => {
    rememberProjectFormat("p1", "struct-zlib");
    await enterChannelProject();
    expect(useChannel.getState().form.format).toBe("struct-zlib");
  });

  it("follows a scenario edited since the last visit, but keeps inputs the user changed here", async () => {
    await enterChannelProject();
    scenario = { ...scenario, devices: 8000 };
    await enterChannelProject();
    expect(useChannel.getState().form.devices).toBe("8000");
    setField("devices", "123");
    scenario = { ...scenario, devices: 9000 };
    await enterChannelProject();
    expect(useChannel.getState().form).toMatchObject({ devices: "123", perDay: "24" });
  });

  it("keeps the page's own fleet when the project has no readable scenario", async () => {
    useDesigner.setState({ projectId: "p2" });
    await enterChannelProject();
    expect(useChannel.getState().form).toMatchObject({ devices: "10000", perDay: "96" });
    expect(useChannel.getState().fleetFrom).toBeNull();
  });
});
