// Where the projects database lives: the same directory Electron's app.getPath("userData") gives
// for productName "SatPayload Studio", so both shells share one set of projects.
import os from "node:os";
import path from "node:path";

export const PRODUCT_NAME = "SatPayload Studio";

export function defaultDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home = os.homedir(),
): string {
  if (env.SATPAYLOAD_DATA_DIR) return path.resolve(env.SATPAYLOAD_DATA_DIR);
  if (platform === "win32") return path.join(env.APPDATA || path.join(home, "AppData", "Roaming"), PRODUCT_NAME);
  if (platform === "darwin") return path.join(home, "Library", "Application Support", PRODUCT_NAME);
  return path.join(env.XDG_CONFIG_HOME || path.join(home, ".config"), PRODUCT_NAME);
}
