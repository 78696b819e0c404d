// "#planning/channel": the satellite channel simulator (MAC throughput, fleets on a shared channel, the
// seed-003 reproduction), for the channel page's worker, the CLI and the channel bench.
export { ChannelConfigError, macThroughput } from "./mac.ts";
export type { ChannelConfig } from "./scenario.ts";
export { DEFAULT_FLEET_CHANNEL, loadFactorsFor, simulateFleet, stackLabel } from "./fleet.ts";
export type { FleetInput, FleetResult, FleetStack } from "./fleet.ts";
export { SEED003_STACKS, seed003Row } from "./reproduce.ts";
export type { Seed003Row } from "./reproduce.ts";
export { SEED003_CHANNEL } from "./presets.ts";
export { repetitionSlottedAlohaThroughput, slottedAlohaThroughput } from "./theory.ts";
export { coapTransport, mqttTransport, seed003Scenario, SEED003_COAP_BLOCK } from "./presets.ts";
export { simulateScenario } from "./scenario.ts";
export { KB } from "./reproduce.ts";
export {
  feasibleBytesPerPacket,
  paperBytesPerPacket,
  rowsOutside,
  SEED003_TOLERANCE,
  SEED003_BDP_PACKETS,
  SEED003_SLOTS_PER_SECOND,
} from "./seed003Bounds.ts";
