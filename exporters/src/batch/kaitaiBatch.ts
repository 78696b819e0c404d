// The delta form's readings in the bit-packed Kaitai spec (issue #27): Kaitai expressions have no loop or
// sum, but an instance can be a list of user-type objects, reading i's holding an instance that refers to
// reading i - 1's. So `<key>_units[i].units` is reading i's value in units of its precision: the first
// value, the differences added up, keyframes whole (the plan's rule, batch-wire.md). Only for columns of
// at most 32 bits (the spec reads wider ones as unrolled hi/lo pairs) and only the bit-packed spec,
// whose ids for a field and its raw bits this follows (kaitai/bits.ts).
import type { Layout } from "#codecs";
import { type BatchPlan, layoutSpecs, type ScalarSpec } from "#codecs/plans";
import { MAX_FIELD_BITS } from "../kaitai/bits.ts";
import { ksyId } from "../kaitai/names.ts";
import type { YamlValue } from "../kaitai/yaml.ts";

type Map_ = { [key: string]: YamlValue };

/** Element j of an int column as a Kaitai expression, or undefined when the spec does not read it so. */
function element(id: string, s: ScalarSpec | undefined, j: string): string | undefined {
  if (s?.k !== "int" || s.bits > MAX_FIELD_BITS) return undefined;
  if (s.bits === 0) return String(s.lo);
  const raw = s.bits === 1 ? `(${id}_raw[${j}] ? 1 : 0)` : `${id}_raw[${j}]`;
  return s.lo === 0 ? raw : `(${raw} + ${s.lo})`;
}

/** The spec with a `<key>_units` instance per difference-coded value it can sum; the ids it added. */
export function withKaitaiUnits(spec: Map_, wire: Layout, plan: BatchPlan): { spec: Map_; added: string[] } {
  const specs = new Map(
    layoutSpecs(wire).map((f) => [f.field.key, f.node.k === "group" ? undefined : f.node.s] as const),
  );
  const types: Map_ = { ...((spec.types as Map_ | undefined) ?? {}) };
  const instances: Map_ = { ...((spec.instances as Map_ | undefined) ?? {}) };
  const added: string[] = [];
  const K = plan.keyframeEvery;
  if (!plan.countKey) return { spec, added };
  const count = ksyId([plan.countKey]);
  for (const lp of plan.leaves) {
    if (lp.kind !== "delta") continue;
    const first = ksyId([lp.firstKey]);
    const prev = `_parent.${ksyId([lp.firstKey, "units"])}[i - 1].units`;
    // the difference of reading i sits after the keyframes before it: index (i - 1) - (i - 1) / K
    const d = element(
      `_parent.${ksyId([lp.nextKey])}`,
      specs.get(lp.nextKey),
      K > 0 ? `(i - 1) - (i - 1) / ${K}` : "i - 1",
    );
    const k = element(`_parent.${ksyId([lp.keyframeKey])}`, specs.get(lp.keyframeKey), `i / ${K} - 1`);
    const hasNext = specs.has(lp.nextKey);
    const hasKeys = specs.has(lp.keyframeKey) && K > 0;
    if ((hasNext && d === undefined) || (hasKeys && k === undefined)) continue;
    let value = hasNext ? `${prev} + ${d}` : `_parent.${first}`;
    if (hasKeys) value = `(i % ${K} == 0 ? ${k} : ${value})`;
    const type = ksyId([lp.firstKey, "reading"]);
    const id = ksyId([lp.firstKey, "units"]);
    types[type] = {
      doc: `${lp.leaf.name} of one reading`,
      params: [{ id: "i", type: "u4" }],
      instances: {
        units: {
          // cast: the compiler cannot infer a type that refers to itself through reading i - 1
          value: `(i == 0 ? _parent.${first} : (${value})).as<s8>`,
          doc: `${lp.leaf.name} of reading i + 1 in units of ${lp.units.step}`,
        },
      },
    };
    instances[id] = {
      type: `${type}(_index)`,
      repeat: "expr",
      "repeat-expr": count,
      doc: `${lp.leaf.name} per reading: the first value, the differences added up${K > 0 ? ", keyframes whole" : ""}`,
    };
    added.push(id);
  }
  return { spec: { ...spec, ...(added.length ? { types, instances } : {}) }, added };
}
