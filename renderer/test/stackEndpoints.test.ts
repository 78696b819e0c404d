// @vitest-environment happy-dom
// The Stack page's endpoint list names the MQTT and CoAP ingest addresses when the stack runs them,
// and nothing of the kind when it does not.
import { cleanup, render, screen } from "@testing-library/react";
import { createElement } from "react";
import { afterEach, describe, expect, it } from "vitest";
import type { StackEndpoints } from "#host/api/stack.ts";
import { Endpoints } from "../src/pages/stack/Endpoints.tsx";

const base: StackEndpoints = {
  ingest: "http://127.0.0.1:9000/ingest",
  ingestBase64: "http://127.0.0.1:9000/ingest/base64",
  latest: "http://127.0.0.1:9000/api/latest",
  stats: "http://127.0.0.1:9000/api/stats",
  events: "http://127.0.0.1:9000/api/events",
  health: "http://127.0.0.1:9000/health",
  cse: "http://127.0.0.1:7579/Mobius",
  container: "http://127.0.0.1:7579/Mobius/decoder/<device key>",
  routes: [],
};

afterEach(cleanup);

describe("Stack page endpoints", () => {
  it("lists the MQTT and CoAP addresses when the stack takes them", () => {
    render(createElement(Endpoints, { e: { ...base, mqtt: "mqtt://127.0.0.1:1883", coap: "coap://127.0.0.1:5683" } }));
    expect(screen.getByTestId("ep-mqtt").textContent).toBe("mqtt://127.0.0.1:1883");
    expect(screen.getByTestId("ep-coap").textContent).toBe("coap://127.0.0.1:5683");
  });

  it("shows neither when they are off", () => {
    render(createElement(Endpoints, { e: base }));
    expect(screen.queryByTestId("ep-mqtt")).toBeNull();
    expect(screen.queryByTestId("ep-coap")).toBeNull();
    expect(screen.getByTestId("ep-ingest").textContent).toBe(base.ingest);
  });
});
