// Folds a sampled function (its name and source URL in a V8 .cpuprofile) into the pipeline stage
// it belongs to, so bench:profile can say how many µs per record each stage costs.
export type Stage = string;

const SQLITE_NATIVE = new Set(["run", "get", "all", "iterate", "exec", "prepare", "pragma", "pluck", "raw", "transaction"]);
const SOCKET_NATIVE = new Set(["writev", "writeUtf8String", "writeBuffer", "writeLatin1String", "onStreamRead", "readStart", "close", "shutdown", "connect"]);

export function stageOf(functionName: string, url: string): Stage {
  if (functionName === "(garbage collector)") return "GC";
  if (functionName === "(program)") return "V8/native outside JS (program)";
  if (url === "") {
    if (SQLITE_NATIVE.has(functionName)) return "SQLite (better-sqlite3, native)";
    if (SOCKET_NATIVE.has(functionName)) return "socket syscalls (native)";
    if (functionName === "parse" || functionName === "stringify") return "JSON parse/stringify (native)";
    return `native ${functionName}`;
  }
  if (/node:_http_(client|agent)/.test(url)) return "Node HTTP client";
  if (/node:_http_server/.test(url)) return "Node HTTP server";
  if (/node:_http_(common|incoming|outgoing)|node:internal\/http/.test(url)) return "Node HTTP common (parser, headers)";
  if (/node:(net|internal\/stream_base|internal\/streams|stream|internal\/net)/.test(url)) return "Node streams / net";
  if (/node:internal\/(timers|process\/task_queues|async_hooks)|node:timers/.test(url)) return "timers, microtasks";
  if (/node:internal\/worker|node:worker_threads|internal\/per_context\/messageport/.test(url)) return "worker messaging";
  if (url.startsWith("node:")) return "Node other";
  const m = /\/(services\/[a-z]+\/(?:src\/)?[a-zA-Z]+|codecs\/src\/[a-zA-Z]+)/.exec(url);
  if (m) return m[1]!;
  if (url.includes("better-sqlite3")) return "SQLite (better-sqlite3 JS)";
  if (url.includes("node_modules")) return `lib ${/node_modules\/(@[^/]+\/[^/]+|[^/]+)/.exec(url)?.[1] ?? "?"}`;
  return "other";
}
