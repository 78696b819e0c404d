// Which refused records a retry puts back to pending — all, one container's, or one record —
// as the decoder's POST /api/refused/retry and the host's stack.retry both take it.
import { z } from "zod";

export const retryRequestSchema = z
  .object({
    container: z.string().min(1).max(64).optional(),
    buffer: z.number().int().min(0).optional(),
    seq: z.number().int().min(1).optional(),
  })
  .strict()
  .refine((r) => (r.seq === undefined) === (r.buffer === undefined), "seq and buffer go together (one record)");
export type RetryRequest = z.infer<typeof retryRequestSchema>;
