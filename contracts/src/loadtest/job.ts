// One load-test job as the host hands it to the load generator's process on stdin
// (services/loadgen/main.ts): the run's settings and where its layout comes from.
import { z } from "zod";
import { runSettingsSchema } from "./spec.ts";

export const jobSchema = z.object({
  settings: runSettingsSchema,
  layout: z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("preset"), id: z.string().min(1).max(64) }),
    z.object({ kind: z.literal("document"), id: z.string().min(1).max(128), layout: z.unknown() }),
  ]),
});
export type Job = z.input<typeof jobSchema>;
