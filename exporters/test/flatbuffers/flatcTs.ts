// The official FlatBuffers TypeScript side, as its users get it: `flatc --ts` (Debian's flatc) turns
// our exported .fbs into accessor classes that read through the npm `flatbuffers` runtime. esbuild
// bundles the generated files with that runtime into one CommonJS module, so a test or a bench
// receiver loads it with `require` without a TypeScript toolchain of its own.
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { buildSync } from "esbuild";

const require = createRequire(import.meta.url);
/** the folder holding the npm runtime, found as Node finds it (the bundle gets this very copy) */
const nodeModules = path.dirname(path.dirname(require.resolve("flatbuffers/package.json")));

/** A flatc-generated table: `getRootAs<Name>(bb)` gives an accessor object (`unpack()` with --gen-object-api). */
export type FlatcTable = Record<string, (...args: unknown[]) => unknown>;

/** What flatc generated, opened by a loader: the classes by name (the namespace dropped), and the runtime's ByteBuffer. */
export interface FlatcModule {
  ByteBuffer: new (bytes: Uint8Array) => unknown;
  [name: string]: unknown;
}

/**
 * Runs `flatc --ts --gen-object-api` on `fbs` (written to `<dir>/<name>.fbs`) and bundles the output
 * with the npm runtime into `<dir>/<name>.flatc.cjs`; returns that file.
 */
export function writeFlatcTsModule(fbs: string, dir: string, name = "schema"): string {
  mkdirSync(dir, { recursive: true });
  const schema = path.join(dir, `${name}.fbs`);
  writeFileSync(schema, fbs);
  const out = path.join(dir, `${name}-ts`);
  execFileSync("flatc", ["--ts", "--gen-object-api", "-o", out, schema], { timeout: 60_000 });
  // flatc 2.x writes one file per type under the namespace's folders plus `<name>_generated.ts`, which re-exports them all
  const entry = path.join(out, `${name}_generated.ts`);
  if (!readdirSync(out).includes(`${name}_generated.ts`))
    throw new Error(`flatc --ts wrote no ${name}_generated.ts in ${out}: ${readdirSync(out).join(", ")}`);
  // the runtime's ByteBuffer travels in the same bundle, so callers hand bytes to the very runtime the accessors use
  const wrapper = path.join(out, "entry.ts");
  writeFileSync(wrapper, `export * from "./${name}_generated.ts";\nexport { ByteBuffer } from "flatbuffers";\n`);
  const bundle = path.join(dir, `${name}.flatc.cjs`);
  buildSync({
    entryPoints: [wrapper],
    bundle: true,
    format: "cjs",
    platform: "node",
    target: "node20",
    outfile: bundle,
    // the runtime is ours (node_modules), not a copy next to the generated files
    nodePaths: [nodeModules],
    logLevel: "silent",
  });
  return bundle;
}

export function loadFlatcTsModule(file: string): FlatcModule {
  return require(file) as FlatcModule;
}

/**
 * A reader of root tables: bytes → the generated accessor object, through `getRootAs<Table>` (looked
 * up once, so a bench times the generated code and not the lookup).
 */
export function flatcRootReader(mod: FlatcModule, table: string): (bytes: Uint8Array) => Record<string, () => unknown> {
  const T = mod[table] as FlatcTable | undefined;
  const getRoot = T?.[`getRootAs${table}`];
  if (!getRoot) throw new Error(`the flatc module has no table ${table}: ${Object.keys(mod).join(", ")}`);
  const { ByteBuffer } = mod;
  return (bytes) => getRoot.call(T, new ByteBuffer(bytes)) as Record<string, () => unknown>;
}
