// The batch layouts every batch export proof runs on (issue #27): the paper's tracker preset at a fixed
// count, and a layout of the constructs a reading can hold besides the tracker's (a group, a fixed array,
// fixed-point and int differences, an enum and a string sent as columns, an epoch time in milliseconds,
// keyframes).
import { type LayoutInput, presetById } from "#codecs";

const tracker = presetById("paper-tracker")!.layout;

export const batchMixLayout: LayoutInput = {
  format: "satlayout",
  version: 1,
  name: "Batch mix",
  package: "mix",
  message: "BatchMix",
  fields: [
    {
      id: "dev",
      key: "dev",
      name: "Device",
      presence: "required",
      type: { kind: "string", maxLength: 8, charset: "upper-alnum" },
      sample: { kind: "template", template: "{alpha:2}{digits:4}" },
    },
    {
      id: "bat",
      key: "bat",
      name: "Battery",
      unit: "V",
      presence: "optional",
      type: { kind: "fixed", scale: 0.01, offset: 0, min: 0, max: 5 },
    },
    {
      id: "ts",
      key: "ts",
      name: "Time",
      unit: "s",
      presence: "required",
      type: { kind: "timestamp", encoding: "epoch", resolution: 0.001, min: 1577836800, max: 2524608000 },
      sample: { kind: "constant", value: 1767225600.125 },
    },
    {
      id: "pos",
      key: "pos",
      name: "Position",
      presence: "required",
      type: {
        kind: "group",
        fields: [
          {
            id: "lat",
            key: "lat",
            name: "Lat",
            presence: "required",
            type: { kind: "fixed", scale: 1e-5, offset: 0, min: -90, max: 90 },
            sample: { kind: "randomWalk", start: 43.7, maxRate: 0.0001, min: -90, max: 90 },
          },
          {
            id: "lon",
            key: "lon",
            name: "Lon",
            presence: "required",
            type: { kind: "float", bits: 32, min: -180, max: 180, precision: 0.0001 },
            sample: { kind: "randomWalk", start: 7.25, maxRate: 0.0001, min: -180, max: 180 },
          },
        ],
      },
    },
    {
      id: "acc",
      key: "acc",
      name: "Acceleration",
      unit: "mg",
      presence: "required",
      type: {
        kind: "array",
        of: { kind: "int", bits: 16, signed: true, min: -2000, max: 2000 },
        maxCount: 3,
        fixed: true,
      },
    },
    {
      id: "temp",
      key: "temp",
      name: "Temperature",
      unit: "°C",
      presence: "required",
      type: { kind: "float", bits: 64, min: -40, max: 85, precision: 0.1 },
      sample: { kind: "drift", start: 20, amplitude: 4, periodSeconds: 3600, noise: 0.3 },
    },
    {
      id: "state",
      key: "state",
      name: "State",
      presence: "required",
      type: {
        kind: "enum",
        values: [
          { name: "IDLE", value: 0 },
          { name: "MOVING", value: 3 },
          { name: "ALARM", value: 9 },
        ],
      },
      sample: { kind: "hold", chance: 0.1, from: { kind: "choice", values: ["IDLE", "MOVING", "ALARM"] } },
    },
    {
      id: "note",
      key: "note",
      name: "Note",
      presence: "required",
      type: { kind: "string", maxLength: 6, charset: "utf8" },
      sample: { kind: "choice", values: ["", "ok", "häfen", "🚢"] },
    },
    {
      id: "seq",
      key: "seq",
      name: "Sequence",
      presence: "required",
      type: { kind: "int", bits: 32, signed: false },
      sample: { kind: "counter", start: 4000000000, step: 1 },
    },
  ],
  batch: {
    perReading: [
      { field: "ts" },
      { field: "pos", maxRate: 0.0001 },
      { field: "acc" },
      { field: "temp", maxRate: 0.01 },
      { field: "state" },
      { field: "note" },
      { field: "seq", maxRate: 0.02 },
    ],
    intervalSeconds: 60,
    readings: { kind: "fixed", count: 10 },
    time: "ts",
    keyframeEvery: 4,
  },
};

export const BATCH_LAYOUTS: { name: string; input: LayoutInput; n: number }[] = [
  {
    name: "tracker",
    input: { ...tracker, batch: { ...tracker.batch!, readings: { kind: "fixed", count: 16 } } },
    n: 16,
  },
  { name: "mix", input: batchMixLayout, n: 10 },
];
