// launch(): a service that exits before it listens is reported with the last lines it printed, the
// reason included, though its "exit" event may come before those lines have been read.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { own } from "#codecs-test/helpers/processes/owned.ts";
import { launch, LaunchError } from "../launch.ts";

const EXITS = path.join(import.meta.dirname, "fixtures/exits-with-reason.ts");

describe("launch", () => {
  it("reports a service that exits before listening with its exit code and the reason it printed last", async () => {
    for (let round = 0; round < 5; round++) {
      const failed = await launch(EXITS, [], { detached: true, onSpawn: (c) => own(c, { name: "exits" }) }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(failed).toBeInstanceOf(LaunchError);
      expect((failed as LaunchError).message).toMatch(
        /^fixtures exited \(3\) before listening:\n(.*\n)*cannot start: the port is taken \(the reason\)$/,
      );
    }
  });
});
