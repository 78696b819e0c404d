// app://renderer/… serves dist/renderer to the window: a real origin for the CSP's 'self' and for
// module workers, which file:// URLs do not give.
import { readFile } from "node:fs/promises";
import { CONTENT_SECURITY_POLICY } from "#host/api/contract.ts";
import { resolveStatic } from "#host/transport/staticFiles.ts";

export const APP_SCHEME = "app";
export const APP_ORIGIN = `${APP_SCHEME}://renderer`;
export const APP_INDEX_URL = `${APP_ORIGIN}/index.html`;

/** registerSchemesAsPrivileged entry: standard + secure makes it behave like https for the page */
export const APP_SCHEME_PRIVILEGES = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true },
};

export function isAppUrl(url: string): boolean {
  return url.startsWith(`${APP_ORIGIN}/`);
}

const HEADERS = {
  "content-security-policy": CONTENT_SECURITY_POLICY,
  "x-content-type-options": "nosniff",
  "cache-control": "no-cache",
};

function text(status: number, body: string): Response {
  return new Response(body, { status, headers: { ...HEADERS, "content-type": "text/plain; charset=utf-8" } });
}

export async function appProtocolResponse(rendererDir: string, requestUrl: string): Promise<Response> {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return text(400, "malformed URL");
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== "renderer") return text(404, "not found");
  const found = resolveStatic(rendererDir, url.pathname);
  if (found.kind === "bad") return text(400, found.reason);
  if (found.kind === "missing")
    return url.pathname === "/index.html"
      ? text(503, "The designer UI is not built: run npm run build:renderer")
      : text(404, `${url.pathname} not found`);
  return new Response(new Uint8Array(await readFile(found.file)), {
    status: 200,
    headers: { ...HEADERS, "content-type": found.contentType },
  });
}
