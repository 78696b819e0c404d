// Runs the designer in the user's browser until Ctrl+C.
import { spawn } from "node:child_process";
import { startBrowserHost } from "../httpHost.ts";
import { shouldOpenBrowser, type LaunchOptions } from "./options.ts";

function openInBrowser(url: string): void {
  const [cmd, args] =
    process.platform === "darwin"
      ? ["open", [url]]
      : process.platform === "win32"
        ? ["cmd", ["/c", "start", '""', url.replace(/&/g, "^&")]]
        : ["xdg-open", [url]];
  const child = spawn(cmd, args as string[], { stdio: "ignore", detached: true });
  child.on("error", () => console.log("  (could not open a browser; open the URL yourself)"));
  child.unref();
}

export async function runBrowserMode(opts: LaunchOptions, why: string): Promise<void> {
  const server = await startBrowserHost({ port: opts.port });
  const open = shouldOpenBrowser();
  console.log(`SatPayload Studio — browser mode (${why})`);
  console.log(`  Open: ${server.url}`);
  console.log(`  Data: ${server.host.info.dataDir}`);
  console.log(
    open
      ? "  Opening your browser… Press Ctrl+C to stop."
      : "  Not opening a browser (CI or no display). Press Ctrl+C to stop.",
  );
  if (open) openInBrowser(server.url);
  let closing = false;
  const stop = () => {
    if (closing) return;
    closing = true;
    void server.close().then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
