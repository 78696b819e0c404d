// The decoder's live counters and ingested records, followed over its event stream (/api/events) while a
// stack runs and passed on to the app; the last counters answer when the decoder does not.
import { SseFollower } from "./sse.ts";
import type { StackRecord, StackStats } from "../api/stack.ts";

export class LiveStats {
  private follower: { url: string; sse: SseFollower } | undefined;
  private last: StackStats | undefined;

  constructor(
    private readonly hooks: {
      onStats?: ((s: StackStats) => void) | undefined;
      onIngested?: ((e: { count: number; records: StackRecord[] }) => void) | undefined;
    },
  ) {}

  /** follows the decoder at `decoderUrl` (once: following the same one again changes nothing) */
  follow(decoderUrl: string): void {
    if (this.follower?.url === decoderUrl) return;
    this.unfollow();
    const sse = new SseFollower(`${decoderUrl}/api/events`, (f) => {
      if (f.event === "stats") {
        this.last = f.data as StackStats;
        this.hooks.onStats?.(this.last);
      } else if (f.event === "ingested") this.hooks.onIngested?.(f.data as { count: number; records: StackRecord[] });
    });
    this.follower = { url: decoderUrl, sse };
  }

  unfollow(): void {
    this.follower?.sse.close();
    this.follower = undefined;
  }

  /** the stack stopped: its counters are gone with it */
  forget(): void {
    this.last = undefined;
  }

  /** the decoder's counters now, or the last ones heard when it does not answer */
  async read(decoderUrl: string): Promise<StackStats | null> {
    const r = await fetch(`${decoderUrl}/api/stats`, { signal: AbortSignal.timeout(5000) }).catch(() => undefined);
    if (!r?.ok) return this.last ?? null;
    return (await r.json()) as StackStats;
  }
}
