// SatPayload Studio's device model for k6: the same fleet `satpayload loadtest` simulates.
//
//   k6 run -e TARGET=http://127.0.0.1:8080 k6-script.js
//   k6 run -e TARGET=… -e SATPAYLOAD_POOL=other-pool.json k6-script.js
//
// Closed model (the paper's): each VU is one device with its own identity and connection; it POSTs a
// pre-encoded payload from the pool file, waits for the answer, then sleeps the model's think time.
// Open model: k6's constant-arrival-rate executor at the pool file's rate, at most `devices` VUs.
import encoding from "k6/encoding";
import exec from "k6/execution";
import http from "k6/http";
import { sleep } from "k6";

const pool = JSON.parse(open(__ENV.SATPAYLOAD_POOL || "./payload-pool.json"));
if (pool.schema !== "satpayload.pool/1") throw new Error("not a satpayload.pool/1 file");

const model = pool.model || {};
const wait = model.wait || { kind: "uniform", min: 1, max: 3 };
const devices = model.devices || 100;
const target = (__ENV.TARGET || model.target || "http://127.0.0.1:8080").replace(/\/+$/, "");
const path = model.path || "/ingest";
const payloads = pool.payloads.map((p) => encoding.b64decode(p, "std"));
const runTag = `k6${Math.floor(Math.random() * 0xffffffff).toString(16)}`;
const duration = `${Math.round(model.durationSeconds || 60)}s`;

export const options = {
  discardResponseBodies: true,
  // keep-alive: every VU keeps its own connection; close: a new one per request
  noConnectionReuse: model.connection === "close",
  scenarios:
    model.mode === "open"
      ? {
          devices: {
            executor: "constant-arrival-rate",
            rate: Math.round(model.arrivalRate || 100),
            timeUnit: "1s",
            duration,
            preAllocatedVUs: devices,
            maxVUs: devices,
          },
        }
      : {
          devices: {
            executor: "ramping-vus",
            startVUs: 0,
            stages: [
              { duration: `${Math.max(1, Math.ceil(devices / (model.spawnRate || 100)))}s`, target: devices },
              { duration, target: devices },
            ],
            gracefulRampDown: "5s",
          },
        },
};

function thinkTime() {
  if (wait.kind === "constant") return wait.seconds;
  if (wait.kind === "exponential") return -wait.mean * Math.log(1 - Math.random());
  return wait.min + (wait.max - wait.min) * Math.random();
}

// per VU: the device's pool cursor and message counter. With a stride, payload i carries device
// (i mod stride)'s identity and each device sends its own; without one, devices start apart.
const stride = pool.stride || 0;
let cursor = -1;
let step = 1;
let seq = 0;

export default function device() {
  const number = exec.vu.idInTest - 1;
  if (cursor < 0) {
    cursor = stride ? number % stride : (number * 7919) % payloads.length;
    step = stride || 1;
  }
  const body = payloads[cursor];
  cursor = (cursor + step) % payloads.length;
  const headers = Object.assign({}, pool.headers, {
    "x-satpayload-device": `dev-${String(number).padStart(6, "0")}`,
    "x-satpayload-message-id": `${runTag}.${number}.${seq++}.${Date.now()}`,
  });
  http.post(`${target}${path}`, body, { headers, timeout: `${model.timeoutMs || 30000}ms`, tags: { name: "ingest" } });
  if (model.mode !== "open") sleep(thinkTime());
}
