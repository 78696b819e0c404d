// Draws think times from the configured distribution (seconds).
import type { WaitDistribution } from "#contracts/loadtest/spec.ts";

export function waitSampler(w: WaitDistribution, random: () => number = Math.random): () => number {
  switch (w.kind) {
    case "uniform": {
      const span = w.max - w.min;
      return () => w.min + span * random();
    }
    case "constant":
      return () => w.seconds;
    case "exponential":
      // 1 - u keeps the argument of log in (0, 1]
      return () => -w.mean * Math.log(1 - random());
  }
}
