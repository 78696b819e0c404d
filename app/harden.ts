// Locks down every web contents and the session: no navigation away from the app, no new windows,
// no webviews, no permissions, the CSP on every response.
import type { Session, WebContents } from "electron";
import { CONTENT_SECURITY_POLICY } from "#host/api/contract.ts";
import { isAppUrl } from "./protocol.ts";

export function hardenContents(contents: WebContents, openExternal: (url: string) => void): void {
  contents.on("will-navigate", (e, url) => {
    if (!isAppUrl(url)) e.preventDefault();
  });
  contents.on("will-redirect", (e, url) => {
    if (!isAppUrl(url)) e.preventDefault();
  });
  contents.on("will-attach-webview", (e) => e.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    // links to papers and docs go to the user's browser, never into a window with our preload
    if (url.startsWith("https://")) openExternal(url);
    return { action: "deny" };
  });
}

export function hardenSession(session: Session): void {
  session.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, "Content-Security-Policy": [CONTENT_SECURITY_POLICY] } });
  });
}
