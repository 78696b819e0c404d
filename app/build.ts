// Bundles Electron's main and preload to CommonJS in dist/app: a packaged app has no tsx, and a
// sandboxed preload can require nothing but "electron".
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build, type BuildOptions } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export interface AppBundle {
  main: string;
  preload: string;
  warnings: string[];
}

export async function buildApp(outDir = path.join(root, "dist", "app")): Promise<AppBundle> {
  const version = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string }).version;
  const common: BuildOptions = {
    bundle: true,
    format: "cjs",
    outdir: outDir,
    outExtension: { ".js": ".cjs" },
    sourcemap: "linked",
    legalComments: "none",
    logLevel: "silent",
    external: ["electron"],
  };
  const [main, preload] = await Promise.all([
    build({
      ...common,
      entryPoints: { main: path.join(root, "app", "main.ts") },
      platform: "node",
      target: "node22",
      // native: loaded from node_modules (rebuilt for Electron by electron-builder, unpacked from asar)
      external: ["electron", "better-sqlite3", "serialport", "@serialport/*"],
      // host modules locate the repo (services, renderer) from import.meta.url; in the CJS bundle that is
      // the bundle file itself, dist/app/main.cjs, two levels below the root like services/shared/*.ts
      define: { __APP_VERSION__: JSON.stringify(version), "import.meta.url": "__bundleUrl" },
      banner: { js: 'const __bundleUrl = require("node:url").pathToFileURL(__filename).href;' },
    }),
    build({
      ...common,
      entryPoints: { preload: path.join(root, "app", "preload.ts") },
      platform: "browser",
      target: "chrome130",
    }),
  ]);
  const warnings = [...main.warnings, ...preload.warnings].map(
    (w) => `${w.location?.file ?? ""}:${w.location?.line ?? ""} ${w.text}`,
  );
  return { main: path.join(outDir, "main.cjs"), preload: path.join(outDir, "preload.cjs"), warnings };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = await buildApp();
  for (const w of out.warnings) console.warn(`warning: ${w}`);
  console.log(`built ${path.relative(root, out.main)} and ${path.relative(root, out.preload)}`);
}
