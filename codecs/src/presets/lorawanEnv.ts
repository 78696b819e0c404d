// "Environmental sensor for LoRaWAN": one reading per uplink that still fits EU868 DR0–2 (51 bytes) in the compact binary formats.
import type { LayoutInput } from "../layout/schema.ts";

const uint = (bits: 8 | 16 | 32, min: number, max: number) => ({ kind: "int" as const, bits, signed: false, min, max });
const fixed = (scale: number, min: number, max: number, offset = 0) => ({ kind: "fixed" as const, scale, offset, min, max });
const normal = (mean: number, sd: number, min: number, max: number, decimals?: number) => ({ kind: "normal" as const, mean, sd, min, max, ...(decimals !== undefined ? { decimals } : {}) });

export const lorawanEnvPreset: LayoutInput = {
  format: "satlayout",
  version: 1,
  name: "Environmental sensor (LoRaWAN EU868 DR0, 51 B)",
  description:
    "An outdoor air-quality and weather node on LoRaWAN: the reading must fit the 51-byte payload of EU868 DR0–2 (the slowest, longest-range data rates). Values are fixed-point at their sensor resolution; soil probes are a variable-length array and rain is reported only when it rained, so sizes vary from message to message.",
  package: "envsensor",
  message: "EnvReading",
  struct: { endianness: "little", stringMode: "u8-inline" },
  fields: [
    { id: "temperature", key: "temp", name: "Air temperature", unit: "°C", presence: "required", type: fixed(0.01, -40, 85), sample: normal(14, 7, -40, 85, 2) },
    { id: "humidity", key: "rh", name: "Relative humidity", unit: "%RH", presence: "required", type: fixed(0.5, 0, 100), sample: normal(68, 12, 0, 100, 1) },
    { id: "pressure", key: "pres", name: "Pressure", unit: "hPa", presence: "required", type: fixed(0.1, 300, 1100, 300), sample: normal(1013, 8, 950, 1050, 1) },
    { id: "co2", key: "co2", name: "CO₂", unit: "ppm", presence: "required", type: uint(16, 400, 10000), sample: normal(520, 90, 400, 10000, 0) },
    { id: "pm25", key: "pm25", name: "PM2.5", unit: "µg/m³", presence: "required", type: fixed(0.1, 0, 1000), sample: normal(9, 5, 0, 1000, 1) },
    { id: "pm10", key: "pm10", name: "PM10", unit: "µg/m³", presence: "required", type: fixed(0.1, 0, 1000), sample: normal(16, 8, 0, 1000, 1) },
    { id: "voc", key: "voc", name: "VOC index", presence: "required", type: uint(16, 1, 500), sample: normal(100, 40, 1, 500, 0) },
    { id: "noise", key: "db", name: "Noise", unit: "dB(A)", presence: "required", type: fixed(0.5, 30, 130, 30), sample: normal(52, 9, 30, 130, 1) },
    { id: "light", key: "lux", name: "Illuminance", unit: "lx", presence: "required", type: uint(32, 0, 200000), sample: { kind: "uniform", min: 0, max: 90000 } },
    { id: "wind-speed", key: "ws", name: "Wind speed", unit: "m/s", presence: "required", type: fixed(0.1, 0, 60), sample: normal(4, 3, 0, 60, 1) },
    { id: "wind-dir", key: "wd", name: "Wind direction", unit: "°", presence: "required", type: uint(16, 0, 359), sample: { kind: "uniform", min: 0, max: 359 } },
    {
      id: "rain", key: "rain", name: "Rain since last uplink", unit: "mm", presence: "optional",
      type: fixed(0.2, 0, 50), sample: { kind: "uniform", min: 0.2, max: 12, decimals: 1 },
    },
    {
      id: "soil", key: "soil", name: "Soil probe temperatures", unit: "°C", presence: "required",
      type: { kind: "array", of: fixed(0.1, -20, 60), maxCount: 4 },
      sample: { kind: "elements", each: [normal(11, 3, -20, 60, 1)], minCount: 1, maxCount: 4 },
    },
    { id: "battery", key: "vbat", name: "Battery", unit: "mV", presence: "required", type: uint(16, 2000, 4200), sample: { kind: "walk", start: 4100, stepMin: -3, stepMax: 1, min: 2000, max: 4200 } },
    {
      id: "status", key: "st", name: "Status", presence: "required",
      type: { kind: "enum", values: [{ name: "OK", value: 0 }, { name: "WARMUP", value: 1 }, { name: "SENSOR_FAULT", value: 2 }, { name: "LOW_BATTERY", value: 3 }] },
      sample: { kind: "choice", values: ["OK", "WARMUP", "SENSOR_FAULT", "LOW_BATTERY"], weights: [94, 3, 2, 1] },
    },
  ],
};
