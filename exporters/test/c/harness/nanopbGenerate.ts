// The export's .proto and .options written into a work dir and run through Debian's nanopb_generator,
// as a user would: the .pb.h/.pb.c land beside them.
import { execFileSync } from "node:child_process";
import type { Layout } from "#codecs";
import type { Workdir } from "./build.ts";
import { generateNanopb, nanopbNames } from "../../../src/nanopb.ts";

/** Writes the nanopb export of `layout` into `dir` of `work` and runs nanopb_generator there; its file names. */
export function nanopbGenerate(work: Workdir, layout: Layout, dir: string): ReturnType<typeof nanopbNames> {
  const n = nanopbNames(layout);
  work.write(generateNanopb(layout), dir);
  execFileSync("nanopb_generator.py", ["-q", n.proto], {
    cwd: work.path(dir),
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 60_000,
  });
  return n;
}
