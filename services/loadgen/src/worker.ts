// One generator thread: runs generator.ts on the wall clock over the run's transport, measures its
// own event loop, and talks to the main thread (engine.ts).
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { parentPort, workerData } from "node:worker_threads";
import { createGenerator } from "./generator.ts";
import type { FromWorker, ToWorker, WorkerInit } from "./protocol.ts";
import { coapEndpoint, httpDevice, mqttDevice, type Sender } from "./transports.ts";

const init = workerData as WorkerInit;
const port = parentPort!;
const post = (m: FromWorker) => port.postMessage(m);

const LOOP_RESOLUTION_MS = 10;
const loopDelay = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
loopDelay.enable();

const target = new URL(init.url);
/** MQTT topics and CoAP queries name the layout and format as the HTTP headers do */
const naming = { layout: init.headers["x-satpayload-layout"] ?? "", format: init.headers["x-satpayload-format"] ?? "" };
/** CoAP devices of this thread share one UDP endpoint, closed when the thread is done */
const coapShared: Sender | undefined = init.transport === "coap" ? coapEndpoint(init.url, naming) : undefined;

const generator = createGenerator(init, {
  clock: {
    // wall-clock ms with sub-ms precision, comparable across threads
    now: () => performance.timeOrigin + performance.now(),
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (t) => clearTimeout(t),
    setInterval: (fn, ms) => setInterval(fn, ms),
    clearInterval: (t) => clearInterval(t),
  },
  openSender(index, name) {
    if (coapShared) return { send: (m) => coapShared.send(m), close: () => {} };
    if (init.transport === "mqtt") return mqttDevice(init.url, `${init.runTag}-${name}`, naming);
    return httpDevice(target, init.headers, init.connection === "keep-alive");
  },
  post,
  loopLag() {
    const p99Ms = loopDelay.count > 0 ? Math.max(0, loopDelay.percentile(99) / 1e6 - LOOP_RESOLUTION_MS) : 0;
    const maxMs = loopDelay.count > 0 ? Math.max(0, loopDelay.max / 1e6 - LOOP_RESOLUTION_MS) : 0;
    loopDelay.reset();
    return { p99Ms, maxMs };
  },
});

port.on("message", (msg: ToWorker) => {
  if (msg.type === "start") generator.start(msg);
  else if (msg.type === "stop")
    void generator.stop(msg.graceMs).then(() => {
      loopDelay.disable();
      coapShared?.close();
      port.close();
    });
});
post({ type: "ready" });

process.on("uncaughtException", (e) => {
  post({ type: "error", message: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  process.exit(1);
});
