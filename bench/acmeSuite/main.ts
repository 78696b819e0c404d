// ACME's own test suite (ankraft/ACME-oneM2M-CSE, tests/) against this CSE's standard profile and
// against a real ACME, file by file: how many tests pass, and how many of those in scope (the rest
// are the features of outOfScope.ts). Writes the counts into docs/cse.md between the
// `<!-- acme-suite -->` markers. CI cannot fetch the suite (it lives on GitHub): run it by hand.
//
//   npx tsx bench/acmeSuite/main.ts --acme-src <checkout of ACME-oneM2M-CSE> \
//       [--acme-ref <its commit>] [--before-root <checkout of an older build> --before-label <name>] \
//       [--tests testAE,testCNT] [--no-acme] [--no-write]
//
// Our CSE runs as the stack runs it (services/cse/main.ts) with the names the suite expects: base
// cse-in, CSE-ID /id-in, admin CAdmin, AE originators C* and S*, verification requests on (ACME's
// default). ACME runs from the project's .venv (services/test-support/acme.ts).
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { referencePython } from "#codecs-test/helpers/python.ts";
import { writeDocSection } from "#services/shared/docSection.ts";
import { freePort, startAcme } from "#services/test-support/acme.ts";
import { OUT_OF_SCOPE, OUT_OF_SCOPE_TESTS } from "./outOfScope.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const DOC = path.join(ROOT, "docs/cse.md");
const MARK = "<!-- acme-suite -->";
const RUNNER = path.join(path.dirname(fileURLToPath(import.meta.url)), "runSuiteFile.py");
const FILES = ["testAE", "testCNT", "testCIN", "testCNT_CIN", "testSUB", "testDiscovery"];

const { values: flags } = parseArgs({
  options: {
    "acme-src": { type: "string" },
    "acme-ref": { type: "string" },
    "before-root": { type: "string" },
    "before-label": { type: "string", default: "before" },
    tests: { type: "string" },
    "no-acme": { type: "boolean", default: false },
    "no-write": { type: "boolean", default: false },
  },
});
const acmeSrc = flags["acme-src"];
if (!acmeSrc || !existsSync(path.join(acmeSrc, "tests/runTests.py")))
  throw new Error("--acme-src must name a checkout of ankraft/ACME-oneM2M-CSE (with tests/runTests.py)");
const testsDir = path.resolve(acmeSrc, "tests");
const files = flags.tests?.split(",") ?? FILES;

type Outcome = "ok" | "FAIL" | "ERROR" | "skipped";

/** The tests a file of the suite runs, in order, from the list its run() hands to unittest. */
function testsOf(file: string): string[] {
  const source = readFileSync(path.join(testsDir, `${file}.py`), "utf8");
  const run = source.slice(source.indexOf("\ndef run("));
  const list = run.slice(0, run.indexOf("])"));
  return list
    .split("\n")
    .filter((line) => !line.trim().startsWith("#"))
    .flatMap((line) => [...line.matchAll(/'(test_\w+)'/g)].map((m) => m[1]!));
}

/** unittest's verbose lines: "test_x (module.Class.test_x)", its docstring, " ... ok". */
function outcomes(stderr: string): { name: string; outcome: Outcome }[] {
  const re = /^(test_\w+) \([\w.]+\)(?:\n[^\n]*?)? \.\.\. (ok|FAIL|ERROR|skipped)/gm;
  return [...stderr.matchAll(re)].map((m) => ({ name: m[1]!, outcome: m[2] as Outcome }));
}

function runFile(file: string, csePort: number, notificationPort: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(referencePython(), [RUNNER, testsDir, file, String(csePort), String(notificationPort)], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let err = "";
    child.stderr.on("data", (b: Buffer) => (err += b.toString("utf8")));
    // bounded: the slowest file (testSUB) takes about a minute here
    const timer = setTimeout(() => child.kill("SIGKILL"), 15 * 60_000);
    child.once("error", reject);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve(err);
    });
  });
}

interface Target {
  port: number;
  stop(): Promise<void>;
}

/** services/cse/main.ts of `root` with the names ACME's suite expects. */
async function startOurs(root: string): Promise<Target> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "services/cse/main.ts",
      ...["--profile", "standard", "--port", String(port), "--base", "cse-in", "--cse-id", "/id-in"],
      ...["--superuser", "CAdmin", "--allowed-ae-originators", "C*,S*", "--verify-subscriptions"],
    ],
    { cwd: root, stdio: ["ignore", "pipe", "ignore"] },
  );
  const lines = createInterface({ input: child.stdout! });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the CSE of ${root} did not start`)), 60_000);
    lines.on("line", (l) => {
      if (l.includes('"listening"')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code) => reject(new Error(`the CSE of ${root} exited (${code})`)));
  });
  return {
    port,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

interface FileCount {
  file: string;
  total: number;
  passed: number;
  inScope: number;
  passedInScope: number;
  failedInScope: string[];
}

async function measure(label: string, start: () => Promise<Target>): Promise<FileCount[]> {
  const target = await start();
  const counts: FileCount[] = [];
  try {
    for (const file of files) {
      const names = testsOf(file);
      const ran = outcomes(await runFile(file, target.port, await freePort()));
      const passed = ran.filter((r) => r.outcome === "ok");
      const inScope = names.filter((n) => !OUT_OF_SCOPE_TESTS.has(n));
      const passedInScope = passed.filter((r) => !OUT_OF_SCOPE_TESTS.has(r.name));
      // a setUpClass that fails runs no test of the file: every in-scope one counts as failed
      const failedInScope = inScope.filter((n) => !passedInScope.some((p) => p.name === n));
      counts.push({
        file,
        total: names.length,
        passed: passed.length,
        inScope: inScope.length,
        passedInScope: passedInScope.length,
        failedInScope: [...new Set(failedInScope)],
      });
      process.stdout.write(
        `${label} ${file}: ${passed.length}/${names.length} (in scope ${passedInScope.length}/${inScope.length})\n`,
      );
    }
  } finally {
    await target.stop();
  }
  return counts;
}

const sum = (c: FileCount[], k: "total" | "passed" | "inScope" | "passedInScope") => c.reduce((a, x) => a + x[k], 0);
const cell = (c: FileCount | undefined, all: boolean) =>
  c ? (all ? `${c.passed}/${c.total}` : `${c.passedInScope}/${c.inScope}`) : "—";

const runs: { label: string; counts: FileCount[] }[] = [];
if (!flags["no-acme"])
  runs.push({
    label: "ACME",
    counts: await measure("ACME", async () => {
      const acme = await startAcme();
      return { port: acme.port, stop: () => acme.stop() };
    }),
  });
if (flags["before-root"])
  runs.push({
    label: flags["before-label"]!,
    counts: await measure(flags["before-label"]!, () => startOurs(path.resolve(flags["before-root"]!))),
  });
runs.push({ label: "this build", counts: await measure("this build", () => startOurs(ROOT)) });

const header = `| file | ${runs.map((r) => `${r.label}: all`).join(" | ")} | ${runs.map((r) => `${r.label}: in scope`).join(" | ")} |`;
const rows = files.map((f) => {
  const of = (r: (typeof runs)[number]) => r.counts.find((c) => c.file === f);
  return `| ${f} | ${runs.map((r) => cell(of(r), true)).join(" | ")} | ${runs.map((r) => cell(of(r), false)).join(" | ")} |`;
});
const totals = `| **total** | ${runs.map((r) => `${sum(r.counts, "passed")}/${sum(r.counts, "total")}`).join(" | ")} | ${runs
  .map(
    (r) =>
      `${sum(r.counts, "passedInScope")}/${sum(r.counts, "inScope")} (${((100 * sum(r.counts, "passedInScope")) / sum(r.counts, "inScope")).toFixed(1)} %)`,
  )
  .join(" | ")} |`;
const ours = runs[runs.length - 1]!.counts;
const failing = ours.flatMap((c) => c.failedInScope.map((n) => `${c.file}.${n}`));
const section = [
  MARK,
  `Measured ${new Date().toISOString().slice(0, 10)} by \`bench/acmeSuite/main.ts\` (ACME's suite${flags["acme-ref"] ? ` at ${flags["acme-ref"]}` : ""}; ACME from the project's .venv):`,
  "",
  header,
  `|${" --- |".repeat(1 + 2 * runs.length)}`,
  ...rows,
  totals,
  "",
  `In scope and failing on this build: ${failing.length ? failing.map((n) => `\`${n}\``).join(", ") : "none"}.`,
  "",
  "Out of scope (left out of the in-scope counts, passing or not):",
  "",
  "| feature | tests | why a telemetry CSE does not carry it |",
  "| --- | --- | --- |",
  ...OUT_OF_SCOPE.map((g) => `| ${g.feature} | ${g.file}: ${g.tests.length} | ${g.reason} |`),
  MARK,
].join("\n");
process.stdout.write(`${section}\n`);
if (!flags["no-write"]) writeDocSection(MARK, section, DOC);
