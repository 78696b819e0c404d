// The analysis layer: sizes, statistics, per-field attribution and the byte map, all pure and isomorphic.
export { summarize, shareOver, type SizeStats } from "./stats.ts";
export { measureSizes, type FormatSizes } from "./sizes.ts";
export { attribute, type Attribution, type FieldShare } from "./attribution.ts";
export { byteMap, type ByteMap } from "./bytemap.ts";
