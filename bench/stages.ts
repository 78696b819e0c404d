// Folds a V8 .cpuprofile sample into the pipeline stage it belongs to, so bench:profile can say how
// many µs per record each stage costs. A sample belongs to the nearest frame, leaf to root, that
// names a stage: Node's HTTP, stream and socket work counts for the code of ours (or the HTTP
// client/server) that caused it, SQLite's native work for the store call that ran it.
export interface Frame {
  functionName: string;
  url: string;
}

export const STARTUP = "startup (module loading)";

const OWNERS: [RegExp, string][] = [
  [/\/services\/decoder\/forward\//, "forward: oneM2M requests and answers"],
  [/\/services\/decoder\/embedded\//, "in-process delivery (record → contentInstance request)"],
  [/node:_http_(client|agent)/, "forward: Node HTTP client"],
  [/\/services\/decoder\/buffer\/(writerThread|buffer)\.ts/, "buffer: SQLite inserts, marks, pending reads"],
  [/\/services\/decoder\/buffer\//, "buffer: group commit, writer messaging"],
  [/\/codecs\/|\/services\/decoder\/decode\.ts/, "decode (codec, record → JSON)"],
  [/\/services\/decoder\//, "ingest handler (route, names, answer)"],
  [/\/services\/shared\//, "ingest handler (route, names, answer)"],
  [/\/services\/cse\/src\/store\.ts/, "CSE: SQLite (lookups, insert, group commit)"],
  [/\/services\/cse\/src\/notify\.ts/, "CSE: notifications"],
  [/\/services\/cse\/src\/(http|request)\.ts/, "CSE: HTTP binding, request parse, answer"],
  [/\/services\/cse\/src\//, "CSE: resource logic"],
  [/node:_http_server/, "Node HTTP server (parse, keep-alive)"],
  [/node:internal\/worker|node:worker_threads|messageport/, "worker messaging"],
  [/node_modules\/(tsx|esbuild)|node:internal\/modules/, STARTUP],
];

/** `stack` runs leaf first. */
export function stageOf(stack: readonly Frame[]): string {
  const leaf = stack[0];
  if (leaf?.functionName === "(garbage collector)") return "GC";
  if (leaf?.functionName === "(program)") return "V8/native outside JS";
  for (const f of stack) for (const [re, stage] of OWNERS) if (re.test(f.url)) return stage;
  return "Node event loop, timers, streams (no owner)";
}
