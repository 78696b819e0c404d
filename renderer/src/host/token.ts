// The browser-mode session token: arrives once in the URL fragment, then lives in sessionStorage so reloads keep working.
const KEY = "satpayload.token";

export interface TokenStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/**
 * Takes `token=…` out of the fragment (it must not linger in the address bar or history) and
 * returns the fragment that remains, plus the token to use.
 */
export function takeToken(hash: string, store: TokenStore): { token: string | null; rest: string } {
  const raw = hash.startsWith("#") ? hash.slice(1) : hash;
  const params = new URLSearchParams(raw.includes("token=") ? raw : "");
  const fromHash = params.get("token");
  if (fromHash) {
    store.setItem(KEY, fromHash);
    params.delete("token");
    const rest = params.toString();
    return { token: fromHash, rest: rest ? `#${rest}` : "" };
  }
  return { token: store.getItem(KEY), rest: hash };
}
