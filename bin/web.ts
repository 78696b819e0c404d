// `npm run web`: browser mode even where Electron is installed.
import { repoRoot } from "#host/httpHost.ts";
import { runBrowserMode } from "#host/launch/browserMode.ts";
import { parseLaunchArgs } from "#host/launch/options.ts";
import { ensureRenderer } from "#host/launch/renderer.ts";

try {
  const opts = parseLaunchArgs(process.argv.slice(2));
  if (opts.build) ensureRenderer(repoRoot);
  await runBrowserMode(opts, "npm run web");
} catch (e) {
  console.error(`npm run web: ${(e as Error).message}`);
  process.exit(1);
}
