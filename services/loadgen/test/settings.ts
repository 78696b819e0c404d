// Run settings the generator tests start from: a short protobuf run of 10 devices against `url`, one
// generator thread, devices started at once; each test overrides what it is about.
import { runSettingsSchema, type RunSettings, type RunSettingsInput } from "#contracts/loadtest/spec.ts";

export function testSettings(url: string, over: Partial<RunSettingsInput>): RunSettings {
  return runSettingsSchema.parse({
    format: "protobuf",
    devices: 10,
    durationSeconds: 2,
    warmupSeconds: 0.5,
    spawnRate: 1000,
    workers: 1,
    target: { kind: "url", url },
    ...over,
  });
}
