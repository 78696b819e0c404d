// Astrocast's fragment counts against every example of its Payload Best Practices (Astronode S documentation).
import { describe, expect, it } from "vitest";
import { ASTROCAST_RADIO, airtimeOf, astrocastFragments } from "../src/index.ts";

describe("Astrocast fragments and bursts: the guidance's examples", () => {
  it.each([
    [39, 3, 1, "39 B take 3 fragments"],
    [43, 4, 1, "43 B take 4 fragments"],
    [57, 4, 1, "57 B cost the same as 43 B: 4 fragments"],
    [80, 6, 1, "80 B are one burst of 6 fragments"],
    [93, 6, 1, "below 94 B: one burst"],
    [94, 7, 2, "94 B need a second burst"],
    [160, 10, 2, "160 B: the second burst amortised"],
  ])("%i B → %i fragments, %i burst(s): %s", (bytes, fragments, bursts) => {
    expect(astrocastFragments(ASTROCAST_RADIO, bytes)).toEqual({ fragments, bursts });
    expect(airtimeOf({ platform: "astrocast" }, bytes)).toMatchObject({ fragments, bursts });
  });

  it("the 43 → 39 B saving the guidance describes is one fragment of airtime", () => {
    const a = airtimeOf({ platform: "astrocast" }, 43).seconds;
    const b = airtimeOf({ platform: "astrocast" }, 39).seconds;
    expect(a - b).toBeCloseTo(ASTROCAST_RADIO.fragmentS.value, 12);
  });
});
