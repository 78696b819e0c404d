import { describe, expect, it } from "vitest";
import { DEFAULT_FORM, formSettings, startBlockedReason, type LoadTestForm } from "../src/pages/loadtest/form.ts";

const form = (patch: Partial<LoadTestForm>): LoadTestForm => ({ ...DEFAULT_FORM, ...patch });

describe("load-test form validation", () => {
  it("accepts the default form", () => {
    expect(formSettings(DEFAULT_FORM).ok).toBe(true);
  });

  it("marks each bad input with its own message: −5 devices, 0 s duration, wait 5..1", () => {
    const r = formSettings(form({ devices: "-5", duration: "0", waitA: "5", waitB: "1" }));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.issues).toEqual({
      devices: "must be at least 1",
      duration: "must be more than 0",
      waitB: "must be at least the lower bound (5 s)",
    });
    expect(startBlockedReason(r.issues)).toBe("Fix 3 fields to start: devices, wait upper bound, duration.");
  });

  it("places problems of inputs whose names differ from the settings' paths", () => {
    const r = formSettings(form({ target: "local", replicas: "0", warmup: "x", spawnRate: "" }));
    expect(r.ok ? {} : r.issues).toEqual({
      replicas: "must be at least 1",
      warmup: "enter a number",
      spawnRate: "enter a number",
    });
    const u = formSettings(form({ target: "url", url: "ftp://x" }));
    expect(u.ok ? {} : u.issues).toEqual({ url: "must be an http:// or https:// URL" });
    const o = formSettings(form({ mode: "open", rate: "-1", waitA: "9", waitB: "1" }));
    // open mode has no wait: its inputs are hidden and not judged
    expect(o.ok ? {} : o.issues).toEqual({ rate: "must be more than 0" });
  });

  it("places what a target cannot serve at the Transport select", () => {
    const coap = formSettings(form({ target: "local", replicas: "2", transport: "coap" }));
    expect(coap.ok ? {} : coap.issues).toEqual({
      transport: "CoAP ingest runs on one decoder replica: set replicas to 1",
    });
    if (!coap.ok) expect(startBlockedReason(coap.issues)).toBe("Fix 1 field to start: transport.");
    const url = formSettings(form({ target: "url", transport: "mqtt" }));
    expect(url.ok ? {} : url.issues).toEqual({ transport: expect.stringMatching(/^an ingest URL takes HTTP only/) });
    const ok = formSettings(form({ target: "local", replicas: "1", transport: "coap" }));
    expect(ok.ok && ok.settings.transport).toBe("coap");
  });

  it("sends only the kind for the running stack (the host fills in where it answers)", () => {
    const r = formSettings(form({ target: "stack" }));
    expect(r.ok && r.settings.target).toEqual({ kind: "stack" });
  });
});
