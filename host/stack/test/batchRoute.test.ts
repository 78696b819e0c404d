// A batch route set on the Stack page (or `stack up --route …:batch=delta`) reaches the decoder: the
// host's options keep its form and the decoder's arguments carry it.
import { describe, expect, it } from "vitest";
import { parseRouteSpec } from "#contracts/decoder/routes.ts";
import { stackOptionsSchema } from "../../api/stack.ts";
import { decoderArgs } from "../args.ts";

describe("stack options with a batch route", () => {
  it("keep the batch form and hand it to the decoder", () => {
    const opts = stackOptionsSchema.parse({
      routes: [{ path: "/fixes", layout: "Batch tracker", format: "bitpacked", body: "raw", batch: "delta" }],
    });
    expect(opts.routes[0]).toMatchObject({ batch: "delta" });
    const args = decoderArgs(opts, 0, {
      dataDir: "/tmp/x",
      cse: { base: "http://127.0.0.1:1/Mobius" },
      projectsDb: undefined,
    });
    const spec = args[args.indexOf("--route") + 1]!;
    expect(spec).toBe("/fixes=Batch tracker:bitpacked:raw:batch=delta");
    expect(parseRouteSpec(spec)).toMatchObject({ path: "/fixes", layout: "Batch tracker", batch: "delta" });
    expect(() =>
      stackOptionsSchema.parse({ routes: [{ path: "/f", layout: "t", format: "cbor", batch: "zip" }] }),
    ).toThrow();
  });
});
