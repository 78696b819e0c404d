// "Asset tracker for Kinéis": every value quantised to the resolution it is worth, so a fix fits one 30-byte Kinéis message.
import type { LayoutInput } from "../layout/schema.ts";

const uint = (bits: 8 | 16 | 32, min: number, max: number) => ({ kind: "int" as const, bits, signed: false, min, max });

export const kineisTrackerPreset: LayoutInput = {
  format: "satlayout",
  version: 1,
  name: "Asset tracker (Kinéis 30 B)",
  description:
    "A GNSS tracker sized for Kinéis' 30-byte maximum message: fixed-point latitude/longitude (1e-5° ≈ 1 m), altitude in whole metres, speed, heading, temperature and HDOP as one-byte fixed-point values, the motion state as an enum and a wrapping 8-bit sequence number. The fixed-layout formats fit: Struct 22 B, SBE 30 B (8 of them header), bit-packed 19 B, which even fits Kinéis' standard 19-byte message. Protobuf's tags and varints make 29–38 B, and the key-carrying formats are far over.",
  package: "tracker",
  message: "TrackerFix",
  struct: { endianness: "big", stringMode: "u8-inline" },
  fields: [
    {
      id: "time", key: "t", name: "Fix time", unit: "s", presence: "required",
      type: { kind: "timestamp", encoding: "epoch", resolution: 1, min: 1735689600, max: 2051222400 },
      sample: { kind: "walk", start: 1767225600, stepMin: 3600, stepMax: 3600 },
    },
    {
      id: "lat", key: "lat", name: "Latitude", unit: "°", presence: "required",
      type: { kind: "fixed", scale: 0.00001, offset: 0, min: -90, max: 90 },
      sample: { kind: "walk", start: 43.71032, stepMin: -0.02, stepMax: 0.02, min: -90, max: 90, decimals: 5 },
    },
    {
      id: "lon", key: "lon", name: "Longitude", unit: "°", presence: "required",
      type: { kind: "fixed", scale: 0.00001, offset: 0, min: -180, max: 180 },
      sample: { kind: "walk", start: 10.40197, stepMin: -0.02, stepMax: 0.02, min: -180, max: 180, decimals: 5 },
    },
    {
      id: "alt", key: "alt", name: "Altitude", unit: "m", presence: "required",
      type: { kind: "int", bits: 16, signed: true, min: -500, max: 9000 },
      sample: { kind: "uniform", min: 0, max: 120 },
    },
    {
      id: "speed", key: "spd", name: "Speed", unit: "km/h", presence: "required",
      type: { kind: "fixed", scale: 0.5, offset: 0, min: 0, max: 127.5 },
      sample: { kind: "uniform", min: 0, max: 90, decimals: 1 },
    },
    {
      id: "heading", key: "hdg", name: "Heading", unit: "°", presence: "required",
      type: { kind: "fixed", scale: 2, offset: 0, min: 0, max: 358 },
      sample: { kind: "uniform", min: 0, max: 358 },
    },
    {
      id: "state", key: "st", name: "Motion state", presence: "required",
      type: { kind: "enum", values: [{ name: "PARKED", value: 0 }, { name: "MOVING", value: 1 }, { name: "STOPPED", value: 2 }, { name: "ALARM", value: 3 }, { name: "TAMPER", value: 4 }] },
      sample: { kind: "choice", values: ["PARKED", "MOVING", "STOPPED", "ALARM", "TAMPER"], weights: [40, 45, 12, 2, 1] },
    },
    {
      id: "battery", key: "bat", name: "Battery", unit: "%", presence: "required",
      type: uint(8, 0, 100),
      sample: { kind: "walk", start: 98, stepMin: -0.4, stepMax: 0, min: 0, max: 100 },
    },
    {
      id: "temperature", key: "tmp", name: "Temperature", unit: "°C", presence: "required",
      type: { kind: "fixed", scale: 0.5, offset: -40, min: -40, max: 87.5 },
      sample: { kind: "normal", mean: 18, sd: 6, min: -40, max: 87.5, decimals: 1 },
    },
    {
      id: "nsat", key: "sat", name: "Satellites", presence: "required",
      type: uint(8, 0, 31),
      sample: { kind: "uniform", min: 4, max: 14 },
    },
    {
      id: "hdop", key: "hdop", name: "HDOP", presence: "required",
      type: { kind: "fixed", scale: 0.1, offset: 0, min: 0, max: 25.5 },
      sample: { kind: "uniform", min: 0.6, max: 4, decimals: 1 },
    },
    {
      id: "seq", key: "seq", name: "Sequence", presence: "required",
      type: uint(8, 0, 255),
      sample: { kind: "counter", start: 0, step: 1, wrap: 256 },
    },
  ],
};
