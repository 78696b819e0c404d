#!/usr/bin/env tsx
// The load generator as a process, the way the host runs it: reads one job as JSON on stdin
// ({"settings": …, "layout": {"kind": "preset", "id"} | {"kind": "document", "layout", "id"}}), prints
// JSON lines on stdout — {"event":"progress",…} about once a second, then {"event":"result","result":…}
// or {"event":"error","message":…} — and exits. SIGTERM/SIGINT or the end of stdin cancel the run
// (the result still comes, with status "cancelled").
import { jobSchema } from "#contracts/loadtest/job.ts";
import { documentLayout, presetLayout, type RunLayout } from "./src/layoutSource.ts";
import { runLoadTest } from "./src/run.ts";

const emit = (event: string, body: Record<string, unknown>) =>
  process.stdout.write(`${JSON.stringify({ event, ...body })}\n`);

async function readJob(): Promise<string> {
  let text = "";
  process.stdin.setEncoding("utf8");
  for await (const chunk of process.stdin) {
    text += chunk as string;
    const nl = text.indexOf("\n");
    if (nl >= 0) return text.slice(0, nl);
  }
  return text;
}

async function main(): Promise<number> {
  const ac = new AbortController();
  process.on("SIGTERM", () => ac.abort());
  process.on("SIGINT", () => ac.abort());
  const parsed = jobSchema.safeParse(JSON.parse(await readJob()));
  if (!parsed.success) {
    emit("error", {
      message: `bad job: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
    });
    return 2;
  }
  // the host keeps stdin open while it wants the run: when it goes away, so do we
  process.stdin.on("end", () => ac.abort());
  process.stdin.resume();
  const job = parsed.data;
  let layout: RunLayout;
  try {
    layout =
      job.layout.kind === "preset" ? presetLayout(job.layout.id) : documentLayout(job.layout.layout, job.layout.id);
  } catch (e) {
    emit("error", { message: (e as Error).message });
    return 1;
  }
  try {
    const result = await runLoadTest({
      settings: job.settings,
      layout,
      signal: ac.signal,
      onProgress: (p) => emit("progress", { progress: p }),
      onStackLine: (service, line) => process.stderr.write(`[${service}] ${line}\n`),
    });
    emit("result", { result });
    return 0;
  } catch (e) {
    emit("error", { message: e instanceof Error ? e.message : String(e) });
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    return 1;
  } finally {
    layout.dispose();
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    emit("error", { message: e instanceof Error ? e.message : String(e) });
    process.exit(1);
  },
);
