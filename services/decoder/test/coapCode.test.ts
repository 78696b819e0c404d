// Every answer the decoder's CoAP ingest can give is a code CoAP defines: the response codes of the
// RFC 7252 registry (§12.1.2) and 4.29 Too Many Requests (RFC 8516). HTTP's 200 has no twin there.
import { describe, expect, it } from "vitest";
import { coapCode } from "../src/ingest/coap.ts";

const REGISTERED = new Set([
  "2.01",
  "2.02",
  "2.03",
  "2.04",
  "2.05",
  "4.00",
  "4.01",
  "4.02",
  "4.03",
  "4.04",
  "4.05",
  "4.06",
  "4.12",
  "4.13",
  "4.15",
  "5.00",
  "5.01",
  "5.02",
  "5.03",
  "5.04",
  "5.05",
  "4.29",
]);

describe("CoAP response codes", () => {
  it("maps every status the ingest answers with to a registered code", () => {
    for (const status of [200, 201, 400, 401, 403, 404, 405, 413, 415, 429, 500, 503])
      expect(REGISTERED.has(coapCode(status)), `${status} → ${coapCode(status)}`).toBe(true);
  });

  it("answers a new record 2.01 Created and a duplicate or device route 2.04 Changed", () => {
    expect(coapCode(201)).toBe("2.01");
    expect(coapCode(200)).toBe("2.04");
    expect(coapCode(503)).toBe("5.03");
  });
});
