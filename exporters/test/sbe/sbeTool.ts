// Runs the official SBE tool (uk.co.real-logic:sbe-all from Maven Central) on our schemas, compiles the
// generated Java codecs with a harness, and runs it. The jar (fetched by .ci/run) and each compiled
// build are cached under .cache/, keyed by a hash of everything that goes into them.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** Keep in step with the prefetch in .ci/run. */
export const SBE_VERSION = "1.38.1";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const cacheDir = path.join(repoRoot, ".cache");
export const sbeJar = path.join(cacheDir, "m2/uk/co/real-logic/sbe-all", SBE_VERSION, `sbe-all-${SBE_VERSION}.jar`);

/** The FIX SBE 1.0 XSD shipped in the jar: the tool validates every schema against it. */
function sbeXsd(jar: string): string {
  const dir = path.join(cacheDir, "sbe", `xsd-${SBE_VERSION}`);
  const xsd = path.join(dir, "fpl", "sbe.xsd");
  if (!existsSync(xsd)) {
    mkdirSync(dir, { recursive: true });
    execFileSync("jar", ["xf", jar, "fpl/sbe.xsd"], { cwd: dir, timeout: 60_000 });
  }
  return xsd;
}

export function ensureSbeJar(): string {
  if (existsSync(sbeJar)) return sbeJar;
  // normally fetched by .ci/run; this is the fallback for a developer machine
  execFileSync(
    "mvn",
    [
      "-q",
      "-B",
      `-Dmaven.repo.local=${path.join(cacheDir, "m2")}`,
      "dependency:get",
      `-Dartifact=uk.co.real-logic:sbe-all:${SBE_VERSION}`,
      "-Dtransitive=false",
    ],
    { stdio: "inherit", timeout: 300_000 },
  );
  if (!existsSync(sbeJar)) throw new Error(`mvn did not fetch ${sbeJar}`);
  return sbeJar;
}

function javaFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir)) {
    const p = path.join(dir, e);
    if (statSync(p).isDirectory()) out.push(...javaFiles(p));
    else if (p.endsWith(".java")) out.push(p);
  }
  return out;
}

export interface SbeBuild {
  classes: string;
  /** true when this call ran the tool and javac (false: reused from the cache) */
  built: boolean;
  dir: string;
}

/** Generates codecs for every schema with the SBE tool (warnings are fatal) and compiles them with the sources. */
export function buildWithSbeTool(
  schemas: Array<{ name: string; xml: string }>,
  sources: Array<{ file: string; source: string }>,
): SbeBuild {
  const jar = ensureSbeJar();
  const hash = createHash("sha256");
  hash.update(SBE_VERSION);
  for (const s of [...schemas, ...sources.map((x) => ({ name: x.file, xml: x.source }))])
    hash.update(`\0${s.name}\0${s.xml}`);
  const dir = path.join(cacheDir, "sbe", hash.digest("hex").slice(0, 24));
  const classes = path.join(dir, "classes");
  if (existsSync(path.join(dir, "ok"))) return { classes, built: false, dir };

  mkdirSync(path.dirname(dir), { recursive: true });
  const work = `${dir}.tmp-${process.pid}`;
  rmSync(work, { recursive: true, force: true });
  const schemaDir = path.join(work, "schemas");
  const gen = path.join(work, "gen");
  mkdirSync(schemaDir, { recursive: true });
  const files = schemas.map((s) => {
    const f = path.join(schemaDir, `${s.name}.xml`);
    writeFileSync(f, s.xml);
    return f;
  });
  const tool = spawnSync(
    "java",
    [
      `-Dsbe.output.dir=${gen}`,
      "-Dsbe.target.language=Java",
      "-Dsbe.validation.stop.on.error=true",
      "-Dsbe.validation.warnings.fatal=true",
      `-Dsbe.validation.xsd=${sbeXsd(jar)}`,
      "-jar",
      jar,
      ...files,
    ],
    { encoding: "utf8", timeout: 180_000 },
  );
  if (tool.status !== 0) throw new Error(`SBE tool failed (${tool.status}):\n${tool.stdout}\n${tool.stderr}`);
  for (const s of sources) {
    const f = path.join(gen, s.file);
    mkdirSync(path.dirname(f), { recursive: true });
    writeFileSync(f, s.source);
  }
  const javac = spawnSync(
    "javac",
    ["-nowarn", "-encoding", "UTF-8", "-d", path.join(work, "classes"), "-cp", jar, ...javaFiles(gen)],
    { encoding: "utf8", timeout: 300_000 },
  );
  if (javac.status !== 0) throw new Error(`javac failed (${javac.status}):\n${javac.stdout}\n${javac.stderr}`);
  writeFileSync(path.join(work, "ok"), `${new Date().toISOString()}\n`);
  rmSync(dir, { recursive: true, force: true });
  renameSync(work, dir);
  return { classes, built: true, dir };
}

/** Feeds lines to the compiled harness (harness.Main) and returns its output lines; Agrona reads buffers through jdk.internal.misc.Unsafe. */
export function runHarness(classes: string, lines: string[]): string[] {
  const r = spawnSync(
    "java",
    [
      "--add-exports",
      "java.base/jdk.internal.misc=ALL-UNNAMED",
      "-cp",
      `${classes}${path.delimiter}${sbeJar}`,
      "harness.Main",
    ],
    { input: `${lines.join("\n")}\n`, encoding: "utf8", timeout: 120_000, maxBuffer: 256 * 1024 * 1024 },
  );
  if (r.status !== 0) throw new Error(`harness failed (${r.status}): ${r.stderr}`);
  return r.stdout.split("\n").filter((l) => l.length > 0);
}
