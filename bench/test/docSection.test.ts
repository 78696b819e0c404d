// A bench rewrites only its own section of docs/benchmarks.md.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { machineLine, writeDocSection } from "#services/shared/docSection.ts";

const dir = mkdtempSync(path.join(os.tmpdir(), "doc-section-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("writeDocSection", () => {
  it("appends a new section, then replaces only it", () => {
    const file = path.join(dir, "b.md");
    writeFileSync(file, "# Benchmarks\n\n<!-- a -->\nA1\n<!-- a -->\n\ntail\n");
    writeDocSection("<!-- b -->", "<!-- b -->\nB1\n<!-- b -->", file);
    expect(readFileSync(file, "utf8")).toBe(
      "# Benchmarks\n\n<!-- a -->\nA1\n<!-- a -->\n\ntail\n\n<!-- b -->\nB1\n<!-- b -->\n",
    );
    writeDocSection("<!-- a -->", "<!-- a -->\nA2\n<!-- a -->\n", file);
    writeDocSection("<!-- b -->", "<!-- b -->\nB2\n<!-- b -->", file);
    expect(readFileSync(file, "utf8")).toBe(
      "# Benchmarks\n\n<!-- a -->\nA2\n<!-- a -->\n\ntail\n\n<!-- b -->\nB2\n<!-- b -->\n",
    );
  });

  it("refuses a section without its markers", () => {
    const file = path.join(dir, "c.md");
    writeFileSync(file, "x\n");
    expect(() => writeDocSection("<!-- c -->", "no markers", file)).toThrow(/must start and end/);
    expect(readFileSync(file, "utf8")).toBe("x\n");
  });

  it("names the machine and its load", () => {
    expect(machineLine([1.25, 2, 3])).toMatch(/\d+ cores, [\d.]+ GiB RAM, Node v\d+.*load average 1\.3 2\.0 3\.0$/);
  });
});
