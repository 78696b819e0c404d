// Which stack option becomes which flag of which service: the embedded CSE gets
// --verify-subscriptions and --profile, ACME its own launcher flags, the decoder one --route per
// device route; the CLI's flags and the Stack page's form arrive as the same options.
import { describe, expect, it } from "vitest";
import { stackOptionsSchema } from "#host/api/stack.ts";
import { acmeArgs, cseInDecoder, decoderArgs, embeddedCseArgs } from "#host/stack/args.ts";
import { UsageError } from "./commands/errors.ts";
import { stackInput } from "./commands/stack.ts";

const opts = (flags: Parameters<typeof stackInput>[0]) => stackOptionsSchema.parse(stackInput(flags));
const after = (args: string[], flag: string) => args.flatMap((a, i) => (a === flag ? [args[i + 1]] : []));

describe("stack service arguments", () => {
  it("passes --verify-subscriptions and --cse-profile to the embedded CSE, and nothing when unset", () => {
    expect(embeddedCseArgs(opts({ "verify-subscriptions": true, "cse-profile": "mobius" }), 7579, "/d")).toEqual([
      "--host",
      "127.0.0.1",
      "--port",
      "7579",
      "--data-dir",
      "/d",
      "--verify-subscriptions",
      "--profile",
      "mobius",
    ]);
    const plain = embeddedCseArgs(opts({}), 0, "/d");
    expect(plain).not.toContain("--verify-subscriptions");
    expect(plain).not.toContain("--profile");
    expect(after(embeddedCseArgs(opts({ "cse-profile": "standard" }), 1, "/d"), "--profile")).toEqual(["standard"]);
  });

  it("starts ACME for --cse acme, verification passed on", () => {
    const o = opts({ cse: "acme", "verify-subscriptions": true });
    expect(o).toMatchObject({ cseKind: "acme", verifySubscriptions: true });
    expect(o.cseUrl).toBeUndefined();
    expect(acmeArgs(o, 8080, "/s/acme", "/data/acme-venv")).toEqual([
      "--port",
      "8080",
      "--data-dir",
      "/s/acme",
      "--venv",
      "/data/acme-venv",
      "--verify-subscriptions",
      "--watch-stdin",
    ]);
    expect(acmeArgs(opts({ cse: "acme" }), 0, "/a", "/v")).not.toContain("--verify-subscriptions");
  });

  it("gives the decoder one --route per device route, body kind included", () => {
    const o = opts({ route: ["/container-data=paper:cbor", "/hook=Container GPS tracker:protobuf:envelope"] });
    const args = decoderArgs(o, 9000, {
      dataDir: "/s/decoder",
      cse: { base: "http://127.0.0.1:1/Mobius" },
      projectsDb: undefined,
    });
    expect(after(args, "--route")).toEqual([
      "/container-data=paper:cbor:auto",
      "/hook=Container GPS tracker:protobuf:envelope",
    ]);
    expect(after(args, "--cse")).toEqual(["http://127.0.0.1:1/Mobius"]);
    expect(args).not.toContain("--projects-db");
  });

  it("passes a route's choice for values beyond the layout (precision, range) on to the decoder", () => {
    const o = opts({ route: ["/strict=paper:cbor:precision=refuse", "/wide=paper:msgpack:raw:range=flag"] });
    expect(o.routes).toMatchObject([{ precision: "refuse" }, { body: "raw", range: "flag" }]);
    expect(
      after(decoderArgs(o, 9000, { dataDir: "/d", cse: { base: "http://x:1/M" }, projectsDb: undefined }), "--route"),
    ).toEqual(["/strict=paper:cbor:auto:precision=refuse", "/wide=paper:msgpack:raw:range=flag"]);
    expect(() => opts({ route: ["/x=paper:cbor:precision=round"] })).toThrow(/precision must be flag or refuse/);
  });

  it("turns MQTT and CoAP ingest on only when asked, with the ports the supervisor chose", () => {
    const o = opts({ "mqtt-port": "1883", "coap-port": "0" });
    expect(o).toMatchObject({ mqttPort: 1883, coapPort: 0 });
    const args = decoderArgs(o, 9000, {
      dataDir: "/d",
      cse: { base: "http://127.0.0.1:1/Mobius" },
      projectsDb: undefined,
      mqttPort: 1883,
      coapPort: 5683,
    });
    expect(after(args, "--mqtt-port")).toEqual(["1883"]);
    expect(after(args, "--coap-port")).toEqual(["5683"]);
    const plain = decoderArgs(opts({}), 9000, {
      dataDir: "/d",
      cse: { base: "http://127.0.0.1:1/Mobius" },
      projectsDb: undefined,
    });
    expect(plain).not.toContain("--mqtt-port");
    expect(plain).not.toContain("--coap-port");
    expect(() => stackInput({ "coap-port": "5683", replicas: "2" })).toThrow(UsageError);
  });

  it("runs the embedded CSE inside the decoder for one replica, as its own process otherwise or on request", () => {
    const one = opts({ "verify-subscriptions": true, "cse-profile": "standard" });
    expect(cseInDecoder(one)).toBe(true);
    const args = decoderArgs(one, 9000, { dataDir: "/s/decoder", cse: { inProcessPort: 7600 }, projectsDb: undefined });
    expect(args).not.toContain("--cse");
    expect(args).toContain("--embedded-cse");
    expect(after(args, "--cse-port")).toEqual(["7600"]);
    expect(after(args, "--cse-profile")).toEqual(["standard"]);
    expect(args).toContain("--verify-subscriptions");
    // the decoder itself refuses --embedded-cse with more replicas: the stack keeps the CSE apart then
    expect(cseInDecoder(opts({ replicas: "2" }))).toBe(false);
    expect(cseInDecoder(opts({ "cse-process": true }))).toBe(false);
    expect(cseInDecoder(opts({ cse: "acme" }))).toBe(false);
    expect(cseInDecoder(opts({ cse: "http://mobius:7579/Mobius" }))).toBe(false);
  });

  it("refuses flags that cannot apply, as usage errors", () => {
    expect(() => opts({ "cse-profile": "loose" })).toThrow(/mobius or standard/);
    expect(() => opts({ cse: "http://mobius:7579/Mobius", "verify-subscriptions": true })).toThrow(UsageError);
    expect(() => opts({ cse: "acme", "cse-profile": "mobius" })).toThrow(/ACME follows the standard/);
    expect(() => opts({ route: ["/ingest=paper:cbor"] })).toThrow(/--route: .*decoder's own endpoint/);
  });
});
