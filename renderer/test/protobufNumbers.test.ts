// Protobuf numbers survive designer edits (issue #13 item 6): a reorder never renumbers, a deleted
// field's number is reserved and never reused, groups keep their own numbering, and a layout
// saved without numbers keeps the positional numbers it always had.
import protobuf from "protobufjs";
import { beforeEach, describe, expect, it } from "vitest";
import { type Field, type Layout, parseLayout } from "#codecs";
import { protoModel } from "#codecs/plans";
import { generateProto } from "#exporters";
import { useDesigner } from "../src/state/layoutStore.ts";
import { insertField, moveBy, moveField, removeField } from "../src/state/tree.ts";

const leaf = (id: string): Field => ({
  id,
  key: id,
  name: id,
  presence: "required",
  type: { kind: "int", bits: 8, signed: false },
});
const group = (id: string, fields: Field[]): Field => ({
  id,
  key: id,
  name: id,
  presence: "required",
  type: { kind: "group", fields },
});

// saved before numbers were kept in the file: every number is positional
const unnumbered = (): Layout =>
  parseLayoutRaw([
    leaf("msisdn"),
    leaf("rssi"),
    leaf("bat"),
    group("pos", [leaf("lat"), leaf("lon"), leaf("alt")]),
    leaf("door"),
  ]);

function parseLayoutRaw(fields: Field[]): Layout {
  return {
    format: "satlayout",
    version: 1,
    name: "t",
    package: "telemetry",
    message: "Telemetry",
    struct: { endianness: "big", stringMode: "u16-appended" },
    json: { spacing: "compact" },
    sbe: { schemaId: 1, templateId: 1, version: 0 },
    protobufReserved: [],
    fields,
  };
}

/** field key → number, as the protobuf codec numbers the designer's last valid layout. */
function wireNumbers(): Record<string, number> {
  useDesigner.getState().checkNow();
  const valid = useDesigner.getState().valid;
  if (!valid) throw new Error("layout is invalid");
  const out: Record<string, number> = {};
  const walk = (m: ReturnType<typeof protoModel>["root"], prefix: string) => {
    for (const f of m.fields) {
      out[prefix + f.name] = f.number;
      if (f.message) walk(f.message, `${prefix}${f.name}.`);
    }
  };
  walk(protoModel(valid).root, "");
  return out;
}

const draft = () => useDesigner.getState().history.present;
const edit = (fn: (fs: Field[]) => Field[]) => useDesigner.getState().editFields(fn);

describe("protobuf numbers across designer edits", () => {
  beforeEach(() => useDesigner.getState().load("p", "t", unnumbered()));

  it("keeps the positional numbers of a layout saved without numbers", () => {
    expect(wireNumbers()).toEqual({
      msisdn: 1,
      rssi: 2,
      bat: 3,
      pos: 4,
      "pos.lat": 1,
      "pos.lon": 2,
      "pos.alt": 3,
      door: 5,
    });
    // the same numbers any other consumer (CLI, export) derives from the file
    expect(protoModel(parseLayout(unnumbered())).root.fields.map((f) => [f.name, f.number])).toEqual(
      Object.entries(wireNumbers()).filter(([k]) => !k.includes(".")),
    );
  });

  it("a layout built from scratch in the designer: the door added 7th stays 7 when moved up (the issue's case)", () => {
    useDesigner.getState().load("p", "t", parseLayoutRaw([]));
    for (const id of ["lat", "lon", "alt", "speed", "battery", "temp", "door"])
      edit((fs) => insertField(fs, null, fs.length, leaf(id)));
    expect(wireNumbers()["door"]).toBe(7);
    edit((fs) => moveField(fs, "door", null, 4));
    edit((fs) => moveBy(fs, "door", -1));
    expect(draft().fields.map((f) => f.id)).toEqual(["lat", "lon", "alt", "door", "speed", "battery", "temp"]);
    expect(wireNumbers()).toEqual({ lat: 1, lon: 2, alt: 3, speed: 4, battery: 5, temp: 6, door: 7 });
  });

  it("never renumbers on reorder (top level, inside a group, group moved)", () => {
    const before = wireNumbers();
    edit((fs) => moveField(fs, "door", null, 0)); // door first: was "auto (5)" and must stay 5
    edit((fs) => moveBy(fs, "alt", -1));
    edit((fs) => moveField(fs, "pos", null, 0));
    expect(draft().fields.map((f) => f.id)).toEqual(["pos", "door", "msisdn", "rssi", "bat"]);
    expect(wireNumbers()).toEqual(before);
  });

  it("a keystroke in one field keeps every number, and a later deletion still reserves the typed-over one's", () => {
    const rename = (id: string, key: string) => edit((fs) => fs.map((f) => (f.id === id ? { ...f, key } : f)));
    const before = wireNumbers();
    rename("rssi", "rssi_dbm");
    rename("rssi", "rssi_dbm2");
    // the number typed over is the user's choice; the field keeps it
    edit((fs) => fs.map((f) => (f.id === "bat" ? { ...f, options: { ...f.options, protobuf: { number: 40 } } } : f)));
    expect(wireNumbers()).toEqual({ ...before, rssi: undefined, rssi_dbm2: 2, bat: 40 });
    // a field whose edit dropped its number gets its old one back, as before
    edit((fs) => fs.map((f) => (f.id === "msisdn" ? { ...f, options: {} } : f)));
    expect(wireNumbers().msisdn).toBe(1);
    edit((fs) => removeField(fs, "bat"));
    expect(draft().protobufReserved).toEqual([40]);
  });

  it("reserves a deleted field's number and gives a new field a fresh one", () => {
    edit((fs) => removeField(fs, "rssi"));
    edit((fs) => insertField(fs, null, 1, leaf("snr")));
    expect(draft().protobufReserved).toEqual([2]);
    expect(wireNumbers()).toMatchObject({ msisdn: 1, snr: 6, bat: 3, pos: 4, door: 5 });
  });

  it("reserves inside a group, per group, and the .proto says so", () => {
    edit((fs) => removeField(fs, "lat"));
    edit((fs) => insertField(fs, "pos", 0, leaf("hdop")));
    const numbers = wireNumbers();
    expect(numbers).toMatchObject({ "pos.hdop": 4, "pos.lon": 2, "pos.alt": 3 });
    expect(draft().protobufReserved).toEqual([]);
    useDesigner.getState().checkNow();
    const proto = protobuf.parse(generateProto(useDesigner.getState().valid!)).root;
    const pos = proto.lookupType("telemetry.Pos");
    expect(pos.reserved).toEqual([[1, 1]]);
    expect(pos.fields["hdop"]!.id).toBe(4);
  });

  it("a field moved to another group leaves its number reserved behind and takes a free one there", () => {
    edit((fs) => moveField(fs, "bat", "pos", 3));
    expect(draft().protobufReserved).toEqual([3]);
    expect(wireNumbers()).toMatchObject({ "pos.bat": 4, door: 5 });
  });

  it("undo brings back the number and the reserved list as they were", () => {
    edit((fs) => removeField(fs, "rssi"));
    useDesigner.getState().undo();
    expect(draft().protobufReserved).toEqual([]);
    expect(wireNumbers()).toMatchObject({ rssi: 2 });
  });
});
