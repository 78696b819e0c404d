// The analysis layer ("#codecs/analysis"): sizes, statistics, per-field attribution, the byte map and the
// incremental size engine the renderer's size workers run, all pure and isomorphic. A worker imports this
// entry (and "#codecs" for the codec registry), never the modules behind it.
export { summarize, shareOver, type SizeStats } from "./stats.ts";
export { measureSizes, type FormatSizes } from "./sizes.ts";
export { attribute, type Attribution, type FieldShare } from "./attribution.ts";
export { byteMap, type ByteMap } from "./bytemap.ts";
export { IncrementalSizes } from "./columns.ts";
export { DeflateSizes } from "./deflateSizes.ts";
export { recordAt, SampleColumns, type SampleColumn } from "./sampleColumns.ts";
