// Picks the transport once at start-up: Electron's preload bridge when present, the local HTTP host otherwise.
import type { HostApi } from "#host/api/contract.ts";
import { browserHost } from "./browser.ts";
import { electronHost, type PreloadBridge } from "./electron.ts";
import { takeToken } from "./token.ts";

export type { HostApi } from "#host/api/contract.ts";
export { HostCallError, asHostError } from "./errors.ts";

export interface HostConnection {
  api: HostApi;
  shell: "electron" | "browser";
  /** browser mode without a token: the page was opened without the launcher's URL */
  missingToken: boolean;
}

declare global {
  interface Window {
    satpayload?: PreloadBridge;
  }
}

export function connectHost(): HostConnection {
  if (window.satpayload) return { api: electronHost(window.satpayload), shell: "electron", missingToken: false };
  const { token, rest } = takeToken(location.hash, sessionStorage);
  if (rest !== location.hash) history.replaceState(null, "", `${location.pathname}${location.search}${rest}`);
  return { api: browserHost({ token: token ?? "", origin: location.origin }), shell: "browser", missingToken: !token };
}
