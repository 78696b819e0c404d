// `npm start`: the desktop window when the Electron binary is installed, otherwise browser mode.
import { runElectron } from "#app/launch.ts";
import { repoRoot } from "#host/httpHost.ts";
import { runBrowserMode } from "#host/launch/browserMode.ts";
import { probeElectron } from "#host/launch/electron.ts";
import { parseLaunchArgs } from "#host/launch/options.ts";
import { ensureRenderer } from "#host/launch/renderer.ts";

try {
  const opts = parseLaunchArgs(process.argv.slice(2));
  if (opts.build) ensureRenderer(repoRoot);
  const electron = probeElectron(repoRoot);
  const headless = process.platform === "linux" && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY;
  if (electron.ok && headless) {
    await runBrowserMode(opts, "Electron is installed but there is no display for a window");
  } else if (electron.ok) {
    const code = await runElectron(repoRoot, electron.binary, electron.version);
    if (code !== false) process.exit(code);
    await runBrowserMode(opts, "Electron could not load SQLite; falling back");
  } else {
    console.log(`Electron binary not installed: ${electron.reason}.`);
    await runBrowserMode(
      opts,
      "no Electron binary; `node node_modules/electron/install.js` with internet access fetches it for the desktop window",
    );
  }
} catch (e) {
  console.error(`npm start: ${(e as Error).message}`);
  process.exit(1);
}
