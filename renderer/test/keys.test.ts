import { describe, expect, it } from "vitest";
import { type Field, parseLayout } from "#codecs";
import { keyFromName, renameWithKey } from "../src/pages/designer/edits/keys.ts";

const field = (key: string, name: string): Field => ({
  id: `id-${key}`,
  key,
  name,
  presence: "required",
  type: { kind: "int", bits: 16, signed: false },
});

describe("a field's key follows its name", () => {
  it("derives keys the layout schema accepts", () => {
    for (const [name, key] of [
      ["Battery level (%)", "battery_level"],
      ["Température", "temperature"],
      ["2nd GPS fix", "_2nd_gps_fix"],
      ["  door -- open  ", "door_open"],
      ["°C", "c"],
    ] as const) {
      expect(keyFromName(name)).toBe(key);
      // the schema (not our own derivation) is the judge of a key's validity
      expect(() =>
        parseLayout({ format: "satlayout", version: 1, name: "t", fields: [field(keyFromName(name), name)] }),
      ).not.toThrow();
    }
    expect(keyFromName("!!!", "value_2")).toBe("value_2");
    expect(keyFromName("x".repeat(200)).length).toBe(64);
  });

  it("re-derives the key of a new field while its name is typed, keystroke by keystroke", () => {
    let f = field("value", "value");
    for (const typed of ["", "S", "Sp", "Speed", "Speed over ground"]) f = renameWithKey(f, typed, []);
    expect(f).toMatchObject({ name: "Speed over ground", key: "speed_over_ground" });
  });

  it("never changes the key of a field that was there when the layout opened (a wire contract)", () => {
    expect(renameWithKey(field("humidity", "Humidity"), "Relative humidity", [], false)).toMatchObject({
      name: "Relative humidity",
      key: "humidity",
    });
  });

  it("keeps a key the user chose", () => {
    const f = renameWithKey(field("spd", "Speed"), "Speed over ground", []);
    expect(f).toMatchObject({ name: "Speed over ground", key: "spd" });
  });

  it("keeps the derived key unique among siblings, and keeps following after a suffix", () => {
    const sibling = field("speed", "Speed");
    let f = renameWithKey(field("value_2", "value_2"), "Speed", [sibling]);
    expect(f.key).toBe("speed_2");
    f = renameWithKey(f, "Speed max", [sibling]);
    expect(f.key).toBe("speed_max");
  });
});
