// pyFixed must print what Python's f"{x:.{d}f}" prints (the paper's device writes its JSON that
// way), ties to even included. Checked against Python itself on random, quantised, tie and huge values.
import { execFileSync } from "node:child_process";
import vm from "node:vm";
import { describe, expect, test } from "vitest";
import { Prng } from "#codecs";
import { pyFixed } from "#codecs/plans";
import { referencePython } from "#codecs-test/helpers/python.ts";
import { RUNTIME_COMMON } from "../src/net/runtime.ts";

const PY = `
import json, sys
cases = json.load(sys.stdin)
json.dump([f"{x:.{d}f}" for x, d in cases], sys.stdout)
`;

function cases(): [number, number][] {
  const rng = new Prng(15);
  const out: [number, number][] = [];
  for (let i = 0; i < 4000; i++) {
    const d = Math.floor(rng.next() * 7);
    const sign = rng.next() < 0.5 ? -1 : 1;
    // a value on the layout's grid (what quantised fields hold), one off it, a dyadic tie, a huge one
    const k = Math.floor(rng.next() * 2_000_000);
    out.push([(sign * k) / 10 ** d, d]);
    out.push([sign * rng.next() * 10 ** Math.floor(rng.next() * 12), d]);
    out.push([(sign * (2 * k + 1)) / 2 ** (d + 1), d]);
    out.push([sign * (2 ** 51 / 10 ** d) * (1 + rng.next()), d]);
  }
  out.push([2.5, 0], [0.125, 2], [0.375, 2], [1.0625, 3], [21.5, 1], [1e22, 2], [-3e25, 0], [1e21, 1], [0, 3]);
  for (let i = 0; i < 200; i++)
    out.push([(rng.next() < 0.5 ? -1 : 1) * 10 ** (20 + rng.next() * 280), Math.floor(rng.next() * 4)]);
  return out;
}

const all = cases();
const python = JSON.parse(
  execFileSync(referencePython(), ["-c", PY], { input: JSON.stringify(all), maxBuffer: 64 * 1024 * 1024 }).toString(
    "utf8",
  ),
) as string[];

function mismatches(print: (x: number, d: number) => string): string[] {
  return all.flatMap(([x, d], i) => (print(x, d) === python[i] ? [] : [`${x} @${d}: ${print(x, d)} ≠ ${python[i]}`]));
}

describe("pyFixed", () => {
  test("prints every value as Python's f-string does, ties to even", () => {
    expect(mismatches(pyFixed)).toEqual([]);
    // ties round to the even neighbour where toFixed would round away from zero
    expect(pyFixed(2.5, 0)).toBe("2");
    expect(pyFixed(0.125, 2)).toBe("0.12");
    expect(pyFixed(-0, 1)).toBe("-0.0");
    // from 1e21 on, toFixed writes an exponent; Python writes every digit
    expect(pyFixed(1e22, 2)).toBe("10000000000000000000000.00");
  });

  test("the network-server decoders' ES5 runtime prints the same (no BigInt there)", () => {
    const context = vm.createContext({});
    vm.runInContext(RUNTIME_COMMON, context);
    const es5 = vm.runInContext("pyFixed", context) as (x: number, d: number) => string;
    expect(mismatches(es5)).toEqual([]);
    expect(es5(-0, 1)).toBe("-0.0");
  });
});
