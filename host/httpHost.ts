// Browser mode in one call: the host plus its HTTP/WebSocket transport. The launcher and the e2e
// tests start exactly this.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { packageVersion } from "#services/shared/packageVersion.ts";
import { createHost, type Host } from "./host.ts";
import { defaultDataDir } from "./paths.ts";
import { htmlToPdf } from "./report/htmlToPdf.ts";
import { startHttpServer, type RunningServer } from "./transport/http.ts";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export interface BrowserHostOptions {
  /** default: SATPAYLOAD_DATA_DIR or the platform's user data directory */
  dataDir?: string;
  /** default 0: a free port */
  port?: number;
  /** default: dist/renderer of this checkout */
  rendererDir?: string;
  token?: string;
  bodyLimit?: number;
}

export interface BrowserHost extends RunningServer {
  host: Host;
}

export async function startBrowserHost(opts: BrowserHostOptions = {}): Promise<BrowserHost> {
  const host = createHost({
    dataDir: opts.dataDir ?? defaultDataDir(),
    shell: "browser",
    version: packageVersion(),
    printHtml: htmlToPdf,
  });
  try {
    const server = await startHttpServer({
      dispatch: host.dispatch,
      events: host.events,
      rendererDir: opts.rendererDir ?? path.join(repoRoot, "dist", "renderer"),
      port: opts.port ?? 0,
      token: opts.token,
      bodyLimit: opts.bodyLimit,
    });
    return {
      ...server,
      host,
      close: async () => {
        await server.close();
        await host.close();
      },
    };
  } catch (e) {
    await host.close();
    throw e;
  }
}
