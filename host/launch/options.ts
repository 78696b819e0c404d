// Command-line options shared by `npm start` and `npm run web`.

export interface LaunchOptions {
  port: number;
  /** skip the dist/renderer freshness check (CI images that ship a built renderer) */
  build: boolean;
}

export function parseLaunchArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): LaunchOptions {
  let port = env.SATPAYLOAD_PORT !== undefined && env.SATPAYLOAD_PORT !== "" ? env.SATPAYLOAD_PORT : "0";
  let build = true;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--port") port = argv[++i] ?? "";
    else if (a.startsWith("--port=")) port = a.slice("--port=".length);
    else if (a === "--no-build") build = false;
    else throw new Error(`unknown option ${a} (options: --port N, --no-build)`);
  }
  const n = Number(port);
  if (!/^\d+$/.test(port) || n > 65535) throw new Error(`--port must be 0 (any free port) to 65535, not "${port}"`);
  return { port: n, build };
}

/** A browser is opened only where someone can see it. */
export function shouldOpenBrowser(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): boolean {
  if (env.CI === "true" || env.CI === "1" || env.SATPAYLOAD_NO_OPEN) return false;
  if (platform === "linux" || platform === "freebsd" || platform === "openbsd")
    return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
  return true;
}
