// Where the real k6 lives: built once from the Go module proxy by .ci/prepare-tests.sh (npm's
// pretest) into the git-ignored .cache/, like the SBE jar. Its absence is a setup error, not a skip.
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** Keep in step with .ci/prepare-tests.sh. */
export const K6_VERSION = "v1.8.1";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
export const k6Binary = path.join(repoRoot, ".cache/k6", K6_VERSION, "k6");

export function ensureK6(): string {
  if (!existsSync(k6Binary))
    throw new Error(
      `k6 ${K6_VERSION} is not built at ${k6Binary}: run 'bash .ci/prepare-tests.sh' (npm test runs it first; it needs Go)`,
    );
  return k6Binary;
}
