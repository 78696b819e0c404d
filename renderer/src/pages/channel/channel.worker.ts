// Runs the channel simulator off the UI thread and reports progress; one request at a time.
import { generateSamples, measureSizes } from "#codecs";
import { allStackOverheads, OverheadError, stackOverheadCsv } from "#planning";
import {
  ChannelConfigError,
  loadFactorsFor,
  SEED003_STACKS,
  seed003Row,
  simulateFleet,
  stackLabel,
} from "#planning/channel";
import type { ChannelAnswer, ChannelRequest, FleetAnswer, Seed003Answer } from "./protocol.ts";

const post = (a: ChannelAnswer) => (self as unknown as Worker).postMessage(a);

function run(req: ChannelRequest): FleetAnswer | Seed003Answer {
  if (req.kind === "seed003") {
    const rows = SEED003_STACKS.map((n, i) =>
      seed003Row(n, req.horizon, req.seed, (f) =>
        post({
          type: "progress",
          fraction: (i + f) / SEED003_STACKS.length,
          label: n === null ? "MQTT/TCP" : `CoAP NSTART ${n}`,
        }),
      ),
    );
    return { kind: "seed003", horizon: req.horizon, rows };
  }
  const records = generateSamples(req.layout, req.samples, req.sampleSeed);
  const m = measureSizes(req.layout, records, [req.format])[0]!;
  if (m.stats.count === 0)
    throw new ChannelConfigError(`no sample encodes as ${req.format}: ${m.firstError ?? "unknown reason"}`);
  const sizes = Array.from(m.sizes);
  const ctx = { layout: req.layoutId, format: req.format };
  const stacks = req.stacks.map((stack, i) => {
    const input = {
      devices: req.devices,
      messagesPerDay: req.messagesPerDay,
      sizes,
      stack,
      channel: req.channel,
      horizon: req.horizon,
      seed: req.seed,
      layout: req.layoutId,
      format: req.format,
    };
    return simulateFleet(input, loadFactorsFor(input, req.loads), (f) =>
      post({ type: "progress", fraction: (i + f) / req.stacks.length, label: stackLabel(stack) }),
    );
  });
  return {
    kind: "fleet",
    format: req.format,
    sizes: m.stats,
    stacks,
    overhead: allStackOverheads(m.stats.p50, ctx),
    overheadCsv: stackOverheadCsv([m.stats.min, m.stats.p50, m.stats.max], ctx),
  };
}

self.onmessage = (ev: MessageEvent<ChannelRequest>) => {
  const t0 = performance.now();
  try {
    post({ type: "result", result: run(ev.data), ms: performance.now() - t0 });
  } catch (e) {
    // bad channel numbers are the user's to fix; anything else is a bug and keeps its name
    if (e instanceof ChannelConfigError || e instanceof OverheadError) post({ type: "error", message: e.message });
    else throw e;
  }
};
