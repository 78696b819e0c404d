// Protocol Buffers (proto3 wire format): field numbers, not keys, travel, so evolution follows protobuf's own rules.
import { protobufCodec } from "./codec.ts";
import { protobufFindings } from "../../evolution/protobuf.ts";
import type { FormatModule } from "../types.ts";

export const protobufFormat: FormatModule = {
  codec: protobufCodec,
  evolution: protobufFindings,
  mediaTypes: ["application/x-protobuf", "application/protobuf", "application/vnd.google.protobuf"],
  // measured once on the paper preset, relative to the other formats (see FormatModule.workerCost)
  workerCost: 5,
};
