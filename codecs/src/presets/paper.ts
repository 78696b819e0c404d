// "Maritime container (Kumar et al. 2026)": the paper's 20-field record, its text form, numbering and struct layout.
import type { LayoutInput } from "../layout/schema.ts";

const str = (decimals?: number, pad?: number) => ({ as: "string" as const, ...(decimals !== undefined ? { decimals } : {}), ...(pad !== undefined ? { pad } : {}) });
const u8 = (min: number, max: number) => ({ kind: "int" as const, bits: 8 as const, signed: false, min, max });
const f32 = (min: number, max: number, precision: number) => ({ kind: "float" as const, bits: 32 as const, min, max, precision });
const uniform = (min: number, max: number, decimals: number) => ({ kind: "uniform" as const, min, max, decimals });
const pb = (number: number) => ({ protobuf: { number } });

/** 2025-06-01T11:45:12.3Z, the paper's example "010625 114512.3" */
const PAPER_TIME_START = 1748778312.3;

export const paperPreset: LayoutInput = {
  format: "satlayout",
  version: 1,
  name: "Maritime container (Kumar et al. 2026)",
  description:
    "The 20-field container telemetry record of Kumar et al., Telecom 2026, 7(2), 43: every value is a string in JSON/CBOR/MessagePack (as the device emits it) and typed in Protobuf/Struct. JSON uses Python's json.dumps spacing, as the paper measured.",
  package: "container",
  message: "ContainerData",
  struct: { endianness: "big", stringMode: "u16-appended" },
  json: { spacing: "python" },
  fields: [
    { id: "msisdn", key: "msisdn", name: "SIM MSISDN", presence: "required", type: { kind: "string", maxLength: 15, charset: "digits" }, sample: { kind: "template", template: "39360050{int:4800:4999}" }, options: pb(1) },
    { id: "iso6346", key: "iso6346", name: "Container id (ISO 6346)", presence: "required", type: { kind: "string", maxLength: 11, charset: "upper-alnum" }, sample: { kind: "template", template: "LMCU{digits:7}" }, options: pb(2) },
    { id: "time", key: "time", name: "UTC time", unit: "s", presence: "required", type: { kind: "timestamp", encoding: "text", textFormat: "DDMMYY hhmmss.s", resolution: 0.1 }, sample: { kind: "walk", start: PAPER_TIME_START, stepMin: 1, stepMax: 3, decimals: 1 }, options: pb(3) },
    { id: "rssi", key: "rssi", name: "RSSI", presence: "required", type: u8(0, 99), text: str(), sample: uniform(15, 35, 0), options: pb(6) },
    { id: "cgi", key: "cgi", name: "Cell global id", presence: "required", type: { kind: "string", maxLength: 24, charset: "upper-alnum" }, sample: { kind: "constant", value: "999-01-1-31D41" }, options: pb(4) },
    { id: "ble-m", key: "ble-m", name: "BLE source node", presence: "required", type: u8(0, 1), text: str(), sample: { kind: "choice", values: [0, 1] }, options: pb(7) },
    { id: "bat-soc", key: "bat-soc", name: "Battery", unit: "%", presence: "required", type: u8(0, 100), text: str(), sample: uniform(76, 95, 0), options: pb(8) },
    {
      id: "acc", key: "acc", name: "Accelerometer x y z", unit: "mg", presence: "required",
      type: { kind: "array", of: f32(-2000, 2000, 0.0001), maxCount: 3, fixed: true },
      text: { as: "string", decimals: 4, separator: " " },
      sample: { kind: "elements", each: [uniform(-993.9, -973.9, 4), uniform(-27.1, -17.1, 4), uniform(-52, -42, 4)] },
      options: { protobuf: { number: 11, expand: ["x", "y", "z"] } },
    },
    { id: "temperature", key: "temperature", name: "Temperature", unit: "°C", presence: "required", type: f32(-40, 85, 0.01), text: str(2), sample: uniform(17, 27, 2), options: pb(14) },
    { id: "humidity", key: "humidity", name: "Humidity", unit: "%RH", presence: "required", type: f32(0, 100, 0.01), text: str(2), sample: uniform(61, 81, 2), options: pb(15) },
    { id: "pressure", key: "pressure", name: "Pressure", unit: "hPa", presence: "required", type: f32(900, 1100, 0.0001), text: str(4), sample: uniform(1002.4, 1022.4, 4), options: pb(16) },
    { id: "door", key: "door", name: "Door status", presence: "required", type: { kind: "string", maxLength: 1, charset: "upper-alnum" }, sample: { kind: "choice", values: ["D", "O", "C", "T"] }, options: pb(5) },
    { id: "gnss", key: "gnss", name: "GNSS fix", presence: "required", type: u8(0, 1), text: str(), sample: { kind: "choice", values: [0, 1] }, options: pb(9) },
    { id: "latitude", key: "latitude", name: "Latitude", unit: "°", presence: "required", type: f32(-90, 90, 0.01), text: str(2), sample: uniform(31.61, 32.11, 2), options: pb(17) },
    { id: "longitude", key: "longitude", name: "Longitude", unit: "°", presence: "required", type: f32(-180, 180, 0.01), text: str(2), sample: uniform(28.49, 28.99, 2), options: pb(18) },
    { id: "altitude", key: "altitude", name: "Altitude", unit: "m", presence: "required", type: f32(-500, 9000, 0.01), text: str(2), sample: uniform(39.5, 59.5, 2), options: pb(19) },
    { id: "speed", key: "speed", name: "Speed", unit: "m/s", presence: "required", type: f32(0, 100, 0.1), text: str(1), sample: uniform(0, 40, 1), options: pb(20) },
    { id: "heading", key: "heading", name: "Heading", unit: "°", presence: "required", type: f32(0, 360, 0.01), text: str(2), sample: uniform(0, 360, 2), options: pb(21) },
    { id: "nsat", key: "nsat", name: "Satellites", presence: "required", type: u8(0, 64), text: str(undefined, 2), sample: uniform(4, 12, 0), options: pb(10) },
    { id: "hdop", key: "hdop", name: "HDOP", presence: "required", type: f32(0, 50, 0.1), text: str(1), sample: uniform(0.5, 5.5, 1), options: pb(22) },
  ],
};
